"""The documentation cannot drift: the generated references equal what their scripts write now,
and every relative link and #anchor of the documents resolves.

- docs/cli.md is scripts/gen_cli_reference.py's output for the `nardy` of this build (the full
  build: the torch-free tool has fewer commands, so the test skips there);
- docs/python-api.md is scripts/gen_python_reference.py's output for the imported `nardy`;
- scripts/check_doc_links.py finds no broken link in README.md, CONTRIBUTING.md, docs/*.md and
  the folders' READMEs;
- every page that calls a model "the default" (or "the shipped model", the agent `default`,
  `nardy.load_model()`, `nardy.DEFAULT_MODEL`) names kDefaultModel, unless it says the model was
  the default then (default_claims below);
- in models/README.md, no command of an older model's own section uses the agent `default`,
  which measures today's default instead.

docs/web-api.md's examples are checked against a live server by test_web_api_docs.py.

When a test fails, run the script its message names and commit the result.
"""

import difflib
import importlib.util
import json
import pathlib
import re

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def _script(name):
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


links = _script("check_doc_links")


def _diff(committed, generated, name, limit=60):
    lines = list(difflib.unified_diff(committed.splitlines(True), generated.splitlines(True),
                                      f"committed {name}", "generated"))
    shown = "".join(lines[:limit])
    more = f"\n... {len(lines) - limit} more diff lines" if len(lines) > limit else ""
    return shown + more


# ---- generated references -----------------------------------------------------------------

def test_cli_reference_is_what_the_tool_prints(build_dir):
    exe = build_dir / "nardy"
    if not exe.exists():
        pytest.skip(f"the nardy CLI is not built at {exe} (set NARDY_BUILD_DIR)")
    if not (build_dir / "nardy-full").exists():
        pytest.skip("a torch-free build: its nardy has fewer commands than docs/cli.md documents")
    gen = _script("gen_cli_reference")
    generated = gen.generate(exe)
    committed = (REPO / "docs" / "cli.md").read_text()
    assert committed == generated, (
        "docs/cli.md differs from the tool's --help; run "
        "`/usr/bin/python3 scripts/gen_cli_reference.py` (with --nardy for another build):\n"
        + _diff(committed, generated, "docs/cli.md"))


def test_cli_reference_documents_every_command(build_dir):
    exe = build_dir / "nardy"
    if not (build_dir / "nardy-full").exists():
        pytest.skip("needs the full build")
    gen = _script("gen_cli_reference")
    listed = [name for name, _ in gen.subcommands(gen.run_help(exe, []))]
    assert {"train", "eval", "serve", "play", "analyze", "benchmark"} <= set(listed)
    bench = [name for name, _ in gen.subcommands(gen.run_help(exe, ["bench"]))]
    assert {"train", "search", "kernels"} <= set(bench)
    text = (REPO / "docs" / "cli.md").read_text()
    for name in listed:
        assert f"\n## nardy {name}\n" in text, f"docs/cli.md has no section for `nardy {name}`"
    assert "\n## nardy bench train\n" in text and "\n## nardy benchmark build\n" in text


def test_cli_subcommand_parser_reads_clis_help_layout():
    gen = _script("gen_cli_reference")
    help_text = ("nardy: tools\nUsage: nardy [OPTIONS] SUBCOMMAND\n\nOptions:\n"
                 "  -h,--help                   Print this help message and exit\n\n"
                 "Subcommands:\n"
                 "  legal                       List every legal result\n"
                 "  bench                       Measure speed\n"
                 "                              (two lines)\n"
                 "  x\n\n")
    assert gen.subcommands(help_text) == [("legal", "List every legal result"),
                                          ("bench", "Measure speed (two lines)"), ("x", "")]
    assert gen.subcommands("Usage: nardy legal [OPTIONS] POS D1 D2\n") == []


def test_python_reference_is_what_the_docstrings_say():
    import nardy

    if not hasattr(nardy, "ValueNet"):
        pytest.skip("a nardy package built without nardy_nn")
    try:
        import torch  # noqa: F401 — nardy.torch_interop is documented too
    except ImportError:
        pytest.skip("torch is not importable: nardy.torch_interop cannot be documented")
    gen = _script("gen_python_reference")
    generated, _ = gen.generate(nardy)
    committed = (REPO / "docs" / "python-api.md").read_text()
    assert committed == generated, (
        "docs/python-api.md differs from the module's docstrings; run "
        "`PYTHONPATH=build/python /usr/bin/python3 scripts/gen_python_reference.py`:\n"
        + _diff(committed, generated, "docs/python-api.md"))


def test_python_reference_covers_every_public_name():
    import nardy

    text = (REPO / "docs" / "python-api.md").read_text()
    for name in nardy.__all__:
        assert f"`nardy.{name}`" in text, f"docs/python-api.md does not document nardy.{name}"


def test_python_reference_splits_pybind_signatures():
    gen = _script("gen_python_reference")
    sigs, text = gen.split_pybind_doc("f", "f(x: int) -> int\n\nDoubles x.\n")
    assert sigs == ["f(x: int) -> int"] and text == "Doubles x."
    sigs, text = gen.split_pybind_doc(
        "g", "g(*args, **kwargs)\nOverloaded function.\n\n1. g(x: int) -> int\n\nOne.\n\n"
             "2. g(x: str) -> int\n\nOne.\n")
    assert sigs == ["g(x: int) -> int", "g(x: str) -> int"] and text == "One."
    assert gen.clean("f(a: Rules = <nardy._nardy.Rules object at 0x7f3a2c>)") == \
        "f(a: Rules = <nardy._nardy.Rules object>)"


# ---- links ---------------------------------------------------------------------------------

def test_slugs_are_githubs():
    assert links.github_slug("Supervised fitting: `nardy label` and `nardy fit`") == \
        "supervised-fitting-nardy-label-and-nardy-fit"
    assert links.github_slug("A position's trip from `nardy train` to the kernels and back") == \
        "a-positions-trip-from-nardy-train-to-the-kernels-and-back"
    assert links.github_slug("Luck heads: luck adjustment at 1.65x the cost of a plain 0-ply "
                             "trial") == "luck-heads-luck-adjustment-at-165x-the-cost-of-a-plain-0-ply-trial"
    assert links.github_slug("TD targets from search (`td.target`)") == \
        "td-targets-from-search-tdtarget"
    assert links.github_slug("`run.merge_every` → staleness") == "runmerge_every--staleness"
    assert links.github_slug("Long Nardy — the rules nardy implements") == \
        "long-nardy--the-rules-nardy-implements"
    assert links.anchors("# A\n## A\n```\n# not a heading\n```\n## B **bold**\n") == \
        {"a", "a-1", "b-bold"}


def test_link_checker_finds_broken_links(tmp_path):
    (tmp_path / "other.md").write_text("# Other page\n\n## Section two\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n"
        "[ok](other.md) [ok](other.md#section-two) [ok](#page) [web](https://example.com/x)\n"
        "[missing file](nope.md) [missing anchor](other.md#section-three)\n"
        "`[not a link](nope.md)`\n"
        "```\n[not a link either](nope.md)\n```\n"
        "[bad local anchor](#nowhere)\n")
    problems = links.check_file(page, repo=tmp_path)
    assert len(problems) == 3, problems
    assert "page.md:4: link 'nope.md': no file nope.md" in problems[0]
    assert "no heading with anchor '#section-three'" in problems[1]
    assert "'#nowhere'" in problems[2]


@pytest.mark.parametrize("document", [str(p.relative_to(REPO)) for p in links.documents()])
def test_every_relative_link_resolves(document):
    problems = links.check_file(REPO / document)
    assert not problems, "\n".join(problems)


def test_the_documents_exist_and_readme_stays_short():
    docs = {str(p.relative_to(REPO)) for p in links.documents()}
    for required in ("README.md", "CONTRIBUTING.md", "docs/cli.md", "docs/python-api.md",
                     "docs/rules.md", "configs/README.md", "models/README.md"):
        assert required in docs
    readme = (REPO / "README.md").read_text().splitlines()
    assert len(readme) <= 160, f"README.md has {len(readme)} lines: move detail into docs/"


# ---- the default model the pages name ------------------------------------------------------
#
# A page that says a model is "the default" ("the default model", "the shipped model", the agent
# spec `default`, `nardy.load_model()`, `nardy.DEFAULT_MODEL`) must name kDefaultModel; history
# ("the default then", "the default until nardy-fit-8", "the default before") may name any.

# The pages that describe the tool today, and the notebooks' Markdown cells. Fenced code blocks
# are skipped (docs/cli.md's help text, generated from the tool, is in them).
DEFAULT_PAGES = ("README.md", "CONTRIBUTING.md", "docs/*.md", "models/README.md",
                 "configs/README.md", "bench/positions/README.md", "notebooks/*.ipynb")

_MODEL = r"nardy-[a-z]+-\d+"
_CODE_SPAN = re.compile(r"(`+)\s?(.+?)\s?\1")
_LINK_TARGET = re.compile(r"\]\([^)\s]*\)")
# A code span that names one model: `nardy-fit-8`, `model:nardy-fit-8:ply=1`,
# `models/nardy-fit-6.luck`, `net:models/nardy-fit-5.pt`, `'nardy-fit-8'`.
_NAMED_MODEL = re.compile(
    rf"(?:model:|net:)?(?:[\w./-]*/)?'?({_MODEL})'?(?:\.pt|\.luck)?(?::[\w=.,]*)?")
# What stands for the default model itself, in code.
_DEFAULT_ALIASES = {"nardy.load_model()", "load_model()", "nardy.DEFAULT_MODEL", "DEFAULT_MODEL",
                    "kDefaultModel"}
# A phrase that calls a model the default: "the default model", "the shipped model", "the
# default" (followed by what ends the phrase, not "the default rules"/"ones"/"agent" ...), the
# agent spec `default`, or an alias of the default in code (normalised to ⟪default⟫).
_PHRASE = re.compile(
    r"\b[Tt]he (?:default|shipped) model\b(?:'s)?"
    r"|\b[Tt]he default\b(?:'s)?(?=$|[.,;:)]|'s| \(| ⟨| now\b| since\b| then\b| until\b"
    r"| before\b| is\b| was\b)"
    r"|`default`|⟪default⟫")
# History: what was the default once.
_HISTORY_BEFORE = re.compile(r"\b(?:new|next|earlier|previous|former|old|first|original|was|"
                             r"were|became|(?:was|were|been) made)\s*$")
_HISTORY_AFTER = re.compile(r"\s*(?:then|until|before|at the time|when)\b")
# After the phrase, what links it to a model name that follows ("the shipped model, `X`",
# "`nardy.load_model()` is `X`", "the default's (`X`)", "`default` (X)").
_PHRASE_THEN_NAME = re.compile(r"\s*(?:,|:|\(|=|\bis\b|\bwas\b)?\s*(?:the agent spec\s*)?"
                               rf"⟨({_MODEL})⟩")
_SPEC_THEN_NAME = re.compile(rf"\s*(?:\(|=|\bis\b)?\s*⟨({_MODEL})⟩")
# A model named in prose, not inside a path or an anchor (models/nardy-fit-8.pt, #nardy-fit-8-the).
_PLAIN_MODEL = re.compile(rf"(?<![\w/.-])({_MODEL})(?![\w-])")


def _normalise(unit):
    """The text of a paragraph, heading or table row with markup reduced to what the matching
    needs: model names as ⟨NAME⟩, `default` kept, aliases of the default as ⟪default⟫, other
    code as ⟨code⟩, no bold or link targets, whitespace collapsed."""
    unit = _LINK_TARGET.sub("]", unit).replace("**", "")

    def code(m):
        content = m.group(2).strip()
        if content == "default":
            return "`default`"
        if content in _DEFAULT_ALIASES:
            return "⟪default⟫"
        named = _NAMED_MODEL.fullmatch(content)
        return f"⟨{named.group(1)}⟩" if named else "⟨code⟩"

    pieces, last = [], 0
    for m in _CODE_SPAN.finditer(unit):
        pieces.append(_PLAIN_MODEL.sub(r"⟨\1⟩", unit[last:m.start()]))
        pieces.append(code(m))
        last = m.end()
    pieces.append(_PLAIN_MODEL.sub(r"⟨\1⟩", unit[last:]))
    return " ".join("".join(pieces).split())


def _units(text):
    """(line number, text) of every paragraph, heading and table row outside fenced blocks."""
    fence, unit, start = None, [], 0
    for number, line in enumerate(text.splitlines(), 1):
        m = links._FENCE.match(line)
        if fence is not None:
            if m and m.group(1).startswith(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)[0] * len(m.group(1))
        if m or not line.strip() or line.lstrip().startswith(("#", "|")):
            if unit:
                yield start, " ".join(unit)
            unit = []
            if not m and line.strip():
                yield number, line
            continue
        if not unit:
            start = number
        unit.append(line)
    if unit:
        yield start, " ".join(unit)


def default_claims(text):
    """Every model a text calls the default: (line where its paragraph starts, name, excerpt,
    historical) for each. A name is called the default when a phrase of _PHRASE is joined to
    it: right before it ("the shipped model `X`", "`nardy.load_model()` is `X`", "`default`
    (X)"), or after it in the same clause ("`X` (the default)", "`X`, the strongest, is
    `default`", "`X` (now `default`"), or by "`X` is now". It is history when the phrase says so
    ("the default then", "until", "before", "was", "the next default") and not history
    otherwise, even in a past sentence: "the default since" is today's."""
    claims = []
    for line, unit in _units(text):
        t = _normalise(unit)
        bound = {}  # a name's position -> [name, historical?, present?]
        for p in _PHRASE.finditer(t):
            historical = bool(_HISTORY_BEFORE.search(t[:p.start()]) or
                              _HISTORY_AFTER.match(t, p.end()))
            after = _SPEC_THEN_NAME if p.group() == "`default`" else _PHRASE_THEN_NAME
            m = after.match(t, p.end())
            if m:
                historical = historical or bool(re.search(r"\bwas\b", m.group(0)))
                b = bound.setdefault(m.start(1), [m.group(1), False, False])
                b[1 if historical else 2] = True
        for n in re.finditer(rf"⟨({_MODEL})⟩", t):
            name = n.group(1)
            window = t[n.end():n.end() + 45]
            other = re.search(rf"⟨(?!{re.escape(name)}⟩){_MODEL}⟩|\.\s|[;)|]", window)
            # the phrase must end before the cut: the end of the sentence or clause, or another
            # model's name
            for p in _PHRASE.finditer(t, n.end(), n.end() + (other.start() if other else 45)):
                historical = bool(_HISTORY_BEFORE.search(t[n.end():p.start()]) or
                                  _HISTORY_AFTER.match(t, p.end()))
                b = bound.setdefault(n.start(1), [name, False, False])
                b[1 if historical else 2] = True
            if re.match(r"\s*is now\s*(?=[);.,]|$)", t[n.end():]):
                bound.setdefault(n.start(1), [name, False, False])[2] = True
        for position, (name, historical, present) in sorted(bound.items()):
            excerpt = t[max(0, position - 60):position + 60]
            claims.append((line, name, excerpt, historical or not present))
    return claims


def stale_defaults(text, default):
    """(line, name, excerpt) of every claim in `text` that a model other than `default` is the
    default now; and every run banner "...; from .../models/NAME.pt" in a section whose run
    starts from `generations.init=default` that names another model."""
    stale = [(line, name, excerpt) for line, name, excerpt, historical in default_claims(text)
             if not historical and name != default]
    starts = [0] + [m.start() + 1 for m in re.finditer(r"\n(?=#{1,6} )", text)] + [len(text)]
    for begin, end in zip(starts, starts[1:]):
        if "generations.init=default" in text[begin:end]:
            for m in re.compile(rf";\s*from \S*models/({_MODEL})\.pt").finditer(text, begin, end):
                if m.group(1) != default:
                    stale.append((text.count("\n", 0, m.start()) + 1, m.group(1), m.group(0)))
    return stale


def default_model_of_the_source():
    """kDefaultModel as the C++ sources define it (so the test needs no build)."""
    found = []
    for header in sorted(REPO.glob("selfplay/**/*.h")):
        for m in re.finditer(r'\bkDefaultModel\s*=\s*"([^"]+)"', header.read_text()):
            found.append((header.relative_to(REPO), m.group(1)))
    assert len(found) == 1, f"expected one definition of kDefaultModel, found {found}"
    return found[0][1]


def _page_text(page):
    """A page's Markdown: a notebook's Markdown cells, one after another."""
    path = REPO / page
    if path.suffix != ".ipynb":
        return path.read_text()
    cells = json.loads(path.read_text())["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def _default_pages():
    pages = set()
    for pattern in DEFAULT_PAGES:
        pages.update(REPO.glob(pattern))
    return sorted(str(p.relative_to(REPO)) for p in pages)


def test_the_default_model_is_the_one_python_reports():
    default = default_model_of_the_source()
    assert re.fullmatch(_MODEL, default), default
    assert (REPO / "models" / f"{default}.pt").exists()
    try:
        import nardy
    except ImportError:
        pytest.skip("nardy is not importable: only the C++ source's kDefaultModel checked")
    if hasattr(nardy, "DEFAULT_MODEL"):
        assert nardy.DEFAULT_MODEL == default


@pytest.mark.parametrize("page", _default_pages())
def test_pages_name_the_default_model(page):
    default = default_model_of_the_source()
    stale = stale_defaults(_page_text(page), default)
    assert not stale, (
        f"{page} calls another model than kDefaultModel ({default}) the default; name "
        f"{default}, or say it was the default then (\"the default until ...\"):\n" +
        "\n".join(f"  {page}:{line}: {name}: ...{excerpt}..." for line, name, excerpt in stale))


# The sentences that had gone stale when nardy-fit-8 became the default (issue 47), and one from
# each kind of history the pages keep.
STALE_SENTENCES = [
    ("The shipped model needs no training: `nardy.load_model()` is `nardy-fit-6` as a "
     "`ValueNet`,\n`nardy.make_agent(\"default\")` the agent", "nardy-fit-6"),
    ("No training is needed: the shipped model `nardy-fit-6` is the agent spec `default`, the "
     "default\nagent of `nardy play`", "nardy-fit-6"),
    ("the bold rows are the\nresult for the shipped model `nardy-fit-1` (the default then; "
     "`nardy-fit-5` is now):", "nardy-fit-5"),
    ("**`nardy-fit-5`** (now `default`; `scripts/build_nardy_fit_5.sh`, 2.27 M labels): gate",
     "nardy-fit-5"),
    ("the rounds after it, below this table, made `nardy-fit-2` to `nardy-fit-5`, the\ndefault "
     "now):", "nardy-fit-5"),
    ("| **`nardy-fit-6` (`default`; `mobility-v1` inputs), 0-ply** | 2.9 [2.4, 3.4] |",
     "nardy-fit-6"),
    ("Shipped:\n`models/nardy-fit-6.luck` (the default model's head: **78.3%** of the held-out",
     "nardy-fit-6"),
    ("Those rows were measured with an earlier default model. With `nardy-fit-7` (the default "
     "since\nits `reach-v1` inputs, which cost more per position)", "nardy-fit-7"),
    ("and **1.02-1.05 ms** with `nardy-fit-3`, the default now (3,369 evaluations).",
     "nardy-fit-3"),
    ("600 positions: **0.91-0.95 ms** with `nardy-fit-3` (the default; 3,369 evaluations per "
     "move", "nardy-fit-3"),
    ("## nardy-fit-7 (the default)\n", "nardy-fit-7"),
    ("The shipped model, `nardy-fit-7` (agent `default`), beats\n`nardy-fit-5` by **+0.056**",
     "nardy-fit-7"),
    ("`nardy` ships eleven models: `nardy-fit-7`, the strongest, is `default`; `nardy-draw-2`",
     "nardy-fit-7"),
    ("`configs/zones.yaml`, the run that made the default `nardy-fit-7`, reads", "nardy-fit-7"),
    ("The tool:\n`nardy.DEFAULT_MODEL` = `'nardy-fit-7'`", "nardy-fit-7"),
    ("## Generations\n\n```sh\nnardy train --set generations.init=default\n```\n\n"
     "    generations: 2, in runs/short; from /work/main/models/nardy-fit-6.pt\n", "nardy-fit-6"),
]

HISTORY_SENTENCES = [
    "## nardy-fit-7 (the default until nardy-fit-8)",
    "## nardy-td-1 (the full.yaml TD net; the default until nardy-fit-1)",
    "`configs/nardy-draw-1.yaml`: one generation of `nardy train` from `nardy-fit-5` (the default "
    "then; the config now names it)",
    "`default` in this table is `nardy-td-1`, the default model then; the winner, `nardy-fit-1`, "
    "was the next default",
    "(`nardy-fit-4`, the default before: 3.55 against 6.92, ratio 0.513.)",
    "It ships as **`nardy-fit-6`, the new default** (models/README.md)",
    "| the `reach-v1` inputs (`nardy-fit-7`, the default then, 247-256-3) against `mobility-v1` |",
    "**`nardy-fit-3` (`default` until `nardy-fit-4`) beats `nardy-td-1` by +0.171",
    "the bold rows are the result for the shipped model `nardy-fit-1` (the default then):",
    # not about the default at all
    "beat `heuristic` under those rules by at least as much as `nardy-fit-5` does under the "
    "default ones",
    "what the `mobility-v1` inputs gave `nardy-fit-6` over `nardy-fit-5` under the default rules",
    "Mars is judged after that turn. Its shipped model is `model:nardy-draw-2`.",
    "The shipped model's lead over `nardy-td-1` survives equities played out by it",
    "(`build/nardy eval default model:nardy-fit-5 --games 20000 --threads 2 --seed 51`; the others "
    "in [models/README.md](models/README.md#nardy-fit-8-the-default))",
    "`random`, `heuristic`, `default`, `model:nardy-fit-5` and `net:PATH` are agent specs",
    "Before issue 26 the default was `nardy-fit-5`.",
    "```sh\nbuild/nardy play   # the shipped model nardy-fit-1 in the terminal\n```",
]


@pytest.mark.parametrize("sentence, name", STALE_SENTENCES)
def test_default_checker_flags_the_stale_sentences(sentence, name):
    stale = stale_defaults(sentence, "nardy-fit-8")
    assert [found for _, found, _ in stale] == [name], stale


@pytest.mark.parametrize("sentence", HISTORY_SENTENCES)
def test_default_checker_lets_history_and_other_defaults_be(sentence):
    assert stale_defaults(sentence, "nardy-fit-8") == []


def test_default_checker_accepts_the_default_by_name():
    text = ("The shipped model, `nardy-fit-8` (agent `default`), beats `nardy-fit-5`.\n\n"
            "## nardy-fit-8 (the default)\n\n"
            "`nardy.load_model()` is the default model, `nardy.DEFAULT_MODEL` (`nardy-fit-8`).\n")
    claims = default_claims(text)
    assert [(name, historical) for _, name, _, historical in claims] == \
        [("nardy-fit-8", False)] * 3
    assert stale_defaults(text, "nardy-fit-8") == []
    assert [name for _, name, _ in stale_defaults(text, "nardy-fit-9")] == ["nardy-fit-8"] * 3


# ---- a model's own section of models/README.md measures that model --------------------------
#
# `default` is whatever kDefaultModel names today: a command with it in an older model's section
# measured that model once and measures another now. Inside a `## nardy-xxx ...` section that is
# not the default's, commands name their agents by name (`model:nardy-xxx`, `net:...`).

_COMMAND = re.compile(r"(?:^|[\s/])nardy [a-z]")


def _commands(section):
    """The commands of a Markdown text: code spans and fenced lines that run `nardy ...`."""
    commands = []
    fence = None
    for line in section.splitlines():
        m = links._FENCE.match(line)
        if fence is not None:
            if m and m.group(1).startswith(fence):
                fence = None
            elif _COMMAND.search(line):
                commands.append(line.strip())
            continue
        if m:
            fence = m.group(1)[0] * len(m.group(1))
            continue
        commands += [c.group(2) for c in _CODE_SPAN.finditer(line) if _COMMAND.search(c.group(2))]
    return commands


def names_default_agent(command):
    """Whether a command gives `default` (or `default:OPTIONS`) as an agent: an argument, an
    option's value or an item of a list (`--agent default:ply=1`, `generations.init=default`,
    `players=random,default`)."""
    for token in command.split():
        for item in re.split(r"[=,]", token.strip("'\"[]();")):
            if item == "default" or item.startswith("default:"):
                return True
    return False


def model_sections(text):
    """(model, heading line, text) of every `## nardy-xxx ...` section."""
    sections = []
    for part in re.split(r"\n(?=## )", text):
        m = re.match(rf"## ({_MODEL})\b", part)
        if m:
            sections.append((m.group(1), part.splitlines()[0], part))
    return sections


def commands_measuring_the_default(text, default):
    """(section heading, command) of every command naming the agent `default` inside the section
    of a model other than `default`."""
    return [(heading, command) for model, heading, section in model_sections(text)
            if model != default for command in _commands(section) if names_default_agent(command)]


def test_model_card_sections_name_their_models():
    default = default_model_of_the_source()
    text = (REPO / "models" / "README.md").read_text()
    sections = {model for model, _, _ in model_sections(text)}
    assert default in sections and "nardy-td-1" in sections
    unknown = sorted({m.group(1) for command in _commands(text)
                      for m in re.finditer(rf"(?:model:|net:models/)({_MODEL})", command)
                      if not (REPO / "models" / f"{m.group(1)}.pt").exists()})
    assert not unknown, f"models/README.md: commands name models that are not shipped: {unknown}"
    found = commands_measuring_the_default(text, default)
    assert not found, (
        f"models/README.md: commands in the sections of models other than the default "
        f"({default}) use the agent `default`, which is {default} now; name the model measured "
        "(model:NAME):\n" + "\n".join(f"  {heading}: `{command}`" for heading, command in found))


def test_model_card_checker_flags_a_stale_section():
    # nardy-fit-5's section as it was when nardy-fit-8 was the default (issue 47).
    stale = (
        "# Shipped models\n\n```sh\nbuild/nardy eval default heuristic --games 4000\n```\n\n"
        "## nardy-fit-8 (the default)\n\n| vs x | `nardy eval default model:nardy-fit-5` |\n\n"
        "## nardy-fit-5 (the default until nardy-fit-6)\n\n"
        "| its 1-ply vs its 0-ply | 20,000 | **+0.0143** | `nardy eval default:ply=1 default "
        "--games 20000 --threads 2 --seed 13` (and `--games 4000 --seed 3`: +0.012) |\n"
        "| vs `heuristic` | `nardy eval model:nardy-fit-5 heuristic --seed 7` |\n\n"
        "## nardy-draw-1 (for `last_roll_draw=true`)\n\n"
        "| `nardy-draw-1` vs `nardy-fit-5` | `nardy eval model:nardy-draw-1 default --rule "
        "last_roll_draw=true` |\n"
        "```sh\nbuild/nardy train --config c.yaml --set generations.init=default\n```\n")
    found = commands_measuring_the_default(stale, "nardy-fit-8")
    assert [(h.split()[1], c.split()[-1]) for h, c in found] == [
        ("nardy-fit-5", "13"), ("nardy-draw-1", "last_roll_draw=true"),
        ("nardy-draw-1", "generations.init=default")]
    # Once the default's section is another model's, its own `default` commands are stale too.
    assert [h.split()[1] for h, _ in commands_measuring_the_default(stale, "nardy-fit-9")] == \
        ["nardy-fit-8", "nardy-fit-5", "nardy-draw-1", "nardy-draw-1"]
    fixed = stale.replace("default:ply=1 default", "model:nardy-fit-5:ply=1 model:nardy-fit-5") \
        .replace("model:nardy-draw-1 default", "model:nardy-draw-1 model:nardy-fit-5") \
        .replace("generations.init=default", "generations.init=model:nardy-fit-5")
    assert commands_measuring_the_default(fixed, "nardy-fit-8") == []
    assert not names_default_agent("nardy train --config configs/default.yaml --set run.name=x")
    assert names_default_agent("nardy label --player random,default:noise=0.1")
