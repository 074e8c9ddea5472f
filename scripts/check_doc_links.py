#!/usr/bin/env python3
"""Checks the relative links of the documentation: every target file exists and every `#anchor`
names a heading of its page (GitHub's slugs).

    /usr/bin/python3 scripts/check_doc_links.py            # the documents below; exit 1 on a bad link
    /usr/bin/python3 scripts/check_doc_links.py FILE.md ...

Links inside code (fenced blocks and `spans`) are not links and are skipped, as are absolute
URLs (http:, https:, mailto:). A heading's anchor is GitHub's: the heading's text without
markup, lower-cased, with every character but letters, digits, spaces, '-' and '_' dropped and
spaces turned into '-'; a repeated heading gets '-1', '-2', ... tests/python/test_docs.py runs
this over DOCUMENTS.
"""

import pathlib
import re
import sys
import unicodedata

REPO = pathlib.Path(__file__).resolve().parents[1]

# The documents whose links are checked (globs relative to the repository root).
DOCUMENTS = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md", "docs/*.md", "configs/README.md",
             "models/README.md", "bindings/README.md", "bench/positions/README.md",
             "tests/fuzz/README.md")

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_LINK = re.compile(r"!?\[((?:[^\[\]\\]|\\.|\[[^\]]*\])*)\]\(\s*<?([^()\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_HTML_ID = re.compile(r"""<a\s+(?:name|id)=["']([^"']+)["']""")


def github_slug(heading):
    """The anchor GitHub gives a heading (without the duplicate suffix)."""
    text = re.sub(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)", r"\1", heading)  # links: text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "").replace("*", "")
    text = text.strip().lower()
    kept = "".join(ch for ch in text
                   if ch in " -_" or unicodedata.category(ch)[0] in ("L", "N", "M"))
    return kept.replace(" ", "-")


def _lines_outside_fences(text):
    """(line number, line) of every line outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        m = _FENCE.match(line)
        if fence is None:
            if m:
                fence = m.group(1)[0] * len(m.group(1))
                continue
            yield number, line
        elif m and m.group(1).startswith(fence):
            fence = None


def anchors(text):
    """Every anchor of a Markdown text: its headings' slugs (with GitHub's -1, -2 for repeats)
    and explicit <a name=...> / id= anchors."""
    found, seen = set(), {}
    for _, line in _lines_outside_fences(text):
        m = _HEADING.match(line)
        if m:
            slug = github_slug(m.group(2))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
        found.update(_HTML_ID.findall(line))
    return found


def links(text):
    """(line number, target) of every link in a Markdown text outside code."""
    for number, line in _lines_outside_fences(text):
        for m in _LINK.finditer(_CODE_SPAN.sub("", line)):
            yield number, m.group(2)


def check_file(path, repo=REPO):
    """Messages for every broken relative link of the Markdown file at `path`."""
    path = pathlib.Path(path)
    text = path.read_text(encoding="utf-8")
    problems = []
    cache = {}
    for number, target in links(text):
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # http:, https:, mailto:, ...
        file_part, _, anchor = target.partition("#")
        dest = path if not file_part else (path.parent / file_part)
        where = f"{_rel(path, repo)}:{number}: link '{target}'"
        if not dest.exists():
            problems.append(f"{where}: no file {_rel(dest, repo)}")
            continue
        if anchor:
            if dest.is_dir() or dest.suffix.lower() != ".md":
                problems.append(f"{where}: an anchor on {_rel(dest, repo)}, which is not a "
                                "Markdown page")
                continue
            key = dest.resolve()
            if key not in cache:
                cache[key] = anchors(dest.read_text(encoding="utf-8"))
            if anchor not in cache[key]:
                problems.append(f"{where}: {_rel(dest, repo)} has no heading with anchor "
                                f"'#{anchor}'")
    return problems


def _rel(p, repo):
    try:
        return str(pathlib.Path(p).resolve().relative_to(repo.resolve()))
    except ValueError:
        return str(p)


def documents(repo=REPO):
    files = []
    for pattern in DOCUMENTS:
        files.extend(sorted(repo.glob(pattern)))
    return files


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    files = [pathlib.Path(a) for a in argv] or documents()
    problems = [p for f in files for p in check_file(f)]
    print("\n".join(problems) if problems else f"{len(files)} files: every relative link resolves")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
