"""pip glue: packages the CMake-built `nardy` (see pyproject.toml for how to install).

The package is taken from $NARDY_BUILD_DIR/python/nardy (default: build/python/nardy next to
this file), as `make build` / `cmake --build` leaves it: the compiled _nardy module plus the
.py/.pyi files of bindings/python/nardy. setuptools' own scratch goes to <build>/pip so the
source tree stays clean.
"""

import os
import pathlib
import shutil

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.dist import Distribution

ROOT = pathlib.Path(__file__).resolve().parent
BUILD = pathlib.Path(os.environ.get("NARDY_BUILD_DIR", "build"))
BUILD = BUILD if BUILD.is_absolute() else ROOT / BUILD


def prebuilt_package() -> pathlib.Path:
    pkg = BUILD / "python" / "nardy"
    if not any(pkg.glob("_nardy*.so")):
        raise SystemExit(f"nardy: no compiled module in {pkg}: run `make build` first "
                         "(or set NARDY_BUILD_DIR to your CMake build directory)")
    return pkg


class BuildPrebuilt(build_ext):
    """Copies the prebuilt package (compiled module included) instead of compiling anything."""

    def run(self):
        src = prebuilt_package()
        dst = pathlib.Path(self.build_lib) / "nardy"
        if dst.exists():
            shutil.rmtree(dst)
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


class BinaryDistribution(Distribution):
    """The wheel holds a compiled module: tag it for this interpreter and platform."""

    def has_ext_modules(self):
        return True


(BUILD / "pip").mkdir(parents=True, exist_ok=True)
setup(
    cmdclass={"build_ext": BuildPrebuilt},
    distclass=BinaryDistribution,
    options={
        "build": {"build_base": str(BUILD / "pip")},
        "egg_info": {"egg_base": str(BUILD / "pip")},
        "bdist_wheel": {"bdist_dir": str(BUILD / "pip" / "bdist")},
    },
)
