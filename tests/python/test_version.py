"""The version: `nardy --version` and nardy.__version__ agree with pyproject.toml."""
import pathlib
import re

import nardy

ROOT = pathlib.Path(__file__).resolve().parents[2]


def project_version():
    return re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M).group(1)


def test_python_version_is_the_projects():
    assert nardy.__version__ == project_version()


def test_cli_version_names_commit_build_kernels_and_libtorch(nardy_cli):
    out = nardy_cli("--version").stdout
    first, kernels, torch = out.strip().splitlines()
    assert re.fullmatch(rf"nardy {re.escape(project_version())} \(commit \w+, \w[\w ]* build\)", first), first
    assert kernels.split(": ")[1] in ("scalar", "avx2", "avx512"), kernels
    assert re.fullmatch(r"LibTorch: \d+\.\d+\.\d+.*", torch), torch
