"""nardy.benchmark, nardy.phase_of and nardy.race_odds: the same library calls as `nardy
benchmark` and the race table (selfplay/evaluation/position_benchmark.h, selfplay/tables/)."""
import os
import pathlib
import subprocess
import sys

import pytest

import nardy

BUILD = pathlib.Path(nardy.__file__).resolve().parents[2]
CLI = BUILD / "nardy"


@pytest.fixture(scope="module")
def small_set(tmp_path_factory):
    path = tmp_path_factory.mktemp("bench") / "set.txt"
    subprocess.run([str(CLI), "benchmark", "build", "--out", str(path), "--decisions", "12",
                    "--trials", "4", "--seed", "3"], check=True, capture_output=True)
    return path


def test_benchmark_scores_agents_like_the_cli(small_set):
    r = nardy.benchmark("random", set=str(small_set), seed=2)
    assert r["overall"]["decisions"] == 12
    assert r["overall"]["mean_millipoints"] >= 0
    assert {p["phase"] for p in r["phases"]} <= {"opening", "contact", "race", "bearoff"}
    cli = subprocess.run([str(CLI), "benchmark", "random", "--set", str(small_set), "--seed", "2"],
                         check=True, capture_output=True, text=True).stdout
    assert f'{r["overall"]["mean_millipoints"]:.1f}' in cli
    # Sets built now keep each candidate's two halves of trials: the cross-fitted loss as well.
    cross = r["overall"]["cross_fitted"]
    assert cross["ci95_low"] <= cross["mean_millipoints"] <= cross["ci95_high"]
    assert f'{cross["mean_millipoints"]:.1f}' in cli and "cross-fitted" in cli
    # Two agents paired by decision: the mean difference is the difference of the means.
    v = nardy.benchmark("random", set=str(small_set), seed=2, versus="heuristic")
    diff = v["a_minus_b"]["phases"][0]
    assert diff["phase"] == "overall" and diff["decisions"] == 12
    assert diff["mean_millipoints"] == pytest.approx(
        v["overall"]["mean_millipoints"] - v["versus"]["overall"]["mean_millipoints"])
    cli = subprocess.run([str(CLI), "benchmark", "random", "--versus", "heuristic", "--set",
                          str(small_set), "--seed", "2"], check=True, capture_output=True,
                         text=True).stdout
    assert "paired by decision: random minus heuristic" in cli
    assert f'{diff["mean_millipoints"]:.2f}' in cli
    # An agent that always plays the set's best result loses nothing.
    best = {}
    text = small_set.read_text().splitlines()
    for i, line in enumerate(text):
        if line.startswith("decision"):
            _, pid, dice, _, _ = line.split()
            best[(pid, dice)] = text[i + 1].split()[0]

    def oracle(position, dice, moves):
        key = (position.id, f"{max(dice)}{min(dice)}")
        target = best.get(key)
        for i, m in enumerate(moves):
            if m.position.id == target:
                return i
        return 0
    assert nardy.benchmark(oracle, set=str(small_set))["overall"]["mean_millipoints"] == 0


def test_benchmark_stats_reports_the_noise_per_phase(small_set, tmp_path):
    out = subprocess.run([str(CLI), "benchmark", "stats", "--set", str(small_set)], check=True,
                         capture_output=True, text=True).stdout
    assert "12 decisions, format 2" in out and "difference noise" in out
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()
            if line.split() and line.split()[0] in ("overall", "opening", "contact", "race",
                                                     "bearoff")}
    assert rows["overall"][0] == "12"
    assert sum(int(r[0]) for phase, r in rows.items() if phase != "overall") == 12
    missing = subprocess.run([str(CLI), "benchmark", "stats", "--set", str(tmp_path / "no.txt")],
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "cannot open" in missing.stderr


def test_benchmark_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("decision nonsense\n")
    with pytest.raises(nardy.NardyError, match="bad.txt"):
        nardy.benchmark("random", set=str(bad))
    with pytest.raises(nardy.NardyError, match="cannot open"):
        nardy.benchmark("random", set=str(tmp_path / "missing.txt"))


def test_phase_of_is_the_phase_the_repository_set_records():
    # Each "decision POSID D1D2 PHASE N" line of the set was written with the C++ phase_of; the
    # set holds all four phases.
    repo_set = pathlib.Path(__file__).resolve().parents[2] / "bench" / "positions" / "positions.txt"
    recorded = [line.split()[1:4:2] for line in repo_set.read_text().splitlines()
                if line.startswith("decision ")]
    assert {phase for _, phase in recorded} == {"opening", "contact", "race", "bearoff"}
    for pos_id, phase in recorded:
        assert nardy.phase_of(nardy.Position.from_id(pos_id)) == phase, pos_id
    assert nardy.phase_of(nardy.Position.start()) == "opening"
    assert nardy.phase_of("1,1,1,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,0,0,0,0,0,0,0 w") == "bearoff"
    with pytest.raises(nardy.NardyError):
        nardy.phase_of("not a position")


def test_race_odds_from_the_table():
    table = BUILD / "bearoff.nbt"
    if not table.exists() and "NARDY_BEAROFF" not in os.environ:
        pytest.skip("no race table built")
    race = nardy.Position("1,1,1,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,0,0,0,0,0,0,0 w")
    odds = nardy.race_odds(race)
    assert odds is not None and 0 <= odds["win"] <= 1
    assert odds["equity"] == pytest.approx(odds["win"] + odds["win_mars"] - (1 - odds["win"] - odds["draw"]) - odds["lose_mars"])
    assert nardy.race_odds(nardy.Position.start()) is None


def test_a_directory_as_the_race_table_is_a_named_nardy_error(tmp_path):
    # NARDY_BEAROFF naming a directory: the loader reports the path, as a NardyError from
    # Python and exit 2 from the CLI (it was an unnamed basic_filebuf::underflow error).
    script = ("import nardy\n"
              "try:\n"
              "    nardy.arena('default', 'heuristic', games=2)\n"
              "except nardy.NardyError as e:\n"
              "    print('NardyError:', e)\n")
    env = {**os.environ, "NARDY_BEAROFF": str(tmp_path), "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "NardyError:" in proc.stdout and str(tmp_path) in proc.stdout
    assert "it is a directory" in proc.stdout
