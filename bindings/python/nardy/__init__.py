"""nardy — the Long Nardy engine (RULES.md) for Python.

Everything here is the C++ engine, compiled as ``nardy._nardy``; Python never re-implements
the rules. Importing the package is light (no torch). Quick tour::

    import nardy
    pos = nardy.Position.start()
    for r in pos.legal(6, 5):                 # sorted by position, like `nardy legal`
        print(r.notation, r.position.pos)
    game = nardy.Game()                        # rules=None: RULES.md defaults
    game.play(6, 5, "24/13")
    print(game.record())
    finished = nardy.random_game(seed=1)       # uniform random moves, reproducible
    print(finished.outcome)

Bad input raises :class:`nardy.NardyError` (a ``ValueError``) with the engine's message.
"""

from nardy import _nardy
from nardy._nardy import *  # noqa: F401,F403 — every public name of the compiled module

# Every public name of the compiled module, so new bind_<area>.cpp files need no edit here.
__all__ = sorted(name for name in dir(_nardy) if not name.startswith("_"))

NardyError.__module__ = "nardy"  # noqa: F405 — shown as nardy.NardyError in tracebacks

# Pure-Python helpers (no torch, numpy or matplotlib at import time).
from nardy.board import save_board  # noqa: E402 — .svg/.png pictures (cairosvg only for PNG)
from nardy.runs import list_checkpoints, read_metrics, read_state  # noqa: E402 — run directories

# Submodules loaded on first use: nardy.plots (matplotlib), nardy.env (numpy),
# nardy.torch_interop (torch); nardy.NardyEnv is nardy.env.NardyEnv.
_LAZY_MODULES = ("plots", "env", "torch_interop")


def __getattr__(name):
    import importlib

    if name in _LAZY_MODULES:
        return importlib.import_module(f"nardy.{name}")
    if name == "NardyEnv":
        return importlib.import_module("nardy.env").NardyEnv
    raise AttributeError(f"module 'nardy' has no attribute '{name}'")
