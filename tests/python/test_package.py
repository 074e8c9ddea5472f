"""The nardy package as a whole: light import, lazy submodules, pip installation."""

import os
import pathlib
import subprocess
import sys

import pytest

import nardy

REPO = pathlib.Path(__file__).resolve().parents[2]


def run_python(code, path, cwd=None):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(map(str, path))})


def test_import_is_light_and_submodules_are_lazy():
    code = ("import sys, nardy; heavy = {'torch', 'numpy', 'matplotlib'}; "
            "assert not heavy & set(sys.modules), heavy & set(sys.modules); "
            "nardy.save_board; nardy.read_metrics; nardy.board_svg; "
            "assert not heavy & set(sys.modules); "
            "nardy.plots; assert not heavy & set(sys.modules), 'plots imports matplotlib per plot'; "
            "nardy.NardyEnv; assert 'numpy' in sys.modules and 'torch' not in sys.modules; "
            "nardy.torch_interop; assert 'torch' in sys.modules; print('ok')")
    out = run_python(code, sys.path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        nardy.nope


def test_public_python_api_has_docstrings():
    import nardy.board
    import nardy.env
    import nardy.plots
    import nardy.runs
    import nardy.torch_interop

    for mod in (nardy.board, nardy.env, nardy.plots, nardy.runs, nardy.torch_interop):
        assert mod.__doc__
        for name in mod.__all__:
            assert getattr(mod, name).__doc__, f"{mod.__name__}.{name}"


def test_pip_install_into_a_target_directory(tmp_path, build_dir):
    target = tmp_path / "site"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index", "--quiet",
         "--target", str(target), str(REPO)],
        capture_output=True, text=True, timeout=300, env={**os.environ, "NARDY_BUILD_DIR": str(build_dir)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    installed = sorted(p.name for p in (target / "nardy").iterdir() if p.name != "__pycache__")
    shipped = sorted(p.name for p in pathlib.Path(nardy.__file__).parent.iterdir() if p.name != "__pycache__")
    assert installed == shipped
    code = ("import nardy; print(nardy.__file__); "
            "print(nardy.arena('heuristic', 'random', games=4).games, nardy.encode(nardy.Position.start()).shape)")
    out = run_python(code, [target], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith(str(target)) and lines[1] == "4 (197,)"


def test_notebooks_are_stored_without_outputs():
    books = sorted((REPO / "notebooks").glob("*.ipynb"))
    assert len(books) >= 5
    import json

    for path in books:
        nb = json.loads(path.read_text())
        assert nb["metadata"]["kernelspec"]["name"] == "python3", path.name
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, f"{path.name}: strip the outputs"


def test_public_helpers_are_in_all_and_help():
    import pydoc

    import nardy

    text = pydoc.plain(pydoc.render_doc(nardy))
    for name in ("save_board", "read_metrics", "read_state", "list_checkpoints", "load_checkpoint", "Position"):
        assert name in nardy.__all__, name
        assert name + "(" in text or "class " + name in text, name
    assert all(hasattr(nardy, name) for name in nardy.__all__)
