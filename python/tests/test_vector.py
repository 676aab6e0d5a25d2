"""The batched API: many environments stepped in Rust."""

import numpy as np
import pytest

import norn


def run(name, seed, threads, steps=60, opponent=None, num_envs=8, **kwargs):
    vector = norn.VectorGame(name, num_envs, seed, opponent=opponent, threads=threads, **kwargs)
    rng = np.random.default_rng(0)
    observations, info = vector.reset()
    trace = [observations.copy(), info["action_mask"].copy()]
    for _ in range(steps):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        observations, rewards, terminated, truncated, info = vector.step(actions)
        trace += [observations.copy(), rewards.copy(), terminated.copy(), truncated.copy()]
    return vector, trace


def test_every_game_steps_in_batches(game):
    vector, trace = run(game.name, seed=1, threads=1, steps=30, num_envs=4)
    observations = trace[0]
    assert observations.shape == (4, *game.observation_tensor_shape())
    assert observations.dtype == np.float32
    assert trace[1].shape == (4, game.num_distinct_actions())
    assert (trace[1].sum(axis=1) > 0).all(), "every environment has a legal action"


def test_the_same_seed_gives_the_same_results_for_any_thread_count():
    _, one = run("hnefatafl", seed=5, threads=1, opponent="random")
    _, two = run("hnefatafl", seed=5, threads=2, opponent="random")
    assert len(one) == len(two)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)
    _, other = run("hnefatafl", seed=6, threads=2, opponent="random")
    assert any(not np.array_equal(a, b) for a, b in zip(one, other))


def test_episodes_end_and_reset_in_the_same_step():
    vector = norn.VectorGame("nibelungen", 4, 3, opponent="random", rules="round-limit=2")
    observations, info = vector.reset()
    finished = 0
    for _ in range(200):
        masks = info["action_mask"]
        actions = np.array([np.flatnonzero(mask)[0] for mask in masks])
        observations, rewards, terminated, truncated, info = vector.step(actions)
        finished += int(terminated.sum())
        assert (info["action_mask"].sum(axis=1) > 0).all()
        assert (rewards[~terminated] == 0).all()
    assert finished > 0


def test_truncation_cuts_episodes_at_the_step_limit():
    vector = norn.VectorGame("hnefatafl", 2, 1, max_steps=5)
    _, info = vector.reset()
    for step in range(5):
        actions = [np.flatnonzero(mask)[0] for mask in info["action_mask"]]
        _, rewards, terminated, truncated, info = vector.step(actions)
    assert truncated.all() and not terminated.any()


def test_bad_batches_are_refused():
    with pytest.raises(ValueError, match="threads"):
        norn.VectorGame("hnefatafl", 2, 1, threads=100000)
    with pytest.raises(ValueError, match="num_envs"):
        norn.VectorGame("hnefatafl", 0, 1)
    with pytest.raises(ValueError, match="num_envs"):
        norn.VectorGame("hnefatafl", 2**60, 1)
    with pytest.raises(ValueError):
        norn.VectorGame("hnefatafl", 2, 1, opponent="no-such-agent")
    with pytest.raises(ValueError, match="max_steps"):
        norn.VectorGame("hnefatafl", 2, 1, max_steps=0)
    vector = norn.VectorGame("hnefatafl", 2, 1)
    _, info = vector.reset()
    with pytest.raises(ValueError, match="one action per environment"):
        vector.step([0])
    illegal = int(np.flatnonzero(info["action_mask"][0] == 0)[0])
    with pytest.raises(ValueError, match="environment 0"):
        vector.step([illegal, int(np.flatnonzero(info["action_mask"][1])[0])])
