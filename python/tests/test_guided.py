"""The guided search from Python: a numpy evaluator guiding batches of
states and VectorGame environments, its errors as Python exceptions, and
self-play shards that numpy alone reads."""

import json
import pathlib
import threading

import numpy as np
import pytest

import norn


def uniform(num_actions):
    """An evaluator of uniform logits and draws, counting its calls."""

    def evaluate(observations, masks):
        evaluate.calls.append((observations.shape, masks.shape, masks.dtype))
        return np.zeros((len(masks), num_actions), np.float32), np.zeros(len(masks))

    evaluate.calls = []
    return evaluate


def small_network(game, seed=0):
    """A two-layer network of random weights over the flat observation."""
    rng = np.random.default_rng(seed)
    size = game.observation_tensor_size()
    hidden = rng.normal(0, 0.1, (size, 16)).astype(np.float32)
    policy = rng.normal(0, 0.1, (16, game.num_distinct_actions())).astype(np.float32)
    value = rng.normal(0, 0.1, (16,)).astype(np.float32)

    def evaluate(observations, masks):
        features = np.tanh(observations.reshape(len(observations), -1) @ hidden)
        return features @ policy, np.tanh(features @ value)

    return evaluate


def test_one_evaluator_call_answers_every_state_of_a_round():
    game = norn.load_game("hnefatafl")
    states = [game.new_initial_state() for _ in range(5)]
    evaluate = uniform(game.num_distinct_actions())
    policies, actions, values = norn.guided_search(states, evaluate, "sims=8")
    assert policies.shape == (5, game.num_distinct_actions())
    assert actions.shape == (5,) and values.shape == (5,)
    # The roots' evaluation, then one round per simulation.
    assert len(evaluate.calls) == 9
    shape, mask_shape, dtype = evaluate.calls[0]
    assert shape == (5, *game.observation_tensor_shape())
    assert mask_shape == (5, game.num_distinct_actions()) and dtype == np.bool_
    for state, policy, action in zip(states, policies, actions):
        legal = state.legal_actions()
        assert int(action) in legal
        assert abs(policy.sum() - 1) < 1e-5
        assert set(np.flatnonzero(policy)) <= set(legal)


def test_the_same_seed_gives_the_same_search():
    game = norn.load_game("thud")
    state = game.new_initial_state()
    network = small_network(game)
    together = norn.guided_search([state, state.clone()], network, "sims=12", seed=3)
    again = norn.guided_search([state, state.clone()], network, "sims=12", seed=3)
    for first, second in zip(together, again):
        np.testing.assert_array_equal(first, second)


def test_a_vector_games_environments_are_searched_and_stepped():
    vector = norn.VectorGame("hnefatafl", num_envs=3, seed=1, rules="ply-limit=30")
    observations, info = vector.reset()
    network = small_network(norn.load_game("hnefatafl", "ply-limit=30"))
    for _ in range(3):
        policies, actions, values = norn.guided_search(vector, network, "sims=8,gumbel=off")
        assert all(info["action_mask"][index, action] for index, action in enumerate(actions))
        observations, rewards, terminated, truncated, info = vector.step(actions)


@pytest.mark.parametrize(
    "answer, message",
    [
        (lambda n, a: (np.zeros((n, a + 1)), np.zeros(n)), "logits of shape"),
        (lambda n, a: (np.zeros((n, a)), np.zeros(n + 2)), "values of shape"),
        (lambda n, a: (np.zeros((n, a)), np.full(n, np.nan)), "NaN"),
        (lambda n, a: (np.zeros((n, a)), np.full(n, 3.0)), "from -1 to 1"),
        (lambda n, a: (np.full((n, a), np.inf), np.zeros(n)), "finite"),
        (lambda n, a: np.zeros((n, a)), "pair"),
        (lambda n, a: (np.array([["x"] * a] * n), np.zeros(n)), "not an array of numbers"),
    ],
)
def test_answers_outside_the_contract_are_value_errors(answer, message):
    game = norn.load_game("hnefatafl")
    actions = game.num_distinct_actions()
    with pytest.raises(ValueError, match=message):
        norn.guided_search([game.new_initial_state()], lambda o, m: answer(len(o), actions), "sims=4")


def test_what_the_evaluator_raises_is_raised_again():
    game = norn.load_game("hnefatafl")

    def failing(observations, masks):
        raise ZeroDivisionError("the network broke")

    with pytest.raises(ZeroDivisionError, match="the network broke"):
        norn.guided_search([game.new_initial_state()], failing, "sims=4")


def test_bad_arguments_are_refused():
    hnefatafl = norn.load_game("hnefatafl")
    thud = norn.load_game("thud")
    evaluate = uniform(hnefatafl.num_distinct_actions())
    with pytest.raises(ValueError, match="one game"):
        norn.guided_search([hnefatafl.new_initial_state(), thud.new_initial_state()], evaluate)
    with pytest.raises(ValueError, match="callable"):
        norn.guided_search([hnefatafl.new_initial_state()], 3)
    with pytest.raises(ValueError, match="no states"):
        norn.guided_search([], evaluate)
    with pytest.raises(ValueError, match="sims"):
        norn.guided_search([hnefatafl.new_initial_state()], evaluate, "sims=0")
    with pytest.raises(ValueError, match="hides information"):
        cards = norn.load_game("fenrir-cards")
        state = cards.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        norn.guided_search([state], uniform(cards.num_distinct_actions()))
    with pytest.raises(ValueError, match="team values do not fit"):
        norn.guided_search([hnefatafl.new_initial_state()], evaluate, value_layout="team")


def test_other_threads_run_while_rust_searches():
    game = norn.load_game("hnefatafl")
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    thread = threading.Thread(target=tick)
    thread.start()
    norn.guided_search([game.new_initial_state()], uniform(game.num_distinct_actions()), "sims=64")
    done.set()
    thread.join()
    assert ticks


def test_the_az_agent_plays_from_python():
    game = norn.load_game("hnefatafl", "ply-limit=6")
    agent = norn.agent("az:sims=8,net=eval", game, seed=2)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(agent.step(state))
    record = agent.last_search()
    assert record["iterations"] == 8 and record["policy_entropy"] >= 0


def played_states(game, count, plies, seed):
    """States after a few random plies each."""
    rng = np.random.default_rng(seed)
    states = []
    for index in range(count):
        state = game.new_initial_state()
        for _ in range(plies + index):
            state.apply_action(int(rng.choice(state.legal_actions())))
        states.append(state)
    return states


def shard_arrays(directory, manifest):
    """Every array of a self-play run's shards, by name, shard after shard."""
    arrays = {}
    for shard in manifest["shards"]:
        with np.load(directory / shard["file"]) as loaded:
            for name in loaded.files:
                arrays.setdefault(name, []).append(loaded[name])
    return {name: np.concatenate(parts) for name, parts in arrays.items()}


def test_a_norn_network_guides_the_search_as_a_function_calling_it_would(tmp_path):
    game = norn.load_game("hnefatafl", "ply-limit=30")
    network = norn.Network.init(game, seed=4, options="blocks=1,channels=4")
    states = played_states(game, 3, 4, seed=1)

    def through_python(observations, masks):
        return network(observations)

    in_rust = norn.guided_search(states, network, "sims=16", seed=2)
    in_python = norn.guided_search(states, through_python, "sims=16", seed=2)
    for ours, theirs in zip(in_rust, in_python):
        assert np.array_equal(ours, theirs)
    # A network's priors are not uniform: the search's policy differs from
    # the one the uniform evaluator gives.
    flat = norn.guided_search(states, uniform(game.num_distinct_actions()), "sims=16", seed=2)
    assert not np.array_equal(in_rust[0], flat[0])
    # Self-play guided by the network writes the samples the function does.
    first = norn.self_play(game, str(tmp_path / "rust"), games=2, options="sims=8", evaluator=network, batch=2)
    second = norn.self_play(
        game, str(tmp_path / "python"), games=2, options="sims=8", evaluator=through_python, batch=2
    )
    assert first["samples"] == second["samples"] > 0
    ours, theirs = shard_arrays(tmp_path / "rust", first), shard_arrays(tmp_path / "python", second)
    assert ours.keys() == theirs.keys()
    for name in ours:
        assert np.array_equal(ours[name], theirs[name]), name


def test_a_network_of_another_game_rules_or_layout_is_refused():
    tafl = norn.load_game("hnefatafl")
    network = norn.Network.init(tafl, seed=1, options="blocks=1,channels=4")
    limited = norn.load_game("hnefatafl", "ply-limit=20")
    with pytest.raises(ValueError, match="rules"):
        norn.guided_search([limited.new_initial_state()], network, "sims=8")
    fenrir = norn.load_game("fenrir-path")
    fenrir_network = norn.Network.init(fenrir, seed=1, options="hidden-layers=1,hidden-size=8")
    with pytest.raises(ValueError, match="another game|fenrir-path"):
        norn.guided_search([tafl.new_initial_state()], fenrir_network, "sims=8")
    with pytest.raises(ValueError, match="laid out to-move, not per-player"):
        norn.guided_search([tafl.new_initial_state()], network, "sims=8", value_layout="per-player")
    with pytest.raises(ValueError, match="rules"):
        norn.self_play(limited, "unused", games=1, options="sims=8", evaluator=network)


def test_a_network_built_from_numpy_arrays_plays_as_an_az_agent(tmp_path):
    game = norn.load_game("hnefatafl", "ply-limit=6")
    description = norn.Network.init(game, seed=0, options="blocks=1,channels=4").description
    rng = np.random.default_rng(8)
    tensors = {
        name: rng.normal(0.0, 0.3, size=shape).astype(np.float32)
        for name, shape in norn.Network.tensor_shapes(description)
    }
    network = norn.Network.from_arrays(description, tensors)
    path = tmp_path / "trained.safetensors"
    network.save(str(path))
    # PUCT without noise or temperature plays deterministically: the agent
    # reading the file chooses what the search guided by the arrays does.
    agent = norn.agent(f"az:sims=16,gumbel=off,net={path}", game, seed=3)
    state = game.new_initial_state()
    while not state.is_terminal():
        _, actions, _ = norn.guided_search([state], network, "sims=16,gumbel=off")
        action = agent.step(state)
        assert action == int(actions[0])
        state.apply_action(action)
    with pytest.raises(ValueError, match="made for hnefatafl, not fenrir-path"):
        norn.agent(f"az:net={path}", norn.load_game("fenrir-path"))


def test_self_play_shards_are_read_by_numpy_alone(tmp_path):
    game = norn.load_game("hnefatafl", "ply-limit=12")
    manifest = norn.self_play(
        game, str(tmp_path), games=3, options="sims=8", evaluator=small_network(game), batch=2, shard_samples=16
    )
    assert manifest == json.loads((tmp_path / "manifest.json").read_text())
    total = 0
    for shard in manifest["shards"]:
        arrays = np.load(tmp_path / shard["file"])
        count = shard["samples"]
        assert arrays["observation"].shape == (count, *manifest["observation_shape"])
        assert arrays["mask"].dtype == np.bool_
        assert arrays["mask"].shape == arrays["policy"].shape == (count, manifest["num_actions"])
        np.testing.assert_allclose(arrays["policy"].sum(axis=1), 1, atol=1e-5)
        assert not (arrays["policy"] * ~arrays["mask"]).any()
        assert arrays["outcome"].shape == (count, manifest["value_width"])
        assert arrays["search_value"].shape == (count,)
        assert (np.abs(arrays["search_value"]) <= 1).all()
        assert set(arrays["player"]) <= {0, 1}
        total += count
    assert total == manifest["samples"]
    # Every game's decisions are numbered from 0; with a ply limit of 12
    # each game makes 12 of them, and the player to move alternates.
    games = np.concatenate([np.load(tmp_path / shard["file"])["game"] for shard in manifest["shards"]])
    plies = np.concatenate([np.load(tmp_path / shard["file"])["ply"] for shard in manifest["shards"]])
    players = np.concatenate([np.load(tmp_path / shard["file"])["player"] for shard in manifest["shards"]])
    assert list(games) == sorted(games) and set(games) == {0, 1, 2}
    for game_index in range(3):
        assert list(plies[games == game_index]) == list(range(12))
        assert list(players[games == game_index]) == [ply % 2 for ply in range(12)]
    # No side can win in 12 plies of Hnefatafl: every game is a draw at
    # the ply limit, an outcome of 0 for both sides.
    outcomes = np.concatenate([np.load(tmp_path / shard["file"])["outcome"] for shard in manifest["shards"]])
    assert not outcomes.any()
    with pytest.raises(ValueError, match="holds self-play data already"):
        norn.self_play(game, str(tmp_path), games=1, options="sims=8")


def test_the_first_python_example_of_the_learning_page_runs(capsys):
    page = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "learning.md").read_text()
    block = page.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, "docs/learning.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.count("\n") == 2, printed
