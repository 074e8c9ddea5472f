"""nardy.match() and match_winning_chance() (bindings/bind_match.cpp), and `nardy play` driven
end to end through a pipe and through a pseudo-terminal (cli/play.cpp)."""

import json
import os
import re
import pty
import select
import subprocess
import time

import pytest

import nardy
from nardy import NardyError


def test_match_equals_cli_match_json(nardy_cli, tmp_path, checkpoint):
    out = tmp_path / "match.json"
    spec = f"net:{checkpoint}"
    nardy_cli("match", spec, "heuristic", "--to", 3, "--matches", 6, "--seed", 5, "--threads", 2,
              "--json", out)
    r = nardy.match(spec, "heuristic", to=3, matches=6, seed=5, threads=1)
    assert r.to_dict() == json.loads(out.read_text())
    assert r.matches == 6 and r.pairs == 3 and r.target == 3
    assert r.a_wins + r.b_wins == 6
    assert sum(r.match_games) == r.games and r.mean_games_per_match == r.games / 6


def test_match_statistics_and_errors():
    r = nardy.match("heuristic", "random", to=2, matches=10, seed=3)
    assert r.a_win_rate == r.a_wins / 10 and r.a_win_rate > 0.7
    assert r.ci95_low <= r.a_win_rate <= r.ci95_high
    assert "A match win rate" in str(r) and repr(r).startswith("MatchResult('heuristic'")
    with pytest.raises(NardyError, match="--to must be 1..99"):
        nardy.match("heuristic", "random", to=0)
    with pytest.raises(NardyError, match="unknown agent"):
        nardy.match("nonsense", "random")


def test_match_winning_chance():
    even = nardy.match_winning_chance(3, 0, 0, white=0)
    assert 0.4 < even < 0.6
    # Leading 2-0 in a match to 3 is better than 0-0; both sides' chances add up to one.
    assert nardy.match_winning_chance(3, 2, 0) > even
    assert abs(nardy.match_winning_chance(5, 3, 1, 1) + nardy.match_winning_chance(5, 1, 3, 0) - 1) < 0.05
    assert nardy.match_winning_chance(3, 3, 1) == 1.0
    assert 0 < nardy.match_winning_chance(2, 1.5, 1.5, rules={"last_roll_draw": True}) < 1
    with pytest.raises(NardyError, match="score0 must be a whole or half number"):
        nardy.match_winning_chance(3, 0.3, 0)


def play_cli(build_dir):
    exe = build_dir / "nardy"
    if not exe.exists():
        pytest.skip(f"the nardy CLI is not built at {exe}")
    return str(exe)


def test_play_through_a_pipe_to_the_end_of_a_match(build_dir, tmp_path):
    """Scripted input: bad lines, commands, then the first legal move every time."""
    exe = play_cli(build_dir)
    saved = tmp_path / "m.txt"
    script = ["nonsense", "24/1", "legal", "hint", "undo", f"save {saved}"] + ["1"] * 3000
    proc = subprocess.run([exe, "play", "--agent", "heuristic", "--to", "2", "--seed", "3"],
                          input="\n".join(script) + "\n", capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "you vs heuristic, match to 2 point(s)" in out
    assert "error: " in out and "  1. " in out and "hint (" in out
    assert "nothing to undo" in out
    assert "\x1b[" not in out  # no colour through a pipe
    assert "wins the match" in out or "You win the match" in out
    assert "pips" in out  # the board is drawn
    # The saved record (before any move) resumes, and the session then plays to its end.
    assert saved.read_text().startswith("nardy-match 1\ntarget 2\n")
    proc = subprocess.run([exe, "play", "--resume", str(saved), "--seed", "4"],
                          input="1\n" * 3000, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "wins the match" in proc.stdout or "You win the match" in proc.stdout


def test_play_keeps_saves_and_reviews_the_finished_match(build_dir, tmp_path):
    """--record keeps the record after every turn; at the end of the match the session offers
    `save FILE` and `review`, and anything else leaves."""
    exe = play_cli(build_dir)
    live = tmp_path / "live.txt"
    args = [exe, "play", "--agent", "default", "--seed", "3", "--record", str(live)]
    first = subprocess.run(args, input="1\n" * 3000, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    end = first.stdout.index("match over> ")
    # The lines the game took: one per prompt ("you (White) 6-5> ").
    moves = len(re.findall(r"\((?:White|Black)\)(?: \d-\d)?> ", first.stdout[:end]))
    assert "Enter `save FILE` to save the match record, `review` to review the match" in first.stdout
    assert live.read_text().startswith("nardy-match 1\n")
    saved = tmp_path / "saved.txt"
    script = ["1"] * moves + ["review", f"save {saved}", f"save {tmp_path}", ""]
    proc = subprocess.run(args, input="\n".join(script) + "\n", capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"The match record is in '{live}'." in out
    assert "Review by default" in out
    assert f"saved the match record to '{saved}'" in out
    assert f"error: cannot write match record '{tmp_path}': it is a directory" in out
    assert saved.read_text() == live.read_text()
    game = saved.read_text()
    assert "result " in game  # the finished game, its result included
    # The record reviews as a file too.
    review = subprocess.run([exe, "review", str(saved), "--quiet"], capture_output=True, text=True,
                            timeout=120)
    assert review.returncode == 0, review.stderr


def test_play_end_of_input_ends_cleanly(build_dir):
    exe = play_cli(build_dir)
    proc = subprocess.run([exe, "play", "--seed", "1"], input="legal\n", capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout.rstrip().endswith("end of input: leaving the game")


def test_play_bad_options_exit_2(build_dir, tmp_path):
    exe = play_cli(build_dir)
    bad = tmp_path / "bad.txt"
    bad.write_text("nardy-match 1\ntarget 0\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    for args, message in [(["--resume", str(bad)], f"play: record file '{bad}': "),
                          (["--resume", str(bad)], "match target 0"),
                          (["--agent", "nonsense"], "nonsense"),
                          (["--resume", str(tmp_path / "missing")], "cannot read record file"),
                          (["--resume", str(tmp_path)], "it is a directory"),
                          (["--resume", str(empty)], "it is empty")]:
        proc = subprocess.run([exe, "play", *args], input="", capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 2, args
        assert message in proc.stderr


def test_play_in_a_pseudo_terminal_with_colour(build_dir):
    """A terminal session: the board is coloured, prompts are answered as they appear."""
    exe = play_cli(build_dir)
    pid, fd = pty.fork()
    if pid == 0:  # child: the game on the pseudo-terminal
        os.environ["TERM"] = "xterm-256color"
        os.environ.pop("NO_COLOR", None)
        os.execv(exe, [exe, "play", "--agent", "heuristic", "--seed", "9", "--colour", "black"])
    out = b""
    deadline = time.time() + 120
    answered = 0
    try:
        while time.time() < deadline:
            ready, _, _ = select.select([fd], [], [], 5)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break  # the child closed the terminal
            if not chunk:
                break
            out += chunk
            if out.rstrip().endswith(b">"):
                os.write(fd, b"1\n")
                answered += 1
                out += b"\n"  # so the same prompt is not answered twice
    finally:
        _, status = os.waitpid(pid, 0)
    text = out.decode(errors="replace")
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, text[-2000:]
    assert "\x1b[1;31m" in text and "\x1b[1;97m" in text  # both colours drawn
    assert "you play Black" in text
    assert "wins the match" in text or "You win the match" in text
    assert answered > 5


def test_default_agent_is_the_shipped_model_and_its_absence_is_a_clear_error(build_dir, tmp_path):
    """analyze/engine/play/serve default to `default`; without the model file they say so."""
    exe = play_cli(build_dir)
    if not (build_dir / "nardy-full").exists():
        pytest.skip("needs nardy-full")
    start = "0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w"
    env = {k: v for k, v in os.environ.items() if k != "NARDY_MODEL_DIR"}
    run = lambda cmd, *args, **kw: subprocess.run([cmd, *args], capture_output=True, text=True,
                                                  timeout=120, env=env, **kw)
    implicit = run(exe, "analyze", start, "6", "4")
    assert implicit.returncode == 0, implicit.stderr
    assert implicit.stdout == run(exe, "analyze", start, "6", "4", "--agent", "default").stdout
    assert "agent heuristic" not in implicit.stdout
    for cmd in ("analyze", "engine", "play", "serve"):
        assert "shipped model" in run(exe, cmd, "--help").stdout, cmd
    # The same binaries where no model can be found (no models/ beside or above them).
    alone = tmp_path / "bin"
    alone.mkdir()
    for name in ("nardy", "nardy-full"):
        (alone / name).write_bytes((build_dir / name).read_bytes())
        (alone / name).chmod(0o755)
    for cmd, args in [("analyze", [start, "6", "4"]), ("engine", []), ("play", []),
                      ("serve", ["--port", "0"])]:
        proc = run(str(alone / "nardy"), cmd, *args, input="")
        assert proc.returncode == 2, (cmd, proc.stdout)
        assert f"{cmd}: the default agent is the shipped model '{nardy.DEFAULT_MODEL}', " \
            "which is missing" \
            in proc.stderr, proc.stderr
        assert "--agent heuristic" in proc.stderr
    ok = run(str(alone / "nardy"), "analyze", start, "6", "4", "--agent", "heuristic",
             "--trials", "4")
    assert ok.returncode == 0, ok.stderr
