"""Writing a generated document, or checking that the committed one is current (the shared
`--check` of scripts/gen_cli_reference.py and scripts/gen_python_reference.py)."""
import difflib
import pathlib
import sys


def write_or_check(out: pathlib.Path, text: str, check: bool, regenerate: str) -> int:
    """With `check`: 0 if `out` holds `text`, else a diff on stdout, how to regenerate it
    (`regenerate`, a command) on stderr, and 1. Without: writes `out` and returns 0."""
    if check:
        old = out.read_text() if out.exists() else ""
        if old != text:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), str(out), "generated"))
            print(f"\n{out} is stale: run {regenerate}", file=sys.stderr)
            return 1
        return 0
    out.write_text(text)
    print(f"wrote {out}")
    return 0
