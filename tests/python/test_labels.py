"""nardy.label, nardy.read_labels and nardy.fit: the Python side of `nardy label` / `nardy fit`."""

import os
import pathlib
import subprocess
import sys

import pytest

import nardy

SEARCH_NET = str(pathlib.Path(__file__).resolve().parents[1] / "data" / "search_net.pt")


def label_small(path, games, threads=1):
    return nardy.label(str(path), games=games, player="heuristic", explore=0.2, sample=0.05,
                       labeler=f"net:{SEARCH_NET}:ply=1", threads=threads, seed=3)


def test_label_read_and_fit_round_trip(tmp_path):
    p = label_small(tmp_path / "a.lbl", 6)
    assert p["games"] == 6 and p["new_games"] == 6
    again = label_small(tmp_path / "a.lbl", 10, threads=2)  # continues the file
    assert again["games"] == 10 and again["new_games"] == 4
    whole = label_small(tmp_path / "b.lbl", 10)
    assert (tmp_path / "a.lbl").read_bytes() == (tmp_path / "b.lbl").read_bytes()

    labels = nardy.read_labels(str(tmp_path / "a.lbl"))
    assert labels["complete_games"] == 10
    assert len(labels["ids"]) == whole["positions"] > 0
    assert "1-ply" in labels["sources"]
    assert set(labels["sources"]) <= {"1-ply", "race table"}  # races: exact if a table is built
    assert labels["header"]["player"] == "heuristic"
    first = labels["sources"].index("1-ply")
    pos = nardy.Position.from_id(labels["ids"][first])
    value = nardy.make_agent(f"net:{SEARCH_NET}:ply=1").evaluate(pos)
    win, win_mars, lose_mars, draw = labels["targets"][first]
    assert 0 <= win_mars <= win <= 1 and draw == 0
    assert win == pytest.approx(value.win, abs=1e-6)
    assert lose_mars == pytest.approx(value.lose_mars, abs=1e-6)

    init = tmp_path / "init.pt"
    nardy.ValueNet.create(hidden=[8], seed=2).save(str(init))
    r = nardy.fit(str(tmp_path / "a.lbl"), str(tmp_path / "out.pt"), init=str(init), lr=3e-3,
                  batch=16, epochs=4, holdout=0.3)
    assert r["epochs"][0]["epoch"] == 0 and len(r["epochs"]) >= 2
    assert r["epochs"][r["best_epoch"]]["heldout_loss"] <= r["epochs"][0]["heldout_loss"]
    fitted = nardy.load_checkpoint(r["checkpoint"])
    assert fitted.info["extra"]["fit.best_epoch"] == str(r["best_epoch"])
    # Several files are one data set.
    both = nardy.fit([str(tmp_path / "a.lbl"), tmp_path / "b.lbl"], str(tmp_path / "ab.pt"),
                     init=str(init), epochs=1, holdout=0.3)
    assert both["train_positions"] + both["heldout_positions"] == 2 * len(labels["ids"])
    assert nardy.load_checkpoint(both["checkpoint"]).info["extra"]["fit.data"] == \
        f"{tmp_path / 'a.lbl'}; {tmp_path / 'b.lbl'}"
    # split_seed: a file's held-out games follow its labelling seed, not its place (a and b are
    # the same records, seed 3, so they hold out the same games: twice those of a alone).
    alone = nardy.fit(str(tmp_path / "a.lbl"), str(tmp_path / "s.pt"), init=str(init), epochs=1,
                      holdout=0.3, split_seed=9)
    paired = nardy.fit([str(tmp_path / "a.lbl"), tmp_path / "b.lbl"], str(tmp_path / "s2.pt"),
                       init=str(init), epochs=1, holdout=0.3, split_seed=9, seed=4)
    assert paired["heldout_positions"] == 2 * alone["heldout_positions"]
    assert paired["epochs"][0]["heldout_loss"] == pytest.approx(alone["epochs"][0]["heldout_loss"])
    assert nardy.load_checkpoint(paired["checkpoint"]).info["extra"]["fit.split_seed"] == "9"


def test_top_results_siblings_and_the_fit_options(tmp_path):
    path = str(tmp_path / "top.lbl")
    nardy.label(path, games=8, player="heuristic", explore=0.2, sample=0.05, candidates=0.3,
                top=3, labeler=f"net:{SEARCH_NET}:ply=1", seed=3)
    labels = nardy.read_labels(path)
    assert labels["header"]["top"] == "3"
    siblings = labels["siblings"]
    assert len(siblings) == len(labels["ids"]) and any(siblings) and not siblings[0]
    init = tmp_path / "init.pt"
    nardy.ValueNet.create(hidden=[8], seed=2).save(str(init))
    r = nardy.fit(path, str(tmp_path / "out.pt"), init=str(init), lr=3e-3, batch=16, epochs=3,
                  holdout=0.3, sibling_weight=2.0, lr_drops=1, lr_drop=0.5)
    assert r["lr_drops"] in (0, 1) and r["epochs"][1]["lr"] == pytest.approx(3e-3)
    extra = nardy.load_checkpoint(r["checkpoint"]).info["extra"]
    assert extra["fit.sibling_weight"] == "2"
    wide = nardy.fit(path, str(tmp_path / "wide.pt"), init=str(init), epochs=1, holdout=0.3,
                     sibling_weight=2.0, widen=[12])
    assert wide["epochs"][0]["heldout_loss"] == pytest.approx(r["epochs"][0]["heldout_loss"])
    assert nardy.load_checkpoint(wide["checkpoint"]).info["extra"]["fit.widened"] == "8 -> 12"
    with pytest.raises(nardy.NardyError, match="cannot shrink"):
        nardy.fit(path, str(tmp_path / "narrow.pt"), init=str(init), widen=[4])
    with pytest.raises(nardy.NardyError, match="top"):
        nardy.label(str(tmp_path / "bad.lbl"), games=1, candidates=0.0, top=2,
                    labeler=f"net:{SEARCH_NET}:ply=1")


def test_bad_files_raise_nardy_error(tmp_path):
    with pytest.raises(nardy.NardyError, match="cannot open"):
        nardy.read_labels(str(tmp_path / "missing.lbl"))
    (tmp_path / "junk.lbl").write_text("hello\n")
    with pytest.raises(nardy.NardyError, match="not a label file"):
        nardy.read_labels(str(tmp_path / "junk.lbl"))
    with pytest.raises(nardy.NardyError, match="not a regular file"):
        nardy.read_labels(str(tmp_path))
    with pytest.raises(nardy.NardyError, match="not a label file"):
        nardy.fit(str(tmp_path / "junk.lbl"), str(tmp_path / "out.pt"))
    with pytest.raises(nardy.NardyError, match="not a net spec"):
        nardy.label(str(tmp_path / "x.lbl"), games=1, labeler="heuristic")


def test_filter_labels_by_phase_keeps_whole_groups_of_the_phases(tmp_path):
    # scripts/filter_labels_by_phase.py (docs/results.md, "One net or one per phase"): every
    # game's end stays, a sibling group goes or stays whole by its first position's phase, and
    # the kept records are the input's, in order.
    src = tmp_path / "all.lbl"
    nardy.label(str(src), games=12, player="heuristic", explore=0.2, sample=0.3, candidates=0.5,
                top=3, labeler=f"net:{SEARCH_NET}:ply=0", seed=5)
    script = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "filter_labels_by_phase.py"
    out = subprocess.run([sys.executable, str(script), "--phases", "contact,opening", "--out-dir",
                          str(tmp_path / "cut"), str(src)], check=True, capture_output=True,
                         text=True).stdout
    whole, cut = nardy.read_labels(str(src)), nardy.read_labels(str(tmp_path / "cut" / "all.lbl"))

    groups = []  # (phase of the first position, records) of the input
    for i, (pos_id, sibling) in enumerate(zip(whole["ids"], whole["siblings"])):
        if not sibling:
            groups.append((nardy.phase_of(nardy.Position.from_id(pos_id)), []))
        groups[-1][1].append(i)
    kept = [i for phase, group in groups if phase in ("contact", "opening") for i in group]
    assert 0 < len(kept) < len(whole["ids"])  # the games reach races: some groups go
    assert any(len(group) > 1 for _, group in groups)
    assert cut["ids"] == [whole["ids"][i] for i in kept]
    assert cut["targets"] == [whole["targets"][i] for i in kept]
    assert cut["siblings"] == [whole["siblings"][i] for i in kept]
    assert cut["complete_games"] == whole["complete_games"] == 12
    assert cut["header"]["phases"] == "contact,opening"
    assert f"kept {len(kept)} of {len(whole['ids'])} positions" in out

    bad = subprocess.run([sys.executable, str(script), "--phases", "middle", "--out-dir",
                          str(tmp_path / "x"), str(src)], capture_output=True, text=True)
    assert bad.returncode != 0 and "unknown phase(s) ['middle']" in bad.stderr


def test_filter_labels_by_phase_exact_races_gives_covered_races_the_table_odds(tmp_path):
    # --exact-races: the kept positions the race table covers get its odds (source "race
    # table"), the others keep their targets. The input is labelled without a table (a process
    # of its own: the table is chosen once per process), so its races have the net's values.
    src = tmp_path / "all.lbl"
    make = (f"import nardy; nardy.label({str(src)!r}, games=12, player='heuristic', explore=0.2,"
            f" sample=0.3, candidates=0.5, top=3, labeler='net:{SEARCH_NET}:ply=0', seed=5)")
    subprocess.run([sys.executable, "-c", make], check=True,
                   env={**os.environ, "NARDY_BEAROFF": "off"})
    assert "race table" not in nardy.read_labels(str(src))["sources"]
    script = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "filter_labels_by_phase.py"
    out = subprocess.run([sys.executable, str(script), "--phases", "race,bearoff", "--exact-races",
                          "--out-dir", str(tmp_path / "cut"), str(src)], check=True,
                         capture_output=True, text=True).stdout
    whole, cut = nardy.read_labels(str(src)), nardy.read_labels(str(tmp_path / "cut" / "all.lbl"))
    index = {pos_id: i for i, pos_id in enumerate(whole["ids"])}
    exact = 0
    for pos_id, target, source in zip(cut["ids"], cut["targets"], cut["sources"]):
        odds = nardy.race_odds(nardy.Position.from_id(pos_id))
        if odds is None:
            assert target == whole["targets"][index[pos_id]]
            continue
        exact += 1
        assert source == "race table"
        assert target == pytest.approx([odds["win"], odds["win_mars"], odds["lose_mars"],
                                        odds["draw"]], abs=1e-6)
    assert exact > 0
    assert any(whole["targets"][index[i]] != t for i, t in zip(cut["ids"], cut["targets"]))
    assert cut["header"]["exact_races"].startswith("table_points=")
    assert f"{exact} given exact race odds" in out
