"""nardy.env.NardyEnv, the Gym-style environment."""

import numpy as np
import pytest

import nardy
from nardy import NardyError
from nardy.env import NardyEnv


def play_episode(env, seed, pick=lambda info, rng: int(rng.integers(len(info["legal_moves"])))):
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trajectory = [(obs, info["dice"], [m.notation for m in info["legal_moves"]])]
    total = 0.0
    while True:
        obs, reward, terminated, truncated, info = env.step(pick(info, rng))
        total += reward
        trajectory.append((obs, info["dice"], [m.notation for m in info["legal_moves"]]))
        if terminated or truncated:
            return total, terminated, truncated, info, trajectory
        assert reward == 0


def test_episode_contract():
    env = NardyEnv(opponent="heuristic", seed=3)
    obs, info = env.reset()
    assert obs.shape == (env.num_inputs,) == (nardy.Encoder("raw").num_inputs,) and obs.dtype == np.float32
    assert info["position"].side_to_move == nardy.Side.White == info["agent_side"]
    assert info["legal_moves"] == info["position"].legal(*info["dice"])
    assert info["afterstates"].shape == (len(info["legal_moves"]), env.num_inputs)
    np.testing.assert_array_equal(obs, nardy.encode(info["position"]))
    np.testing.assert_array_equal(info["afterstates"], nardy.encode([m.position for m in info["legal_moves"]]))
    total, terminated, truncated, info, _ = play_episode(env, 3)
    assert terminated and not truncated
    assert total == info["outcome"].points_for(env.agent_side) and total in (-2, -1, 1, 2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_seeding_is_reproducible():
    a = play_episode(NardyEnv(opponent="random"), 11)
    b = play_episode(NardyEnv(opponent="random", seed=999), 11)
    assert a[0] == b[0] and len(a[4]) == len(b[4])
    for (o1, d1, m1), (o2, d2, m2) in zip(a[4], b[4]):
        np.testing.assert_array_equal(o1, o2)
        assert d1 == d2 and m1 == m2
    c = play_episode(NardyEnv(opponent="random"), 12)
    assert [t[1] for t in c[4]] != [t[1] for t in a[4]]


def test_agent_as_black_and_random_sides():
    env = NardyEnv(opponent="heuristic", agent_side="b", seed=1)
    obs, info = env.reset()
    assert info["agent_side"] == nardy.Side.Black and info["position"].side_to_move == nardy.Side.Black
    assert info["turn"] == 1  # the opponent (White) opened
    sides = {NardyEnv(agent_side="random").reset(seed=s)[1]["agent_side"] for s in range(12)}
    assert sides == {nardy.Side.White, nardy.Side.Black}


def test_heuristic_actions_beat_random_opponent():
    # Choosing with the heuristic agent through the env wins most games against random.
    h = nardy.make_agent("heuristic")

    def pick(info, rng):
        chosen = h.choose(info["position"], *info["dice"])
        return info["legal_moves"].index(chosen)

    env = NardyEnv(opponent="random")
    totals = [play_episode(env, s, pick)[0] for s in range(10)]
    assert sum(totals) > 5


def test_actions_in_other_forms_and_errors():
    env = NardyEnv(opponent="random", seed=5)
    obs, info = env.reset()
    env2 = NardyEnv(opponent="random", seed=5)
    env2.reset()
    m = info["legal_moves"][-1]
    r1 = env.step(m)
    r2 = env2.step(m.notation)
    np.testing.assert_array_equal(r1[0], r2[0])
    _, info = env.reset(seed=5)
    with pytest.raises(NardyError, match="not an index into the"):
        env.step(len(info["legal_moves"]))
    with pytest.raises(TypeError, match="action: expected"):
        env.step(1.5)
    with pytest.raises(NardyError):
        env.step("1/off")  # not legal
    with pytest.raises(ValueError, match="agent_side"):
        NardyEnv(agent_side="x")


def test_truncation_rules_and_render():
    env = NardyEnv(opponent="random", max_turns=6, seed=2, render_mode="ansi", rules={"last_roll_draw": True})
    assert env.rules.last_roll_draw
    _, terminated, truncated, info, _ = play_episode(env, 2)
    assert truncated and not terminated and info["turn"] >= 6
    assert "pips" in env.render().lower() or "off" in env.render().lower()
    env.render_mode = "svg"
    assert env.render().startswith("<svg")
    # A Python opponent works too.
    env = NardyEnv(opponent=lambda pos, dice, moves: 0, seed=1)
    assert play_episode(env, 1)[1]
