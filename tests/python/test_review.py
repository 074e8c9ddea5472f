"""nardy.review: the review of whole games and matches (selfplay/evaluation/review.h), the same
library call as `nardy review`: its objects, JSON, HTML, and agreement with the CLI and analyze."""

import json

import pytest

import nardy


@pytest.fixture(scope="module")
def own_game():
    """A game the shipped default model played against itself at 0-ply."""
    return nardy.play("default", "default", games=1, seed=5)[0]


def test_the_agents_own_game_has_no_error(own_game):
    r = nardy.review(own_game)
    assert isinstance(r, nardy.Review)
    assert len(r.games) == 1 and not r.is_match
    assert len(r.turns) == len(own_game.history)
    for p in r.players:
        assert p.all.total_error == 0.0
        assert p.all.decisions > 5
        assert p.all.rating == 0.0
        assert p.all.marks == {"doubtful": 0, "bad": 0, "very_bad": 0}
        assert set(p.phases) == {"opening", "contact", "race", "bearoff"}
    assert r.players[0].result == -r.players[1].result != 0
    # Luck measured on every turn; the luck-adjusted results still sum to zero.
    assert all(t.luck is not None for t in r.turns)
    assert r.players[0].luck_adjusted_result == pytest.approx(-r.players[1].luck_adjusted_result)


def test_a_weaker_player_has_errors_that_agree_with_analyze():
    game = nardy.play("random", "default", games=1, seed=7)[0]
    r = nardy.review(game.record(), agent="default", ply=1, alternatives=3)
    white, black = r.players
    assert white.all.total_error > black.all.total_error
    assert white.all.marks["very_bad"] > 0
    checked = 0
    for t in r.turns[::9]:
        a = nardy.analyze(t.before, *t.dice, agent="default", ply=1)
        by_notation = {m.notation: m for m in a.moves}
        assert t.best.notation == a.best.notation
        assert t.error == pytest.approx(max(0.0, a.best.equity - by_notation[t.played.notation].equity), abs=1e-12)
        assert t.decision == (len(a) > 1)
        assert len(t.alternatives) <= 3
        checked += 1
    assert checked >= 3
    marked = [t for t in r.turns if t.mark]
    assert marked and all(t.mark in ("doubtful", "bad", "very bad") for t in marked)
    assert all(t.error >= 0.04 for t in marked)


def test_json_html_and_the_cli_agree(own_game, tmp_path, nardy_cli):
    path = tmp_path / "game.txt"
    path.write_text(own_game.record())
    r = nardy.review(path)  # a path (os.PathLike)
    d = json.loads(r.to_json())
    assert d == r.to_dict()
    assert len(d["games"][0]["turns"]) == len(own_game.history)
    assert r.to_html().startswith("<!DOCTYPE html>") and "<svg" in r.to_html()
    out = tmp_path / "cli.json"
    nardy_cli("review", path, "--json", out)
    assert json.loads(out.read_text()) == d
    assert nardy.review(str(path)).to_json() == r.to_json()  # a str path works too


def test_threads_do_not_change_the_review(own_game):
    one = nardy.review(own_game, ply=1, threads=1)
    two = nardy.review(own_game, ply=1, threads=2)
    assert one.to_json() == two.to_json()


def test_thresholds_and_bad_input():
    game = nardy.play("random", "random", games=1, seed=3)[0]
    loose = nardy.review(game, thresholds=(0.5, 1.0, 1.5))
    strict = nardy.review(game, thresholds=(0.001, 0.002, 0.003))
    count = lambda r: sum(sum(p.all.marks.values()) for p in r.players)  # noqa: E731
    assert count(strict) > count(loose)
    with pytest.raises(nardy.NardyError, match="not a game or match record"):
        nardy.review("hello\nworld\n")
    with pytest.raises(nardy.NardyError, match="line 2"):
        nardy.review("nardy-record 1\n6-5 24/12\n")
    with pytest.raises(nardy.NardyError, match="thresholds"):
        nardy.review(game, thresholds=(0.1, 0.2))
    with pytest.raises(nardy.NardyError, match="ply needs a net agent"):
        nardy.review(game, agent="heuristic", ply=1)
    with pytest.raises(TypeError):
        nardy.review(42)


def test_mat_files_convert_both_ways_and_review():
    game = nardy.play("heuristic", "random", games=1, seed=2)[0]
    mat = nardy.record_to_mat(game.record())
    assert " 1 point match" in mat and "Wins" in mat
    record = nardy.mat_to_record(mat)
    assert record.startswith("nardy-match 1")
    body = "".join(line for line in game.record().splitlines(True)
                   if not line.startswith(("white ", "black ")))
    assert body.strip() in record  # the game, its players' names now the match's
    assert "player 0 heuristic\nplayer 1 random\n" in record
    assert nardy.record_to_mat(record) == mat
    assert nardy.review(mat).to_json() == nardy.review(record).to_json()
    # Black's first move written in absolute points instead of its own numbering: a clear error.
    bad = " 1 point match\n Game 1\n a : 0   b : 0\n  1) 65: 24/13   31: 12/9 9/8\n"
    with pytest.raises(nardy.NardyError, match=r"\.mat line 4"):
        nardy.mat_to_record(bad)
    assert nardy.mat_to_record(bad.replace("12/9 9/8", "24/21 21/20")).count("3-1 12/8") == 1


def test_the_review_plot(own_game):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import nardy.plots as nplt
    game = nardy.play("random", "default", games=1, seed=7)[0]
    r = nardy.review(game)
    fig = nplt.review(r)
    top, bottom = fig.axes[:2]
    assert len(top.lines[0].get_xdata()) == len(r.turns)
    marked = sum(len(c.get_offsets()) for c in top.collections)
    assert marked == sum(1 for t in r.turns if t.mark) > 0
    # The running error of the first player ends at its total.
    assert bottom.lines[0].get_ydata()[-1] == pytest.approx(r.players[0].all.total_error)


def test_rollouts_value_every_move_by_rollouts_for_a_net_agent():
    r = nardy.review("nardy-record 1\n6-5 24/13\n3-1 12/9 9/8\n", rollouts=4)
    d = r.to_dict()
    assert "rollouts (4 trials per move" in d["method"], d["method"]
    with pytest.raises(nardy.NardyError, match="exclude each other"):
        nardy.review("nardy-record 1\n6-5 24/13\n", rollouts=4, ply=1)
