"""nardy.torch_interop: Python-trained nets as nardy checkpoints the C++ engine plays."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import nardy  # noqa: E402
import nardy.torch_interop as ti  # noqa: E402


def positions(n=60):
    out = []
    for s in range(4):
        out += [t.before for t in nardy.random_game(seed=40 + s).history[::6]]
    return out[:n]


def test_module_equals_value_net(checkpoint):
    net = nardy.load_checkpoint(str(checkpoint))
    m = ti.ValueMLP.from_value_net(net)
    ps = positions()
    x = nardy.encode(ps, net.encoder)
    np.testing.assert_allclose(ti.predict(m, x), net.evaluate(ps), atol=1e-6)
    # The head in torch equals the C++ head on the same logits.
    with torch.no_grad():
        z = m.logits(torch.from_numpy(x))
    np.testing.assert_allclose(ti.evaluation_head(z).numpy(), net.evaluate(ps), atol=1e-6)
    loaded = ti.load_module(checkpoint)
    np.testing.assert_allclose(ti.predict(loaded, x), net.evaluate(ps), atol=1e-6)


@pytest.mark.parametrize("hidden, activation, outputs", [([24], "sigmoid", 3), ([16, 8], "relu", 4)])
def test_save_checkpoint_loads_in_cpp(tmp_path, hidden, activation, outputs):
    m = ti.ValueMLP(nardy.Encoder("extended").num_inputs, hidden, activation, outputs, seed=1)
    path = ti.save_checkpoint(m, tmp_path / "py.pt", encoder="extended", info={"games": 7, "extra": {"k": "v"}})
    net = nardy.load_checkpoint(str(path))  # C++ ValueNet::load checks shapes against nardy.json
    assert net.shape["hidden"] == hidden and net.shape["activation"] == activation
    assert net.shape["num_outputs"] == outputs and net.encoder == "extended-v1"
    assert net.info["games"] == 7 and net.info["extra"]["k"] == "v" and "trained_by" in net.info["extra"]
    ps = positions()
    np.testing.assert_allclose(net.evaluate(ps), ti.predict(m, nardy.encode(ps, "extended")), atol=1e-6)
    # The in-memory route gives the same net.
    mem = m.to_value_net("extended")
    np.testing.assert_allclose(mem.evaluate(ps), net.evaluate(ps), atol=1e-7)
    # And the C++ agents play it.
    r = nardy.arena(f"net:{path}", "random", games=4)
    assert r.games == 4


def test_fit_learns_outcomes_and_the_net_plays(tmp_path):
    games = nardy.play("heuristic", "random", games=30, seed=2)
    ps, y = ti.outcome_targets(games, every=2)
    assert y.shape == (len(ps), 4) and set(np.unique(y)) <= {0.0, 1.0}
    # The targets are the final result from the side to move.
    g = games[0]
    assert y[0, 0] == (1.0 if g.outcome.points_for(g.history[0].mover) > 0 else 0.0)
    x = nardy.encode(ps)
    m = ti.ValueMLP(x.shape[1], [32], seed=0)
    hist = ti.fit(m, x, y, epochs=6, lr=3e-3, validation=0.2, seed=0)
    assert len(hist["train"]) == 6 and len(hist["validation"]) == 6
    assert hist["train"][-1] < hist["train"][0]
    path = ti.save_checkpoint(m, tmp_path / "fit.pt")
    r = nardy.arena(f"net:{path}", "random", games=20, seed=1)
    assert r.games == 20
    d = ti.distill_targets(nardy.load_checkpoint(str(path)), ps[:10])
    np.testing.assert_allclose(d, ti.predict(m, x[:10])[:, :4], atol=1e-6)


def test_errors(tmp_path):
    m = ti.ValueMLP(10, [4])
    with pytest.raises(ValueError, match="encoder 'raw' has 197 inputs but the module takes 10"):
        ti.save_checkpoint(m, tmp_path / "x.pt", encoder="raw")
    with pytest.raises(ValueError, match="features: expected"):
        ti.fit(m, np.zeros((5, 9), np.float32), np.zeros((5, 4), np.float32))
    with pytest.raises(ValueError, match="activation"):
        ti.ValueMLP(10, [4], activation="gelu")
    foreign = tmp_path / "f.pt"
    torch.jit.save(torch.jit.script(torch.nn.Linear(2, 2)), str(foreign))
    with pytest.raises(ValueError, match="not a nardy checkpoint"):
        ti.load_module(foreign)
