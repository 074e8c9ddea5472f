"""The engine through Python: docs/rules.md's hand examples, agreement with the `nardy` CLI, round
trips of POS/ID/pickle/records, Game play and undo, reproducible random games, and one test per
error path (each checks that NardyError carries a useful message)."""

import ast
import copy
import pathlib
import pickle
import subprocess
import sys
import threading

import pytest

import nardy
from nardy import Game, MoveResult, NardyError, Outcome, Position, Rng, Rules, Side

START = "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w"


def pos_text(points: dict, side: str) -> str:
    """POS text from {point: signed count}."""
    return ",".join(str(points.get(p, 0)) for p in range(1, 25)) + " " + side


# docs/rules.md "Checks anyone can do by hand":
# White home 1:1 2:1 3:1 4:2 5:2 6:2 (6 off), Black 13:3 14:3 15:3 16:2 17:2 18:2.
BEAROFF = pos_text({1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 13: -3, 14: -3, 15: -3, 16: -2, 17: -2, 18: -2}, "w")


def sample_positions(seeds=range(3), every=7):
    """Positions along a few seeded random games (every `every`-th turn)."""
    out = []
    for seed in seeds:
        game = nardy.random_game(seed)
        out += [t.before for t in game.history[::every]]
    return out


# ---- docs/rules.md hand examples -----------------------------------------------------------------


def test_start_position_counts():
    pos = Position.start()
    assert pos.pos == START
    assert pos.side_to_move == Side.White
    assert pos.points[23] == 15 and pos.points[11] == -15 and sum(map(abs, pos.points)) == 30
    for side in (Side.White, Side.Black, "w", "b"):
        assert pos.pips(side) == 360
        assert pos.on_head(side) == 15
        assert pos.on_board(side) == 15
        assert pos.off(side) == 0
    assert pos.outcome() is None


def test_rules_example_start_six_five_has_one_move():
    # From the start, White rolls 6-5: the only legal move is 24/13; 14 on 24, 1 on 13; pips 349/360.
    results = Position.start().legal(6, 5)
    assert [r.notation for r in results] == ["24/13"]
    after = results[0].position
    assert after.points[23] == 14 and after.points[12] == 1
    assert after.pips("w") == 349 and after.pips("b") == 360
    assert after.side_to_move == Side.Black
    assert results[0].steps in ([(24, 18), (18, 13)], [(24, 19), (19, 13)])
    assert results[0].mover == Side.White and not results[0].is_pass


def test_rules_example_bear_off_six_five():
    pos = Position(BEAROFF)
    assert pos.off("w") == 6 and pos.off("b") == 0
    assert pos.pips("w") == 36 and pos.pips("b") == 48
    by_notation = {r.notation: r for r in pos.legal(6, 5)}
    assert "6/off 5/off" in by_notation
    after = by_notation["6/off 5/off"].position
    assert after.off("w") == 8 and after.pips("w") == 25
    assert by_notation["6/off 5/off"].steps in ([(6, 0), (5, 0)], [(5, 0), (6, 0)])


def test_rules_example_opening_double_six():
    # Variant any_roll: White's first-turn 6-6 plays 24/18(2); the other sixes are void (Black's head).
    results = Position.start().legal(6, 6, rules=Rules(opening="any_roll"))
    assert [r.notation for r in results] == ["24/18(2)"]
    assert results[0].position.on_head("w") == 13
    # Under the default no_doubles the opening roll cannot be a double.
    with pytest.raises(NardyError, match="opening roll cannot be a double"):
        Game().legal(6, 6)
    assert [r.notation for r in Game(Rules(opening="any_roll")).legal(6, 6)] == ["24/18(2)"]


def test_head_exception_variants_change_the_legal_set():
    # Rule 3: with head_exception=none only one checker leaves the head, and 18/12 is closed.
    assert [r.notation for r in Position.start().legal(6, 6, "head_exception=none")] == ["24/18"]
    assert [r.notation for r in Position.start().legal(6, 6, {"head_exception": "standard"})] == ["24/18(2)"]


# ---- agreement with the CLI ------------------------------------------------------------------


def cli_legal(nardy_cli, pos, d1, d2, rules=()):
    args = ["legal", pos.pos, d1, d2]
    for assignment in rules:
        args += ["--rule", assignment]
    lines = nardy_cli(*args).stdout.splitlines()
    return [tuple(line.split("\t")) for line in lines]


# Each CLI run loads the whole tool (libtorch included), so these compare a curated handful.
def test_legal_matches_cli(nardy_cli):
    mid_game = sample_positions(seeds=[4], every=9)[1:5]  # four positions along a random game
    cases = [(Position.start(), 6, 5), (Position.start(), 3, 1), (Position(BEAROFF), 6, 5),
             (Position(BEAROFF), 2, 2)] + list(zip(mid_game, [4, 6, 5, 2], [4, 1, 3, 2]))
    for pos, d1, d2 in cases:
        mine = [(r.position.pos, r.notation) for r in pos.legal(d1, d2)]
        assert len(mine) >= 1
        assert mine == cli_legal(nardy_cli, pos, d1, d2), (pos.pos, d1, d2)
    assert max(len(pos.legal(d1, d2)) for pos, d1, d2 in cases) > 5  # not only forced moves


@pytest.mark.parametrize("assignment", ["head_exception=strict", "head_exception=none"])
def test_legal_matches_cli_under_variants(nardy_cli, assignment):
    rules = Rules.parse(assignment)
    for d in (6, 4, 3):
        mine = [(r.position.pos, r.notation) for r in Position.start().legal(d, d, rules)]
        assert mine == cli_legal(nardy_cli, Position.start(), d, d, [assignment]), d


def test_random_game_equals_cli_selfplay_record(nardy_cli, tmp_path):
    for seed in (3, 11):
        path = tmp_path / f"g{seed}.txt"
        nardy_cli("selfplay", "--agent", "random", "--games", 1, "--seed", seed, "--record", path)
        assert path.read_text() == nardy.random_game(seed).record() + "\n"


def test_draw_is_the_board_picture(nardy_cli):
    pos = Position(BEAROFF)
    drawing = pos.draw()
    assert "36" in drawing and "48" in drawing  # pip counts
    shown = nardy_cli("show", pos.pos).stdout
    assert shown.startswith(drawing) and pos.id in shown


# ---- round trips -----------------------------------------------------------------------------


def test_pos_id_pickle_round_trips():
    positions = [Position.start(), Position(BEAROFF)] + sample_positions()
    assert len(positions) > 20
    for pos in positions:
        assert Position(pos.pos) == pos
        assert Position.from_pos(str(pos)) == pos
        assert Position.from_id(pos.id) == pos
        assert len(pos.id) == 14
        assert Position.from_points(pos.points, pos.side_to_move) == pos
        assert pickle.loads(pickle.dumps(pos)) == pos
        assert copy.deepcopy(pos) == pos
        assert hash(Position(pos.pos)) == hash(pos)
        assert eval(repr(pos), {"Position": Position}) == pos
        assert pos.validation_error() is None and pos.is_ok()
        assert [pos.at_point(p) for p in range(1, 25)] == pos.points
        assert pos.on_board("w") + pos.off("w") == 15
    assert len(set(positions)) == len({p.pos for p in positions})


def test_side_to_move_changes_identity():
    start = Position.start()
    black = start.with_side_to_move("b")
    assert black != start and black.pos.endswith(" b") and black.id != start.id
    assert black.with_side_to_move(Side.White) == start
    assert start != "not a position"


def test_move_result_values():
    results = Position(BEAROFF).legal(6, 5)
    assert len(results) == len(set(results)) == len({r.position for r in results})  # distinct, hashable
    for r in results:
        assert pickle.loads(pickle.dumps(r)) == r
        assert r.position.side_to_move == Side.Black
        assert r.notation in repr(r)
    assert results[0] != results[-1]


def test_rules_values():
    default = Rules()
    assert (default.opening, default.head_exception, default.last_roll_draw, default.next_game_starter) == (
        "no_doubles", "standard", False, "previous_black")
    rules = Rules(opening="any_roll", head_exception="strict", last_roll_draw=True,
                  next_game_starter="previous_winner")
    assert Rules.parse(str(rules)) == rules
    assert str(rules) == ("opening=any_roll head_exception=strict last_roll_draw=true "
                          "next_game_starter=previous_winner")
    assert eval(repr(rules), {"Rules": Rules}) == rules
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert rules.to_dict()["last_roll_draw"] == "true"
    assert Rules.keys() == ["opening", "head_exception", "last_roll_draw", "next_game_starter"]
    assert Rules.values_of("head_exception") == ["standard", "strict", "none"]
    assert Rules.parse("") == default and rules != default
    changed = Rules()
    changed.opening = "any_roll"
    changed.set("last_roll_draw", "true")
    changed.apply_assignment("head_exception=none")
    assert changed == Rules(opening="any_roll", last_roll_draw=True, head_exception="none")
    assert changed.get("head_exception") == "none"
    with pytest.raises(TypeError):
        hash(default)


def test_side_and_outcome_values():
    assert ~Side.White == Side.Black and Side.Black.letter == "b"
    assert pickle.loads(pickle.dumps(Side.Black)) == Side.Black
    win = Outcome("w", 2)
    assert win.winner == Side.White and win.is_mars and not win.is_draw
    assert win.points_for("w") == 2 and win.points_for(Side.Black) == -2
    assert str(win) == "white 2" and str(Outcome(None, 0)) == "draw"
    assert Outcome(None, 0).is_draw and Outcome(None, 0).winner is None
    assert pickle.loads(pickle.dumps(win)) == win and hash(Outcome(Side.White, 2)) == hash(win)
    assert eval(repr(win), {"Outcome": Outcome, "Side": Side}) == win


def test_outcome_of_finished_positions():
    # White has borne off all 15, Black none: mars for White.
    white_done = pos_text({13: -15}, "b")
    assert Position(white_done).outcome() == Outcome(Side.White, 2)
    # Under last_roll_draw Black still has its last turn.
    assert Position(white_done).outcome(Rules(last_roll_draw=True)) is None
    assert Position(white_done).finished_side() == Side.White


# ---- Game ------------------------------------------------------------------------------------


def test_game_play_by_notation_result_and_position():
    game = Game()
    assert game.is_opening_turn and game.position == Position.start() and game.outcome is None
    game.play(6, 5, "24/18/13")  # a chain is the same move as 24/13
    assert game.position.pos == Position.start().legal(6, 5)[0].position.pos
    results = game.legal(3, 1)
    game.play(3, 1, results[0])
    after_two = game.position
    assert after_two == results[0].position
    target = game.legal(4, 2)[-1].position
    game.play(4, 2, target)
    assert game.position == target
    assert [t.dice for t in game.history] == [(6, 5), (3, 1), (4, 2)]
    assert game.history[0].notation == "24/13" and game.history[0].mover == Side.White
    assert game.history[1].before == Position.start().legal(6, 5)[0].position
    assert game.undo() and game.position == after_two and len(game.history) == 2
    assert game.undo() and game.undo() and not game.undo()
    assert game.position == Position.start() and game.is_opening_turn


def test_game_record_replay_and_pickle():
    game = nardy.random_game(7, rules=Rules(last_roll_draw=True))
    text = game.record()
    assert text.startswith("nardy-record 1\nrules ") and "last_roll_draw=true" in text
    assert text.rstrip().endswith("result " + str(game.outcome))
    replayed = Game.from_record(text)
    assert replayed.record() == text and replayed.position == game.position
    assert replayed.rules == game.rules and replayed.outcome == game.outcome
    assert nardy.read_record(text).record() == text and nardy.write_record(game) == text
    assert pickle.loads(pickle.dumps(game)).record() == text
    assert copy.deepcopy(game).record() == text
    both = nardy.read_records(text + "\n" + nardy.random_game(8).record())
    assert [g.record() for g in both] == [text, nardy.random_game(8).record()]
    # Every turn of the history is a legal result of its dice.
    for turn in game.history[:30]:
        assert turn.notation in {r.notation for r in turn.before.legal(*turn.dice, rules=game.rules)}


def test_game_from_a_start_position_keeps_it_in_the_record():
    game = Game(start=BEAROFF)
    assert not game.is_opening_turn and game.start == Position(BEAROFF)
    game.play(6, 5, "6/off 5/off")
    text = game.record()
    assert ("start " + BEAROFF) in text
    assert Game.from_record(text).position == game.position


def test_game_roll_uses_the_opening_rule():
    game = Game()
    rng = Rng(1)
    for _ in range(200):
        d1, d2 = game.roll(rng)
        assert d1 != d2 and 1 <= d1 <= 6 and 1 <= d2 <= 6
    assert game.roll(5) == game.roll(5)
    game.play(6, 5, "24/13")
    rolls = {game.roll(rng) for _ in range(400)}
    assert any(d1 == d2 for d1, d2 in rolls)  # doubles after the opening turn
    assert len(rolls) == 36


def test_rng_is_reproducible():
    a, b = Rng(42), Rng(42)
    assert [a.next() for _ in range(5)] == [b.next() for _ in range(5)]
    assert all(0 <= a.below(6) < 6 for _ in range(100))
    assert 0.0 <= a.uniform() < 1.0
    c = copy.copy(a)
    assert c.roll() == a.roll()
    assert Rng(1).split(3).next() == Rng(1).split(3).next()
    assert Rng(1).roll_opening()[0] != Rng(1).roll_opening()[1]


# ---- random games ----------------------------------------------------------------------------


def test_random_game_is_reproducible_per_seed():
    records = [nardy.random_game(seed).record() for seed in range(6)]
    assert records == [nardy.random_game(seed).record() for seed in range(6)]
    assert len(set(records)) == 6
    for seed in range(6):
        game = nardy.random_game(seed)
        assert game.is_over and game.outcome == game.position.outcome()
        assert game.outcome.points in (1, 2)


def test_random_game_under_variants_finishes():
    rules = Rules(opening="any_roll", head_exception="strict", last_roll_draw=True)
    for seed in range(5):
        game = nardy.random_game(seed, rules)
        assert game.is_over and game.rules == rules
        assert Game.from_record(game.record()).outcome == game.outcome


def test_random_game_in_threads_matches_sequential():
    seeds = list(range(8))
    expected = [nardy.random_game(s).record() for s in seeds]
    got = [None] * len(seeds)

    def worker(i):
        got[i] = nardy.random_game(seeds[i]).record()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(seeds))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == expected


# ---- errors ----------------------------------------------------------------------------------


def test_functions_taking_a_position_take_its_id():
    start_id = Position.start().id
    assert nardy.board_svg(start_id) == nardy.board_svg(START)
    with pytest.raises(NardyError, match="neither POS text"):
        nardy.board_svg("start")


def test_nardy_error_is_a_value_error():
    assert issubclass(NardyError, ValueError)
    assert NardyError.__module__ == "nardy"


@pytest.mark.parametrize("text,message", [
    ("", "expected 24 comma-separated counts"),
    ("0,0 w", "expected 24 point counts, got 2"),
    (START.replace(" w", " x"), "side to move must be 'w' or 'b'"),
    (START.replace("15 w", "16 w"), "is not a count -15..15"),
    (START.replace("15 w", "x w"), "point 24"),
    (pos_text({24: 15, 1: 1, 12: -15}, "w"), "White has 16 checkers"),
    (pos_text({19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 5, 12: -15}, "w"), "block"),
])
def test_bad_pos_raises(text, message):
    with pytest.raises(NardyError, match=message) as info:
        Position(text)
    assert "position '" in str(info.value)


@pytest.mark.parametrize("bad_id", ["", "abc", "-_PAAAw__BAAA!", "-_PAAAw__BAAAAA"])
def test_bad_id_raises(bad_id):
    with pytest.raises(NardyError) as info:
        Position.from_id(bad_id)
    assert str(info.value)


def test_invalid_points_kept_only_when_asked():
    block = [0] * 24
    for p in range(19, 25):
        block[p - 1] = 2
    block[23] = 5
    block[11] = -15
    with pytest.raises(NardyError, match="block"):
        Position.from_points(block, "w")
    pos = Position.from_points(block, "w", validate=False)
    assert "block" in pos.validation_error() and not pos.is_ok()
    with pytest.raises(NardyError, match="block"):
        pos.legal(6, 5)
    with pytest.raises(NardyError, match="block"):
        pos.id
    with pytest.raises(NardyError, match="block"):
        Game(start=pos)
    with pytest.raises(NardyError, match="expected 24 counts"):
        Position.from_points([0] * 23, "w")
    with pytest.raises(NardyError, match="White has 16"):
        Position.from_points([1] * 16 + [0] * 7 + [0], "w", validate=False)
    with pytest.raises(NardyError, match="not a count"):
        Position.from_points([99] + [0] * 23, "w", validate=False)


@pytest.mark.parametrize("d1,d2", [(0, 1), (7, 1), (3, -1), (6, 100)])
def test_bad_dice_raise(d1, d2):
    bad = d1 if not 1 <= d1 <= 6 else d2
    for call in (lambda: Position.start().legal(d1, d2), lambda: Game().legal(d1, d2),
                 lambda: Game().play(d1, d2, "24/13"), lambda: nardy.format_dice(d1, d2)):
        with pytest.raises(NardyError, match=f"{bad} is not a die value 1..6"):
            call()


def test_bad_dice_text_and_types():
    with pytest.raises(NardyError, match="expected two dice"):
        nardy.parse_dice("6-")
    with pytest.raises(NardyError, match="7 is not a die value"):
        nardy.parse_dice("6-7")
    assert nardy.parse_dice("6,5") == (6, 5) and nardy.format_dice(6, 5) == "6-5"
    with pytest.raises(TypeError):
        Position.start().legal("6", 5)
    with pytest.raises(TypeError):
        Position.start().legal(6.0, 5)


def test_illegal_moves_raise():
    game = Game()
    with pytest.raises(NardyError, match=r"move '24/18 24/19' is not legal with 6-5 \(legal: 24/13\)"):
        game.play(6, 5, "24/18 24/19")
    with pytest.raises(NardyError, match="not in 1..24"):
        game.play(6, 5, "25/19")
    with pytest.raises(NardyError, match="expected FROM/TO"):
        game.play(6, 5, "24")
    with pytest.raises(NardyError, match="empty notation"):
        game.play(6, 5, "")
    wrong_dice = Position.start().legal(3, 1)[0]
    with pytest.raises(NardyError, match="illegal move"):
        game.play(6, 5, wrong_dice)
    with pytest.raises(NardyError, match="is not a legal result of 6-5"):
        game.play(6, 5, wrong_dice.position)
    with pytest.raises(TypeError, match="notation text, a MoveResult or a Position"):
        game.play(6, 5, 42)
    assert game.history == [] and game.position == Position.start()  # nothing changed


def test_finished_game_rejects_moves():
    game = nardy.random_game(2)
    with pytest.raises(NardyError, match="the game is over"):
        game.legal(3, 1)
    with pytest.raises(NardyError, match="the game is over"):
        game.play(3, 1, "pass")
    finished = Position(pos_text({13: -15}, "w"))  # White to move with nothing left
    with pytest.raises(NardyError, match="no checkers left"):
        finished.legal(3, 1)


@pytest.mark.parametrize("make,message", [
    (lambda: Rules(opening="sometimes"), "rule 'opening': unknown value 'sometimes' \\(expected one of: no_doubles, any_roll\\)"),
    (lambda: Rules.parse("colour=red"), "unknown rule 'colour'"),
    (lambda: Rules.parse("opening"), "expected KEY=VALUE"),
    (lambda: Rules().set("head_exception", "maybe"), "expected one of: standard, strict, none"),
    (lambda: Rules(last_roll_draw="yes"), "rule 'last_roll_draw': unknown value 'yes'"),
    (lambda: Position.start().legal(6, 5, "opening=sometimes"), "unknown value 'sometimes'"),
    (lambda: Position.start().legal(6, 5, {"colour": "red"}), "unknown rule 'colour'"),
    (lambda: nardy.random_game(1, "head_exception=maybe"), "unknown value 'maybe'"),
    (lambda: Rules.values_of("colour"), "unknown rule 'colour'"),
])
def test_bad_rules_raise(make, message):
    with pytest.raises(NardyError, match=message):
        make()


def test_bad_rules_types_raise_type_error():
    with pytest.raises(TypeError, match="rules"):
        Position.start().legal(6, 5, 3)
    with pytest.raises(TypeError, match="rule keys must be strings"):
        Game({1: "x"})
    with pytest.raises(TypeError):
        Rules("opening=any_roll")  # keyword-only; use Rules.parse


@pytest.mark.parametrize("text,message", [
    ("", "no 'nardy-record 1' header"),
    ("hello\n", "record line 1: expected the header 'nardy-record 1'"),
    ("nardy-record 1\n6-5 24/12\n", "record line 2: move '24/12' is not legal with 6-5"),
    ("nardy-record 1\n6-6 24/18(2)\n", "record line 2: dice 6-6: the opening roll cannot be a double"),
    ("nardy-record 1\n6-5\n", "record line 2: expected DICE MOVE"),
    ("nardy-record 1\n6-x 24/13\n", "record line 2: dice '6-x'"),
    ("nardy-record 1\nrules opening=never\n", "record line 2: rule 'opening': unknown value 'never'"),
    ("nardy-record 1\n6-5 24/13\nresult white 1\n", "record line 3: result 'white 1' but the game is not over"),
])
def test_bad_records_raise(text, message):
    with pytest.raises(NardyError, match=message):
        Game.from_record(text)


def test_bad_record_in_a_file_names_the_record():
    good = nardy.random_game(1).record()
    with pytest.raises(NardyError, match="record 2: record line 2"):
        nardy.read_records(good + "\nnardy-record 1\n6-5 24/12\n")
    with pytest.raises(NardyError, match="no 'nardy-record 1' header"):
        nardy.read_records("")


def test_bad_sides_seeds_and_outcomes_raise():
    with pytest.raises(NardyError, match="side 'x'"):
        Position.start().pips("x")
    with pytest.raises(TypeError, match="side"):
        Position.start().pips(0)
    with pytest.raises(NardyError, match="seed -1"):
        Rng(-1)
    with pytest.raises(NardyError, match="seed"):
        nardy.random_game(2 ** 64)
    with pytest.raises(TypeError):
        nardy.random_game("1")
    with pytest.raises(TypeError, match="Rng or an int seed"):
        Game().roll("1")
    with pytest.raises(NardyError, match="below"):
        Rng(1).below(0)
    with pytest.raises(NardyError, match="points must be 1 or 2"):
        Outcome("w", 3)
    with pytest.raises(NardyError, match="points must be 1 or 2 for a win and 0 for a draw"):
        Outcome(None, 1)
    with pytest.raises(NardyError, match="at_point"):
        Position.start().at_point(25)
    with pytest.raises(NardyError, match="max_turns"):
        nardy.random_game(1, max_turns=0)
    with pytest.raises(NardyError, match="exceeded 3 turns"):
        nardy.random_game(1, max_turns=3)


# ---- the package -----------------------------------------------------------------------------


def test_package_import_is_light():
    code = "import sys, nardy; assert 'torch' not in sys.modules and 'numpy' not in sys.modules; print(nardy.Position.start().pips('w'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": ":".join(sys.path)}, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "360"


def test_built_for_this_interpreter():
    suffix = pathlib.Path(nardy._nardy.__file__).name
    assert f"cpython-{sys.version_info.major}{sys.version_info.minor}" in suffix


def test_everything_public_has_a_docstring():
    for name in nardy.__all__:
        obj = getattr(nardy, name)
        if isinstance(obj, (int, tuple)):
            continue
        assert obj.__doc__, name
        if isinstance(obj, type):
            # pybind11's own enum properties (name, value) come without docstrings.
            builtin = {"name", "value"} if "__members__" in dir(obj) else set()
            for attr, value in vars(obj).items():
                if not attr.startswith("_") and attr not in builtin and not isinstance(value, obj):
                    assert getattr(value, "__doc__", None), f"{name}.{attr}"


def test_stub_covers_the_compiled_module():
    stub_path = pathlib.Path(nardy.__file__).with_name("_nardy.pyi")
    tree = ast.parse(stub_path.read_text())
    stub = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            stub[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        elif isinstance(node, ast.FunctionDef):
            stub[node.name] = set()
        elif isinstance(node, ast.AnnAssign):
            stub[node.target.id] = set()
    for name in nardy.__all__:
        if getattr(getattr(nardy, name), "__module__", "") in ("nardy.runs", "nardy.board"):
            continue  # a pure-Python helper (nardy.runs, nardy.board): typed in its own module
        assert name in stub, f"{name} is missing from _nardy.pyi"
        obj = getattr(nardy, name)
        if isinstance(obj, type) and not issubclass(obj, BaseException):
            for attr in vars(obj):
                if not attr.startswith("_"):
                    assert attr in stub[name], f"{name}.{attr} is missing from _nardy.pyi"


@pytest.mark.parametrize("call, expected", [
    # A NUL byte used to cut the message short ("position '1,2").
    (lambda: Position("1,2\x00xyz w"), r"position '1,2\0xyz w': point 2: '2\0xyz' is not a count"),
    (lambda: nardy.parse_dice("6\x1b[2J"), r"dice '6\x1b[2J': expected two dice such as 6-5"),
    (lambda: Rules.parse("opening=\x00\x7f"), r"rule 'opening': unknown value '\0\x7f'"),
    (lambda: nardy.read_record("nardy-record 1\n\x00\x01 junk\n"), r"record line 2: dice '\0\x01'"),
])
def test_errors_echo_junk_input_printably_and_whole(call, expected):
    with pytest.raises(NardyError) as err:
        call()
    msg = str(err.value)
    assert expected in msg
    assert msg.isprintable()
