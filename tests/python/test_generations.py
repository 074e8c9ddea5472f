"""The generational trainer from Python and the CLI: nardy.run_generations, read_generations,
plots.generations, `nardy train` with generations (progress lines, Ctrl-C and --resume), and
the TD stage followed by generations in one command."""

import os
import pathlib
import signal
import subprocess
import time

import matplotlib
import pytest

import nardy

matplotlib.use("Agg")

SEARCH_NET = str(pathlib.Path(__file__).resolve().parents[1] / "data" / "search_net.pt")

# Two generations of seconds each: 1-ply labels of few games, a short fit, a 40-game gate.
SMALL = {
    "run": {"threads": 2, "seed": 3},
    "net": {"encoder": "extended"},
    "generations": {"count": 2, "init": SEARCH_NET},
    "label": {"sets": ["games=20", "games=12 top=3 candidates=0.3 players=heuristic,current"],
              "ply": 1, "sample": 0.2},
    "fit": {"epochs": 3, "patience": 2, "lr_drops": 0, "batch": 64, "lr": 0.001, "threads": 1},
    "gate": {"games": 40, "chunk": 20, "promote": "not_h0"},
    "log": {"progress": False},
}


def small(tmp_path, name, **changes):
    config = {k: dict(v) for k, v in SMALL.items()}
    config["run"].update({"name": name, "dir": str(tmp_path)})
    for key, value in changes.items():
        section, field = key.split(".")
        config.setdefault(section, {})[field] = value
    return config


def test_run_generations_rows_and_the_plot(tmp_path):
    lines = []
    r = nardy.run_generations(small(tmp_path, "py"), callback=lambda line, final: lines.append((line, final)))
    assert r["generations_done"] == 2 and not r["stopped"]
    assert pathlib.Path(r["current"]).exists()
    rows = nardy.read_generations(r["run_dir"])
    assert [row["generation"] for row in rows] == [1, 2]
    for row in rows:
        assert row["labels"] > 0
        assert row["gate"]["games"] in (20, 40)
        assert row["gate"]["sprt"]["verdict"] in ("H0", "H1", "inconclusive")
        assert row["promoted"] == (row["gate"]["sprt"]["verdict"] != "H0")
        assert row["fit"]["heldout_loss"] <= row["fit"]["initial_loss"]
    finals = [line for line, final in lines if final]
    assert any(line.startswith("gen 1/2 label 1/2:") for line in finals)
    assert any(line.startswith("gen 2/2 gate:") for line in finals)
    # Called again: nothing left to do, the same rows.
    again = nardy.run_generations(small(tmp_path, "py"))
    assert again["generations_done"] == 2
    assert nardy.read_generations(r["run_dir"]) == rows

    fig = nardy.plots.generations(r)
    assert len(fig.axes) == 4
    assert [a.get_title() for a in fig.axes][0].startswith("gate")
    fig.savefig(tmp_path / "generations.png")
    assert (tmp_path / "generations.png").stat().st_size > 10_000


def test_bad_generations_configs_are_named(tmp_path):
    with pytest.raises(nardy.NardyError, match=r"label.sets\[0\]: unknown key 'colour'"):
        nardy.run_generations(small(tmp_path, "bad", **{"label.sets": ["colour=red"]}))
    with pytest.raises(nardy.NardyError, match="generations.count is 0"):
        nardy.run_generations(small(tmp_path, "zero", **{"generations.count": 0}))
    with pytest.raises(nardy.NardyError, match=r"label.sets\[0\]: players: expected agent specs"):
        nardy.run_generations(small(tmp_path, "noplayers", **{"label.sets": ["players="]}))


def write_yaml(path, config):
    import json
    # JSON is YAML: the config as the CLI reads it.
    path.write_text(json.dumps(config))
    return path


def test_cli_runs_stops_on_ctrl_c_and_resumes(tmp_path, build_dir, nardy_cli):
    config = small(tmp_path, "cli", **{"gate.games": 2000, "gate.chunk": 20, "gate.promote": "always",
                                       "generations.count": 1})
    path = write_yaml(tmp_path / "cli.yaml", config)
    proc = subprocess.Popen([str(build_dir / "nardy"), "train", "--config", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    partial = tmp_path / "cli" / "gen-001" / "gate-partial.json"
    deadline = time.time() + 120
    while not partial.exists() and time.time() < deadline and proc.poll() is None:
        time.sleep(0.01)
    assert partial.exists(), proc.communicate()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "stopped after 0 generations; continue with: nardy train --resume" in out
    assert "gen 1/1 label 1/2:" in out and "gen 1/1 fit:" in out
    assert not (tmp_path / "cli" / "gen-001" / "gate.json").exists()

    done = nardy_cli("train", "--resume", tmp_path / "cli", "--set", "gate.games=60")
    assert "gen 1/1 fit: " in done.stdout and "exists" in done.stdout
    assert "gen 1/1 gate: " in done.stdout
    assert "generations done: 1 (1 promoted)" in done.stdout
    rows = nardy.read_generations(tmp_path / "cli")
    assert len(rows) == 1 and rows[0]["gate"]["games"] in (20, 40, 60)  # 60, or an SPRT verdict
    # The resumed config is the run's: the override is in its config.yaml.
    assert "games: 60" in (tmp_path / "cli" / "config.yaml").read_text()
    # A second --config of the same run is refused, naming --resume.
    again = nardy_cli("train", "--config", path, check=False)
    assert again.returncode != 0 and "--resume" in again.stderr


def test_cli_td_stage_then_generations(tmp_path, nardy_cli):
    config = small(tmp_path, "td", **{"generations.init": "", "generations.count": 1,
                                      "train.games": 200, "train.checkpoint_every": 100,
                                      "train.eval_every": 0, "net.hidden": [16]})
    config["eval"] = {"opponents": ["random"], "games": 10}
    path = write_yaml(tmp_path / "td.yaml", config)
    out = nardy_cli("train", "--config", path).stdout
    assert "200 games" in out and "gen 1/1 gate:" in out
    run = tmp_path / "td"
    assert (run / "latest.pt").exists() and (run / "gen-001" / "candidate.pt").exists()
    # The TD lines and the generation's line share metrics.jsonl; the plots tell them apart.
    assert any("games" in m for m in nardy.read_metrics(run))
    assert len(nardy.read_generations(run)) == 1
    nardy.plots.learning_curve(run)
    # --resume of the finished run, one more generation: the TD stage is not rerun.
    more = nardy_cli("train", "--resume", run, "--set", "generations.count=2").stdout
    assert "gen 2/2 gate:" in more and "gen 1/2" not in more
    assert "nardy train: run" not in more  # the TD stage's header: not run again
    assert len(nardy.read_generations(run)) == 2
