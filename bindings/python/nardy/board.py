"""Board pictures: SVG from the engine (core/board_svg.h), PNG through cairosvg.

:func:`nardy.board_svg` draws one position (the same picture as ``nardy show POS --svg FILE``);
Jupyter draws a :class:`nardy.Position`, :class:`nardy.MoveResult` or :class:`nardy.Game` by
itself (``_repr_svg_``). This module writes files and draws games::

    nardy.save_board(pos, "start.svg")
    nardy.save_board(pos, "start.png", arrows="24/18 18/13", title="6-5")
    frames = nardy.board.game_svgs(game)       # one SVG per turn, the move drawn
    IPython.display.HTML(nardy.board.html_grid(frames[:6], columns=3))   # side by side in Jupyter

PNG needs the ``cairosvg`` package (Debian: python3-cairosvg), imported only when a PNG is asked for.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional, Union

from nardy import _nardy

__all__ = ["save_board", "board_png", "game_svgs", "turn_svg", "html_grid"]


def board_png(position: Any, arrows: Any = None, title: Optional[str] = None, width: int = 640) -> bytes:
    """The board as PNG bytes (rendered from :func:`nardy.board_svg` by cairosvg)."""
    svg = _nardy.board_svg(position, arrows=arrows, title=title, width=width)
    return _svg_to_png(svg, width)


def save_board(position: Any, path: Union[str, "os.PathLike[str]"], arrows: Any = None,
               title: Optional[str] = None, width: int = 640) -> Path:
    """Writes a picture of `position` to `path`: SVG for ``.svg``, PNG for ``.png``.

    `arrows` draws a move (notation text, a MoveResult, a Turn or ``[(from, to), ...]`` with 0 for
    bearing off); `title` is a caption above the board. Returns the path written.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise _nardy.NardyError(f"save_board: '{path}': unknown extension {path.suffix!r} (expected .svg or .png)")
    svg = _nardy.board_svg(position, arrows=arrows, title=title, width=width)
    data = svg.encode("utf-8") if suffix == ".svg" else _svg_to_png(svg, width)
    # Whole or not at all, as the engine's own writers (core/file_io.h).
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise _nardy.NardyError(f"save_board: cannot write '{path}': {e.strerror or e}") from None
    return path


def turn_svg(game: Any, turn: int, width: int = 480) -> str:
    """The position after turn `turn` (0-based) of `game` with that turn's move drawn."""
    history = game.history
    if not 0 <= turn < len(history):
        raise IndexError(f"turn {turn} out of range (the game has {len(history)} turns)")
    t = history[turn]
    after = history[turn + 1].before if turn + 1 < len(history) else game.position
    mover = "White" if t.mover.letter == "w" else "Black"
    title = f"turn {turn + 1}: {mover} rolls {t.dice[0]}-{t.dice[1]} and plays {t.notation}"
    return _nardy.board_svg(after, arrows=t, title=title, width=width)


def game_svgs(game: Any, turns: Optional[list[int]] = None, width: int = 480) -> list[str]:
    """SVG pictures of a game, one per turn (or per index in `turns`), each move drawn."""
    if turns is None:
        turns = list(range(len(game.history)))
    return [turn_svg(game, t, width) for t in turns]


def html_grid(svgs: list[str], columns: int = 2) -> str:
    """HTML that lays SVG pictures out in a grid of `columns` (for ``IPython.display.HTML``)."""
    if columns < 1:
        raise ValueError(f"columns must be at least 1, got {columns}")
    cells = "".join(f'<div style="min-width:0">{svg}</div>' for svg in svgs)
    return (f'<div style="display:grid;grid-template-columns:repeat({columns},1fr);gap:8px">'
            f"{cells}</div>")


def _svg_to_png(svg: str, width: int) -> bytes:
    try:
        import cairosvg  # lazy: only PNG output needs it
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise ImportError("PNG output needs cairosvg (Debian: apt install python3-cairosvg); "
                          "SVG output works without it") from e
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width)
