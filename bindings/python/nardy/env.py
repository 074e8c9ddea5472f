"""A Gym-style environment: one Long Nardy game against a fixed opponent per episode.

The learning agent plays one side (``agent_side``: 'w', 'b' or 'random' per episode); the
opponent is any nardy agent (spec string, :class:`nardy.Agent`, ValueNet or callable). Every
observation is a position with the agent to move and its dice already rolled::

    env = NardyEnv(opponent="heuristic", seed=1)
    obs, info = env.reset()
    while True:
        action = pick(obs, info["legal_moves"])     # an index into info["legal_moves"]
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

* observation: ``nardy.encode(position, encoder)`` — float32 [num_inputs] from the agent's view.
* info: ``dice`` (d1, d2); ``legal_moves`` — the legal MoveResults of those dice, sorted by position
  as ``Position.legal`` (never empty: a roll that cannot be played is one 'pass' result to take);
  ``afterstates`` — ``nardy.encode`` of each result (float32 [n, num_inputs], from the opponent's
  view, who moves next); ``position``; ``turn``; ``agent_side``; at the end ``outcome``.
* action: an index into ``info["legal_moves"]``, or a MoveResult, a resulting Position, or notation.
* reward: 0 until the game ends, then the agent's points — +1/+2 for its oin/mars, -1/-2 for the
  opponent's, 0 for a draw (last_roll_draw rules).
* terminated when the game is over; truncated after ``max_turns`` turns (both sides counted).
* seeding: ``NardyEnv(seed=s)`` or ``reset(seed=s)`` makes dice, sides and the opponent's random
  choices reproducible (nardy.Rng streams); ``seed=None`` draws a seed from the OS.
"""

from __future__ import annotations

import random as _random
from typing import Any, Optional

import numpy as np

import nardy
from nardy import _nardy

__all__ = ["NardyEnv"]


class NardyEnv:
    """Long Nardy against a fixed opponent, with the reset/step API of Gymnasium (see module doc)."""

    metadata = {"render_modes": ["ansi", "svg"]}

    def __init__(self, rules: Any = None, opponent: Any = "random", seed: Optional[int] = None,
                 encoder: str = "raw", agent_side: str = "w", max_turns: int = 10000,
                 render_mode: Optional[str] = None) -> None:
        self.rules = rules if isinstance(rules, _nardy.Rules) else (
            _nardy.Rules() if rules is None else _rules_from(rules))
        self.opponent = _nardy.make_agent(opponent, rules=self.rules)
        self.encoder = _nardy.Encoder(encoder)
        if agent_side not in ("w", "b", "random"):
            raise ValueError(f"agent_side: expected 'w', 'b' or 'random', got {agent_side!r}")
        self.agent_side_choice = agent_side
        if max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, got {max_turns}")
        self.max_turns = max_turns
        if render_mode not in (None, "ansi", "svg"):
            raise ValueError(f"render_mode: expected None, 'ansi' or 'svg', got {render_mode!r}")
        self.render_mode = render_mode
        self.num_inputs = self.encoder.num_inputs
        self._seed(seed)
        self.game: Optional[_nardy.Game] = None
        self.agent_side: Optional[_nardy.Side] = None
        self._dice: Optional[tuple[int, int]] = None
        self._moves: list = []
        self._done = True

    # ---- Gym API --------------------------------------------------------------------------

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> tuple[np.ndarray, dict]:
        """Starts a new game; plays the opponent's first turn if it moves first."""
        if seed is not None:
            self._seed(seed)
        start = (options or {}).get("start")
        self.game = _nardy.Game(self.rules, start)
        if self.agent_side_choice == "random":
            self.agent_side = _nardy.Side.White if self._rng.below(2) == 0 else _nardy.Side.Black
        else:
            self.agent_side = _nardy.Side.White if self.agent_side_choice == "w" else _nardy.Side.Black
        self._done = False
        self._play_opponent()
        if self.game.is_over or len(self.game.history) >= self.max_turns:
            raise nardy.NardyError("reset: the game ended before the agent's first turn (start position?)")
        self._roll()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Plays the agent's move, then the opponent's turn; rolls the agent's next dice."""
        if self._done or self.game is None:
            raise RuntimeError("step() after the episode ended: call reset()")
        move = self._resolve(action)
        d1, d2 = self._dice
        self.game.play(d1, d2, move)
        if not self.game.is_over and len(self.game.history) < self.max_turns:
            self._play_opponent()
        terminated = self.game.is_over
        truncated = not terminated and len(self.game.history) >= self.max_turns
        reward = 0.0
        if terminated:
            reward = float(self.game.outcome.points_for(self.agent_side))
        if terminated or truncated:
            self._done = True
            self._dice, self._moves = None, []
        else:
            self._roll()
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self) -> Optional[str]:
        """'ansi': the text board; 'svg': the SVG picture (last move drawn); None: nothing."""
        if self.game is None or self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return self.game.position.draw()
        return self.game._repr_svg_()

    def close(self) -> None:
        """Nothing to release (for API compatibility)."""

    # ---- helpers --------------------------------------------------------------------------

    @property
    def legal_moves(self) -> list:
        """The legal MoveResults of the agent's current dice (empty after the episode ends)."""
        return list(self._moves)

    def _seed(self, seed: Optional[int]) -> None:
        if seed is None:
            seed = _random.SystemRandom().getrandbits(63)
        self.seed_value = seed
        root = _nardy.Rng(seed)
        self._rng = root.split(1)      # dice and sides
        self._opp_rng = root.split(2)  # the opponent's own randomness

    def _roll(self) -> None:
        self._dice = self.game.roll(self._rng)
        self._moves = self.game.legal(*self._dice)

    def _play_opponent(self) -> None:
        while (not self.game.is_over and self.game.position.side_to_move != self.agent_side
               and len(self.game.history) < self.max_turns):
            d1, d2 = self.game.roll(self._rng)
            choice = self.opponent.choose(self.game.position, d1, d2, rng=self._opp_rng)
            self.game.play(d1, d2, choice)

    def _resolve(self, action: Any):
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            i = int(action)
            if not 0 <= i < len(self._moves):
                raise nardy.NardyError(f"action {i} is not an index into the {len(self._moves)} legal moves "
                                       f"(0..{len(self._moves) - 1})")
            return self._moves[i]
        if isinstance(action, (_nardy.MoveResult, _nardy.Position, str)):
            return action  # Game.play checks legality and raises NardyError
        raise TypeError(f"action: expected an index, MoveResult, Position or notation, got {type(action).__name__}")

    def _observation(self) -> np.ndarray:
        pos = self.game.position
        if pos.side_to_move != self.agent_side:
            pos = pos.with_side_to_move(self.agent_side)
        return self.encoder.encode(pos)

    def _info(self) -> dict:
        info: dict[str, Any] = {
            "position": self.game.position,
            "turn": len(self.game.history),
            "agent_side": self.agent_side,
            "dice": self._dice,
            "legal_moves": list(self._moves),
            "afterstates": (self.encoder.encode([m.position for m in self._moves]) if self._moves
                            else np.zeros((0, self.num_inputs), dtype=np.float32)),
        }
        if self.game.is_over:
            info["outcome"] = self.game.outcome
        return info

    def __repr__(self) -> str:
        return (f"NardyEnv(opponent={self.opponent.spec!r}, encoder={self.encoder.id!r}, "
                f"agent_side={self.agent_side_choice!r}, rules={str(self.rules)!r})")


def _rules_from(rules: Any) -> "_nardy.Rules":
    if isinstance(rules, str):
        return _nardy.Rules.parse(rules)
    if isinstance(rules, dict):
        r = _nardy.Rules()
        for k, v in rules.items():
            r.set(k, v)
        return r
    raise TypeError(f"rules: expected None, nardy.Rules, 'KEY=VALUE ...' text or a dict, got {type(rules).__name__}")
