"""The documentation cannot drift: the generated references equal what their scripts write now,
and every relative link and #anchor of the documents resolves.

- docs/cli.md is scripts/gen_cli_reference.py's output for the `nardy` of this build (the full
  build: the torch-free tool has fewer commands, so the test skips there);
- docs/python-api.md is scripts/gen_python_reference.py's output for the imported `nardy`;
- scripts/check_doc_links.py finds no broken link in README.md, CONTRIBUTING.md, docs/*.md and
  the folders' READMEs.

When a test fails, run the script its message names and commit the result.
"""

import difflib
import importlib.util
import pathlib

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
