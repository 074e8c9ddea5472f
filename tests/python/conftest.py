"""Locates the build whose `nardy` package and `nardy` CLI the Python tests use.

The build directory is, in order:
  1. $NARDY_BUILD_DIR (absolute, or relative to the repository root), whose python/ is put first
     on sys.path so the package and the CLI come from the same build;
  2. the build that the importable `nardy` package lives in (<build>/python/nardy), e.g. when
     run as `PYTHONPATH=build-me/python /usr/bin/python3 -m pytest tests/python`;
  3. <repo>/build, whose python/ is added to sys.path when `nardy` is not importable yet.
"""

import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def _locate_build_dir() -> pathlib.Path:
    env = os.environ.get("NARDY_BUILD_DIR")
    if env:
        build = pathlib.Path(env)
        if not build.is_absolute():
            build = REPO / build
        sys.path.insert(0, str(build / "python"))
        return build.resolve()
    spec = importlib.util.find_spec("nardy")
    if spec is not None and spec.origin is not None:
        package_dir = pathlib.Path(spec.origin).resolve().parent  # <build>/python/nardy
        candidate = package_dir.parent.parent
        if package_dir.parent.name == "python" and (candidate / "CMakeCache.txt").exists():
            return candidate
    build = REPO / "build"
    if spec is None:
        sys.path.insert(0, str(build / "python"))
    return build


BUILD_DIR = _locate_build_dir()


@pytest.fixture(scope="session")
def build_dir() -> pathlib.Path:
    return BUILD_DIR


@pytest.fixture(scope="session")
def nardy_cli(build_dir):
    """Runs the `nardy` tool of the same build: nardy_cli(*args) -> CompletedProcess (text)."""
    exe = build_dir / "nardy"
    if not exe.exists():
        pytest.skip(f"the nardy CLI is not built at {exe} (set NARDY_BUILD_DIR)")

    def run(*args, check=True):
        proc = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, timeout=120)
        if check and proc.returncode != 0:
            raise AssertionError(f"nardy {' '.join(map(str, args))} exited {proc.returncode}: {proc.stderr}")
        return proc

    return run


# ---- trained nets for the nn / agent / arena / train tests -------------------------------------

SMALL_RUN_CONFIG = {
    "run": {"name": "small", "seed": 3},
    "net": {"hidden": [16]},
    "train": {"games": 300, "checkpoint_every": 100, "eval_every": 150},
    "eval": {"opponents": ["random", "heuristic"], "games": 20},
    "log": {"metrics_every": 50, "progress": False},
}


@pytest.fixture(scope="session")
def small_run(tmp_path_factory):
    """A finished 300-game training run (hidden [16], ~1 s): its nardy.TrainResult."""
    import nardy

    root = tmp_path_factory.mktemp("runs")
    return nardy.train(SMALL_RUN_CONFIG, overrides={"run.dir": str(root)})


@pytest.fixture(scope="session")
def checkpoint(small_run) -> pathlib.Path:
    """The latest checkpoint of small_run."""
    return pathlib.Path(small_run.checkpoint)
