"""The OpenSpiel, PettingZoo and Gymnasium adapters."""

import numpy as np
import pytest

import norn

# Short games keep the adapters' checks (which play whole games through
# Python) quick; each rule below only lowers a limit.
SHORT_RULES = {
    "hnefatafl": "ply-limit=40",
    "thud": "ply-limit=40",
    "koom-valley": "ply-limit=40",
    "stealth-chess": "ply-limit=40",
    "nibelungen": "round-limit=3",
}


def test_openspiel_plays_every_game_by_random_simulation(game):
    pyspiel = pytest.importorskip("pyspiel")
    from norn import openspiel

    names = openspiel.register()
    name = openspiel.short_name(game.name)
    assert name in names
    spiel_game = pyspiel.load_game(name, {"rules": SHORT_RULES.get(game.name, "")})
    assert spiel_game.num_distinct_actions() == game.num_distinct_actions()
    pyspiel.random_sim_test(spiel_game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_mcts_bot_plays_hnefatafl():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import mcts

    from norn import openspiel

    openspiel.register()
    game = pyspiel.load_game("norn_hnefatafl", {"rules": "ply-limit=30"})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots = [
        mcts.MCTSBot(game, 1.4, 20, evaluator, random_state=np.random.RandomState(s))
        for s in (1, 2)
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(state.returns()) == 2


def test_pettingzoo_api_test_passes_for_every_game(game):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from norn import pettingzoo

    env = pettingzoo.env(game.name, SHORT_RULES.get(game.name, ""))
    api_test(env, num_cycles=200)


def test_gymnasium_env_passes_the_env_checker():
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from norn.gym import NornEnv

    for name in ("hnefatafl", "nibelungen", "fenrir-path"):
        env = NornEnv(name, opponent="random", rules=SHORT_RULES.get(name, ""))
        check_env(env, skip_render_check=True)


def test_gymnasium_env_plays_whole_episodes_against_an_agent():
    from norn.gym import NornEnv

    env = NornEnv("hnefatafl", opponent="random", rules="ply-limit=30")
    rng = np.random.default_rng(0)
    seats = []
    for episode in range(4):
        observation, info = env.reset(seed=episode if episode == 0 else None)
        seats.append(info["seat"])
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(observation["action_mask"]))
            observation, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert reward in (-1.0, 0.0, 1.0)
    assert seats == [0, 1, 0, 1]
