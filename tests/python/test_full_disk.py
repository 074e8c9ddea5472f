"""A full disk: every writer fails with a clear error and loses nothing (core/file_io.h).

The `nardy` tool runs with NARDY_WRITE_FAULT (core/write_fault.h), which makes its N-th write,
close or rename fail as a full disk (ENOSPC) or a failing device (EIO) would. For each writer and
several fault points the test checks: exit status 2 (never an abort), a message naming the file
and the system's reason, the previous file untouched, no temporary file left; and where the
writer resumes (training runs, label files, benchmark sets), that the rerun ends with the bytes
of an uninterrupted run. In-process, the Python API raises NardyError. As root, one end-to-end
case runs on a real 3 MB tmpfs filled with fallocate.
"""

import json
import os
import pathlib
import shutil
import subprocess
import zipfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
REASON = {"ENOSPC": "No space left on device", "EIO": "Input/output error"}


@pytest.fixture(scope="module")
def exe(build_dir):
    path = build_dir / "nardy"
    if not (build_dir / "nardy-full").exists():
        pytest.skip("needs the full build (training, checkpoints)")
    return path


def run(exe, *args, fault=None, cwd=None):
    env = dict(os.environ)
    env.pop("NARDY_WRITE_FAULT", None)
    if fault:
        env["NARDY_WRITE_FAULT"] = fault
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True,
                          timeout=300, env=env, cwd=cwd)


def leftovers(folder):
    return sorted(p.name for p in pathlib.Path(folder).rglob("*.tmp"))


def assert_clean_failure(proc, path, fault):
    errno = fault.split(":")[2] if fault.count(":") == 2 else "ENOSPC"
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "terminate called" not in proc.stderr and "c10::Error" not in proc.stderr, proc.stderr
    assert f"'{path}': {REASON[errno]}" in proc.stderr, proc.stderr


FAULTS = ["write:1:ENOSPC", "write:2:EIO", "close:1:ENOSPC", "rename:1:EIO"]


@pytest.mark.parametrize("fault", FAULTS)
def test_selfplay_record_is_whole_or_absent(exe, tmp_path, fault):
    out = tmp_path / "g3.txt"
    out.write_text("previous games\n")
    proc = run(exe, "selfplay", "--white", "heuristic", "--black", "random", "--games", 3,
               "--record", out, fault=fault)
    assert_clean_failure(proc, out, fault)
    assert "records written" not in proc.stdout
    assert out.read_text() == "previous games\n"
    assert leftovers(tmp_path) == []


def test_review_html_and_convert_leave_no_partial_page(exe, tmp_path):
    game = tmp_path / "game.txt"
    run(exe, "selfplay", "--white", "heuristic", "--black", "random", "--games", 1,
        "--record", game).check_returncode()
    for args, out in [(["review", game, "--html", tmp_path / "r.html"], tmp_path / "r.html"),
                      (["convert", game, tmp_path / "g.mat"], tmp_path / "g.mat")]:
        for fault in ["write:1:ENOSPC", "close:1:EIO"]:
            proc = run(exe, *args, fault=fault)
            assert_clean_failure(proc, out, fault)
            assert not out.exists()
            assert leftovers(tmp_path) == []
        run(exe, *args).check_returncode()
        assert out.stat().st_size > 0


# Writers that write one file whole: (its arguments with {out} for the file, the file's name).
ONE_FILE_WRITERS = {
    "eval --json": (["eval", "heuristic", "random", "--games", 4, "--json", "{out}"], "e.json"),
    "match --json": (["match", "heuristic", "random", "--to", 1, "--json", "{out}"], "m.json"),
    "bearoff build": (["bearoff", "build", "--points", 6, "--quiet", "--out", "{out}"], "t.nbt"),
    "bench search --record": (["bench", "search", "--agent", "default:ply=0", "--positions", 5,
                               "--record", "{out}"], "r.txt"),
    "luck fit": (["luck", "fit", "default", "--games", 10, "--hidden", 8, "--epochs", 2,
                  "--out", "{out}"], "h.luck"),
}


@pytest.mark.parametrize("writer", sorted(ONE_FILE_WRITERS))
@pytest.mark.parametrize("fault", ["write:1:ENOSPC", "close:1:EIO", "rename:1:ENOSPC"])
def test_one_file_writers(exe, tmp_path, writer, fault):
    args, name = ONE_FILE_WRITERS[writer]
    out = tmp_path / name
    out.write_bytes(b"the previous good file")
    args = [str(out) if a == "{out}" else a for a in args]
    proc = run(exe, *args, fault=fault)
    assert_clean_failure(proc, out, fault)
    assert out.read_bytes() == b"the previous good file"
    assert leftovers(tmp_path) == []
    run(exe, *args).check_returncode()
    assert out.read_bytes() != b"the previous good file"


def test_benchmark_set_rerun_completes_to_the_same_bytes(exe, tmp_path):
    args = ["--decisions", 4, "--trials", 2, "--game-agents", "heuristic", "--rollout-agent",
            "heuristic", "--max-candidates", 5, "--threads", 1]
    clean = tmp_path / "clean.set"
    run(exe, "benchmark", "build", "--out", clean, *args).check_returncode()
    for fault in ["write:1:ENOSPC", "write:2:EIO", "write:4:ENOSPC", "close:1:ENOSPC"]:
        out = tmp_path / f"{fault.replace(':', '_')}.set"
        proc = run(exe, "benchmark", "build", "--out", out, *args, fault=fault)
        assert_clean_failure(proc, out, fault)
        assert leftovers(tmp_path) == []
        run(exe, "benchmark", "build", "--out", out, *args).check_returncode()
        assert out.read_bytes() == clean.read_bytes(), fault
    # A build killed in the middle of writing a decision leaves part of it: the rerun cuts it.
    for cut in [1, 40, 150]:
        out = tmp_path / f"killed{cut}.set"
        out.write_bytes(clean.read_bytes()[:-cut])
        run(exe, "benchmark", "build", "--out", out, *args).check_returncode()
        assert out.read_bytes() == clean.read_bytes(), cut


def test_play_save_reports_the_reason_and_keeps_the_game(exe, tmp_path):
    out = tmp_path / "s.txt"
    env = dict(os.environ, NARDY_WRITE_FAULT="write:1:ENOSPC")
    proc = subprocess.run([str(exe), "play", "--agent", "heuristic"], text=True, capture_output=True,
                          input=f"save {out}\nsave {out}\nquit\n", env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert f"error: cannot write match record '{out}': No space left on device" in proc.stdout
    assert f"saved the match record to '{out}'" in proc.stdout  # the second try, with room
    assert "nardy-match" in out.read_text() or "nardy-record" in out.read_text()
    assert leftovers(tmp_path) == []


def small_config(folder, runs):
    """A 120-game run named `run` under folder/runs, checkpoints every 40 games."""
    config = folder / f"{runs}.yaml"
    config.write_text(
        f"run: {{name: run, dir: {folder / runs}, seed: 5, threads: 1}}\n"
        "net: {hidden: [8]}\n"
        "train: {games: 120, checkpoint_every: 40, eval_every: 0}\n"
        "log: {metrics_every: 20, progress: false}\n")
    return config


def checkpoint_content(path):
    """Every member of a checkpoint's archive, the metadata without the run's folder (its config
    names it) and the metadata's own checksum."""
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist() if not n.endswith("extra/nardy.json")}
        meta = json.loads(next(z.read(n) for n in z.namelist() if n.endswith("extra/nardy.json")))
    meta.pop("config_yaml")
    meta.pop("extra", None)  # the final evaluation names the run folder too
    meta.get("checksums", {}).pop("metadata", None)
    return members, meta


def resume_or_restart(exe, run_dir, config):
    """What the failed run's messages tell the user: --resume, or when no checkpoint was
    completed, the first command again."""
    if run_dir.exists() and any(run_dir.iterdir()):
        proc = run(exe, "train", "--resume", run_dir)
        if "start it afresh" not in proc.stderr:
            return proc
    return run(exe, "train", "--config", config)


def test_training_fails_cleanly_and_resumes_to_the_same_bits(exe, tmp_path):
    run(exe, "train", "--config", small_config(tmp_path, "clean")).check_returncode()
    want = checkpoint_content(tmp_path / "clean" / "run" / "latest.pt")
    writes = None
    for n in [1, 3, 6, 10, 15]:
        config = small_config(tmp_path, f"faulted{n}")
        run_dir = tmp_path / f"faulted{n}" / "run"
        proc = run(exe, "train", "--config", config, fault=f"write:{n}:ENOSPC")
        if proc.returncode == 0:  # past the run's last write
            writes = n
            break
        assert proc.returncode == 2, (n, proc.returncode, proc.stderr)
        assert "No space left on device" in proc.stderr and "terminate" not in proc.stderr
        assert leftovers(run_dir) == []
        proc = resume_or_restart(exe, run_dir, config)
        assert proc.returncode == 0, proc.stderr
        assert checkpoint_content(run_dir / "latest.pt") == want, n
    assert writes is None, f"the run made fewer than {writes} writes: choose other fault points"


def test_checkpoint_write_failure_under_fit(exe, tmp_path):
    labels = tmp_path / "l.lbl"
    run(exe, "label", "--out", labels, "--games", 30, "--player", "heuristic",
        "--labeler", "default:ply=0", "--seed", 2).check_returncode()
    out = tmp_path / "x.pt"
    out.write_bytes(b"previous checkpoint")
    for fault in ["write:1:ENOSPC", "close:1:ENOSPC", "rename:1:EIO"]:
        proc = run(exe, "fit", "--data", labels, "--init", REPO / "models" / "nardy-fit-8.pt",
                   "--out", out, "--epochs", 1, fault=fault)
        assert_clean_failure(proc, out, fault)
        assert out.read_bytes() == b"previous checkpoint"
        assert leftovers(tmp_path) == []


def test_label_file_rerun_completes_to_the_same_bytes(exe, tmp_path):
    args = ["--games", 12, "--player", "heuristic", "--labeler", "default:ply=0", "--seed", 3,
            "--threads", 1]
    clean = tmp_path / "clean.lbl"
    run(exe, "label", "--out", clean, *args).check_returncode()
    for fault in ["write:1:ENOSPC", "write:2:ENOSPC", "write:3:EIO", "close:1:ENOSPC"]:
        out = tmp_path / f"{fault.replace(':', '_')}.lbl"
        proc = run(exe, "label", "--out", out, *args, fault=fault)
        assert_clean_failure(proc, out, fault)
        assert leftovers(tmp_path) == []
        run(exe, "label", "--out", out, *args).check_returncode()
        assert out.read_bytes() == clean.read_bytes(), fault


def test_python_raises_nardy_error(tmp_path, checkpoint):
    import nardy
    from nardy import _nardy

    net = nardy.load_checkpoint(str(checkpoint))
    out = tmp_path / "copy.pt"
    _nardy._set_write_fault("write:1:ENOSPC")
    try:
        with pytest.raises(nardy.NardyError, match=r"cannot write checkpoint .*No space left"):
            net.save(str(out))
    finally:
        _nardy._set_write_fault("")
    assert not out.exists() and leftovers(tmp_path) == []
    net.save(str(out))
    assert out.exists()


def fill(folder, keep_bytes):
    """Fills the file system of `folder` but for about `keep_bytes`."""
    free = shutil.disk_usage(folder).free
    subprocess.run(["fallocate", "-l", str(max(free - keep_bytes, 4096)), str(folder / "filler")],
                   check=True)


@pytest.fixture
def small_tmpfs(tmp_path):
    if os.geteuid() != 0 or shutil.which("mount") is None or shutil.which("fallocate") is None:
        pytest.skip("mounting a tmpfs needs root, mount and fallocate")
    mnt = tmp_path / "tmpfs"
    mnt.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mnt)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], check=False)


def test_a_real_full_tmpfs(exe, small_tmpfs, tmp_path):
    # Records: 200 games do not fit in 20 KB.
    fill(small_tmpfs, 20_000)
    out = small_tmpfs / "g.txt"
    proc = run(exe, "selfplay", "--white", "heuristic", "--black", "random", "--games", 200,
               "--record", out)
    assert_clean_failure(proc, out, "write:1:ENOSPC")
    assert not out.exists() and leftovers(small_tmpfs) == []
    (small_tmpfs / "filler").unlink()
    # A training run whose checkpoints stop fitting: a clean stop, then a resume once there is
    # room that ends with the bits of a run that never failed.
    run(exe, "train", "--config", small_config(tmp_path, "clean")).check_returncode()
    config = small_config(small_tmpfs, "runs")
    fill(small_tmpfs, 60_000)
    proc = run(exe, "train", "--config", config)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "No space left on device" in proc.stderr and "terminate" not in proc.stderr
    assert leftovers(small_tmpfs) == []
    (small_tmpfs / "filler").unlink()
    run_dir = small_tmpfs / "runs" / "run"
    resume_or_restart(exe, run_dir, config).check_returncode()
    assert checkpoint_content(run_dir / "latest.pt") == checkpoint_content(
        tmp_path / "clean" / "run" / "latest.pt")


def generations_config(folder, runs):
    """One generation from the test net: labels of 30 games, a short fit, a 40-game gate."""
    config = folder / f"{runs}.yaml"
    config.write_text(
        f"run: {{name: run, dir: {folder / runs}, seed: 3, threads: 1}}\n"
        "net: {encoder: extended}\n"
        f"generations: {{count: 1, init: {REPO / 'tests' / 'data' / 'search_net.pt'}}}\n"
        "label: {sets: ['games=30'], ply: 0, sample: 0.3}\n"
        "fit: {epochs: 2, patience: 2, lr_drops: 0, batch: 64, lr: 0.001, threads: 1}\n"
        "gate: {games: 40, chunk: 20, promote: always}\n"
        "log: {progress: false}\n")
    return config


def generations_outputs(run_dir):
    """The files a generational run keeps, checkpoints by content (their metadata names the
    run's folder)."""
    out = {}
    for path in sorted(run_dir.rglob("*")):
        rel = str(path.relative_to(run_dir))
        if path.suffix == ".pt":
            out[rel] = checkpoint_content(path)
        elif path.suffix == ".lbl":  # its header names the run's folder
            out[rel] = path.read_bytes().replace(str(run_dir).encode(), b"RUN")
    return out


def test_generations_fail_cleanly_and_resume_to_the_same_files(exe, tmp_path):
    run(exe, "train", "--config", generations_config(tmp_path, "clean")).check_returncode()
    want = generations_outputs(tmp_path / "clean" / "run")
    assert any(k.endswith(".lbl") for k in want) and any(k.endswith(".pt") for k in want)
    # Faults early (the run's files), in the labels, at the fit's checkpoint and at the end.
    for fault in ["write:2:ENOSPC", "write:6:EIO", "close:5:ENOSPC", "write:12:ENOSPC",
                  "rename:9:ENOSPC"]:
        name = "f" + fault.replace(":", "_")
        config = generations_config(tmp_path, name)
        run_dir = tmp_path / name / "run"
        proc = run(exe, "train", "--config", config, fault=fault)
        assert proc.returncode == 2, (fault, proc.returncode, proc.stderr)
        assert REASON[fault.split(":")[2]] in proc.stderr and "terminate" not in proc.stderr
        assert leftovers(run_dir) == [], fault
        done = resume_or_restart(exe, run_dir, config)
        assert done.returncode == 0, (fault, done.stderr)
        assert generations_outputs(run_dir) == want, fault


def test_kill_then_a_full_disk_then_resume(exe, tmp_path):
    """kill -9 in the middle of a generational run, a resume that meets a full disk, then a
    resume with room: the files of a run that never stopped."""
    run(exe, "train", "--config", generations_config(tmp_path, "clean")).check_returncode()
    want = generations_outputs(tmp_path / "clean" / "run")
    config = generations_config(tmp_path, "killed")
    run_dir = tmp_path / "killed" / "run"
    proc = subprocess.Popen([str(exe), "train", "--config", str(config)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(400):  # until the labels have begun
        if list(run_dir.rglob("*.lbl")) or proc.poll() is not None:
            break
        subprocess.run(["sleep", "0.01"])
    proc.kill()
    proc.wait()
    failed = subprocess.run([str(exe), "train", "--resume", str(run_dir)], capture_output=True,
                            text=True, env=dict(os.environ, NARDY_WRITE_FAULT="write:3:ENOSPC"))
    if failed.returncode != 0:
        assert failed.returncode == 2 and "No space left on device" in failed.stderr, failed.stderr
    assert leftovers(run_dir) == []
    resume_or_restart(exe, run_dir, config).check_returncode()
    assert generations_outputs(run_dir) == want
