"""nardy.plots: figures from runs, matches, tournaments, rollouts and analyses (Agg backend)."""

import math

import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import nardy  # noqa: E402
import nardy.plots as nplt  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_learning_curve_from_a_run(small_run, tmp_path):
    fig = nplt.learning_curve(small_run.run_dir, title="small")
    ax_eval, ax_td, ax_speed = fig.axes
    labels = [t.get_text() for t in ax_eval.get_legend().get_texts()]
    assert sorted(labels) == ["heuristic", "random"]
    metrics = nardy.read_metrics(small_run)
    line = ax_eval.get_lines()[labels.index("random")]
    evals = [m for m in metrics if "eval" in m]
    assert list(line.get_xdata()) == [m["games"] for m in evals]
    assert list(line.get_ydata()) == [m["eval"]["random"]["a_points_per_game"] for m in evals]
    assert list(ax_td.get_lines()[0].get_ydata()) == [m["td_error"] for m in metrics]
    assert list(ax_speed.get_lines()[0].get_ydata()) == [m["games_per_s"] for m in metrics]
    fig.savefig(tmp_path / "lc.png")
    assert (tmp_path / "lc.png").stat().st_size > 1000
    one = nplt.learning_curve(metrics, opponents=["heuristic"])
    assert [t.get_text() for t in one.axes[0].get_legend().get_texts()] == ["heuristic"]


def test_learning_curve_without_evaluations():
    metrics = [{"games": g, "td_error": 0.1, "games_per_s": 100.0} for g in (10, 20)]
    fig = nplt.learning_curve(metrics)
    assert "no evaluation yet" in [t.get_text() for t in fig.axes[0].texts]
    with pytest.raises(ValueError, match="no metrics"):
        nplt.learning_curve([])


def test_ratings_and_arena_plots():
    t = nardy.tournament(["random", "heuristic"], games=10, seed=1)
    fig = nplt.ratings(t)
    ax = fig.axes[0]
    assert [x.get_text() for x in ax.get_yticklabels()] == ["random", "heuristic"]  # best on top
    assert nplt.ratings(t.to_dict()).axes[0].get_yticklabels()[1].get_text() == "heuristic"
    r1 = nardy.arena("heuristic", "random", games=10)
    r2 = nardy.arena("random", "heuristic", games=10)
    fig = nplt.arena_results({"h-r": r1, "r-h": r2})
    assert [x.get_text() for x in fig.axes[0].get_yticklabels()] == ["h-r", "r-h"]
    fig = nplt.arena_results([r1])
    assert fig.axes[0].get_yticklabels()[0].get_text() == "heuristic vs random"


def test_rollout_and_candidates_plots(checkpoint):
    pos = nardy.Position.start()
    r = nardy.rollout(pos, trials=36, agent=f"net:{checkpoint}")
    fig = nplt.rollout(r)
    bars = fig.axes[0].patches
    assert len(bars) == 10 and math.isclose(bars[0].get_height(), r.mean["win"])
    a = nardy.analyze(nardy.random_game(3).history[20].before, 6, 2, agent=f"net:{checkpoint}")
    fig = nplt.candidates(a, top=3)
    labels = [x.get_text() for x in fig.axes[0].get_yticklabels()]
    assert labels[0].startswith("*" + a.best.notation)  # best first, at the top
    assert fig.axes[0].yaxis_inverted()
    assert len(labels) == min(3, len(a))
