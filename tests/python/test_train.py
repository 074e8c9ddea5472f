"""nardy.train(), resume(), configs and run directories (bindings/bind_train.cpp, nardy/runs.py)."""

import pathlib
import subprocess

import pytest
import yaml

import nardy
from nardy import NardyError


def test_small_run_result(small_run):
    r = small_run
    assert r.completed and r.games_done == 300 and r.positions > 300
    assert r.checkpoint.endswith("ckpt-300.pt") and r.best_checkpoint.endswith("best.pt")
    assert [opp for opp, _ in r.final_eval] == ["random", "heuristic"]
    assert r.final_eval_games == 300
    for _, res in r.final_eval:
        assert res.games == 20 and res.ci95_low <= res.a_points_per_game <= res.ci95_high
    assert "finished 300 games" in r.summary and str(r) == r.summary
    assert [p.name for p in nardy.list_checkpoints(r)] == ["ckpt-100.pt", "ckpt-200.pt", "ckpt-300.pt"]


def test_metrics_and_state(small_run):
    metrics = nardy.read_metrics(small_run.run_dir)
    assert [m["games"] for m in metrics] == [50, 100, 150, 200, 250, 300]
    evals = [m for m in metrics if "eval" in m]
    assert [m["games"] for m in evals] == [150, 300]
    last = evals[-1]["eval"]["heuristic"]
    final = dict(small_run.final_eval)["heuristic"]
    assert last["a_points_per_game"] == pytest.approx(final.a_points_per_game)
    assert last["a_wins"] == final.a_wins and last["games"] == final.games
    for m in metrics:
        assert m["games_per_s"] > 0 and m["td_error"] >= 0 and m["positions"] > 0
    state = nardy.read_state(small_run)
    assert state["games_done"] == 300 and state["checkpoint"] == "ckpt-300.pt"


def test_same_config_same_net(tmp_path, small_run):
    # One thread: the run is a deterministic function of the config (selfplay/training/td_trainer.h).
    from conftest import SMALL_RUN_CONFIG

    again = nardy.train(SMALL_RUN_CONFIG, overrides={"run.dir": str(tmp_path), "eval.opponents": []})
    a = nardy.load_checkpoint(small_run.checkpoint).parameters()
    b = nardy.load_checkpoint(again.checkpoint).parameters()
    assert all((x == y).all() for x, y in zip(a, b))
    assert again.final_eval == [] and again.best_checkpoint == ""
    # The same config again on the existing run: the error says the Python way out.
    with pytest.raises(nardy.NardyError, match=r"already holds a run: continue it with nardy\.resume\('.*'\), or "
                       r"give the new run another name \(\{\"run\": \{\"name\": \"NAME\"\}\}") as e:
        nardy.train(SMALL_RUN_CONFIG, overrides={"run.dir": str(tmp_path), "eval.opponents": []})
    assert "--" not in str(e.value)


def test_value_net_create_and_config_agree_on_shapes(tmp_path):
    nardy.ValueNet.create(hidden=[4096, 1, 1, 1])
    for hidden in ([4097], [1, 1, 1, 1, 1], []):
        with pytest.raises(nardy.NardyError, match="hidden layer"):
            nardy.ValueNet.create(hidden=hidden)
        with pytest.raises(nardy.NardyError, match="net.hidden"):
            nardy.train({"net": {"hidden": hidden}, "run": {"dir": str(tmp_path)}})


def test_config_forms_agree(tmp_path, checkpoint):
    opp = f"net:{checkpoint}:ply=1:filter=8,0.16"  # opponents are checked (the file must exist)
    as_dict = {"run": {"name": "x", "dir": str(tmp_path)}, "td": {"lambda": 0.5}, "net": {"hidden": [32, 16],
               "backend": "libtorch"}, "eval": {"opponents": ["random", opp]}}
    flat = {"run.name": "x", "run.dir": str(tmp_path), "td.lambda": 0.5, "net.hidden": [32, 16],
            "net.backend": "libtorch", "eval.opponents": ["random", opp]}
    y1 = nardy.resolve_config(as_dict)
    assert nardy.resolve_config(flat) == y1
    assert nardy.resolve_config(y1) == y1  # YAML text
    path = tmp_path / "c.yaml"
    path.write_text(y1)
    assert nardy.resolve_config(str(path)) == y1
    assert nardy.resolve_config(path) == y1  # os.PathLike
    assert nardy.resolve_config(None, [f"run.dir={tmp_path}", "run.name=x", "td.lambda=0.5", "net.hidden=[32,16]",
                                       "net.backend=libtorch", f"eval.opponents=[random, '{opp}']"]) == y1
    parsed = yaml.safe_load(y1)
    assert parsed["td"]["lambda"] == 0.5 and parsed["net"]["hidden"] == [32, 16]
    assert parsed["eval"]["opponents"][1] == opp
    assert nardy.resolve_config({"rules": "last_roll_draw=true"}) == nardy.resolve_config({"rules": {"last_roll_draw": True}})
    keys = {k for k, _, _ in nardy.config_keys()}
    assert {"td.lambda", "net.hidden", "train.games", "eval.opponents"} <= keys


def test_generation_schedule_from_python():
    """generations.schedule as Python: a list of dicts (flat key paths), the same config as YAML."""
    schedule = [{"label.ply": 1, "label.sets": ["games=400 seed=3"], "fit.lr": 0.001},
                {"label.games": 0, "generations.data_window": 2, "fit.from": "start"}]
    y = nardy.resolve_config({"generations": {"count": 2, "schedule": schedule}})
    assert yaml.safe_load(y)["generations"]["schedule"] == schedule
    assert nardy.resolve_config(y) == y
    assert nardy.resolve_config("generations: {count: 2, schedule: [{label.ply: 1, label.sets: "
                                "['games=400 seed=3'], fit.lr: 0.001}, {label.games: 0, "
                                "generations.data_window: 2, fit.from: start}]}") == y
    with pytest.raises(NardyError, match=r"'run.seed' is not a per-generation key"):
        nardy.resolve_config({"generations.schedule": [{"run.seed": 2}]})
    plan = nardy.generations_plan(y)
    assert "TD stage: 10000 games of TD(lambda) self-play, net raw 128 sigmoid, 1 thread" in plan
    assert "gen 1: label 400 games of current (seed 3)" in plan and "1-ply values" in plan
    assert "gen 2: label nothing\n       fit:  the start net on the labels of generations 1-2" in plan


@pytest.mark.parametrize("config, message", [
    ({"td": {"lambda": 1.5}}, r"td.lambda: expected a number in \[0(.0)?, 1(.0)?\], got .1.5."),
    ({"td.lamda": 0.5}, "unknown key 'td.lamda'"),
    ({"net": {"hidden": [8, 8, 8, 8, 8]}}, "net.hidden"),
    ("no_such_config.yaml", "no such file"),
    ("td: [1, 2", "yaml"),
])
def test_bad_configs_raise(config, message):
    with pytest.raises(NardyError, match=f"(?i){message}"):
        nardy.resolve_config(config)
    with pytest.raises(NardyError):
        nardy.train(config)


def test_bad_config_types():
    with pytest.raises(TypeError, match="config: expected a YAML file path"):
        nardy.train(42)
    with pytest.raises(TypeError, match="config value"):
        nardy.resolve_config({"td.lambda": object()})


def test_schedules_reach_callbacks_and_metrics(tmp_path):
    # A linear lambda schedule 0.8 -> 0.2 over 40 games on two threads: the progress events and
    # metrics.jsonl carry the scheduled values at the games done.
    cfg = {"run": {"dir": str(tmp_path), "name": "sched", "threads": 2, "merge_every": 2}, "net": {"hidden": [8]},
           "td": {"lambda": 0.8, "lambda_schedule": "linear", "lambda_final": 0.2},
           "train": {"games": 40, "checkpoint_every": 20, "eval_every": 0}, "eval": {"opponents": []},
           "log": {"metrics_every": 10}}
    events = []
    r = nardy.train(cfg, callback=events.append)
    assert r.completed
    metrics = nardy.read_metrics(r.run_dir)
    assert [m["games"] for m in metrics] == [10, 20, 30, 40]
    assert [m["lambda"] for m in metrics] == pytest.approx([0.65, 0.5, 0.35, 0.2])
    assert [e.lambda_ for e in events if e.event == "metrics"] == pytest.approx([0.65, 0.5, 0.35, 0.2])


def test_callback_events_and_errors(tmp_path):
    events = []
    cfg = {"run": {"dir": str(tmp_path), "name": "cb"}, "net": {"hidden": [8]},
           "train": {"games": 60, "checkpoint_every": 20, "eval_every": 60}, "eval": {"opponents": ["random"], "games": 4},
           "log": {"metrics_every": 20}}
    r = nardy.train(cfg, callback=events.append)
    kinds = [e.event for e in events]
    assert {"metrics", "evaluation", "checkpoint", "done"} <= set(kinds) and kinds[-1] == "done"
    assert [e.games_done for e in events if e.event == "metrics"] == [20, 40, 60]
    ev = next(e for e in events if e.event == "evaluation")
    assert ev.latest_eval[0][0] == "random" and ev.latest_eval_games == 60
    assert "60/60" in events[-1].line
    # An existing run is not overwritten.
    with pytest.raises(NardyError, match="resume"):
        nardy.train(cfg)
    # An exception in the callback stops the run cleanly (checkpoint) and propagates.
    cfg2 = {**cfg, "run": {"dir": str(tmp_path), "name": "boom"}, "train": {"games": 100000, "checkpoint_every": 50000}}

    def boom(p):
        if p.games_done >= 20:
            raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        nardy.train(cfg2, callback=boom)
    state = nardy.read_state(tmp_path / "boom")
    assert 20 <= state["games_done"] < 100000
    resumed = nardy.resume(str(tmp_path / "boom"), overrides={"train.games": state["games_done"] + 10})
    assert resumed.completed and resumed.games_done == state["games_done"] + 10
    assert r.completed


def test_bench_train_cli_reports_speed_and_is_reproducible(nardy_cli):
    # `nardy bench train` on two threads: a speed line per backend, and the same games (total
    # turns) on every run, since multi-threaded training does not depend on timing.
    def turns_of(out):
        lines = [l for l in out.splitlines() if l.startswith("train fast")]
        assert len(lines) == 1 and "games/s" in lines[0] and "(2 threads)" in lines[0], out
        return int(lines[0].split()[4])

    args = ("bench", "train", "--backend", "fast", "--games", 60, "--hidden", 16, "--threads", 2, "--merge-every", 3)
    first = nardy_cli(*args).stdout
    assert "merged every 3 games per worker" in first
    assert turns_of(first) == turns_of(nardy_cli(*args).stdout) > 60 * 40
    bad = nardy_cli("bench", "train", "--threads", 0, check=False)
    assert bad.returncode != 0 and "threads" in bad.stderr


def test_config_errors_are_readable_for_junk_and_long_paths(tmp_path):
    # Issue 14: invalid UTF-8 in the message gave NardyError('') (empty), a NUL cut it short.
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"td:\n  alpha: \xff\x01\n")
    with pytest.raises(NardyError) as err:
        nardy.resolve_config(str(bad))
    assert str(err.value) == (f"config '{bad}': td.alpha: expected a number in (0.0, 10.0], "
                              r"got '\xff\x01'")
    with pytest.raises(NardyError) as err:
        nardy.resolve_config({"td": {"alpha": "\x00\xff"}})
    assert r"got '\0\xc3\xbf'" in str(err.value)
    with pytest.raises(NardyError, match=r"line 2: expected a key name, got a list"):
        nardy.resolve_config("td:\n  ? [a]\n  : 1\n")
    long_name = tmp_path / ("c" * 300 + ".yaml")
    with pytest.raises(NardyError) as err:
        nardy.resolve_config(long_name)
    msg = str(err.value)
    assert msg.endswith("ccc.yaml': cannot open the file: File name too long") and len(msg) < 250
    deep = tmp_path.joinpath(*["d" * 200] * 25)
    with pytest.raises(NardyError) as err:
        nardy.train({"run": {"dir": str(deep), "name": "r"}, "train": {"games": 10}})
    msg = str(err.value)
    assert msg.startswith("run directory '") and "File name too long" in msg and len(msg) < 300


def test_config_data_paths_are_found_from_anywhere(build_dir, tmp_path):
    """A config's relative data paths: from the working directory, else the config's folder,
    else the repository of the shipped models (configs/README.md, "Paths")."""
    exe = build_dir / "nardy"
    if not (build_dir / "nardy-full").exists():
        pytest.skip("needs the full build")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def plan(config):
        proc = subprocess.run([str(exe), "train", "--config", str(config), "--plan"], cwd=elsewhere,
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    repo = pathlib.Path(__file__).resolve().parents[2]
    # The shipped recipe, run from another folder: the repository's benchmark set.
    shipped = plan(repo / "configs" / "strong.yaml")
    assert f"benchmark {repo / 'bench' / 'positions' / 'positions.txt'}" in shipped, shipped
    # A file beside the config.
    own = tmp_path / "mine"
    (own / "sets").mkdir(parents=True)
    (own / "sets" / "b.txt").write_text("# a set\n")
    (own / "c.yaml").write_text("generations: {count: 1, init: default, benchmark: sets/b.txt}\n")
    assert f"benchmark {own / 'sets' / 'b.txt'}" in plan(own / "c.yaml")
    # The working directory first.
    (elsewhere / "sets").mkdir()
    (elsewhere / "sets" / "b.txt").write_text("# another\n")
    assert "benchmark sets/b.txt" in plan(own / "c.yaml")


def test_banners_state_the_rules_in_force_and_a_restart_is_refused_before_its_banner(
        build_dir, tmp_path):
    exe = build_dir / "nardy"
    if not (build_dir / "nardy-full").exists():
        pytest.skip("needs the full build")
    config = tmp_path / "c.yaml"
    config.write_text(f"run: {{name: r, dir: {tmp_path}, threads: 1}}\nnet: {{hidden: [4]}}\n"
                      "train: {games: 20, checkpoint_every: 20, eval_every: 0}\n"
                      "eval: {games: 2}\nlog: {progress: false}\n")
    run = lambda *args: subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True,
                                       timeout=120)
    first = run("train", "--config", config, "--set", "rules.last_roll_draw=true")
    assert first.returncode == 0, first.stderr
    assert "rules in force (not the defaults): last_roll_draw=true" in first.stdout
    again = run("train", "--config", config)
    assert again.returncode == 2 and "already holds a run" in again.stderr
    assert again.stdout == ""  # no banner before the refusal
    plain = run("eval", "heuristic", "random", "--games", 4)
    assert "rules in force" not in plain.stdout and "(oin: a single win, 1 point;" in plain.stdout
    draws = run("eval", "heuristic", "random", "--games", 4, "--rule", "last_roll_draw=true")
    assert "rules in force (not the defaults): last_roll_draw=true" in draws.stdout
