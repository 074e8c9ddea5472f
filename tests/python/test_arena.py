"""arena(), tournament(), rollout(), the GIL and Ctrl-C (bindings/bind_arena.cpp)."""

import json
import math
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import nardy
from nardy import NardyError, Position

START = Position.start()


def test_arena_equals_cli_eval_json(nardy_cli, tmp_path, checkpoint):
    out = tmp_path / "eval.json"
    spec = f"net:{checkpoint}"
    nardy_cli("eval", spec, "heuristic", "--games", 30, "--seed", 5, "--threads", 2, "--json", out)
    r = nardy.arena(spec, "heuristic", games=30, seed=5, threads=1)
    assert r.to_dict() == json.loads(out.read_text())


def test_arena_statistics_and_threads():
    r1 = nardy.arena("heuristic", "random", games=40, seed=9, threads=1)
    r3 = nardy.arena("heuristic", "random", games=40, seed=9, threads=3)
    assert r1.to_json() == r3.to_json()
    assert r1.games == 40 and r1.pairs == 20 and len(r1.game_points) == 40 and len(r1.pair_points) == 20
    assert r1.a_wins + r1.b_wins + r1.draws == 40
    assert r1.a_wins == r1.a_oin + r1.a_mars and r1.b_wins == r1.b_oin + r1.b_mars
    assert r1.a_points == sum(r1.game_points) == sum(r1.pair_points)
    assert r1.a_points_per_game == pytest.approx(r1.a_points / 40)
    assert r1.ci95_low < r1.a_points_per_game < r1.ci95_high
    assert r1.a_points_per_game > 0.5, "the heuristic beats random"
    # The statistics are a function of the per-game points.
    again = nardy.arena_statistics(r1.game_points)
    assert again.a_points_per_game == r1.a_points_per_game and again.ci95_low == r1.ci95_low
    assert again.elo == r1.elo
    assert "A heuristic  vs  B random" in str(r1) and r1.a_spec == "heuristic"
    # A Python agent is accepted on any thread count, with the same results.
    h = nardy.make_agent("heuristic")
    rp = nardy.arena(lambda pos, dice, moves: h.choose(pos, *dice), "random", games=10, seed=9, threads=2)
    assert rp.game_points == r1.game_points[:10]


def test_arena_sprt_stops_early():
    r = nardy.arena("heuristic", "random", games=2000, seed=1, sprt=(0, 50))
    assert r.sprt_verdict == "H1" and r.games < 2000
    assert r.sprt["elo1"] == 50 and r.sprt["llr"] >= r.sprt["upper"]
    r2 = nardy.arena("heuristic", "random", games=2000, seed=1, sprt={"elo0": 0, "elo1": 50, "alpha": 0.05, "beta": 0.05})
    assert r2.to_json() == r.to_json()
    with pytest.raises(NardyError, match="SPRT needs ELO0 < ELO1"):
        nardy.arena("heuristic", "random", games=10, sprt=(10, 0))
    with pytest.raises(NardyError, match="unknown key 'elo2'"):
        nardy.arena("heuristic", "random", games=10, sprt={"elo2": 1})


def test_arena_progress_and_errors():
    seen = []
    nardy.arena("random", "random", games=10, progress=seen.append)
    assert sorted(seen) == [2, 4, 6, 8, 10]
    with pytest.raises(NardyError, match="games must be at least 1"):
        nardy.arena("random", "random", games=0)
    with pytest.raises(NardyError, match="threads must be at least 1"):
        nardy.arena("random", "random", games=2, threads=0)
    with pytest.raises(ZeroDivisionError):
        nardy.arena("random", "random", games=10, progress=lambda n: 1 / 0)


def test_tournament_equals_cli(nardy_cli, tmp_path, small_run):
    out = tmp_path / "t.json"
    players = ["random", "heuristic", small_run.run_dir]  # the run dir expands to its checkpoints
    nardy_cli("tournament", *players, "--games", 10, "--seed", 2, "--json", out)
    seen = []
    t = nardy.tournament(players, games=10, seed=2, progress=lambda k, n, r: seen.append((k, n)))
    assert t.to_dict() == json.loads(out.read_text())
    n = len(t.players)
    assert n == 2 + len(nardy.list_checkpoints(small_run.run_dir))
    assert len(t.matches) == n * (n - 1) // 2 == len(seen)
    assert t.ratings[0].elo == 0 and all(r.ci95_low <= r.elo <= r.ci95_high for r in t.ratings)
    assert t.ratings[1].elo > 100, "heuristic above random"
    assert "random" in t.to_text() and t.to_csv().count("\n") >= n


def test_rollout_equals_cli_and_thread_count(nardy_cli, tmp_path, checkpoint):
    out = tmp_path / "r.json"
    spec = f"net:{checkpoint}"
    nardy_cli("rollout", START.pos, "--trials", 60, "--agent", spec, "--seed", 3, "--json", out)
    r1 = nardy.rollout(START, trials=60, agent=spec, seed=3)
    assert r1.to_dict() == json.loads(out.read_text())
    assert r1.luck_adjusted and r1.evaluator_name.startswith("net/")
    r2 = nardy.rollout(START, trials=60, agent=spec, seed=3, threads=3)
    assert r2.to_json() == r1.to_json()  # bit-identical for any thread count
    nardy_cli("rollout", START.pos, "--trials", 30, "--agent", spec, "--seed", 4, "--luck-turns", 5, "--json", out)
    r5 = nardy.rollout(START, trials=30, agent=spec, seed=4, luck_turns=5)
    assert r5.to_dict() == json.loads(out.read_text()) and r5.luck_turns == 5
    # An in-memory net plays and measures luck the same way as its checkpoint.
    r3 = nardy.rollout(START, trials=60, agent=nardy.load_checkpoint(str(checkpoint)), seed=3)
    assert r3.mean == r1.mean and r3.se == r1.se


def test_rollout_values(checkpoint):
    r = nardy.rollout(START, trials=72, agent="heuristic", seed=1)
    assert not r.luck_adjusted and "luck adjustment off" in r.note
    m, se = r.mean, r.se
    assert m["win"] + m["lose"] + m["draw"] == pytest.approx(1)
    assert m["equity"] == pytest.approx(m["win"] + m["win_mars"] - m["lose"] - m["lose_mars"])
    assert all(se[k] > 0 for k in ("win", "equity"))
    assert r.equity == m["equity"] and r.equity_se == se["equity"]
    f = r.flipped()
    assert f.mean["win"] == pytest.approx(m["lose"]) and f.equity == pytest.approx(-r.equity)
    lucky = nardy.rollout(START, trials=72, agent="heuristic", seed=1, luck=str(checkpoint))
    assert lucky.luck_adjusted and lucky.raw_mean == r.raw_mean
    with pytest.raises(NardyError, match="game is already over"):
        nardy.rollout(Position.from_points([0] * 11 + [-15] + [0] * 12, "b"))
    with pytest.raises(NardyError, match="trials must be at least 1"):
        nardy.rollout(START, trials=0)


def test_two_arena_calls_in_threads_overlap():
    # With the GIL held for a whole match, one thread's match would finish before the other's
    # starts: no progress report of B could fall between A's first and last.
    events = []
    lock = threading.Lock()
    barrier = threading.Barrier(2)

    def run(name):
        barrier.wait()
        nardy.arena("heuristic", "heuristic", games=120, seed=1,
                    progress=lambda n: (lock.acquire(), events.append((time.monotonic(), name)), lock.release()))

    threads = [threading.Thread(target=run, args=(n,)) for n in "AB"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    a = [t for t, n in events if n == "A"]
    b = [t for t, n in events if n == "B"]
    assert len(a) == len(b) == 60
    inside = sum(a[0] < t < a[-1] for t in b) + sum(b[0] < t < b[-1] for t in a)
    assert inside > 0, "the two matches never ran at the same time"


INTERRUPT_SCRIPT = textwrap.dedent("""
    import os, signal, sys, threading, time
    import nardy
    kind = sys.argv[1]
    # The parent starts this process with SIGINT ignored (as a shell's background job, nohup or
    # a CI runner may): Python then installs no KeyboardInterrupt handler, so the test sets the
    # disposition it needs itself instead of depending on the caller's.
    assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    signal.signal(signal.SIGINT, signal.default_int_handler)
    threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    t0 = time.monotonic()
    try:
        if kind == "arena":
            nardy.arena("heuristic", "heuristic", games=10**7, threads=2)
        elif kind == "rollout":
            nardy.rollout(nardy.Position.start(), trials=10**7, agent="heuristic", threads=2)
        elif kind == "tournament":  # stops inside the first match, which would never end
            nardy.tournament(["heuristic", "random", "heuristic"], games=10**7, threads=2)
        elif kind == "analyze":
            nardy.analyze(nardy.Position.start(), 6, 5, agent="heuristic", trials=10**7, threads=2)
        elif kind == "python-agent":
            nardy.play(lambda p, d, m: 0, "random", games=10**7)
        elif kind == "train":
            nardy.train({"run": {"dir": sys.argv[2], "name": "int"}, "net": {"hidden": [8]},
                         "train": {"games": 10**8, "checkpoint_every": 10**7}, "eval": {"opponents": []}})
        print("NOT INTERRUPTED")
    except KeyboardInterrupt:
        print(f"interrupted after {time.monotonic() - t0:.2f} s")
""")


@pytest.mark.parametrize("kind", ["arena", "rollout", "tournament", "analyze", "python-agent", "train"])
def test_ctrl_c_stops_long_calls(kind, tmp_path):
    # Started with SIGINT ignored whatever this process inherited: the worst case of a caller
    # (`make test &`, nohup), so the test passes however the suite is started.
    proc = subprocess.run([sys.executable, "-c", INTERRUPT_SCRIPT, kind, str(tmp_path)], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
                          stdin=subprocess.DEVNULL,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("interrupted after"), proc.stdout + proc.stderr
    assert float(proc.stdout.split()[2]) < 30
    if kind == "train":
        # The trainer stopped cleanly: a checkpoint at the games done, and the run resumes.
        state = nardy.read_state(tmp_path / "int")
        assert state["games_done"] > 0 and (tmp_path / "int" / state["checkpoint"]).exists()
        r = nardy.resume(str(tmp_path / "int"), overrides={"train.games": state["games_done"] + 20})
        assert r.completed and r.games_done == state["games_done"] + 20


def test_rollout_with_a_luck_head(nardy_cli, tmp_path):
    # The shipped default model carries its luck head (models/NAME.luck): a 0-ply rollout uses
    # it, from Python as from the CLI; a searching agent measures luck exactly.
    out = tmp_path / "r.json"
    nardy_cli("rollout", START.pos, "--trials", 72, "--agent", "default", "--seed", 2, "--json", out)
    r = nardy.rollout(START, trials=72, agent="default", seed=2)
    assert r.luck_method == "head" and r.evaluator_name.startswith("luck head 256-256")
    assert r.to_dict() == json.loads(out.read_text())
    exact = nardy.rollout(START, trials=72, agent="default", seed=2, luck_head=None)
    assert exact.luck_method == "exact" and exact.raw_mean == r.raw_mean
    nardy_cli("rollout", START.pos, "--trials", 72, "--agent", "default", "--seed", 2, "--exact-luck",
              "--json", out)
    assert exact.to_dict() == json.loads(out.read_text())
    assert nardy.rollout(START, trials=2, agent="default:ply=1", seed=2).luck_method == "exact"
    plain = nardy.rollout(START, trials=72, agent="default", seed=2, luck_adjust=False)
    assert plain.luck_method == "" and not plain.luck_adjusted

    # A head fitted by `nardy luck fit` measures luck for any agent, the heuristic too.
    head = tmp_path / "small.luck"
    fit = nardy_cli("luck", "fit", "default", "--games", 20, "--hidden", 8, "--epochs", 2, "--out", head)
    assert "held-out" in fit.stdout and head.exists()
    h = nardy.rollout(START, trials=72, agent="heuristic", seed=2, luck_head=str(head))
    assert h.luck_method == "head" and h.raw_mean == nardy.rollout(START, trials=72, agent="heuristic", seed=2).raw_mean
    nardy_cli("rollout", START.pos, "--trials", 72, "--agent", "heuristic", "--seed", 2,
              "--luck-head", head, "--json", out)
    assert h.to_dict() == json.loads(out.read_text())

    # Bad heads: a clear error naming the file.
    with pytest.raises(NardyError, match="missing.luck"):
        nardy.rollout(START, trials=4, agent="heuristic", luck_head=str(tmp_path / "missing.luck"))
    damaged = tmp_path / "damaged.luck"
    data = bytearray(head.read_bytes())
    data[len(data) // 2] ^= 1
    damaged.write_bytes(bytes(data))
    with pytest.raises(NardyError, match="checksum mismatch"):
        nardy.rollout(START, trials=4, agent="heuristic", luck_head=str(damaged))
    bad = nardy_cli("rollout", START.pos, "--trials", 4, "--luck-head", damaged, check=False)
    assert bad.returncode == 2 and "damaged.luck" in bad.stderr and "checksum mismatch" in bad.stderr
    with pytest.raises(TypeError, match="luck_head"):
        nardy.rollout(START, trials=4, luck_head=3)
    bad = nardy_cli("luck", "fit", "heuristic", check=False)
    assert bad.returncode == 2 and "'heuristic' does not exist" in bad.stderr
