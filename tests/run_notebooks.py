#!/usr/bin/python3
"""Executes notebooks and fails on any error: the `make test-notebooks` check.

    NARDY_NOTEBOOK_BUDGET=small PYTHONPATH=build/python /usr/bin/python3 tests/run_notebooks.py notebooks/*.ipynb

Each notebook runs with `jupyter nbconvert --execute --to notebook` in a fresh temporary
directory (training runs, via NARDY_RUNS unless it is set, and any files they write land there)
on the `python3` kernel of /usr/bin/python3, with PYTHONPATH and NARDY_NOTEBOOK_BUDGET passed
through. The executed copies
go to a temporary output directory (or --output-dir); the notebooks in git stay without
outputs. Prints one line per notebook and a closing "N passed, M failed" line; the exit status
is 1 if any failed.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

KERNEL = "python3"  # /usr/share/jupyter/kernels/python3: argv[0] = /usr/bin/python3
PYTHON = "/usr/bin/python3"


def error_outputs(executed: pathlib.Path) -> list[str]:
    """Error messages recorded in an executed notebook (nbconvert stops at the first one)."""
    nb = json.loads(executed.read_text(encoding="utf-8"))
    errors = []
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                errors.append(f"{out.get('ename')}: {out.get('evalue')}")
    return errors


def run(notebook: pathlib.Path, out_dir: pathlib.Path, timeout_s: int, env: dict) -> tuple[bool, float, str]:
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"nb-{notebook.stem}-") as work:
        cmd = [PYTHON, "-m", "jupyter", "nbconvert", "--execute", "--to", "notebook",
               f"--ExecutePreprocessor.kernel_name={KERNEL}",
               f"--ExecutePreprocessor.timeout={timeout_s}",
               "--output-dir", str(out_dir), "--output", notebook.stem + ".executed",
               str(notebook.resolve())]
        proc = subprocess.run(cmd, cwd=work, env={"NARDY_RUNS": os.path.join(work, "runs"), **env},
                              capture_output=True, text=True)
    elapsed = time.monotonic() - start
    executed = out_dir / (notebook.stem + ".executed.ipynb")
    if proc.returncode != 0:
        detail = "\n".join(error_outputs(executed)) if executed.exists() else ""
        tail = "\n".join(proc.stderr.strip().splitlines()[-25:])
        return False, elapsed, detail or tail
    errors = error_outputs(executed)
    return not errors, elapsed, "\n".join(errors)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("notebooks", nargs="+", type=pathlib.Path)
    ap.add_argument("--output-dir", type=pathlib.Path, help="keep the executed notebooks here")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per cell (default 900)")
    args = ap.parse_args()

    env = dict(os.environ)
    env.setdefault("NARDY_NOTEBOOK_BUDGET", "small")
    env.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    # Absolute PYTHONPATH entries: the kernels run in temporary directories.
    env["PYTHONPATH"] = os.pathsep.join(str(pathlib.Path(p).resolve()) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p)

    tmp_out = None
    out_dir = args.output_dir
    if out_dir is None:
        tmp_out = tempfile.TemporaryDirectory(prefix="nardy-notebooks-")
        out_dir = pathlib.Path(tmp_out.name)
    out_dir.mkdir(parents=True, exist_ok=True)

    passed = failed = 0
    total_start = time.monotonic()
    for nb in args.notebooks:
        if not nb.exists():
            print(f"FAILED {nb}: no such file")
            failed += 1
            continue
        ok, secs, detail = run(nb, out_dir.resolve(), args.timeout, env)
        if ok:
            passed += 1
            print(f"PASSED {nb} ({secs:.1f} s)", flush=True)
        else:
            failed += 1
            print(f"FAILED {nb} ({secs:.1f} s)\n{detail}", flush=True)
    print(f"{passed} passed, {failed} failed in {time.monotonic() - total_start:.1f} s "
          f"(budget {env['NARDY_NOTEBOOK_BUDGET']})")
    if tmp_out is not None:
        tmp_out.cleanup()
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
