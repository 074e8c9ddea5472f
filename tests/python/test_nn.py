"""nardy.encode, Encoder, Evaluation, ValueNet and checkpoints (bindings/bind_nn.cpp)."""

import json
import warnings
import zipfile

import numpy as np
import pytest

import nardy
from nardy import NardyError, Position


def sample_positions(n_games=3, every=5):
    out = []
    for seed in range(n_games):
        g = nardy.random_game(seed=100 + seed)
        out += [t.before for t in g.history[::every]]
    return out


# ---- encoders ----------------------------------------------------------------------------------


def test_encoder_ids_and_labels():
    assert nardy.encoder_ids() == ["raw-v1", "extended-v1", "mobility-v1", "reach-v1", "zones-v1"]
    for eid in nardy.encoder_ids():
        enc = nardy.Encoder(eid)
        labels = enc.labels()
        assert len(labels) == enc.num_inputs == len(nardy.input_labels(eid))
        assert len(set(labels)) == len(labels), "labels name distinct slots"
        assert enc.id == eid and eid.startswith(enc.name + "-v") and enc.version == 1
    assert nardy.Encoder("raw").id == "raw-v1"
    # extended-v1 is raw-v1 plus features (nn/encoder.h).
    assert nardy.Encoder("extended").labels()[: nardy.Encoder("raw").num_inputs] == nardy.Encoder("raw").labels()
    # mobility-v1 is extended-v1 plus what each side's dice can move (nn/encoder_mobility.h).
    mobility = nardy.Encoder("mobility")
    assert mobility.num_inputs == 233
    assert mobility.labels()[:215] == nardy.Encoder("extended").labels()
    assert mobility.labels()[215] == "me.open[1]" and mobility.labels()[-1] == "opp.rear.free"
    # reach-v1 is mobility-v1 plus what a whole roll can do (nn/encoder_reach.h).
    reach = nardy.Encoder("reach")
    assert reach.num_inputs == 247 and reach.labels()[:233] == mobility.labels()
    assert reach.labels()[233] == "me.trapped[3]" and reach.labels()[-1] == "opp.pips.lost"
    # zones-v1 is reach-v1 plus where each side's steps lie (nn/encoder_zones.h).
    zones = nardy.Encoder("zones")
    assert zones.num_inputs == 261 and zones.labels()[:247] == reach.labels()
    assert zones.labels()[247] == "me.open.zone[0]" and zones.labels()[-1] == "opp.doubles.lost"


def test_encode_shapes_and_inputs():
    ps = sample_positions()
    x = nardy.encode(ps)
    assert x.dtype == np.float32 and x.shape == (len(ps), nardy.Encoder("raw").num_inputs)
    assert x.flags["C_CONTIGUOUS"]
    # POS strings, single positions and Encoder.encode give the same rows.
    np.testing.assert_array_equal(nardy.encode([p.pos for p in ps]), x)
    np.testing.assert_array_equal(nardy.encode(ps[3]), x[3])
    np.testing.assert_array_equal(nardy.Encoder("raw").encode(tuple(ps)), x)
    assert nardy.encode([]).shape == (0, x.shape[1])
    xe = nardy.encode(ps, encoder="extended-v1")
    assert xe.shape == (len(ps), nardy.Encoder("extended").num_inputs)
    np.testing.assert_array_equal(xe[:, : x.shape[1]], x)


def test_encode_is_what_the_cpp_net_sees():
    # ValueNet.evaluation() encodes inside C++ (Encoder::fill); evaluate_features() takes the
    # Python-side encoding. Equal outputs mean equal encodings (to the net's precision).
    net = nardy.ValueNet.create("extended", hidden=[24], seed=5)
    ps = sample_positions(2, 7)
    from_python = net.evaluate_features(nardy.encode(ps, "extended"))
    for row, p in zip(from_python, ps):
        e = net.evaluation(p)
        np.testing.assert_allclose(row, [e.win, e.win_mars, e.lose_mars, e.draw, e.equity], atol=1e-6)


def test_encode_errors():
    with pytest.raises(NardyError, match="unknown encoder 'bogus'.*raw-v1"):
        nardy.encode([Position.start()], encoder="bogus")
    with pytest.raises(NardyError, match=r"positions\[1\]"):
        nardy.encode([Position.start().pos, "1,2,3 w"])
    with pytest.raises(TypeError, match=r"positions\[0\]: expected a Position or POS text, got int"):
        nardy.encode([7])
    with pytest.raises(TypeError, match="positions: expected"):
        nardy.encode(3.5)
    bad = Position.from_points([2, 2, 2, 2, 2, 2] + [0] * 5 + [-15] + [0] * 11 + [3], "w", validate=False)
    with pytest.raises(NardyError, match=r"positions\[0\].*six"):
        nardy.encode([bad])


# ---- evaluations -------------------------------------------------------------------------------


def test_evaluation_values():
    e = nardy.Evaluation(win=0.6, win_mars=0.1, lose_mars=0.05, draw=0.0)
    assert e.lose == pytest.approx(0.4)
    assert e.equity == pytest.approx(0.6 + 0.1 - 0.4 - 0.05)
    f = e.flipped()
    assert f.win == pytest.approx(0.4) and f.win_mars == pytest.approx(0.05) and f.lose_mars == pytest.approx(0.1)
    assert f.equity == pytest.approx(-e.equity)
    assert set(e.to_dict()) == {"win", "win_mars", "lose_mars", "draw", "lose", "equity"}
    assert "equity=+0.2500" in repr(e)


# ---- value nets --------------------------------------------------------------------------------


def test_create_save_load_round_trip(tmp_path):
    net = nardy.ValueNet.create("raw", hidden=[12], activation="tanh", num_outputs=4, seed=9)
    assert net.shape == {"encoder": "raw-v1", "num_inputs": net.num_inputs, "hidden": [12],
                         "activation": "tanh", "num_outputs": 4}
    path = tmp_path / "n.pt"
    net.save(str(path), info={"games": 42, "rules": {"last_roll_draw": True}, "extra": {"note": "hi"}})
    back = nardy.load_checkpoint(str(path))
    assert back.shape == net.shape
    assert back.info["games"] == 42 and back.info["extra"] == {"note": "hi"}
    assert "last_roll_draw=true" in back.info["rules"]
    for a, b in zip(net.parameters(), back.parameters()):
        np.testing.assert_array_equal(a, b)
    ps = sample_positions(1)
    np.testing.assert_array_equal(net.evaluate(ps), back.evaluate(ps))
    assert repr(back).startswith("ValueNet(encoder='raw-v1', hidden=[12], activation='tanh', num_outputs=4")


def test_evaluate_columns_are_consistent(checkpoint):
    net = nardy.load_checkpoint(str(checkpoint))
    y = net.evaluate(sample_positions())
    win, win_mars, lose_mars, draw, equity = y.T
    lose = 1 - win - draw
    assert np.all((0 <= win_mars) & (win_mars <= win + 1e-6))
    assert np.all((0 <= lose_mars) & (lose_mars <= lose + 1e-6))
    np.testing.assert_allclose(equity, win + win_mars - lose - lose_mars, atol=1e-5)
    assert net.evaluate(Position.start()).shape == (5,)


def test_evaluator_equals_torchscript_forward(checkpoint):
    torch = pytest.importorskip("torch")
    net = nardy.load_checkpoint(str(checkpoint))
    ps = sample_positions()
    x = nardy.encode(ps, net.encoder)
    module = torch.jit.load(str(checkpoint))
    with torch.no_grad():
        expected = module(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(net.evaluate(ps), expected, rtol=0, atol=1e-6)
    np.testing.assert_allclose(net.evaluate_features(x), expected, rtol=0, atol=1e-6)


def test_evaluator_equals_the_cpp_fast_agent(checkpoint):
    # A 0-ply net agent evaluates with the fast float kernels; the ValueNet with LibTorch.
    # tables=0: the agent would value races the race table covers exactly, not by the net.
    net = nardy.load_checkpoint(str(checkpoint))
    agent = nardy.make_agent(f"net:{checkpoint}:tables=0")
    for p in sample_positions(2, 11):
        e = agent.evaluate(p)
        np.testing.assert_allclose(net.evaluate(p), [e.win, e.win_mars, e.lose_mars, e.draw, e.equity], atol=2e-5)


def test_info_and_metadata(small_run, checkpoint):
    net = nardy.load_checkpoint(str(checkpoint))
    assert net.info["games"] == small_run.games_done == 300
    assert net.info["positions"] == small_run.positions > 0
    assert "hidden" in net.info["config_yaml"]
    assert net.info["rules"] == str(nardy.Rules())
    with zipfile.ZipFile(checkpoint) as z:
        meta = json.loads(next(z.read(n) for n in z.namelist() if n.endswith("nardy.json")))
    assert meta["encoder"] == net.encoder and meta["hidden"] == [16]


def test_best_move_matches_analysis(checkpoint):
    net = nardy.load_checkpoint(str(checkpoint))
    for p in sample_positions(1, 9):
        if p.outcome() is not None:
            continue
        best = net.best_move(p, 5, 2)
        assert best in p.legal(5, 2)
        assert best.position == nardy.analyze(p, 5, 2, agent=net).best.position


def test_parameters_round_trip_and_checks():
    net = nardy.ValueNet.create(hidden=[8], seed=2)
    params = net.parameters()
    assert [a.shape for a in params] == [(net.num_inputs, 8), (8,), (8, 3), (3,)]
    other = nardy.ValueNet.create(hidden=[8], seed=3)
    assert not np.array_equal(other.parameters()[0], params[0])
    other.set_parameters(params)
    for a, b in zip(other.parameters(), params):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(NardyError, match="expected 4 arrays"):
        other.set_parameters(params[:3])
    with pytest.raises(NardyError, match=r"w0 must have shape \[197, 8\].*got \[8, 197\]"):
        other.set_parameters([params[0].T, *params[1:]])
    # Nothing was written by the failed calls.
    np.testing.assert_array_equal(other.parameters()[0], params[0])
    # clone() is independent; assignment shares.
    c = other.clone()
    shared = other
    other.set_parameters([np.zeros_like(a) for a in params])
    assert np.count_nonzero(c.parameters()[0]) > 0
    assert np.count_nonzero(shared.parameters()[0]) == 0


def test_create_errors():
    with pytest.raises(NardyError, match="activation"):
        nardy.ValueNet.create(activation="softsign")
    with pytest.raises(NardyError, match="outputs"):
        nardy.ValueNet.create(num_outputs=5)
    with pytest.raises(NardyError, match="unknown encoder"):
        nardy.ValueNet.create(encoder="nope")
    with pytest.raises(NardyError, match="info: unknown key 'bogus'"):
        nardy.ValueNet.create().save("/tmp/never.pt", info={"bogus": 1})


def test_checkpoint_errors(tmp_path, checkpoint):
    missing = tmp_path / "missing.pt"
    with pytest.raises(NardyError, match=f"checkpoint '{missing}': no such file"):
        nardy.load_checkpoint(str(missing))
    damaged = tmp_path / "damaged.pt"
    damaged.write_bytes(checkpoint.read_bytes()[:300])
    with pytest.raises(NardyError, match="damaged.pt.*not a readable TorchScript file"):
        nardy.load_checkpoint(str(damaged))
    text = tmp_path / "text.pt"
    text.write_text("hello")
    with pytest.raises(NardyError, match="not a readable TorchScript file"):
        nardy.load_checkpoint(str(text))
    torch = pytest.importorskip("torch")
    foreign = tmp_path / "foreign.pt"
    torch.jit.save(torch.jit.script(torch.nn.Linear(3, 2)), str(foreign))
    with pytest.raises(NardyError, match="no nardy.json metadata"):
        nardy.load_checkpoint(str(foreign))
    with pytest.raises(NardyError, match=f"agent 'net:{missing}'"):
        nardy.make_agent(f"net:{missing}")


def _rewrite_zip(src, dst, edit):
    """Copies the zip `src` to `dst` with edit(name, data) -> data applied to every member."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            zout.writestr(info, edit(info.filename, zin.read(info.filename)))


def test_damaged_checkpoint_members_are_refused(tmp_path):
    good = tmp_path / "good.pt"
    nardy.ValueNet.create(hidden=[8], seed=1).save(str(good))
    empty = tmp_path / "empty.pt"  # once a segfault in nardy eval, engine and load_checkpoint
    _rewrite_zip(good, empty, lambda name, data: b"" if name.endswith("data/0") else data)
    with pytest.raises(NardyError, match="archive checksum check failed"):
        nardy.load_checkpoint(str(empty))
    edited = tmp_path / "edited.pt"

    def more_games(name, data):
        return data.replace(b'"games": 0', b'"games": 9') if name.endswith("nardy.json") else data

    _rewrite_zip(good, edited, more_games)
    with pytest.raises(NardyError, match="metadata checksum check failed"):
        nardy.load_checkpoint(str(edited))


def test_old_checkpoint_without_checksums_loads_with_warning_but_empty_member_is_refused(tmp_path):
    good = tmp_path / "good.pt"
    nardy.ValueNet.create(hidden=[8], seed=1).save(str(good))

    def strip_checksums(name, data):
        if not name.endswith("nardy.json"):
            return data
        meta = json.loads(data)
        del meta["checksums"]
        return json.dumps(meta).encode()

    old = tmp_path / "old.pt"
    _rewrite_zip(good, old, strip_checksums)
    # A Python warning (issue 14: it was only a line on C++'s stderr), which filters and pytest see.
    with pytest.warns(nardy.CheckpointWarning, match=r"checkpoint '.*old\.pt' carries no checksums"):
        net = nardy.load_checkpoint(str(old))
    assert issubclass(nardy.CheckpointWarning, UserWarning)
    with pytest.warns(nardy.CheckpointWarning):
        nardy.make_agent(f"net:{old}:cache=12")  # net: agents load through the same loader
    with warnings.catch_warnings():
        warnings.simplefilter("error", nardy.CheckpointWarning)
        with pytest.raises(nardy.CheckpointWarning):
            nardy.ValueNet.load(str(old))
    np.testing.assert_array_equal(net.parameters()[0], nardy.load_checkpoint(str(good)).parameters()[0])
    old_empty = tmp_path / "old_empty.pt"
    _rewrite_zip(old, old_empty, lambda name, data: b"" if name.endswith("data/0") else data)
    with pytest.raises(NardyError, match=r"parameter w0 \(zip member data/0\) holds 0 bytes"):
        nardy.load_checkpoint(str(old_empty))


def test_checkpoint_with_checksums_loads_without_warning(tmp_path):
    good = tmp_path / "good.pt"
    nardy.ValueNet.create(hidden=[8], seed=1).save(str(good))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nardy.load_checkpoint(str(good))


@pytest.mark.parametrize("damage, reason", [
    (lambda d: d.replace(b'"rules": "', b'"rules": "\xff\xfe', 1), "ill-formed UTF-8 byte"),
    (lambda d: d[: len(d) // 2], "syntax error while parsing"),
    (lambda d: b"", "unexpected end of input"),
    (lambda d: d.replace(b'"format": "', b'"format": "\x00\x01', 1), "last read"),
])
def test_damaged_metadata_text_gives_a_readable_error(tmp_path, damage, reason):
    # Issue 14: NardyError('') (invalid UTF-8 in the message) or a message cut before the reason.
    good = tmp_path / "good.pt"
    nardy.ValueNet.create(hidden=[8], seed=1).save(str(good))
    bad = tmp_path / "bad.pt"
    _rewrite_zip(good, bad, lambda name, data: damage(data) if name.endswith("nardy.json") else data)
    with pytest.raises(NardyError) as err:
        nardy.load_checkpoint(str(bad))
    msg = str(err.value)
    assert msg.startswith(f"checkpoint '{bad}': nardy.json is not valid JSON (at line ")
    assert reason in msg and msg.endswith(")")
    assert msg.isprintable()


def test_bit_flips_in_any_member_never_load(tmp_path):
    # Every member's bytes are covered by a checksum (zip headers and padding are not: a flip
    # there leaves the net exactly as saved, or LibTorch refuses the zip).
    good = tmp_path / "good.pt"
    nardy.ValueNet.create(hidden=[4], seed=1).save(str(good))
    data = good.read_bytes()
    with zipfile.ZipFile(good) as z:
        members = [(i.filename, z.read(i.filename)) for i in z.infolist() if i.compress_type == zipfile.ZIP_STORED]
    assert len(members) >= 7  # nardy.json, 4 parameters, data.pkl, ...
    flipped = tmp_path / "flipped.pt"
    rng = np.random.default_rng(7)
    for name, content in members:
        start = data.index(content, data.index(name.encode()))
        for offset in rng.choice(len(content), size=min(6, len(content)), replace=False):
            b = bytearray(data)
            b[start + int(offset)] ^= 1 << int(rng.integers(8))
            flipped.write_bytes(bytes(b))
            with pytest.raises(NardyError, match="flipped.pt"):
                nardy.load_checkpoint(str(flipped))


def test_the_shipped_model_loads_and_plays():
    # models/nardy-td-1.pt, copied into the package by the build (selfplay/search/shipped_models.h).
    assert "nardy-td-1" in nardy.list_models()
    assert nardy.DEFAULT_MODEL in nardy.list_models()
    net = nardy.load_model()
    assert net.info["extra"] == nardy.load_model(nardy.DEFAULT_MODEL).info["extra"]
    assert net.shape["hidden"] == [256] and net.shape["encoder"] == "zones-v1"
    # nardy-fit-8 is nardy-fit-7 given the zones inputs, nardy-fit-7 nardy-fit-6 given the reach
    # inputs, nardy-fit-6 nardy-fit-5 given the mobility inputs (models/README.md).
    assert nardy.load_model("nardy-fit-7").shape["encoder"] == "reach-v1"
    assert nardy.load_model("nardy-fit-6").shape["encoder"] == "mobility-v1"
    assert nardy.load_model("nardy-fit-5").shape["encoder"] == "extended-v1"
    assert nardy.make_agent("default").choose(nardy.Position.start(), 6, 5).notation == "24/13"


def test_a_missing_model_names_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.setenv("NARDY_MODEL_DIR", str(tmp_path))
    with pytest.raises(nardy.NardyError, match="no file nope.pt in " + str(tmp_path)):
        nardy.load_model("nope")
    (tmp_path / "broken.pt").write_bytes(b"junk")
    with pytest.raises(nardy.NardyError, match="broken.pt"):
        nardy.load_model("broken")


def test_two_layer_net_checkpoint_torchscript_and_fast_kernels(tmp_path):
    # A net with two hidden layers: saved as TorchScript, torch.jit.load gives the ValueNet's
    # forward, and the 0-ply agent (the fast float kernels, nn/fast_net.h) the same values.
    torch = pytest.importorskip("torch")
    net = nardy.ValueNet.create("raw", hidden=[24, 12], seed=4)
    path = tmp_path / "deep.pt"
    net.save(str(path))
    back = nardy.load_checkpoint(str(path))
    assert back.shape["hidden"] == [24, 12]
    ps = sample_positions()
    x = nardy.encode(ps, back.encoder)
    with torch.no_grad():
        expected = torch.jit.load(str(path))(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(back.evaluate(ps), expected, rtol=0, atol=1e-6)
    np.testing.assert_array_equal(back.evaluate(ps), net.evaluate(ps))
    agent = nardy.make_agent(f"net:{path}:tables=0:backend=fast")
    for p in sample_positions(2, 11):
        e = agent.evaluate(p)
        np.testing.assert_allclose(back.evaluate(p), [e.win, e.win_mars, e.lose_mars, e.draw, e.equity], atol=2e-5)
