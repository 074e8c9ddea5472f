"""PyTorch interop: train value networks in Python torch and play them with the C++ engine.

A nardy checkpoint is a TorchScript file (nn/value_net.h) with parameters ``w0, b0, w1, b1, ...``
(weights ``[in, out]``, the layer computes ``x @ w + b``, input layer first), hidden activation
sigmoid/tanh/relu, K = 3 logits (4 with draws) and the extra file ``nardy.json`` (shape, encoder,
rules, counters; nn/checkpoint_json.h). Its ``forward(x)`` gives ``[N, 5]``: win, win_mars,
lose_mars, draw, equity. :class:`ValueMLP` is the same network as an ordinary ``torch.nn.Module``,
so it trains with any torch optimiser; :func:`save_checkpoint` writes it as a checkpoint that
``nardy.load_checkpoint``, ``net:PATH`` agents, ``nardy eval`` and ``nardy.arena`` load::

    import nardy, nardy.torch_interop as ti
    games = nardy.play("heuristic", "heuristic", games=200, seed=1)
    positions, targets = ti.outcome_targets(games)          # who won each position, in the end
    x = nardy.encode(positions, "raw")
    model = ti.ValueMLP(x.shape[1], hidden=[64])
    ti.fit(model, x, targets, epochs=5)
    ti.save_checkpoint(model, "python.pt", encoder="raw")
    print(nardy.arena("net:python.pt", "random", games=200))

torch is imported with this module (``import nardy`` does not import it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence, Union

import numpy as np
import torch

from nardy import _nardy

__all__ = ["ValueMLP", "evaluation_head", "save_checkpoint", "load_module", "fit", "predict",
           "outcome_targets", "distill_targets"]

_ACTIVATIONS = {"sigmoid": torch.sigmoid, "tanh": torch.tanh, "relu": torch.relu}
METADATA_FILE = "nardy.json"


# The head is defined once, in C++ (nn/evaluation.h), as TorchScript text; compiled here.
_HEAD = torch.jit.CompilationUnit(_nardy.evaluation_head_torchscript()).evaluation_head


def evaluation_head(z: torch.Tensor) -> torch.Tensor:
    """The head of nn/evaluation.h on logits ``z`` [N, K] (K = 3 or 4) -> [N, 5]: win, win_mars,
    lose_mars, draw, equity. Differentiable; the same TorchScript the C++ modules use."""
    return _HEAD(z)


class ValueMLP(torch.nn.Module):
    """The nardy value network as a plain torch module: parameters ``w0, b0, ...`` in the
    checkpoint layout, ``logits(x)`` -> [N, K] and ``forward(x)`` -> [N, 5] like the TorchScript."""

    def __init__(self, num_inputs: int, hidden: Sequence[int] = (128,), activation: str = "sigmoid",
                 num_outputs: int = 3, seed: Optional[int] = None) -> None:
        super().__init__()
        if activation not in _ACTIVATIONS:
            raise ValueError(f"activation: expected one of {sorted(_ACTIVATIONS)}, got {activation!r}")
        if num_outputs not in (3, 4):
            raise ValueError(f"num_outputs: expected 3, or 4 with draws, got {num_outputs}")
        self.num_inputs = int(num_inputs)
        self.hidden = [int(h) for h in hidden]
        self.activation = activation
        self.num_outputs = num_outputs
        gen = torch.Generator().manual_seed(seed) if seed is not None else None
        sizes = [self.num_inputs, *self.hidden, num_outputs]
        for i in range(len(sizes) - 1):
            bound = 1.0 / sizes[i] ** 0.5  # nn.Linear's default, as ValueNet.create
            w = (torch.rand(sizes[i], sizes[i + 1], generator=gen) * 2 - 1) * bound
            b = (torch.rand(sizes[i + 1], generator=gen) * 2 - 1) * bound
            self.register_parameter(f"w{i}", torch.nn.Parameter(w))
            self.register_parameter(f"b{i}", torch.nn.Parameter(b))

    @property
    def num_layers(self) -> int:
        """Weight layers: the hidden layers plus the output layer."""
        return len(self.hidden) + 1

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        """The output layer's raw values, [N, K] (K = 3, or 4 with draws) for encoded inputs x."""
        act = _ACTIVATIONS[self.activation]
        h = x
        for i in range(len(self.hidden)):
            h = act(torch.addmm(getattr(self, f"b{i}"), h, getattr(self, f"w{i}")))
        n = len(self.hidden)
        return torch.addmm(getattr(self, f"b{n}"), h, getattr(self, f"w{n}"))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """[N, 5] columns win, win_mars, lose_mars, draw, equity, as the TorchScript forward."""
        return evaluation_head(self.logits(x))

    def parameter_list(self) -> list[torch.Tensor]:
        """[w0, b0, w1, b1, ...] in checkpoint order."""
        return [getattr(self, f"{k}{i}") for i in range(self.num_layers) for k in ("w", "b")]

    @classmethod
    def from_value_net(cls, net: "_nardy.ValueNet") -> "ValueMLP":
        """A torch copy of a nardy ValueNet (e.g. to fine-tune a C++-trained checkpoint)."""
        shape = net.shape
        m = cls(shape["num_inputs"], shape["hidden"], shape["activation"], shape["num_outputs"])
        with torch.no_grad():
            for p, a in zip(m.parameter_list(), net.parameters()):
                p.copy_(torch.from_numpy(a))
        return m

    def to_value_net(self, encoder: str) -> "_nardy.ValueNet":
        """A nardy ValueNet with these parameters (an in-memory net the C++ agents can use)."""
        net = _nardy.ValueNet.create(encoder, self.hidden, self.activation, self.num_outputs)
        if net.num_inputs != self.num_inputs:
            raise ValueError(f"encoder {encoder!r} has {net.num_inputs} inputs but the module takes {self.num_inputs}")
        net.set_parameters([p.detach().cpu().float().numpy() for p in self.parameter_list()])
        return net


def save_checkpoint(module: ValueMLP, path: Union[str, "os.PathLike[str]"], encoder: str = "raw",
                    info: Optional[dict] = None) -> Path:
    """Writes `module` as a nardy checkpoint at `path`.

    The parameters go into a C++ ValueNet of the same shape, which writes the file atomically
    with its metadata from `info` (rules, games, positions, config_yaml, extra) and the
    checksums of both (nn/checkpoint_json.h); ``torch.jit.load`` opens it like any checkpoint.
    """
    path = Path(path)
    module.to_value_net(encoder).save(str(path), info=_info_for_save(info))
    return path


def _info_for_save(info: Optional[dict]) -> Optional[dict]:
    if info is None:
        return {"extra": {"trained_by": "python torch (nardy.torch_interop)"}}
    info = dict(info)
    extra = {str(k): str(v) for k, v in info.get("extra", {}).items()}
    extra.setdefault("trained_by", "python torch (nardy.torch_interop)")
    info["extra"] = extra
    return info


def load_module(path: Union[str, "os.PathLike[str]"]) -> ValueMLP:
    """A checkpoint as a trainable :class:`ValueMLP` (via ``torch.jit.load`` and its nardy.json)."""
    extra = {METADATA_FILE: ""}
    scripted = torch.jit.load(str(path), _extra_files=extra)
    if not extra[METADATA_FILE]:
        raise ValueError(f"'{path}' has no {METADATA_FILE}: not a nardy checkpoint")
    meta = json.loads(extra[METADATA_FILE])
    m = ValueMLP(meta["num_inputs"], meta["hidden"], meta["activation"], meta["num_outputs"])
    with torch.no_grad():
        for i in range(m.num_layers):
            for k in ("w", "b"):
                getattr(m, f"{k}{i}").copy_(getattr(scripted, f"{k}{i}"))
    return m


def predict(module: torch.nn.Module, features: np.ndarray, batch_size: int = 8192) -> np.ndarray:
    """``module(features)`` as a NumPy array [N, 5] without gradients."""
    out = []
    with torch.no_grad():
        for start in range(0, len(features), batch_size):
            out.append(module(torch.from_numpy(np.ascontiguousarray(features[start:start + batch_size]))))
    return torch.cat(out).numpy() if out else np.zeros((0, 5), dtype=np.float32)


def fit(module: ValueMLP, features: np.ndarray, targets: np.ndarray, epochs: int = 10, batch_size: int = 256,
        lr: float = 1e-3, weight_decay: float = 0.0, seed: int = 0, validation: float = 0.0,
        verbose: bool = False) -> dict[str, list[float]]:
    """Supervised training of `module` on encoded positions.

    `targets` [N, 4] (or [N, 3]) are the probabilities win, win_mars, lose_mars (, draw) from the
    side to move, e.g. 0/1 outcomes (:func:`outcome_targets`) or another net's evaluation
    (:func:`distill_targets`). The loss is the binary cross-entropy of each of the head's
    probabilities (nn/evaluation.h) against its target. Adam; `validation` holds out that
    fraction (the last rows after a seeded shuffle). Returns {"train": [...], "validation": [...]}
    mean losses per epoch.
    """
    x = torch.from_numpy(np.ascontiguousarray(features, dtype=np.float32))
    y = torch.from_numpy(np.ascontiguousarray(targets, dtype=np.float32))
    if x.ndim != 2 or x.shape[1] != module.num_inputs:
        raise ValueError(f"features: expected [N, {module.num_inputs}], got {list(x.shape)}")
    if y.ndim != 2 or y.shape[0] != x.shape[0] or y.shape[1] not in (3, 4):
        raise ValueError(f"targets: expected [{x.shape[0]}, 3 or 4], got {list(y.shape)}")
    k = 4 if module.num_outputs == 4 else 3
    y = y[:, :k]
    gen = torch.Generator().manual_seed(seed)
    order = torch.randperm(x.shape[0], generator=gen)
    n_val = int(round(validation * x.shape[0]))
    train_idx, val_idx = order[: x.shape[0] - n_val], order[x.shape[0] - n_val:]
    opt = torch.optim.Adam(module.parameters(), lr=lr, weight_decay=weight_decay)
    history: dict[str, list[float]] = {"train": [], "validation": []}

    def loss_of(xb: torch.Tensor, yb: torch.Tensor) -> torch.Tensor:
        p = module(xb)[:, :k].clamp(1e-6, 1 - 1e-6)
        return torch.nn.functional.binary_cross_entropy(p, yb)

    for epoch in range(epochs):
        module.train()
        perm = train_idx[torch.randperm(len(train_idx), generator=gen)]
        total, count = 0.0, 0
        for start in range(0, len(perm), batch_size):
            idx = perm[start:start + batch_size]
            opt.zero_grad()
            loss = loss_of(x[idx], y[idx])
            loss.backward()
            opt.step()
            total += float(loss) * len(idx)
            count += len(idx)
        history["train"].append(total / max(count, 1))
        if n_val:
            module.eval()
            with torch.no_grad():
                history["validation"].append(float(loss_of(x[val_idx], y[val_idx])))
        if verbose:
            val = f"  validation {history['validation'][-1]:.4f}" if n_val else ""
            print(f"epoch {epoch + 1}/{epochs}: train {history['train'][-1]:.4f}{val}", flush=True)
    module.eval()
    return history


def outcome_targets(games: Iterable["_nardy.Game"], every: int = 1, draws: bool = False):
    """Positions of finished games with the final result from each position's side to move.

    Returns (positions, targets): every `every`-th position before a turn, and float32 targets
    [N, 4] = (won, won by mars, lost by mars, draw) — 0/1 outcomes, so a net trained on them
    learns the value of the players that made the games."""
    positions, rows = [], []
    for g in games:
        outcome = g.outcome
        if outcome is None:
            raise ValueError("outcome_targets: every game must be finished")
        for i, turn in enumerate(g.history):
            if i % every:
                continue
            pts = outcome.points_for(turn.mover)
            positions.append(turn.before)
            rows.append((1.0 if pts > 0 else 0.0, 1.0 if pts == 2 else 0.0, 1.0 if pts == -2 else 0.0,
                         1.0 if outcome.is_draw and draws else 0.0))
    return positions, np.asarray(rows, dtype=np.float32).reshape(-1, 4)


def distill_targets(net: "_nardy.ValueNet", positions: Sequence[Any]) -> np.ndarray:
    """Another net's probabilities (win, win_mars, lose_mars, draw) of `positions` as targets [N, 4]."""
    return np.ascontiguousarray(net.evaluate(list(positions))[:, :4])
