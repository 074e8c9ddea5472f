"""nardy — the Long Nardy engine (docs/rules.md) for Python.

Everything here is the C++ engine, compiled as ``nardy._nardy``; Python never re-implements
the rules. Importing the package is light (no torch). Quick tour::

    import nardy
    pos = nardy.Position.start()
    for r in pos.legal(6, 5):                 # sorted by position, like `nardy legal`
        print(r.notation, r.position.pos)
    game = nardy.Game()                        # rules=None: docs/rules.md defaults
    game.play(6, 5, "24/13")
    print(game.record())
    finished = nardy.random_game(seed=1)       # uniform random moves, reproducible
    print(finished.outcome)

Networks, agents, matches and training (torch-free until you import nardy.torch_interop)::

    x = nardy.encode(positions, encoder="raw")          # NumPy float32 [N, num_inputs]
    net = nardy.load_checkpoint("runs/default/best.pt") # net.evaluate(positions) -> [N, 5]
    games = nardy.play("net:runs/default/best.pt", "heuristic", games=10, seed=1)
    result = nardy.arena("net:runs/default/best.pt:ply=1", "heuristic", games=1000, threads=2)
    m = nardy.match("net:runs/default/best.pt", "net:runs/default/best.pt:match=off", to=5, matches=1000)
    nardy.analyze(pos, 6, 5, agent=net, ply=2); nardy.rollout(pos, trials=1296, agent=net)
    run = nardy.train({"train": {"games": 20000}}, callback=print)
    nardy.save_board(pos, "pos.png", arrows="24/13")     # Jupyter draws Position/MoveResult/Game itself

Agents are spec strings ('random', 'heuristic', 'net:PATH[:ply=N]...'), nardy.Agent, ValueNet or
any Python callable fn(position, dice, moves) -> index. Long calls release the GIL and stop on
Ctrl-C. Submodules: nardy.plots (matplotlib), nardy.env (NardyEnv, a Gym-style environment),
nardy.torch_interop (train nets in PyTorch, save them as checkpoints), nardy.board, nardy.runs.

Bad input raises :class:`nardy.NardyError` (a ``ValueError``) with the engine's message. A
checkpoint written before checksums loads with a :class:`nardy.CheckpointWarning` (a
``UserWarning``) through Python's ``warnings``.
"""

from nardy import _nardy
from nardy._nardy import *  # noqa: F401,F403 — every public name of the compiled module

__version__ = _nardy.__version__  # the engine's version (core/version.h, CHANGELOG.md)
NardyError.__module__ = "nardy"  # noqa: F405 — shown as nardy.NardyError in tracebacks
CheckpointWarning.__module__ = "nardy"  # noqa: F405 — a UserWarning (checkpoint without checksums)

# Pure-Python helpers (no torch, numpy or matplotlib at import time).
from nardy.board import save_board  # noqa: E402 — .svg/.png pictures (cairosvg only for PNG)
from nardy.runs import list_checkpoints, read_generations, read_metrics, read_state  # noqa: E402,E501

# Every public name: the compiled module's (so new bind_<area>.cpp files need no edit here) and
# the helpers', so that `from nardy import *` and help(nardy) show them all. (NardyEnv and the
# lazy submodules stay out: listing them would import numpy/torch on a star import.)
__all__ = sorted(
    {name for name in dir(_nardy) if not name.startswith("_")}
    | {"save_board", "list_checkpoints", "read_generations", "read_metrics", "read_state"}
)

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
