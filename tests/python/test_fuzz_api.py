"""Property test of the Python API: random calls with junk arguments never crash.

tests/python/api_fuzz_calls.py makes the calls (fixed seed, bounded time) in a subprocess, so a
crash of the interpreter is caught here and reported with the call that caused it. Every call
must return or raise NardyError, TypeError or ValueError (or pass on the exception a junk
callback raised).
"""

import os
import pathlib
import subprocess
import sys

import pytest

import nardy

HERE = pathlib.Path(__file__).resolve().parent
SECONDS = float(os.environ.get("NARDY_API_FUZZ_SECONDS", "20"))


def run_calls(tmp_path, *args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(pathlib.Path(nardy.__file__).resolve().parents[1]), env.get("PYTHONPATH", "")])
    # The working directory is a fresh temporary one: calls that write files (ValueNet.save,
    # board pictures) write there.
    proc = subprocess.run([sys.executable, str(HERE / "api_fuzz_calls.py"), *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=SECONDS * 4 + 120)
    lines = proc.stdout.splitlines()
    calls = [line for line in lines if line.startswith("CALL ")]
    unexpected = [line for line in lines if line.startswith("UNEXPECTED ")]
    return proc, calls, unexpected


def describe(proc, calls, unexpected):
    if proc.returncode < 0:
        last = calls[-1][5:] if calls else "(before the first call)"
        return (f"the interpreter died (signal {-proc.returncode}) in {last}\n"
                f"stderr: {proc.stderr[-2000:]}")
    return "\n".join(unexpected[:20]) + f"\nstderr: {proc.stderr[-2000:]}"


def test_junk_calls_raise_only_documented_errors(tmp_path):
    proc, calls, unexpected = run_calls(tmp_path, "--seed", "1", "--seconds", str(SECONDS))
    assert proc.returncode == 0, describe(proc, calls, unexpected)
    assert "DONE" in proc.stdout
    # The run reaches the whole API, not a few functions: thousands of calls over many targets.
    assert len(calls) > 1000
    assert len({c.split("(")[0] for c in calls}) > 100


def test_methods_refuse_none_as_self(tmp_path):
    # Found by the run above: methods bound without argument names took None as self and
    # called C++ on a null pointer (bindings/method_self.h).
    for method in (nardy.Position.pips, nardy.RolloutResult.to_json, nardy.Analysis.to_text):
        with pytest.raises(TypeError):
            method(None, "w") if method is nardy.Position.pips else method(None)


def test_wrong_argument_types_are_type_errors():
    # Found by the run above: pybind11 cast errors inside bindings were RuntimeError.
    with pytest.raises(TypeError, match="Unable to cast"):
        nardy.board_svg(nardy.Position.start(), {1: None})


def test_agents_returning_bools_or_huge_ints(tmp_path):
    proc, calls, unexpected = run_calls(tmp_path, "--seed", "1", "--seconds", "2", "--only-known")
    assert proc.returncode == 0, describe(proc, calls, unexpected)
