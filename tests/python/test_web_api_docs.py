"""docs/web-api.md is what `nardy serve` answers: every example of the page is run against a live
server, as a reader would paste it, and its answer compared with the page's.

How the page is read (docs/web-api.md, "## The JSON API" onwards):

- A ```sh block that sends requests (`curl ... http://127.0.0.1:8080/...`) is run by bash in one
  scratch folder shared by the whole page, in the page's order (so `m0.txt`, `m1.txt`, ... that
  one block writes are there for the next), with the port of a server this test started. A
  block with a `# nardy serve ARGS` comment is sent to a server started with those ARGS (e.g.
  `--agent heuristic`); the others to plain `nardy serve`.
- The answer of a block is the fenced block right after it: ```json (the JSON it prints) or
  ```svg (the file its `curl -o FILE` writes). A block of `$ COMMAND` lines is a transcript:
  each command's output is the lines under it, compared exactly.
- Every endpoint the server lists in `/api/info` must have a `### GET /api/NAME` or
  `### POST /api/NAME` section with at least one request and its answer.

How an answer is compared (compare_answer): the same JSON types everywhere (object, list,
string, number, boolean, null; an integer is not a float) and

- objects: the same keys; a line `…` in a page's object means "other keys left out", so only
  the keys shown are required (and compared);
- lists: the same length and items; a last item `…` means "more items left out", so the items
  shown must be the first ones;
- strings: equal; in a string, `…` stands for any text (a long record shown by its first and
  last lines), and the string "…" alone for any string (what varies from build to build, e.g.
  a version);
- numbers: an integer equal; a float equal to the precision the page shows (0.2751: within
  0.0001), so that rounding and the last bits of a machine's floating point do not matter, but
  another model's or a changed algorithm's values do.

The agent's values are deterministic (seeded; the shipped model), so they are compared: when the
default model or an algorithm changes, the page's examples must be regenerated with it. SVG
answers compare their lines before and after a `…` line.
"""

import json
import pathlib
import re
import shutil
import subprocess
import threading

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "web-api.md"
DOC_URL = "http://127.0.0.1:8080"
ELLIPSIS = "…"

_FENCE = re.compile(r"^(`{3,})(\w*)\s*$")


# ---- reading the page ----------------------------------------------------------------------

def fenced_blocks(text):
    """(heading, language, content, line) of every fenced block, with the ### (or ##) heading
    it is under."""
    blocks, heading, fence, lang, body, start = [], "", None, "", [], 0
    for number, line in enumerate(text.splitlines(), 1):
        if fence is None:
            if line.startswith("#"):
                heading = line.lstrip("#").strip()
            m = _FENCE.match(line)
            if m:
                fence, lang, body, start = m.group(1), m.group(2), [], number
        elif line.strip() == fence:
            blocks.append((heading, lang, "\n".join(body), start))
            fence = None
        else:
            body.append(line)
    return blocks


def examples(text):
    """Every request of the page: dicts with heading, line, script (a sh block that sends
    requests), serve (the server's extra arguments), and answer (language, content) or None;
    a transcript's requests come one by one with their output as a "text" answer."""
    blocks = fenced_blocks(text)
    found = []
    for i, (heading, lang, content, line) in enumerate(blocks):
        if lang != "sh" or not re.search(r"\bcurl\b.*" + re.escape(DOC_URL), content):
            continue
        serve = re.search(r"#\s*nardy serve\b(.*)$", content, re.M)
        serve = serve.group(1).split() if serve else []
        if content.lstrip().startswith("$ "):
            transcript = []  # [command, output lines]
            for row in content.splitlines():
                if row.startswith("$ "):
                    transcript.append([row[2:], []])
                else:
                    transcript[-1][1].append(row)
            for command, output in transcript:
                found.append({"heading": heading, "line": line, "script": command, "serve": serve,
                              "answer": ("text", "\n".join(output))})
            continue
        after = blocks[i + 1] if i + 1 < len(blocks) else None
        answer = (after[1], after[2]) if after and after[1] in ("json", "svg") else None
        found.append({"heading": heading, "line": line, "script": content, "serve": serve,
                      "answer": answer, "answer_line": after[3] if answer else None})
    return found


def documented_endpoints(text):
    """NAME of every `### GET /api/NAME` or `### POST /api/NAME` heading."""
    return {m.group(1) for m in re.finditer(r"^### (?:GET|POST) /api/(\S+)\s*$", text, re.M)}


def requested_endpoints(example):
    """The endpoints (NAME of /api/NAME) an example's script sends requests to."""
    return set(re.findall(re.escape(DOC_URL) + r"/api/([a-z_/]+)", example["script"]))


def parse_answer(text):
    """A page's JSON answer as a Python value: a line `…` becomes the key "…" in an object and
    the item "…" in a list."""
    lines, depth = [], []
    for line in text.splitlines():
        if line.strip().rstrip(",") == ELLIPSIS:
            indent = line[:len(line) - len(line.lstrip())]
            lines.append(indent + ('"…": null' if depth and depth[-1] == "{" else '"…"'))
        else:
            lines.append(line)
        in_string = escaped = False
        for ch in line:
            if in_string:
                in_string = not (ch == '"' and not escaped)
                escaped = ch == "\\" and not escaped
            elif ch == '"':
                in_string = True
            elif ch in "{[":
                depth.append(ch)
            elif ch in "}]":
                depth.pop()
    return json.loads("\n".join(lines))


# ---- comparing answers ---------------------------------------------------------------------

def _kind(value):
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "float", str: "string", list: "list", dict: "object",
            type(None): "null"}[type(value)]


def _decimals(x):
    text = repr(x)
    if "e" in text or "E" in text:
        return None
    return len(text.split(".")[1]) if "." in text else 0


def compare_answer(documented, live, path="answer"):
    """The differences between a page's answer and a live one (module docstring), as messages
    naming the key path; [] when they agree."""
    if isinstance(documented, str) and ELLIPSIS in documented:
        if not isinstance(live, str):
            return [f"{path}: the page has a string, the server {_kind(live)} {live!r}"]
        pattern = ".*".join(re.escape(p) for p in documented.split(ELLIPSIS))
        if not re.fullmatch(pattern, live, re.S):
            return [f"{path}: {live!r} does not match the page's {documented!r}"]
        return []
    if _kind(documented) != _kind(live):
        return [f"{path}: the page has {_kind(documented)} {documented!r}, the server "
                f"{_kind(live)} {live!r}"]
    if isinstance(documented, dict):
        problems = []
        shown = [k for k in documented if k != ELLIPSIS]
        missing = [k for k in shown if k not in live]
        if missing:
            problems.append(f"{path}: keys the server does not send: {missing}")
        if ELLIPSIS not in documented:
            extra = sorted(set(live) - set(documented))
            if extra:
                problems.append(f"{path}: keys the page does not show: {extra}")
        for k in shown:
            if k in live:
                problems += compare_answer(documented[k], live[k], f"{path}.{k}")
        return problems
    if isinstance(documented, list):
        shown = documented[:-1] if documented and documented[-1] == ELLIPSIS else documented
        if len(shown) < len(documented):
            if len(live) < len(shown):
                return [f"{path}: the page shows {len(shown)} items and more, the server has "
                        f"{len(live)}"]
        elif len(live) != len(documented):
            return [f"{path}: the page has {len(documented)} items, the server {len(live)}: "
                    f"{live!r}"[:400]]
        problems = []
        for i, item in enumerate(shown):
            problems += compare_answer(item, live[i], f"{path}[{i}]")
        return problems
    if isinstance(documented, float):
        places = _decimals(documented)
        tolerance = 10.0 ** -places if places is not None else abs(documented) * 1e-4
        if abs(live - documented) > tolerance * 1.0001:
            return [f"{path}: the page has {documented!r}, the server {live!r}"]
        return []
    if documented != live:
        return [f"{path}: the page has {documented!r}, the server {live!r}"]
    return []


def compare_text(documented, live):
    """A text answer (SVG): the page's lines before its first `…` line must begin the live one,
    those after its last `…` line end it; without `…`, equal."""
    doc, got = documented.splitlines(), live.splitlines()
    if ELLIPSIS not in [line.strip() for line in doc]:
        return [] if doc == got else [f"the page has\n{documented}\nthe server\n{live}"]
    cut = [i for i, line in enumerate(doc) if line.strip() == ELLIPSIS]
    head, tail = doc[:cut[0]], doc[cut[-1] + 1:]
    if got[:len(head)] != head or (tail and got[-len(tail):] != tail):
        return [f"the page's first lines {head} and last lines {tail} are not the answer's: "
                f"{got[:len(head)]} ... {got[-len(tail):] if tail else []}"]
    return []


# ---- the checker's own tests (no build needed) ---------------------------------------------

def test_page_answers_parse_with_their_ellipses():
    assert parse_answer('{\n  "a": [1, 2],\n  "b": {\n    "id": "x",\n    …\n  },\n'
                        '  "c": [\n    {"n": 1},\n    …\n  ]\n}') == \
        {"a": [1, 2], "b": {"id": "x", ELLIPSIS: None}, "c": [{"n": 1}, ELLIPSIS]}
    for _, lang, content, line in fenced_blocks(PAGE.read_text()):
        if lang == "json":
            parse_answer(content)  # every answer of the page is JSON with ellipses


def test_comparison_flags_types_keys_and_values():
    doc = parse_answer('{"rules": {"last_roll_draw": "false", "opening": "no_doubles"}, '
                       '"start": {"id": "x", "…": null}, "n": [1, 2, "…"], "equity": 0.2751, '
                       '"record": "nardy-match 1\\n…\\n6-5 24/13\\n", "version": "…"}')
    live = {"rules": {"last_roll_draw": False, "opening": "no_doubles"},
            "start": {"id": "x", "pos": "p"}, "n": [1, 2, 3], "equity": 0.27514,
            "record": "nardy-match 1\ntarget 2\n6-5 24/13\n", "version": "0.2.0"}
    problems = compare_answer(doc, live)
    assert problems == ["answer.rules.last_roll_draw: the page has string 'false', the server "
                        "boolean False"]
    doc["rules"]["last_roll_draw"] = False
    assert compare_answer(doc, live) == []
    assert compare_answer(doc, {**live, "extra": 1}) == \
        ["answer: keys the page does not show: ['extra']"]
    assert "keys the server does not send: ['pos']" in \
        compare_answer({**doc, "start": {"id": "x", "pos": "p"}}, {**live, "start": {"id": "x"}})[0]
    assert compare_answer(doc, {**live, "equity": 0.2753})  # beyond the page's precision
    assert compare_answer(doc, {**live, "n": [1]})  # fewer items than shown
    assert compare_answer({"n": [1, 2]}, {"n": [1, 2, 3]})  # a list shown whole
    assert compare_answer({"n": 1}, {"n": 1.0})  # an integer is not a float
    assert compare_answer(doc, {**live, "record": "nardy-match 1\n6-5 24/14\n"})
    assert compare_answer(doc, {**live, "version": 2})
    assert compare_text("<svg a>\n…\n</svg>", "<svg a>\n<g/>\n</svg>") == []
    assert compare_text("<svg a>\n…\n</svg>", "<svg b>\n<g/>\n</svg>")


def test_page_examples_are_found_and_every_section_has_an_answer():
    text = PAGE.read_text()
    found = examples(text)
    endpoints = set().union(*(requested_endpoints(e) for e in found))
    assert {"info", "legal", "match/agent", "review"} <= endpoints
    for e in found:
        assert e["answer"] is not None or ">" in e["script"], (
            f"docs/web-api.md:{e['line']}: a request without an answer block or a file it writes")
    # an endpoint without a section is found missing
    cut = re.sub(r"^### POST /api/review$", "### POST /api/reviews", text, flags=re.M)
    assert "review" not in documented_endpoints(cut) and "review" in documented_endpoints(text)


# ---- the live server -----------------------------------------------------------------------

class Server:
    """`nardy serve --port 0 ARGS` of the build, on a free port, stopped at the end."""

    def __init__(self, exe, args):
        self.proc = subprocess.Popen([str(exe), "serve", "--port", "0", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = []
        reader = threading.Thread(target=lambda: line.append(self.proc.stdout.readline()))
        reader.start()
        reader.join(60)
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line[0] if line else "")
        if not m:
            self.stop()
            raise AssertionError(f"nardy serve {' '.join(args)} did not start: {line} "
                                 f"{self.proc.stderr.read()}")
        self.url = f"http://127.0.0.1:{m.group(1)}"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="module")
def servers(build_dir):
    exe = build_dir / "nardy"
    if not exe.exists():
        pytest.skip(f"the nardy CLI is not built at {exe} (set NARDY_BUILD_DIR): no server to "
                    "check docs/web-api.md against")
    for tool in ("bash", "curl", "jq"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed: the page's examples use it")
    started = {}

    def get(args):
        key = tuple(args)
        if key not in started:
            started[key] = Server(exe, args)
        return started[key]

    yield get
    for server in started.values():
        server.stop()


def _run(script, url, cwd):
    proc = subprocess.run(["bash", "-eo", "pipefail", "-c", script.replace(DOC_URL, url)],
                          cwd=cwd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"exited {proc.returncode}: {proc.stderr}\n{script}"
    return proc.stdout


def test_every_endpoint_has_a_section_with_an_example(servers):
    text = PAGE.read_text()
    info = json.loads(subprocess.run(["curl", "-s", servers([]).url + "/api/info"],
                                     capture_output=True, text=True, check=True).stdout)
    listed = set(info["endpoints"])
    missing = sorted(listed - documented_endpoints(text))
    assert not missing, f"docs/web-api.md has no ### GET/POST /api/NAME section for {missing}"
    answered = set()
    for e in examples(text):
        if e["answer"] is not None:
            answered |= requested_endpoints(e)
    assert not sorted(listed - answered), \
        f"docs/web-api.md: no request with an answer for {sorted(listed - answered)}"
    unknown = sorted(documented_endpoints(text) - listed)
    assert not unknown, f"docs/web-api.md documents endpoints the server does not list: {unknown}"


def test_every_example_answers_as_the_page_says(servers, tmp_path):
    problems = []
    for e in examples(PAGE.read_text()):
        where = f"docs/web-api.md:{e['line']} ({e['heading']})"
        try:
            out = _run(e["script"], servers(e["serve"]).url, tmp_path)
        except AssertionError as error:
            problems.append(f"{where}: {error}")
            continue
        if e["answer"] is None:
            continue
        lang, documented = e["answer"]
        if lang == "json":
            try:
                live = json.loads(out)
            except json.JSONDecodeError:
                problems.append(f"{where}: the answer is not JSON: {out[:300]!r}")
                continue
            found = compare_answer(parse_answer(documented), live)
        elif lang == "svg":
            written = re.search(r"-o\s+(\S+)", e["script"])
            assert written, f"{where}: an svg answer needs `curl -o FILE`"
            found = compare_text(documented, (tmp_path / written.group(1)).read_text())
        else:
            found = [] if out.rstrip("\n") == documented else \
                [f"the page has {documented!r}, the server {out.rstrip(chr(10))!r}"]
        problems += [f"{where}: {p}" for p in found]
    assert not problems, "docs/web-api.md differs from `nardy serve`:\n" + "\n".join(problems)


# ---- regenerating the page's answers -------------------------------------------------------
#
#     PYTHONPATH=build/python /usr/bin/python3 tests/python/test_web_api_docs.py [BUILD_DIR]
#
# runs the page's examples against the build's `nardy serve` and rewrites each JSON answer with
# the live values, keeping what the page shows (its keys, its `…`, its strings with `…`) and
# rounding floats to 4 significant digits; keys the server added appear, keys it dropped go.
# Review the diff: a changed value says the model or an algorithm changed.

def _refresh(documented, live):
    if isinstance(documented, str) and ELLIPSIS in documented and isinstance(live, str):
        return documented
    if isinstance(documented, dict) and isinstance(live, dict):
        merged = {k: _refresh(v, live[k]) for k, v in documented.items()
                  if k != ELLIPSIS and k in live}
        if ELLIPSIS in documented:
            merged[ELLIPSIS] = None
        else:
            merged.update({k: live[k] for k in sorted(live) if k not in merged})
        return merged
    if isinstance(documented, list) and isinstance(live, list):
        if documented and documented[-1] == ELLIPSIS:
            shown = documented[:-1]
            return [_refresh(d, v) for d, v in zip(shown, live)] + [ELLIPSIS]
        if len(documented) == len(live):
            return [_refresh(d, v) for d, v in zip(documented, live)]
    return live


def _number(x):
    if x == 0:
        return "0.0"
    import math
    decimals = max(1, 3 - math.floor(math.log10(abs(x))))
    text = f"{x:.{decimals}f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def render_answer(value, indent=""):
    """A value in the page's style: 2-space indents, lists of numbers on one line, `…` bare."""
    inner = indent + "  "
    if isinstance(value, dict):
        if not value:
            return "{}"
        rows = [inner + ELLIPSIS if k == ELLIPSIS else
                f"{inner}{json.dumps(k, ensure_ascii=False)}: {render_answer(v, inner)}"
                for k, v in value.items()]
        return "{\n" + ",\n".join(rows).replace(f"{ELLIPSIS},", ELLIPSIS) + f"\n{indent}}}"
    if isinstance(value, list):
        if not value:
            return "[]"
        if all(_kind(v) in ("integer", "float") for v in value):
            return "[" + ", ".join(render_answer(v) for v in value) + "]"
        rows = [inner + (ELLIPSIS if v == ELLIPSIS else render_answer(v, inner)) for v in value]
        return "[\n" + ",\n".join(rows) + f"\n{indent}]"
    if isinstance(value, float):
        return _number(value)
    return json.dumps(value, ensure_ascii=False)


def regenerate(build_dir):
    import tempfile

    text = PAGE.read_text()
    lines = text.splitlines()
    started = {}
    replacements = []  # (first line, last line, new block lines) of answers, 1-based, inclusive
    with tempfile.TemporaryDirectory() as scratch:
        try:
            for e in examples(text):
                key = tuple(e["serve"])
                if key not in started:
                    started[key] = Server(build_dir / "nardy", e["serve"])
                out = _run(e["script"], started[key].url, scratch)
                if e["answer"] is None or e["answer"][0] != "json":
                    continue
                documented = parse_answer(e["answer"][1])
                merged = _refresh(documented, json.loads(out))
                first = e["answer_line"] + 1
                count = len(e["answer"][1].splitlines())
                block = render_answer(merged) if count > 1 else \
                    json.dumps(merged, ensure_ascii=False, separators=(",", ":"))  # as `jq -c`
                replacements.append((first, first + count - 1, block.splitlines()))
        finally:
            for server in started.values():
                server.stop()
    for first, last, new in sorted(replacements, reverse=True):
        lines[first - 1:last] = new
    PAGE.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    import sys

    regenerate(pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "build")
