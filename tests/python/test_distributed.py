"""`nardy` on several ranks (c10d Gloo on 127.0.0.1), as docs/distributed.md ("Training on several
machines") launches it: by setting torchrun's variables by hand, and through torchrun itself.

Checked: R ranks x T threads train the same net, bit for bit, as one process of R*T threads;
eval and rollout print and write the single process's results once; a killed rank makes the
others stop with a clear error; --auto-resume (and torchrun --max_restarts) continue from the
last checkpoint to the uninterrupted run's net; another world size is refused on resume; ranks
started with other arguments, and a rank facing another program on MASTER_PORT, stop with a
clear error.
"""

import json
import os
import signal
import shutil
import socket
import subprocess
import threading
import time

import pytest

torch = pytest.importorskip("torch")

TIMEOUT_S = "20"  # NARDY_DIST_TIMEOUT for every launch here


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def exe(build_dir):
    path = build_dir / "nardy"
    if not path.exists():
        pytest.skip(f"the nardy CLI is not built at {path}")
    return str(path)


def start_ranks(exe, size, args, cwd):
    """Starts `size` ranks of `nardy ARGS` with torchrun's variables set by hand."""
    port = str(free_port())
    procs = []
    for rank in range(size):
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE=str(size), MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=port, NARDY_DIST_TIMEOUT=TIMEOUT_S)
        procs.append(subprocess.Popen([exe, *map(str, args)], cwd=cwd, env=env, text=True,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    return procs


def finish(procs, timeout=120):
    """(returncode, stdout, stderr) of each rank."""
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=timeout)
        out.append((p.returncode, stdout, stderr))
    return out


def run_ranks(exe, size, args, cwd):
    results = finish(start_ranks(exe, size, args, cwd))
    for rank, (code, _, stderr) in enumerate(results):
        assert code == 0, f"rank {rank} exited {code}: {stderr}"
    return results


def run_single(exe, args, cwd):
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "WORLD_SIZE")}
    proc = subprocess.run([exe, *map(str, args)], cwd=cwd, env=env, text=True,
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc


def parameters(checkpoint):
    return [p.detach().clone() for p in torch.jit.load(str(checkpoint)).parameters()]


def same_net(a, b):
    pa, pb = parameters(a), parameters(b)
    return len(pa) == len(pb) and all(torch.equal(x, y) for x, y in zip(pa, pb))


CONFIG = """\
run: {name: NAME, dir: runs, seed: 11, threads: 1, merge_every: 4}
net: {encoder: raw, hidden: [16]}
train: {games: GAMES, checkpoint_every: 500, eval_every: 0}
eval: {opponents: [random], games: 20, final_games: 20}
log: {progress: false}
"""


def write_config(tmp_path, name, games):
    path = tmp_path / f"{name}.yaml"
    path.write_text(CONFIG.replace("NAME", name).replace("GAMES", str(games)))
    return path


def without_specs(evaluations):
    """Training evaluations (one match result per opponent) without the players' specs."""
    return {name: {k: v for k, v in result.items() if k not in ("a_spec", "b_spec")}
            for name, result in evaluations.items()}


@pytest.mark.parametrize("ranks", [2, 3])
def test_ranks_train_the_net_of_one_process_with_as_many_threads(exe, tmp_path, ranks):
    config = write_config(tmp_path, "net", 1000)
    run_single(exe, ["train", "--config", config, "--set", f"run.threads={ranks}",
                     "--set", "run.name=single"], tmp_path)
    results = run_ranks(exe, ranks, ["train", "--config", config], tmp_path)
    run = tmp_path / "runs" / "net"
    assert same_net(run / "latest.pt", tmp_path / "runs" / "single" / "latest.pt")
    assert not same_net(run / "latest.pt", run / "ckpt-500.pt")
    metrics = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    assert [m["games"] for m in metrics] == [500, 1000]
    assert all(m["world_size"] == ranks for m in metrics)
    single = [json.loads(line) for line in
              (tmp_path / "runs" / "single" / "metrics.jsonl").read_text().splitlines()]
    assert [m["td_error"] for m in metrics] == [m["td_error"] for m in single]
    # The same games and results; only the evaluated agent's spec names its own run directory.
    assert without_specs(metrics[-1]["eval"]) == without_specs(single[-1]["eval"])
    assert json.loads((run / "state.json").read_text())["world_size"] == ranks
    import nardy  # the package's run-directory readers see the same lines

    assert [m["world_size"] for m in nardy.read_metrics(run)] == [ranks, ranks]
    # Rank 0 reports; the others print nothing.
    assert "run directory" in results[0][1]
    assert all(stdout == "" for _, stdout, _ in results[1:])


def test_eval_and_rollout_on_ranks_give_the_single_process_result_once(exe, tmp_path):
    args = ["eval", "heuristic", "random", "--games", 40, "--seed", 5, "--json"]
    single = run_single(exe, args + [tmp_path / "one.json"], tmp_path)
    results = run_ranks(exe, 2, args + [tmp_path / "two.json"], tmp_path)
    assert json.loads((tmp_path / "two.json").read_text()) == \
        json.loads((tmp_path / "one.json").read_text())
    assert single.stdout.splitlines()[:5] == results[0][1].splitlines()[:5]
    assert results[1][1] == ""

    start = "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w"
    args = ["rollout", start, "--trials", 60, "--agent", "heuristic", "--json"]
    run_single(exe, args + [tmp_path / "r1.json"], tmp_path)
    results = run_ranks(exe, 3, args + [tmp_path / "r3.json"], tmp_path)
    assert json.loads((tmp_path / "r3.json").read_text()) == \
        json.loads((tmp_path / "r1.json").read_text())
    assert [stdout for _, stdout, _ in results[1:]] == ["", ""]


def test_ranks_started_with_other_arguments_are_refused_naming_the_argument(exe, tmp_path):
    port = str(free_port())
    procs = []
    for rank, games in enumerate(["4", "8"]):
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE="2", MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=port, NARDY_DIST_TIMEOUT=TIMEOUT_S)
        procs.append(subprocess.Popen([exe, "eval", "heuristic", "random", "--games", games],
                                      cwd=tmp_path, env=env, text=True,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    for rank, (code, stdout, stderr) in enumerate(finish(procs, timeout=60)):
        assert code == 2, f"rank {rank}: {stderr}"
        assert stdout == ""  # no results
        assert "rank 1 runs another command than rank 0: argument 5 is '8' there and '4'" in stderr


@pytest.mark.parametrize("answer", [b"\0" * 64, b"HTTP/1.1 400 Bad Request\r\n\r\n", None])
def test_a_rank_facing_another_program_on_master_port_stops_within_the_timeout(exe, tmp_path, answer):
    # The outside tester's reproducer: a listener that sends 64 zero bytes (or an HTTP answer,
    # or nothing at all) where rank 0's store should be. It aborted (exit 134) or hung.
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    port = listener.getsockname()[1]
    accepted = []

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            accepted.append(conn)
            if answer is not None:
                conn.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    env = dict(os.environ, RANK="1", WORLD_SIZE="2", MASTER_ADDR="127.0.0.1",
               MASTER_PORT=str(port), NARDY_DIST_TIMEOUT="3")
    start = time.monotonic()
    proc = subprocess.run([exe, "eval", "heuristic", "random", "--games", "4"], cwd=tmp_path,
                          env=env, text=True, capture_output=True, timeout=60)
    took = time.monotonic() - start
    listener.close()
    for conn in accepted:
        conn.close()
    assert proc.returncode == 2, proc.stderr
    assert f"the rendezvous store at 127.0.0.1:{port} (MASTER_ADDR:MASTER_PORT)" in proc.stderr
    assert "another program listening on MASTER_PORT" in proc.stderr
    assert took < 3 + 10  # the timeout, plus start-up on a busy machine


def wait_for(path, procs, seconds=60):
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert all(p.poll() is None for p in procs), "a rank ended before the checkpoint"
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def kill_rank_one(procs):
    """Kills rank 1 of two; rank 0 must stop within the timeout with exit status 2, naming itself.
    Returns rank 0's standard error."""
    procs[1].kill()
    t0 = time.monotonic()
    code, _, stderr = finish(procs[:1])[0]
    procs[1].wait()
    assert time.monotonic() - t0 < float(TIMEOUT_S) + 10
    assert code == 2 and "rank 0 of 2" in stderr, stderr
    return stderr


def test_a_killed_rank_stops_the_others_and_auto_resume_finishes_the_same_net(exe, tmp_path):
    config = write_config(tmp_path, "kill", 6000)
    run_single(exe, ["train", "--config", config, "--set", "run.threads=2",
                     "--set", "run.name=whole"], tmp_path)
    run = tmp_path / "runs" / "kill"
    procs = start_ranks(exe, 2, ["train", "--config", config], tmp_path)
    wait_for(run / "state.json", procs)
    assert "died" in kill_rank_one(procs)
    state = json.loads((run / "state.json").read_text())
    assert 500 <= state["games_done"] < 6000  # killed mid-run, after a checkpoint

    # Another world size is refused, naming both.
    bad = finish(start_ranks(exe, 3, ["train", "--config", config, "--auto-resume"], tmp_path))
    assert all(code == 2 for code, _, _ in bad)
    assert "trained on 2 ranks and this launch has 3" in bad[0][2]
    assert "rank 0 could not start the run" in bad[1][2]

    run_ranks(exe, 2, ["train", "--config", config, "--auto-resume"], tmp_path)
    assert json.loads((run / "state.json").read_text())["games_done"] == 6000
    assert same_net(run / "latest.pt", tmp_path / "runs" / "whole" / "latest.pt")


def torchrun_command(exe, port, extra):
    # Debian's torchrun (torch 1.13, Python 3.11) needs --redirects/--tee given as maps naming
    # no real rank, or it dies at start (docs/distributed.md).
    return ["torchrun", "--redirects", "9:1", "--tee", "9:1", "--no_python", "--nnodes=1",
            "--nproc_per_node=2", "--rdzv_backend=c10d", f"--rdzv_endpoint=127.0.0.1:{port}",
            *extra, exe]


@pytest.mark.skipif(shutil.which("torchrun") is None, reason="torchrun (python3-torch) missing")
def test_torchrun_max_restarts_resumes_a_killed_rank_from_the_last_checkpoint(exe, tmp_path):
    config = write_config(tmp_path, "elastic", 8000)
    run_single(exe, ["train", "--config", config, "--set", "run.threads=2",
                     "--set", "run.name=whole"], tmp_path)
    run = tmp_path / "runs" / "elastic"
    env = dict(os.environ, NARDY_DIST_TIMEOUT=TIMEOUT_S)
    launcher = subprocess.Popen(
        torchrun_command(exe, free_port(), ["--max_restarts=1"]) +
        ["train", "--config", str(config), "--auto-resume"],
        cwd=tmp_path, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        wait_for(run / "state.json", [launcher])
        # The light `nardy` execs nardy-full, so the workers are nardy-full processes.
        workers = []
        deadline = time.monotonic() + 30
        while len(workers) < 2 and time.monotonic() < deadline:
            workers = worker_pids(launcher.pid)
            time.sleep(0.05)
        assert workers, "no worker processes found"
        os.kill(workers[-1], 9)
        output, _ = launcher.communicate(timeout=180)
    finally:
        if launcher.poll() is None:
            launcher.kill()
    assert launcher.returncode == 0, output
    assert "resuming it from its latest checkpoint" in output
    assert json.loads((run / "state.json").read_text())["games_done"] == 8000
    assert same_net(run / "latest.pt", tmp_path / "runs" / "whole" / "latest.pt")


def worker_pids(root_pid):
    """The nardy-full processes below root_pid (torchrun, its agent, then the workers)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, stack = [], [root_pid]
    while stack:
        for child in children.get(stack.pop(), []):
            try:
                if os.readlink(f"/proc/{child}/exe").endswith("nardy-full"):
                    found.append(child)
            except OSError:
                pass
            stack.append(child)
    return found


# The commands that write files (docs/distributed.md): `nardy label`, `nardy benchmark build` and
# `nardy luck fit` on R ranks x 1 thread write the bytes of one process of R threads, rank 0
# alone writes, the others print nothing; a failure on rank 0 stops every rank.

def search_net():
    return os.path.join(os.path.dirname(__file__), "..", "data", "search_net.pt")


def label_args(out, games):
    return ["label", "--out", out, "--games", games, "--player", "heuristic", "--sample", "0.05",
            "--labeler", f"net:{search_net()}:ply=1", "--seed", 3]


def run_torchrun(exe, args, cwd):
    env = dict(os.environ, NARDY_DIST_TIMEOUT=TIMEOUT_S)
    proc = subprocess.run(torchrun_command(exe, free_port(), []) + list(map(str, args)), cwd=cwd,
                          env=env, text=True, capture_output=True, timeout=180)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def same_bytes(a, b):
    return subprocess.run(["cmp", str(a), str(b)]).returncode == 0


@pytest.mark.parametrize("ranks", [2, 3])
def test_label_on_ranks_writes_the_file_of_one_process_once(exe, tmp_path, ranks):
    single = run_single(exe, label_args(tmp_path / "one.lbl", 12) + ["--threads", ranks], tmp_path)
    results = run_ranks(exe, ranks, label_args(tmp_path / "ranks.lbl", 12), tmp_path)
    assert same_bytes(tmp_path / "ranks.lbl", tmp_path / "one.lbl")
    last = [out.splitlines()[-1].split(": ", 1)[1] for out in (single.stdout, results[0][1])]
    assert last[0] == last[1]  # "12 games, N labelled positions"
    assert all(stdout == "" for _, stdout, _ in results[1:])
    # Continued on the ranks from a part made by one process: the same bytes again.
    run_single(exe, label_args(tmp_path / "part.lbl", 5), tmp_path)
    run_ranks(exe, ranks, label_args(tmp_path / "part.lbl", 12), tmp_path)
    assert same_bytes(tmp_path / "part.lbl", tmp_path / "one.lbl")


@pytest.mark.skipif(shutil.which("torchrun") is None, reason="torchrun (python3-torch) missing")
def test_label_and_benchmark_build_under_torchrun_write_the_files_of_one_process(exe, tmp_path):
    run_single(exe, label_args(tmp_path / "one.lbl", 10) + ["--threads", 2], tmp_path)
    run_torchrun(exe, label_args(tmp_path / "two.lbl", 10), tmp_path)
    assert same_bytes(tmp_path / "two.lbl", tmp_path / "one.lbl")

    build = ["benchmark", "build", "--decisions", 9, "--trials", 4, "--seed", 2, "--out"]
    run_single(exe, build + [tmp_path / "one.txt", "--threads", 2], tmp_path)
    run_torchrun(exe, build + [tmp_path / "two.txt"], tmp_path)
    assert same_bytes(tmp_path / "two.txt", tmp_path / "one.txt")


def test_luck_fit_on_ranks_writes_the_head_of_one_process(exe, tmp_path):
    fit = ["luck", "fit", search_net(), "--games", 40, "--hidden", 8, "--epochs", 2, "--seed", 3,
           "--out"]
    single = run_single(exe, fit + [tmp_path / "one.luck", "--threads", 2], tmp_path)
    results = run_ranks(exe, 2, fit + [tmp_path / "two.luck"], tmp_path)
    assert same_bytes(tmp_path / "two.luck", tmp_path / "one.luck")
    assert results[0][1].splitlines()[0] == single.stdout.splitlines()[0]
    assert results[1][1] == ""
    assert "luck fit:" not in results[1][2]  # no progress or epochs from rank 1


@pytest.mark.parametrize("command", ["label", "benchmark", "luck"])
def test_an_unwritable_out_on_rank_zero_stops_every_rank_with_its_error(exe, tmp_path, command):
    out = tmp_path / "no-such-dir" / "out"
    args = {"label": label_args(out, 4),
            "benchmark": ["benchmark", "build", "--decisions", 4, "--trials", 2, "--out", out],
            "luck": ["luck", "fit", search_net(), "--games", 10, "--out", out]}[command]
    job = {"label": "label", "benchmark": "benchmark build", "luck": "luck fit"}[command]
    t0 = time.monotonic()
    results = finish(start_ranks(exe, 2, args, tmp_path), timeout=60)
    assert time.monotonic() - t0 < float(TIMEOUT_S)  # an answer, not the timeout
    for rank, (code, stdout, stderr) in enumerate(results):
        assert code == 2, f"rank {rank}: {stderr}"
        assert stdout == ""
        assert "no-such-dir" in stderr, stderr
    assert f"{job}: rank 0 failed: " in results[1][2], results[1][2]
    assert not out.parent.exists()


def test_a_killed_label_rank_stops_the_other_and_a_rerun_finishes_the_same_file(exe, tmp_path):
    run_single(exe, label_args(tmp_path / "whole.lbl", 150) + ["--threads", 2], tmp_path)
    path = tmp_path / "killed.lbl"
    procs = start_ranks(exe, 2, label_args(path, 150), tmp_path)
    header = 0
    deadline = time.monotonic() + 60
    while True:  # rank 0 has written the header and a first block of games
        assert all(p.poll() is None for p in procs), "a rank ended before it was killed"
        assert time.monotonic() < deadline, "no games were written"
        size = path.stat().st_size if path.exists() else 0
        header = header or size
        if size > header:
            break
        time.sleep(0.02)
    kill_rank_one(procs)
    assert not same_bytes(path, tmp_path / "whole.lbl")  # killed mid-file
    run_ranks(exe, 2, label_args(path, 150), tmp_path)
    assert same_bytes(path, tmp_path / "whole.lbl")


def test_a_full_disk_on_rank_zero_stops_every_rank_and_a_rerun_finishes_the_same_file(
        exe, tmp_path):
    """Rank 0's third write of the label file fails as a full disk (NARDY_WRITE_FAULT): both
    ranks stop with exit 2, rank 0 naming the file and the reason; the rerun with room ends
    with the bytes of an uninterrupted run."""
    run_single(exe, label_args(tmp_path / "whole.lbl", 60) + ["--threads", 2], tmp_path)
    path = tmp_path / "full.lbl"
    port = str(free_port())
    procs = []
    for rank in range(2):
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE="2", MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=port, NARDY_DIST_TIMEOUT=TIMEOUT_S,
                   NARDY_WRITE_FAULT="write:3:ENOSPC" if rank == 0 else "")
        procs.append(subprocess.Popen([exe, *map(str, label_args(path, 60))], cwd=tmp_path,
                                      env=env, text=True, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE))
    t0 = time.monotonic()
    results = finish(procs, timeout=60)
    assert time.monotonic() - t0 < float(TIMEOUT_S)  # an answer, not the timeout
    for rank, (code, _, stderr) in enumerate(results):
        assert code == 2, f"rank {rank}: {stderr}"
        assert f"'{path}': No space left on device" in stderr, stderr
    assert "label: rank 0 failed: " in results[1][2], results[1][2]
    run_ranks(exe, 2, label_args(path, 60), tmp_path)
    assert same_bytes(path, tmp_path / "whole.lbl")


def test_a_stopped_rank_stops_the_other_within_the_timeout(exe, tmp_path):
    """SIGSTOP on rank 1 (a hung machine): rank 0 does not wait forever, it stops with exit 2
    naming itself once NARDY_DIST_TIMEOUT has passed; a rerun finishes the same file."""
    run_single(exe, label_args(tmp_path / "whole.lbl", 150) + ["--threads", 2], tmp_path)
    path = tmp_path / "stopped.lbl"
    procs = start_ranks(exe, 2, label_args(path, 150), tmp_path)
    deadline = time.monotonic() + 60
    while not path.exists():  # the ranks have met and rank 0 has begun the file
        assert all(p.poll() is None for p in procs) and time.monotonic() < deadline
        time.sleep(0.02)
    procs[1].send_signal(signal.SIGSTOP)
    t0 = time.monotonic()
    code, _, stderr = finish(procs[:1], timeout=float(TIMEOUT_S) + 60)[0]
    assert time.monotonic() - t0 < float(TIMEOUT_S) + 10
    assert code == 2 and "rank 0 of 2" in stderr, stderr
    procs[1].send_signal(signal.SIGCONT)
    procs[1].kill()
    procs[1].wait()
    run_ranks(exe, 2, label_args(path, 150), tmp_path)
    assert same_bytes(path, tmp_path / "whole.lbl")


# The generational trainer (`nardy train` with generations.count): labels, fits and gates split
# across the ranks, and the run's nets, label records and gate games those of one process (with
# fit.shards = the ranks); a rank killed mid-run stops the other, and --auto-resume finishes the
# same nets.

GENERATIONS_CONFIG = """\
run: {name: NAME, dir: runs, seed: 5, threads: 1}
net: {encoder: extended}
generations: {count: 2, init: SEARCH_NET}
label: {sets: ["games=GAMES", "games=12 top=3 candidates=0.3 players=heuristic,current"], ply: 1,
        sample: 0.2}
fit: {epochs: 3, patience: 2, lr_drops: 0, batch: 64, lr: 0.001, threads: 1}
gate: {games: 40, chunk: 20, promote: not_h0}
log: {progress: false}
"""


def write_generations_config(tmp_path, name, games=20):
    path = tmp_path / f"{name}.yaml"
    path.write_text(GENERATIONS_CONFIG.replace("NAME", name).replace("GAMES", str(games))
                    .replace("SEARCH_NET", os.path.abspath(search_net())))
    return path


def generation_results(run):
    """What two runs of one config share: label records, candidates' weights, gate games, rows."""
    import nardy
    out = []
    for g in (1, 2):
        gen = run / f"gen-00{g}"
        labels = [nardy.read_labels(str(gen / f"labels-{s}.lbl")) for s in (0, 1)]
        gate = json.loads((gen / "gate.json").read_text())
        out.append({"ids": [l["ids"] for l in labels], "targets": [l["targets"] for l in labels],
                    "gate": gate["game_points"],
                    "weights": [p.tolist() for p in parameters(gen / "candidate.pt")]})
    rows = [{k: m[k] for k in ("generation", "labels", "promoted")}
            for m in (json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines())]
    return out, rows


@pytest.mark.parametrize("ranks,split", [(2, False), (3, True), (2, True)])
def test_generations_on_ranks_give_the_run_of_one_process(exe, tmp_path, ranks, split):
    # The fit on rank 0 alone (the default) is one process's; split across the ranks it is one
    # process's with fit.shards = the ranks.
    one = write_generations_config(tmp_path, "one")
    run_single(exe, ["train", "--config", one, "--set", f"run.threads={ranks}",
                     "--set", f"fit.shards={ranks if split else 1}"], tmp_path)
    many = write_generations_config(tmp_path, "many")
    results = run_ranks(exe, ranks, ["train", "--config", many, "--set",
                                     f"fit.split={'true' if split else 'false'}"], tmp_path)
    assert generation_results(tmp_path / "runs" / "many") == generation_results(tmp_path / "runs" / "one")
    assert "gen 2/2 done" in results[0][1]
    assert all(out == "" for _, out, _ in results[1:])  # the other ranks print nothing
    row = json.loads((tmp_path / "runs" / "many" / "gen-001" / "result.json").read_text())
    assert row["world_size"] == ranks


def test_a_schedule_on_ranks_gives_the_run_of_one_process(exe, tmp_path):
    # generations.schedule on 2 ranks with the fit split: generation 2 labels nothing and refits
    # generation 1's labels, generation 3 labels again and refits the start net (sent to every
    # rank); the runs' files are one process's with fit.shards = 2.
    schedule = ("generations.schedule=[{}, {label.sets: [], label.games: 0, generations.data_window: 2,"
                " fit.lr: 0.0003}, {generations.data_window: 3, fit.from: start}]")
    common = ["--set", "generations.count=3", "--set", schedule, "--set", "run.race_net=false"]
    one = write_generations_config(tmp_path, "one")
    run_single(exe, ["train", "--config", one, "--set", "run.threads=2", "--set", "fit.shards=2"] + common,
               tmp_path)
    many = write_generations_config(tmp_path, "many")
    run_ranks(exe, 2, ["train", "--config", many, "--set", "fit.split=true"] + common, tmp_path)
    import nardy
    for g in (1, 2, 3):
        a, b = tmp_path / "runs" / "one" / f"gen-00{g}", tmp_path / "runs" / "many" / f"gen-00{g}"
        assert same_net(a / "candidate.pt", b / "candidate.pt"), g
        assert json.loads((a / "fit.json").read_text())["data"] == json.loads((b / "fit.json").read_text())["data"]
        assert json.loads((a / "gate.json").read_text())["game_points"] == \
            json.loads((b / "gate.json").read_text())["game_points"]
    assert not (tmp_path / "runs" / "many" / "gen-002" / "labels-0.lbl").exists()
    assert json.loads((tmp_path / "runs" / "many" / "gen-003" / "fit.json").read_text())["data"] == [
        "gen-001/labels-0.lbl", "gen-001/labels-1.lbl", "gen-003/labels-0.lbl", "gen-003/labels-1.lbl"]
    labeler = nardy.read_labels(str(tmp_path / "runs" / "many" / "gen-003" / "labels-0.lbl"))["header"]["labeler"]
    assert labeler.endswith(":ply=1:race_net=0"), labeler


def test_a_rank_killed_in_the_generations_stops_the_other_and_auto_resume_finishes(exe, tmp_path):
    whole = write_generations_config(tmp_path, "whole", games=400)
    run_single(exe, ["train", "--config", whole], tmp_path)
    config = write_generations_config(tmp_path, "kill", games=400)
    run = tmp_path / "runs" / "kill"
    procs = start_ranks(exe, 2, ["train", "--config", config], tmp_path)
    wait_for(run / "gen-001" / "labels-0.lbl", procs)
    time.sleep(0.3)
    kill_rank_one(procs)
    assert not (run / "gen-002" / "result.json").exists()
    run_ranks(exe, 2, ["train", "--config", config, "--auto-resume"], tmp_path)
    assert generation_results(run) == generation_results(tmp_path / "runs" / "whole")


# `nardy fit` on several ranks: each rank computes its part of every minibatch and the parts'
# gradients are added in rank order, so R ranks give the weights of `nardy fit --shards R` on one
# process (and other shard counts other, equally fitted, weights); rank 0 alone writes.

def fit_args(tmp_path, out, *extra):
    return ["fit", "--data", tmp_path / "fit.lbl", "--init", search_net(), "--out", out,
            "--epochs", 3, "--batch", 64, "--lr", 0.001, "--seed", 2, *extra]


@pytest.mark.parametrize("ranks", [2, 3])
def test_fit_on_ranks_gives_the_weights_of_the_same_shards_on_one_process(exe, tmp_path, ranks):
    run_single(exe, label_args(tmp_path / "fit.lbl", 40) + ["--threads", 2, "--top", 3,
                                                            "--candidates", 0.3], tmp_path)
    one = run_single(exe, fit_args(tmp_path, tmp_path / "one.pt", "--shards", ranks,
                                   "--sibling-weight", 16), tmp_path)
    results = run_ranks(exe, ranks, fit_args(tmp_path, tmp_path / "many.pt",
                                             "--sibling-weight", 16), tmp_path)
    assert same_net(tmp_path / "one.pt", tmp_path / "many.pt")
    assert results[0][1] == one.stdout.replace("one.pt", "many.pt")  # the same epochs printed
    assert all(out == "" for _, out, _ in results[1:])
    plain = run_single(exe, fit_args(tmp_path, tmp_path / "plain.pt", "--sibling-weight", 16),
                       tmp_path)
    assert not same_net(tmp_path / "plain.pt", tmp_path / "one.pt")  # another sum of the parts
    losses = [float(line.split("held-out loss ")[1].split()[0])
              for line in plain.stdout.splitlines() if line.startswith("epoch")]
    sharded = [float(line.split("held-out loss ")[1].split()[0])
               for line in one.stdout.splitlines() if line.startswith("epoch")]
    assert losses[0] == sharded[0] and abs(losses[-1] - sharded[-1]) < 0.1 * losses[0]
