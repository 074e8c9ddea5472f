"""The race net: scripts/train_race_net.py writes what the C++ reader loads, the C++ forward pass
equals the script's torch module on the same weights, and nardy.race_odds(estimate=True) values
races beyond the table with it (selfplay/tables/race_net.h)."""

import importlib.util
import struct
import subprocess
import sys
import time

import pytest
import torch

import nardy
from conftest import REPO


def _trainer():
    spec = importlib.util.spec_from_file_location("train_race_net",
                                                  REPO / "scripts" / "train_race_net.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fit(table, out, seed=1):
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "train_race_net.py"), str(table),
                           "--out", str(out), "--hidden", "16,8", "--epochs", "1",
                           "--threads", "1", "--holdout", "0.1", "--seed", str(seed)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "held-out loss" in proc.stderr
    return out


@pytest.fixture(scope="module")
def small_net(tmp_path_factory, nardy_cli):
    """A 4-point table and a race net fitted to it for one epoch (a second or two)."""
    d = tmp_path_factory.mktemp("race_net")
    table = d / "t4.nbt"
    nardy_cli("bearoff", "build", "--points", "4", "--out", table, "--quiet")
    return table, _fit(table, d / "r4.nrn")


def test_the_same_table_and_seed_give_the_same_file(small_net, tmp_path):
    table, net = small_net
    assert _fit(table, tmp_path / "again.nrn").read_bytes() == net.read_bytes()
    assert _fit(table, tmp_path / "other.nrn", seed=2).read_bytes() != net.read_bytes()


def test_a_killed_fit_resumes_to_the_same_file(nardy_cli, tmp_path):
    table = tmp_path / "t6.nbt"
    nardy_cli("bearoff", "build", "--points", "6", "--out", table, "--quiet")
    args = ["--hidden", "16,8", "--epochs", "3", "--hold", "1", "--halve-every", "1",
            "--batch", "64", "--threads", "1"]
    whole = tmp_path / "whole.nrn"
    cmd = [sys.executable, str(REPO / "scripts" / "train_race_net.py"), str(table)]
    subprocess.run(cmd + ["--out", str(whole)] + args, check=True, capture_output=True,
                   timeout=300)
    assert not (tmp_path / "whole.nrn.ckpt").exists()  # removed at the end
    killed = tmp_path / "killed.nrn"
    proc = subprocess.Popen(cmd + ["--out", str(killed)] + args, stderr=subprocess.DEVNULL)
    ckpt = tmp_path / "killed.nrn.ckpt"
    deadline = time.time() + 120
    while not ckpt.exists() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.01)
    proc.kill()
    proc.wait()
    assert ckpt.exists(), "the fit ended before its first checkpoint"
    again = subprocess.run(cmd + ["--out", str(killed)] + args, capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 0, again.stderr
    assert "resumed from" in again.stderr
    assert killed.read_bytes() == whole.read_bytes()
    # Other arguments do not resume a checkpoint.
    proc = subprocess.Popen(cmd + ["--out", str(killed)] + args, stderr=subprocess.DEVNULL)
    while not ckpt.exists() and proc.poll() is None:
        time.sleep(0.01)
    proc.kill()
    proc.wait()
    other = subprocess.run(cmd + ["--out", str(killed), "--seed", "2"] + args,
                           capture_output=True, text=True, timeout=300)
    assert other.returncode != 0 and "made with other arguments" in other.stderr


def test_cpp_forward_equals_the_trainers_torch_module(small_net):
    _, path = small_net
    t = _trainer()
    raw = path.read_bytes()
    version, points, layers, fbins, obins, _crc, _ = struct.unpack_from("<7I", raw, 8)
    assert (version, points) == (1, 4)
    widths = list(struct.unpack_from(f"<{layers}I", raw, 36))
    net = t.RaceNet(widths[0], widths[1:], fbins, obins)
    offset = 36 + 4 * layers
    for layer in list(net.hidden) + [net.out]:
        for p in (layer.weight, layer.bias):
            n = p.numel()
            values = struct.unpack_from(f"<{n}f", raw, offset)
            offset += 4 * n
            with torch.no_grad():
                p.copy_(torch.tensor(values).reshape(p.shape))
    assert offset == len(raw)
    arrangements = t.arrangements(4)
    sample = torch.from_numpy(arrangements[::37])
    with torch.no_grad():
        zf, zo = net(t.features(sample))
    pf, po = torch.softmax(zf, 1), torch.softmax(zo, 1)
    for i, counts in enumerate(sample.tolist()):
        got = nardy.race_net_estimate(counts, path=str(path))
        assert got["points"] == 4
        assert got["finish"] == pytest.approx(pf[i].tolist(), abs=1e-5)
        assert got["first_off"] == pytest.approx(po[i].tolist(), abs=1e-5)
        assert sum(got["finish"]) == pytest.approx(1.0, abs=1e-5)


def test_estimate_names_bad_input(small_net):
    _, path = small_net
    with pytest.raises(Exception, match="5 counts, the net covers 4 points"):
        nardy.race_net_estimate([1, 1, 1, 1, 1], path=str(path))
    with pytest.raises(Exception, match="16 checkers"):
        nardy.race_net_estimate([4, 4, 4, 4], path=str(path))
    with pytest.raises(Exception, match="is not 0..15"):
        nardy.race_net_estimate([-1], path=str(path))
    with pytest.raises(Exception, match="cannot open"):
        nardy.race_net_estimate([1], path=str(path) + ".missing")


def test_race_odds_estimates_races_beyond_the_table():
    # White's checkers reach route 11, beyond the build's 8-point table: a race all the same.
    points = [0] * 24
    points[10], points[4], points[0] = 5, 5, 5       # White on points 11, 5, 1
    points[21], points[15], points[12] = -5, -5, -5  # Black on its routes 10, 4, 1 (22, 16, 13)
    race = nardy.Position(",".join(map(str, points)) + " w")
    assert nardy.phase_of(race) == "race"
    assert nardy.race_odds(race) is None  # not covered by the 8-point table
    est = nardy.race_odds(race, estimate=True)
    assert est["exact"] is False
    assert 0.0 < est["win"] < 1.0
    assert est["equity"] == pytest.approx(
        est["win"] + est["win_mars"] - (1 - est["win"] - est["draw"]) - est["lose_mars"])
    # White is 10 pips behind but on roll: about even.
    assert -0.6 < est["equity"] < 0.6
    assert nardy.race_odds(nardy.Position.start(), estimate=True) is None
