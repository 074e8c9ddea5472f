"""Reading training runs: metrics, state and checkpoints of a run directory.

A run directory (selfplay/training/run_dir.h) holds ``config.yaml``, ``ckpt-<games>.pt``, ``latest.pt``,
``best.pt``, ``metrics.jsonl`` (one JSON object per line; fields in selfplay/training/td_trainer.h) and
``state.json``. These helpers only read files; training itself is :func:`nardy.train`.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Union

from nardy._nardy import NardyError

PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["read_metrics", "read_state", "list_checkpoints", "run_dir_of"]


def run_dir_of(run: Any) -> Path:
    """The run directory of a path or of a :class:`nardy.TrainResult` (its ``run_dir``)."""
    if hasattr(run, "run_dir"):
        run = run.run_dir
    try:
        path = Path(run)
        if path.is_dir():
            return path
    except (OSError, ValueError) as e:  # e.g. a name too long, an embedded NUL
        raise NardyError(f"run directory {str(run)[:200]!r}: {e}") from None
    raise NardyError(f"run directory {str(path)[:200]!r} does not exist")


def read_metrics(run: Any) -> list[dict[str, Any]]:
    """Every line of ``metrics.jsonl`` as a dict, in order (empty if the run has none yet).

    Keys: games, games_per_s, mean_game_length, td_error, alpha, lambda, epsilon, positions, elapsed_s,
    and ``eval`` after an evaluation: {opponent spec: the match result of the net (A) against
    it, in the format of ``nardy eval --json`` (a_points_per_game, ci95_low, ci95_high,
    a_win_rate, a_wins, b_wins, draws, a_mars, b_mars, games, elo, ...; selfplay/evaluation/arena.h)}.
    A generational run (``generations.count`` > 0) adds one line per generation after the TD
    stage's, with ``generation`` instead of ``games``: :func:`read_generations`.
    """
    path = run_dir_of(run) / "metrics.jsonl"
    if not path.exists():
        return []
    lines = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                lines.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{number}: not a JSON object ({e})") from None
    return lines


def read_generations(run: Any) -> list[dict[str, Any]]:
    """The generation lines of a run's ``metrics.jsonl`` (selfplay/training/generations.h), in order.

    Keys: generation, labels (positions labelled), fit {best_epoch, heldout_loss, initial_loss,
    train_positions, heldout_positions, epochs [{epoch, train_loss, heldout_loss, lr}]}, gate
    (the candidate's match against the current net, in the format of ``nardy eval --json``, with
    its ``sprt`` verdict), promoted, current (the current net after it), seconds {label, fit, gate,
    benchmark}, and benchmark {candidate, start (generation 1)}: {phase: millipoints} when the
    config names a position benchmark.
    """
    return [m for m in read_metrics(run) if "generation" in m]


def read_state(run: Any) -> dict[str, Any]:
    """``state.json`` of a run as a dict (games_done, positions, elapsed_s, checkpoint, ...)."""
    path = run_dir_of(run) / "state.json"
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise NardyError(f"cannot read '{path}': {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise NardyError(f"'{path}': not a JSON object ({e})") from None


def list_checkpoints(run: Any) -> list[Path]:
    """The ``ckpt-<games>.pt`` files of a run, ordered by games (ckpt-2 before ckpt-10)."""
    found = []
    directory = run_dir_of(run)
    try:
        entries = list(directory.iterdir())
    except OSError as e:
        raise NardyError(f"cannot list run directory '{directory}': {e.strerror}") from None
    for p in entries:
        m = re.fullmatch(r"ckpt-(\d+)\.pt", p.name)
        if m:
            found.append((int(m.group(1)), p))
    return [p for _, p in sorted(found)]
