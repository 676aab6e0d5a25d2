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


def random_legal_ids(info, rng):
    """One uniformly random legal id per environment, drawn from the ids
    in compressed rows that the last step or reset returned."""
    ids, offsets = info["legal_ids"], info["legal_offsets"]
    return [
        int(ids[offsets[i] + rng.integers(offsets[i + 1] - offsets[i])])
        for i in range(len(offsets) - 1)
    ]


def test_finished_episodes_give_their_final_observation():
    """Gymnasium's same-step auto-reset: the step that ends an episode
    returns the new episode's observation and, in info["final_obs"], the
    last observation of the one that ended, which the per-state API gives
    for the same game."""
    vector = norn.VectorGame("hnefatafl", 3, 4, max_steps=7, legal="ids")
    game = norn.load_game("hnefatafl")
    states = [game.new_initial_state() for _ in range(3)]
    _, info = vector.reset()
    rng = np.random.default_rng(2)
    ended_seen = 0
    for step in range(20):
        actions = random_legal_ids(info, rng)
        for state, action in zip(states, actions):
            state.apply_action(action)
        observations, _, terminated, truncated, info = vector.step(actions)
        ended = terminated | truncated
        if ended.any():
            np.testing.assert_array_equal(info["_final_obs"], ended)
            for i in np.flatnonzero(ended):
                viewer = states[i].current_player()
                expected = states[i].observation_tensor(viewer)
                np.testing.assert_array_equal(info["final_obs"][i], expected)
                assert not np.array_equal(info["final_obs"][i], observations[i])
                states[i] = game.new_initial_state()
                ended_seen += 1
        else:
            assert "final_obs" not in info
        for i, state in enumerate(states):
            np.testing.assert_array_equal(observations[i], state.observation_tensor())
    assert ended_seen == 6, "three environments cut twice at 7 steps"


def test_a_game_that_ends_gives_the_view_of_the_player_who_ended_it():
    """At a game's end (terminated, not cut by max_steps), info["final_obs"]
    is the finished state's observation from the player whose action ended
    it, as the per-state API gives it."""
    rules = "ply-limit=5"
    vector = norn.VectorGame("hnefatafl", 3, 4, rules=rules, legal="ids")
    game = norn.load_game("hnefatafl", rules)
    states = [game.new_initial_state() for _ in range(3)]
    _, info = vector.reset()
    rng = np.random.default_rng(3)
    ended_seen = 0
    for _ in range(12):
        actions = random_legal_ids(info, rng)
        movers = [state.current_player() for state in states]
        for state, action in zip(states, actions):
            state.apply_action(action)
        observations, _, terminated, truncated, info = vector.step(actions)
        assert not truncated.any()
        np.testing.assert_array_equal(terminated, [state.is_terminal() for state in states])
        for i in np.flatnonzero(terminated):
            expected = states[i].observation_tensor(movers[i])
            np.testing.assert_array_equal(info["final_obs"][i], expected)
            states[i] = game.new_initial_state()
            ended_seen += 1
        for i, state in enumerate(states):
            np.testing.assert_array_equal(observations[i], state.observation_tensor())
    assert ended_seen == 6, "three games drawn twice at the ply limit of 5"


def test_legal_ids_are_the_masks_in_compressed_rows(game):
    """legal="both" gives the mask and the ids of every environment; the
    ids are each row's nonzero columns, in order."""
    vector = norn.VectorGame(game.name, 5, 3, legal="both")
    _, info = vector.reset()
    rng = np.random.default_rng(0)
    for _ in range(25):
        ids, offsets, masks = info["legal_ids"], info["legal_offsets"], info["action_mask"]
        assert offsets.shape == (6,) and offsets[0] == 0 and len(ids) == offsets[-1]
        for i in range(5):
            row = ids[offsets[i] : offsets[i + 1]]
            np.testing.assert_array_equal(row, np.flatnonzero(masks[i]))
        counts = np.diff(offsets)
        actions = ids[offsets[:-1] + (rng.random(5) * counts).astype(np.int64)]
        _, _, _, _, info = vector.step(actions)


def test_ids_only_batches_send_no_masks():
    vector = norn.VectorGame("thud", 4, 1, legal="ids")
    _, info = vector.reset()
    assert "action_mask" not in info
    assert info["legal_ids"].dtype == np.int32
    with pytest.raises(ValueError, match="legal"):
        norn.VectorGame("thud", 4, 1, legal="sparse")


def test_steps_write_into_the_same_arrays_unless_copies_are_asked_for():
    vector = norn.VectorGame("hnefatafl", 4, 1)
    observations, info = vector.reset()
    first = observations.copy()
    actions = [np.flatnonzero(mask)[0] for mask in info["action_mask"]]
    again, _, _, _, info_again = vector.step(actions)
    assert again is observations and info_again["action_mask"] is info["action_mask"]
    assert not np.array_equal(first, again), "written in place"
    copying = norn.VectorGame("hnefatafl", 4, 1, copy=True)
    observations, info = copying.reset()
    again, _, _, _, _ = copying.step(actions)
    assert again is not observations
    np.testing.assert_array_equal(observations, first)


def test_batches_agree_with_the_per_state_api_step_by_step(game):
    """Every game of turns without chance, replayed through the per-state
    API: the same legal ids and observations at every step of random play
    (a batch reuses its lists from step to step, which must never leak a
    move of an earlier state)."""
    if game.info.chance or game.info.simultaneous_moves:
        pytest.skip("chance and joint moves are drawn inside the batch")
    vector = norn.VectorGame(game.name, 3, 2, legal="both")
    states = [game.new_initial_state() for _ in range(3)]
    observations, info = vector.reset()
    rng = np.random.default_rng(7)
    for _ in range(150):
        ids, offsets = info["legal_ids"], info["legal_offsets"]
        actions = []
        for i, state in enumerate(states):
            row = ids[offsets[i] : offsets[i + 1]]
            assert list(row) == state.legal_actions()
            np.testing.assert_array_equal(observations[i], state.observation_tensor())
            actions.append(int(rng.choice(row)))
        for state, action in zip(states, actions):
            state.apply_action(action)
        observations, _, terminated, truncated, info = vector.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            assert states[i].is_terminal()
            states[i] = game.new_initial_state()
