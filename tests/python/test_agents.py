"""Agents, play(), analyze() and Python agents (bindings/bind_agents.cpp)."""

import json

import pytest

import nardy
from nardy import NardyError, Position

START = Position.start()
MID = nardy.random_game(seed=11).history[30].before  # a middle-game position, White or Black to move


def test_make_agent_specs(checkpoint):
    for spec in ["random", "heuristic", f"net:{checkpoint}", f"net:{checkpoint}:ply=1:filter=4,0.1"]:
        a = nardy.make_agent(spec)
        assert a.spec == spec and repr(a) == f"Agent('{spec}')"
        assert not a.is_python
    assert nardy.make_agent(f"net:{checkpoint}:ply=2").ply == 2
    assert nardy.make_agent("heuristic").net is None and not nardy.make_agent("random").has_net
    net_agent = nardy.make_agent(f"net:{checkpoint}")
    assert net_agent.has_net and net_agent.net.shape["hidden"] == [16]
    # Rules: with head_exception=none only one checker leaves the head on 6-6.
    start = Position.start()
    strict = nardy.make_agent(net_agent, rules={"head_exception": "none"})
    assert strict is not net_agent and strict.spec == net_agent.spec
    assert strict.choose(start, 6, 6).notation == "24/18"
    assert net_agent.choose(start, 6, 6).notation == "24/18(2)"  # docs/rules.md default: the exception


@pytest.mark.parametrize("spec, message", [
    ("bogus", "bogus"),
    ("net:", "missing checkpoint path"),
    ("net:/no/such.pt", "net:/no/such.pt"),
    ("net:{ckpt}:ply=9", "ply must be 0..4"),
    ("net:{ckpt}:color=red", "unknown option 'color'"),
    ("net:{ckpt}:noise=x", "noise='x' is not a valid number"),
])
def test_bad_specs_raise(spec, message, checkpoint):
    spec = spec.format(ckpt=checkpoint)
    with pytest.raises(NardyError, match=message):
        nardy.make_agent(spec)
    with pytest.raises(NardyError, match=message):
        nardy.arena(spec, "random", games=2)


def test_choose_is_legal_and_reproducible(checkpoint):
    for spec in ["random", "heuristic", f"net:{checkpoint}", f"net:{checkpoint}:ply=1"]:
        a = nardy.make_agent(spec)
        m = a.choose(MID, 4, 2, rng=5)
        assert m in MID.legal(4, 2)
        assert a.choose(MID, 4, 2, rng=5) == m  # same seed, same choice
    h = nardy.make_agent("heuristic")
    assert h.choose(START, 6, 5) == START.legal(6, 5)[0]  # the only legal move


def test_agent_evaluate(checkpoint):
    a0 = nardy.make_agent(f"net:{checkpoint}")
    a1 = nardy.make_agent(f"net:{checkpoint}:ply=1")
    e0, e1 = a0.evaluate(MID), a1.evaluate(MID)
    assert 0 <= e0.win <= 1 and 0 <= e1.win <= 1
    assert e0.equity != e1.equity  # a 1-ply value averages over the 21 rolls
    with pytest.raises(NardyError, match="has no value network"):
        nardy.make_agent("heuristic").evaluate(MID)


def moves_of(games):
    """The games' records without the players' names: what two agents that play alike share."""
    return ["".join(line for line in g.record().splitlines(True)
                    if not line.startswith(("white ", "black "))) for g in games]


def test_play_equals_cli_selfplay_records(nardy_cli, tmp_path, checkpoint):
    rec = tmp_path / "games.txt"
    white, black = f"net:{checkpoint}", "heuristic"
    nardy_cli("selfplay", "--white", white, "--black", black, "--games", 3, "--seed", 7, "--record", rec)
    games = nardy.play(white, black, games=3, seed=7)
    assert [g.record() for g in games] == [g.record() for g in nardy.read_records(rec.read_text())]
    assert all(g.is_over for g in games)


def test_python_agents_play_with_cpp_agents():
    calls = []

    def first(position, dice, moves):
        calls.append((position, dice, len(moves)))
        assert all(isinstance(m, nardy.MoveResult) for m in moves)
        return 0

    def by_result(position, dice, moves):
        return moves[-1]

    def by_position(position, dice, moves):
        return moves[len(moves) // 2].position

    class Chooser:  # an object with .choose works too
        def choose(self, position, dice, moves):
            return len(moves) - 1

    for fn in [first, by_result, by_position, Chooser(), nardy.python_agent(first, name="first")]:
        games = nardy.play(fn, "random", games=2, seed=1)
        assert all(g.is_over for g in games)
    assert calls and all(1 <= d <= 6 for _, dice, _ in calls for d in dice)
    assert nardy.python_agent(first).spec == "python:test_python_agents_play_with_cpp_agents.<locals>.first"
    assert nardy.python_agent(Chooser()).is_python

    # A Python agent that copies the heuristic's choice plays exactly the heuristic's games.
    heuristic = nardy.make_agent("heuristic")

    def copy_heuristic(position, dice, moves):
        return heuristic.choose(position, *dice)

    mine = nardy.play(copy_heuristic, "random", games=2, seed=4)
    ref = nardy.play("heuristic", "random", games=2, seed=4)
    assert mine[0].names == ("python:test_python_agents_play_with_cpp_agents.<locals>.copy_heuristic",
                             "random")
    assert moves_of(mine) == moves_of(ref)


def test_python_agent_errors_propagate():
    with pytest.raises(NardyError, match=r"agent 'python:.*' returned int 99, not an index of the \d+ legal"):
        nardy.play(lambda p, d, m: 99, "random")
    with pytest.raises(NardyError, match=r"returned str '24/13' \(expected an index 0\.\.\d+ into moves"):
        nardy.play(lambda p, d, m: "24/13", "random")
    with pytest.raises(NardyError, match="not one of the"):
        nardy.play(lambda p, d, m: START, "random")

    def boom(p, d, m):
        raise RuntimeError("boom from python")

    with pytest.raises(RuntimeError, match="boom from python"):
        nardy.play("random", boom, games=3)
    with pytest.raises(RuntimeError, match="boom from python"):
        nardy.arena(boom, "random", games=8, threads=2)
    with pytest.raises(TypeError, match="expected a spec string"):
        nardy.make_agent(42)


@pytest.mark.parametrize(
    "returned, shown",
    [
        (True, "bool True"),  # a bool is an int in Python: once a SIGSEGV by endless recursion
        (False, "bool False"),
        (2**70, "int 1180591620717411303424"),  # once a raw RuntimeError from pybind11
        (-(2**70), "int -1180591620717411303424"),
        (-1, "int -1"),
        (0.0, "float 0.0"),
        (None, "NoneType None"),
        ([0], r"list \[0\]"),
        ("\x00\xff", r"str '\\x00\\xff'"),  # junk is quoted in printable ASCII
    ],
)
def test_python_agent_bad_returns_name_agent_and_value(returned, shown):
    def junk(p, d, m):
        return returned

    agent = nardy.make_agent(junk)
    with pytest.raises(NardyError, match=r"agent 'python:.*junk' returned " + shown):
        agent.choose(START, 6, 5)
    with pytest.raises(NardyError, match=r"agent 'python:.*junk' returned " + shown):
        nardy.play(junk, "random")


def test_python_agent_index_like_returns_accepted():
    import numpy as np

    moves = START.legal(6, 5)
    assert nardy.make_agent(lambda p, d, m: np.int64(0)).choose(START, 6, 5) == moves[0]


def test_analyze_equals_cli(nardy_cli, tmp_path, checkpoint):
    pos = MID if MID.outcome() is None else START
    for spec, extra in [(f"net:{checkpoint}", []), (f"net:{checkpoint}:ply=1", []), ("heuristic", ["--trials", 20])]:
        out = tmp_path / "a.json"
        nardy_cli("analyze", pos.pos, 6, 3, "--agent", spec, *extra, "--json", out)
        got = nardy.analyze(pos, 6, 3, agent=spec, trials=20)
        assert got.to_dict() == json.loads(out.read_text()), spec


def test_analyze_values(checkpoint):
    net = nardy.load_checkpoint(str(checkpoint))
    a0 = nardy.analyze(MID, 5, 5, agent=net)
    a1 = nardy.analyze(MID, 5, 5, agent=net, ply=1)
    legal = MID.legal(5, 5)
    for a, ply in [(a0, 0), (a1, 1)]:
        assert len(a) == len(legal) and sorted(m.index for m in a) == list(range(len(legal)))
        for m in a:
            assert m.position == legal[m.index].position and m.notation == legal[m.index].notation
        assert a.best.agent_choice and sum(m.agent_choice for m in a) == 1
        assert a.best.ply == ply
    # 0-ply: sorted by equity, and the equity is the flipped evaluation of the result.
    eq = [m.equity for m in a0]
    assert eq == sorted(eq, reverse=True)
    opp = net.evaluate([m.position for m in a0])
    for m, row in zip(a0, opp):
        assert m.equity == pytest.approx(-row[4], abs=2e-5)
    assert a0.method == "0-ply net evaluation" and a1.method == "1-ply expectimax search"
    ro = nardy.analyze(MID, 5, 5, agent="random", trials=8)
    assert ro.method.startswith("rollouts") and all(m.ply == -1 and m.equity_se >= 0 for m in ro)


def test_analyze_lists_the_searched_candidates_then_the_filtered_ones():
    """At 1-ply the search values its best candidates only: they come first, best first, then a
    line, then the filtered ones by their 0-ply value (the issue's 2-1 of _PoAEjwfEFlKAA)."""
    pos = nardy.Position.from_id("_PoAEjwfEFlKAA")
    a = nardy.analyze(pos, 2, 1, agent="default", ply=1)
    flags = [m.filtered for m in a]
    searched = flags.index(True)
    assert searched > 0 and all(flags[searched:])
    assert all(m.ply == 1 or m.exact for m in list(a)[:searched])
    assert all(m.ply == 0 for m in list(a)[searched:])
    for block in (list(a)[:searched], list(a)[searched:]):
        eq = [m.equity for m in block]
        assert eq == sorted(eq, reverse=True)
    text = a.to_text()
    lines = text.splitlines()
    sep = next(i for i, line in enumerate(lines) if "not searched" in line)
    assert lines[sep + 1].split()[0] == str(searched + 1)
    assert "draw" not in lines[1]  # no draw column where the rules have no draws
    assert [m["filtered"] for m in a.to_dict()["moves"]] == flags
    assert not any(m.filtered for m in nardy.analyze(pos, 2, 1, agent="default"))  # 0-ply


def test_analyze_opening_double(nardy_cli, tmp_path, checkpoint):
    with pytest.raises(NardyError, match="opening roll is never a double under opening=no_doubles"):
        nardy.analyze(START, 6, 6, agent=f"net:{checkpoint}")
    out = tmp_path / "a.json"
    nardy_cli("analyze", START.pos, 4, 4, "--agent", f"net:{checkpoint}:ply=1", "--rule", "opening=any_roll",
              "--json", out)
    got = nardy.analyze(START, 4, 4, agent=f"net:{checkpoint}:ply=1", rules={"opening": "any_roll"})
    assert got.to_dict() == json.loads(out.read_text())


def test_analyze_errors(checkpoint):
    with pytest.raises(NardyError, match="needs a net agent"):
        nardy.analyze(MID, 6, 5, agent="heuristic", ply=1)
    with pytest.raises(NardyError, match="ply must be 0..4"):
        nardy.analyze(MID, 6, 5, agent=f"net:{checkpoint}", ply=7)
    with pytest.raises(NardyError, match="is not 1..6|outside|die"):
        nardy.analyze(MID, 7, 5)
    finished = Position.from_points([0] * 11 + [-15] + [0] * 12, "b")
    with pytest.raises(NardyError, match="game is over"):
        nardy.analyze(finished, 6, 5)


def test_python_agent_moves_in_the_order_of_position_legal():
    # One order everywhere: an index into Position.legal(...) names the move the agent's
    # `moves[index]` names, for every roll of a middle-game position.
    seen = []

    def spy(position, dice, moves):
        assert [m.position for m in moves] == [m.position for m in position.legal(*dice)]
        seen.append(len(moves))
        return len(moves) - 1  # the last one: differs from a movegen-order pick

    def last_of_legal(position, dice, moves):
        return position.legal(*dice)[-1]

    games_a = nardy.play(spy, "random", games=2, seed=5)
    games_b = nardy.play(last_of_legal, "random", games=2, seed=5)
    assert moves_of(games_a) == moves_of(games_b)
    assert max(seen) > 1
