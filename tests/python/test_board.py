"""Board pictures: nardy.board_svg, _repr_svg_, nardy.save_board and nardy.board (bind_board.cpp, board.py)."""

import pytest

import nardy
from nardy import NardyError, Position

GAME = nardy.play("heuristic", "heuristic", games=1, seed=5)[0]
MID = GAME.history[20].before


@pytest.mark.parametrize("move, title", [(None, None), ("6/off 5/off", "bearing off")])
def test_board_svg_equals_cli_show(nardy_cli, tmp_path, move, title):
    pos = MID if move is None or "off" not in move else Position(
        "0,0,0,0,1,1,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0 w")
    out = tmp_path / "b.svg"
    args = ["show", pos.pos, "--svg", out]
    if move:
        args += ["--move", move]
    if title:
        args += ["--title", title]
    nardy_cli(*args)
    assert nardy.board_svg(pos, arrows=move, title=title) == out.read_text()


def test_arrows_forms_agree():
    turn = GAME.history[20]
    after = GAME.history[21].before
    by_text = nardy.board_svg(after, arrows=turn.notation)
    by_turn = nardy.board_svg(after, arrows=turn)
    assert by_text == by_turn
    result = next(r for r in MID.legal(*turn.dice) if r.notation == turn.notation)
    assert nardy.board_svg(after, arrows=result) == by_text
    assert result._repr_svg_() == by_text
    assert "<line" in by_text or "<path" in by_text
    assert nardy.board_svg(after) != by_text  # the arrows are drawn
    assert nardy.board_svg(Position.start(), arrows=[(24, 13)]) == nardy.board_svg(Position.start(), arrows="24/18/13")
    assert nardy.board_svg(Position.start(), arrows=[(24, 18), (18, 13)]) == nardy.board_svg(
        Position.start(), arrows="24/18 18/13")


def test_repr_svg_and_width():
    svg = Position.start()._repr_svg_()
    assert svg.startswith("<svg") and svg == nardy.board_svg(Position.start())
    assert 'width="320"' in nardy.board_svg(Position.start(), width=320)
    g = GAME._repr_svg_()
    assert "turn " + str(len(GAME.history)) in g
    assert g.startswith("<svg")


def test_board_errors():
    with pytest.raises(NardyError):
        nardy.board_svg(Position.start(), arrows="24/")
    with pytest.raises(NardyError, match="from 1..24"):
        nardy.board_svg(Position.start(), arrows=[(25, 1)])
    with pytest.raises(NardyError, match="width"):
        nardy.board_svg(Position.start(), width=2)
    with pytest.raises(TypeError, match="arrows"):
        nardy.board_svg(Position.start(), arrows=3)


def test_save_board(tmp_path):
    svg = nardy.save_board(MID, tmp_path / "m.svg", arrows=None, title="mid")
    assert svg.read_text() == nardy.board_svg(MID, title="mid")
    pytest.importorskip("cairosvg")
    png = nardy.save_board(MID, tmp_path / "m.png", width=400)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(data[16:20], "big")
    assert width == 400
    assert nardy.board.board_png(MID)[:4] == b"\x89PNG"
    with pytest.raises(nardy.NardyError, match=r"unknown extension '\.jpg' \(expected \.svg or \.png\)"):
        nardy.save_board(MID, tmp_path / "m.jpg")


def test_game_svgs():
    frames = nardy.board.game_svgs(GAME, turns=[0, 1, len(GAME.history) - 1])
    assert len(frames) == 3 and all(f.startswith("<svg") for f in frames)
    t0 = GAME.history[0]
    assert f"turn 1: White rolls {t0.dice[0]}-{t0.dice[1]} and plays {t0.notation}" in frames[0]
    title = f"turn 1: White rolls {t0.dice[0]}-{t0.dice[1]} and plays {t0.notation}"
    assert frames[0] == nardy.board_svg(GAME.history[1].before, arrows=t0, title=title, width=480)
    with pytest.raises(IndexError):
        nardy.board.turn_svg(GAME, len(GAME.history))
