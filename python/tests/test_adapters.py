"""The OpenSpiel, PettingZoo and Gymnasium adapters."""

import random

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


def short_rules(game):
    """The rules that keep ``game`` short: its entry above, else a ply
    limit of 40 where the game has one (each tafl variant, say)."""
    if game.name in SHORT_RULES:
        return SHORT_RULES[game.name]
    return "ply-limit=40" if "ply-limit=" in game.rules else ""


def test_openspiel_plays_every_game_by_random_simulation(game):
    pyspiel = pytest.importorskip("pyspiel")
    from norn import openspiel

    names = openspiel.register()
    name = openspiel.short_name(game.name)
    assert name in names
    spiel_game = pyspiel.load_game(name, {"rules": short_rules(game)})
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

    env = pettingzoo.env(game.name, short_rules(game))
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


def hands_of(state):
    """Each player's hand as its card texts, read from a dealt Fetters of
    Fenrir position."""
    return [hand.split(",") for hand in state.position().split(":")[0].split("/")]


def test_fetters_strings_are_written_for_people_from_the_players_view():
    game = norn.load_game("fenrir-cards", "players=3,ranks=5")
    rng = random.Random(6)
    state = game.new_initial_state()
    while state.is_chance_node():
        norn.apply_random_action(state, rng)
    hands = hands_of(state)
    for _ in range(8):
        norn.apply_random_action(state, rng)
    for player in range(3):
        for text in (state.observation_string(player), state.information_state_string(player)):
            assert "Sampler" not in text and "0x" not in text and "{" not in text
            lines = text.splitlines()
            dealt = next(line for line in lines if line.startswith("dealt"))
            assert set(dealt.split()[1:]) == set(hands[player])
            for other in range(3):
                if other != player:
                    assert not any(set(hands[other]) <= set(line.split()) for line in lines)
        assert "asked player" in state.observation_string(player)


def test_render_shows_the_acting_players_view_in_hidden_games():
    from norn import pettingzoo
    from norn.gym import NornEnv

    env = pettingzoo.env("fenrir-cards", "players=3,ranks=5", render_mode="ansi")
    env.reset(seed=3)
    hands = hands_of(env._state)
    text = env.render()
    player = env._player[env.agent_selection]
    assert text == env._state.observation_string(player)
    for other in range(3):
        shown = any(set(hands[other]) <= set(line.split()) for line in text.splitlines())
        assert shown == (other == player)
    gym_env = NornEnv("fenrir-cards", rules="players=3,ranks=5", render_mode="ansi", seat=1)
    gym_env.reset(seed=1)
    assert gym_env.render() == gym_env._state.observation_string(1)
