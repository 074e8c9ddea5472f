"""Plots of training runs, matches, tournaments, rollouts and analyses (matplotlib).

matplotlib is imported when a plot is made, not with ``nardy``. Every function returns the
matplotlib Figure (Jupyter shows it; ``fig.savefig(path)`` writes it)::

    import nardy.plots as nplt
    nplt.learning_curve("runs/demo")            # eval points/game with 95% CI, TD error, games/s
    nplt.ratings(nardy.tournament([...]))        # Elo with 95% CI per player
    nplt.arena_results({"vs random": r1, "vs heuristic": r2})
    nplt.rollout(nardy.rollout(pos, trials=1296))
    nplt.candidates(nardy.analyze(pos, 6, 5, agent="net:best.pt"))   # an Analysis
    nplt.review(nardy.review("game.txt"))       # equity over the game, marked errors, luck
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from nardy.runs import read_generations, read_metrics

__all__ = ["learning_curve", "ratings", "arena_results", "rollout", "candidates", "review"]


def _pyplot():
    import matplotlib.pyplot as plt  # lazy
    return plt


def _finite(x: Any) -> float:
    return float(x) if x is not None and math.isfinite(float(x)) else float("nan")


def learning_curve(run: Any, opponents: Optional[Sequence[str]] = None, title: Optional[str] = None):
    """Three panels over self-play games from a run's ``metrics.jsonl``: evaluation points per game
    with 95% CI per opponent, TD error, and self-play speed (games/s).

    `run`: a run directory, a :class:`nardy.TrainResult`, or the list of metrics dicts
    (:func:`nardy.read_metrics`). `opponents` limits the evaluation curves to these specs.
    """
    metrics = run if isinstance(run, list) else read_metrics(run)
    metrics = [m for m in metrics if "games" in m]  # the TD stage's lines (not the generations')
    if not metrics:
        raise ValueError("learning_curve: the run has no metrics lines yet")
    plt = _pyplot()
    fig, (ax_eval, ax_td, ax_speed) = plt.subplots(1, 3, figsize=(15, 4.2))
    games = [m["games"] for m in metrics]

    series: dict[str, list[tuple[int, float, float, float]]] = {}
    for m in metrics:
        for opp, e in (m.get("eval") or {}).items():
            if opponents is not None and opp not in opponents:
                continue
            series.setdefault(opp, []).append(
                (m["games"], e["a_points_per_game"], _finite(e.get("ci95_low")), _finite(e.get("ci95_high"))))
    for opp, pts in series.items():
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        line, = ax_eval.plot(xs, ys, marker="o", label=opp)
        ax_eval.fill_between(xs, [p[2] for p in pts], [p[3] for p in pts], color=line.get_color(), alpha=0.2)
    ax_eval.axhline(0, color="grey", lw=0.8)
    ax_eval.set_xlabel("self-play games")
    ax_eval.set_ylabel("points per game (95% CI)")
    ax_eval.set_title("evaluation (mirrored pairs)")
    if series:
        ax_eval.legend(fontsize="small")
    else:
        ax_eval.text(0.5, 0.5, "no evaluation yet", ha="center", va="center", transform=ax_eval.transAxes)

    ax_td.plot(games, [m.get("td_error", float("nan")) for m in metrics], marker=".")
    ax_td.set_xlabel("self-play games")
    ax_td.set_ylabel("mean |TD error| (equity)")
    ax_td.set_title("TD error")

    ax_speed.plot(games, [m.get("games_per_s", float("nan")) for m in metrics], marker=".")
    ax_speed.set_xlabel("self-play games")
    ax_speed.set_ylabel("games / s")
    ax_speed.set_title("self-play speed")
    ax_speed.set_ylim(bottom=0)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def generations(run: Any, title: Optional[str] = None):
    """Four panels over the generations of a run (:func:`nardy.read_generations`): the gate's
    points per game of each candidate against the current net with its 95% CI (filled markers:
    promoted), the benchmark error per phase of each candidate (when the run scores one; the
    start net's at generation 0), the fit's held-out loss before and after, and the seconds per
    stage.

    `run`: a run directory, the dict :func:`nardy.run_generations` returns, or the list of
    generation rows.
    """
    if isinstance(run, dict) and "run_dir" in run:
        run = run["run_dir"]
    rows = run if isinstance(run, list) else read_generations(run)
    if not rows:
        raise ValueError("generations: the run has no finished generation yet")
    plt = _pyplot()
    fig, (ax_gate, ax_bench, ax_fit, ax_time) = plt.subplots(1, 4, figsize=(18, 4.2))
    gens = [r["generation"] for r in rows]

    ppg = [r["gate"]["a_points_per_game"] for r in rows]
    low = [_finite(r["gate"].get("ci95_low")) for r in rows]
    high = [_finite(r["gate"].get("ci95_high")) for r in rows]
    ax_gate.errorbar(gens, ppg, yerr=[[p - lo for p, lo in zip(ppg, low)], [hi - p for p, hi in zip(ppg, high)]],
                     fmt="none", ecolor="grey", capsize=3)
    for g, p, r in zip(gens, ppg, rows):
        ax_gate.plot([g], [p], marker="o", color="tab:green" if r["promoted"] else "tab:red",
                     fillstyle="full" if r["promoted"] else "none")
    ax_gate.axhline(0, color="grey", lw=0.8)
    ax_gate.set_xlabel("generation")
    ax_gate.set_ylabel("points per game vs current (95% CI)")
    ax_gate.set_title("gate (filled green: promoted)")

    benched = [r for r in rows if "benchmark" in r]
    if benched:
        phases = list(benched[0]["benchmark"]["candidate"].keys())
        start = benched[0]["benchmark"].get("start")
        for phase in phases:
            xs = [r["generation"] for r in benched]
            ys = [r["benchmark"]["candidate"].get(phase, float("nan")) for r in benched]
            if start is not None:
                xs, ys = [0] + xs, [start.get(phase, float("nan"))] + ys
            ax_bench.plot(xs, ys, marker="o", label=phase, lw=2.5 if phase == "overall" else 1.2)
        ax_bench.legend(fontsize="small")
        ax_bench.set_ylim(bottom=0)
    else:
        ax_bench.text(0.5, 0.5, "no benchmark\n(generations.benchmark)", ha="center", va="center",
                      transform=ax_bench.transAxes)
    ax_bench.set_xlabel("generation")
    ax_bench.set_ylabel("error (millipoints per decision)")
    ax_bench.set_title("benchmark at 0-ply")

    ax_fit.plot(gens, [r["fit"]["initial_loss"] for r in rows], marker="o", label="before the fit")
    ax_fit.plot(gens, [r["fit"]["heldout_loss"] for r in rows], marker="o", label="best epoch")
    ax_fit.set_xlabel("generation")
    ax_fit.set_ylabel("held-out loss")
    ax_fit.set_title("fit")
    ax_fit.legend(fontsize="small")

    bottom = [0.0] * len(rows)
    for stage in ("label", "fit", "gate", "benchmark"):
        minutes = [r["seconds"].get(stage, 0.0) / 60 for r in rows]
        ax_time.bar(gens, minutes, bottom=bottom, label=stage)
        bottom = [b + m for b, m in zip(bottom, minutes)]
    ax_time.set_xlabel("generation")
    ax_time.set_ylabel("minutes")
    ax_time.set_title("time per stage")
    ax_time.legend(fontsize="small")
    for ax in (ax_gate, ax_bench, ax_fit, ax_time):
        ax.set_xticks(sorted(set(gens) | ({0} if benched and benched[0]["benchmark"].get("start") else set())))
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def ratings(result: Any, title: str = "tournament ratings"):
    """Elo of every player with its 95% CI, best on top, from a :class:`nardy.TournamentResult`
    (or its ``to_dict()``). The first player is the anchor (0)."""
    if isinstance(result, Mapping):
        names = [p["spec"] for p in result["players"]]
        elo = [_finite(p["elo"]) for p in result["players"]]
        lo = [_finite(p["elo_ci95_low"]) for p in result["players"]]
        hi = [_finite(p["elo_ci95_high"]) for p in result["players"]]
    else:
        names = list(result.players)
        elo = [r.elo for r in result.ratings]
        lo = [r.ci95_low for r in result.ratings]
        hi = [r.ci95_high for r in result.ratings]
    order = sorted(range(len(names)), key=lambda i: (elo[i] if math.isfinite(elo[i]) else -1e9))
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(names) + 1.5))
    ys = list(range(len(order)))
    xs = [elo[i] for i in order]
    err = [[max(0.0, elo[i] - lo[i]) for i in order], [max(0.0, hi[i] - elo[i]) for i in order]]
    ax.errorbar(xs, ys, xerr=err, fmt="o", capsize=4)
    ax.set_yticks(ys)
    ax.set_yticklabels([_short(names[i]) for i in order])
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel(f"Elo relative to {_short(names[0])} (95% CI)")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def arena_results(results: Union[Mapping[str, Any], Iterable[Any]], title: str = "points per game"):
    """A's points per game with 95% CI for several :class:`nardy.ArenaResult` s, labelled by the
    mapping's keys (or "A vs B" from the specs)."""
    items = list(results.items()) if isinstance(results, Mapping) else [
        (f"{_short(r.a_spec)} vs {_short(r.b_spec)}", r) for r in results]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(items) + 1.5))
    ys = list(range(len(items)))
    xs = [r.a_points_per_game for _, r in items]
    err = [[max(0.0, r.a_points_per_game - _finite(r.ci95_low)) for _, r in items],
           [max(0.0, _finite(r.ci95_high) - r.a_points_per_game) for _, r in items]]
    ax.errorbar(xs, ys, xerr=err, fmt="o", capsize=4)
    ax.set_yticks(ys)
    ax.set_yticklabels([k for k, _ in items])
    ax.axvline(0, color="grey", lw=0.8)
    ax.invert_yaxis()  # first result on top
    ax.set_xlabel("A's points per game (95% CI, mirrored pairs)")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def rollout(result: Any, title: Optional[str] = None):
    """Probabilities and equity of a :class:`nardy.RolloutResult` with ±1.96 standard errors
    (adjusted estimates in colour, raw outcomes in grey)."""
    names = ["win", "win_mars", "lose", "lose_mars", "draw"]
    plt = _pyplot()
    fig, (ax_p, ax_e) = plt.subplots(1, 2, figsize=(11, 3.8), gridspec_kw={"width_ratios": [4, 1]})
    xs = list(range(len(names)))
    w = 0.38
    ax_p.bar([x - w / 2 for x in xs], [result.mean[n] for n in names], w,
             yerr=[1.96 * result.se[n] for n in names], capsize=4, label="adjusted")
    ax_p.bar([x + w / 2 for x in xs], [result.raw_mean[n] for n in names], w,
             yerr=[1.96 * result.raw_se[n] for n in names], capsize=4, color="lightgrey", label="raw")
    ax_p.set_xticks(xs)
    ax_p.set_xticklabels(names)
    ax_p.set_ylabel("probability (95% CI)")
    ax_p.legend(fontsize="small")
    ax_e.bar([0, 1], [result.mean["equity"], result.raw_mean["equity"]],
             yerr=[1.96 * result.se["equity"], 1.96 * result.raw_se["equity"]], capsize=4,
             color=["C0", "lightgrey"])
    ax_e.set_xticks([0, 1])
    ax_e.set_xticklabels(["equity", "raw"])
    ax_e.axhline(0, color="grey", lw=0.8)
    fig.suptitle(title or f"rollout: {result.trials} trials, {_short(result.agent_spec)}")
    fig.tight_layout()
    return fig


def candidates(analysis: Any, top: int = 10, title: Optional[str] = None):
    """Equity of the best `top` moves of a :class:`nardy.Analysis` (or a list of MoveAnalysis),
    mover's view, best on top; rollout values get ±1.96 standard-error bars, the agent's own
    choice is marked with *."""
    moves = list(getattr(analysis, "moves", analysis))[:top]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 0.4 * len(moves) + 1.5))
    ys = list(range(len(moves)))
    err = [1.96 * m.equity_se for m in moves] if any(m.equity_se > 0 for m in moves) else None
    ax.barh(ys, [m.equity for m in moves], xerr=err, capsize=3,
            color=["C1" if i == 0 else "C0" for i in range(len(moves))])
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{'*' if m.agent_choice else ''}{m.notation}  "
                        f"({'rollout' if m.ply < 0 else f'{m.ply}-ply'})" for m in moves])
    ax.invert_yaxis()  # best on top
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel("equity for the mover")
    method = getattr(analysis, "method", "")
    ax.set_title(title or (f"candidate moves: {method}" if method else "candidate moves"))
    fig.tight_layout()
    return fig


_MARK_COLOURS = {"doubtful": "#e0a000", "bad": "#e06000", "very bad": "#c00000"}


def review(result: Any, title: Optional[str] = None):
    """Two panels of a :class:`nardy.Review` (docs/review.md) over every turn of the record: the
    first player's equity after each turn (the played result's value) with the marked moves as
    coloured dots, and each player's running total of error and of luck (points)."""
    turns = list(result.turns)
    names = list(result.names)
    plt = _pyplot()
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 6), sharex=True)
    xs = list(range(1, len(turns) + 1))
    equity = [t.played.equity if t.player == 0 else -t.played.equity for t in turns]
    top.plot(xs, equity, color="C0", lw=1.2)
    for mark, colour in _MARK_COLOURS.items():
        pts = [(x, e) for x, e, t in zip(xs, equity, turns) if t.mark == mark]
        if pts:
            top.scatter(*zip(*pts), color=colour, zorder=3, label=mark)
    top.axhline(0, color="grey", lw=0.8)
    top.set_ylim(-2.1, 2.1)
    top.set_ylabel(f"equity of {names[0]}")
    if any(t.mark for t in turns):
        top.legend(loc="upper left", fontsize="small")
    for p in (0, 1):
        err, luck, e, l = [], [], 0.0, 0.0
        for t in turns:
            if t.player == p:
                e += t.error
                l += t.luck or 0.0
            err.append(e)
            luck.append(l)
        bottom.plot(xs, err, color=f"C{p + 1}", label=f"{names[p]}: error")
        if any(t.luck is not None for t in turns):
            bottom.plot(xs, luck, color=f"C{p + 1}", ls="--", label=f"{names[p]}: luck")
    bottom.axhline(0, color="grey", lw=0.8)
    bottom.set_xlabel("turn")
    bottom.set_ylabel("running total (points)")
    bottom.legend(loc="upper left", fontsize="small")
    top.set_title(title or f"review by {_short(result.agent_spec)}: {result.method}")
    fig.tight_layout()
    return fig


def _short(spec: str, width: int = 40) -> str:
    """A label for an agent spec: net:PATH[:options] becomes net:<file name>[:options]."""
    if spec.startswith("net:"):
        path, sep, options = spec[4:].partition(":")
        spec = "net:" + path.rstrip("/").rsplit("/", 1)[-1] + sep + options
    return spec if len(spec) <= width else "…" + spec[-(width - 1):]
