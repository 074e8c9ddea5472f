"""The version: `nardy --version`, nardy.__version__ and checkpoints' written_by agree with
pyproject.toml."""
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


def test_checkpoints_carry_the_version_that_wrote_them(tmp_path):
    net = nardy.ValueNet.create("raw", hidden=[4], seed=1)
    assert net.info["written_by"] == ""  # not read from a file
    path = tmp_path / "v.pt"
    net.save(str(path))
    back = nardy.ValueNet.load(str(path))
    assert re.fullmatch(rf"nardy {re.escape(nardy.__version__)} \(commit \w+\)", back.info["written_by"])
    # The info dict round-trips through save(); written_by is always this build's.
    back.save(str(path), info=dict(back.info, written_by="someone else"))
    assert nardy.ValueNet.load(str(path)).info["written_by"] == back.info["written_by"]
    # Files older than 0.2.0 have none.
    shipped = ROOT / "models" / "nardy-fit-5.pt"
    assert nardy.ValueNet.load(str(shipped)).info["written_by"] == ""
