"""The per-state API on every registered game."""

import copy
import math
import pickle
import random

import numpy as np
import pytest

import norn
from conftest import playout_states, random_action


def test_every_game_is_listed_with_its_capabilities():
    infos = norn.games()
    assert len(infos) >= 7
    names = [info.name for info in infos]
    assert len(set(names)) == len(names)
    by_name = {info.name: info for info in infos}
    assert by_name["hnefatafl"].sides == ["attackers", "defenders"]
    assert by_name["fenrir-cards"].hidden_information
    assert by_name["nibelungen"].simultaneous_moves
    assert by_name["fenrir-path"].chance
    assert by_name["thud"].scoring == "margin"


def test_turn_codes_match_openspiel():
    assert (norn.CHANCE, norn.SIMULTANEOUS, norn.TERMINAL) == (-1, -2, -4)


def test_a_game_describes_its_spaces(game):
    assert game.num_players() >= 1
    assert game.num_distinct_actions() > 0
    shape = game.observation_tensor_shape()
    assert math.prod(shape) == game.observation_tensor_size()
    bound = game.max_game_length()
    assert bound is None or bound > 0


def test_legal_ids_masks_and_texts_agree(game):
    checked = 0
    for state in playout_states(game, seed=1, plies=60):
        if state.is_terminal():
            assert state.legal_actions() == []
            assert state.current_player() == norn.TERMINAL
            continue
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            assert state.current_player() == norn.CHANCE
            continue
        players = (
            range(state.num_players())
            if state.is_simultaneous_node()
            else [state.current_player()]
        )
        for player in players:
            legal = state.legal_actions(player)
            assert legal == sorted(set(legal)) and legal
            mask = state.legal_actions_mask(player)
            assert len(mask) == game.num_distinct_actions()
            assert [i for i, bit in enumerate(mask) if bit] == legal
            texts = [state.action_to_string(player, action) for action in legal]
            assert len(set(texts)) == len(texts), "one text per legal action"
            for action, text in zip(legal, texts):
                assert state.string_to_action(player, text) == action
            tensor = state.observation_tensor(player)
            assert tensor.dtype == np.float32
            assert list(tensor.shape) == game.observation_tensor_shape()
            assert ((tensor >= 0) & (tensor <= 1)).all(), "values in [0, 1]"
            assert isinstance(state.observation_string(player), str)
            assert isinstance(state.information_state_string(player), str)
            checked += 1
    assert checked > 10


def test_games_end_with_returns_in_range(game):
    rng = random.Random(3)
    bound = game.max_game_length()
    for _ in range(2):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < 3000:
            random_action(state, rng)
            steps += 1
        if bound is not None:
            assert state.is_terminal()
            assert len(state.history()) <= bound
        returns = state.returns()
        assert len(returns) == game.num_players()
        if state.is_terminal() and game.info.scoring == "win-loss":
            assert sum(returns) == 0


def test_states_clone_pickle_and_read_their_position(game):
    for state in playout_states(game, seed=7, plies=25):
        restored = pickle.loads(pickle.dumps(state))
        assert restored.history() == state.history()
        assert restored.position() == state.position()
        assert restored.current_player() == state.current_player()
        assert str(restored) == str(state)
        twin = copy.deepcopy(state)
        assert twin.history() == state.history()
        if not state.is_chance_node() and not state.pending():
            again = game.new_initial_state(state.position())
            assert again.position() == state.position()
    # A clone is independent of its original.
    state = game.new_initial_state()
    twin = state.clone()
    random_action(twin, random.Random(1))
    assert state.history() == [] and len(twin.history()) >= 1


def test_games_pickle():
    game = norn.load_game("hnefatafl", "ply-limit=50")
    again = pickle.loads(pickle.dumps(game))
    assert again.rules == game.rules and again.name == "hnefatafl"


def test_rules_are_read_and_refused():
    game = norn.load_game("hnefatafl", "ply-limit=50")
    assert "ply-limit=50" in game.rules
    assert game.max_game_length() == 50
    with pytest.raises(ValueError, match="ply-limit"):
        norn.load_game("hnefatafl", "ply-limit=banana")
    with pytest.raises(ValueError, match="hnefatafl"):
        norn.load_game("chess")


def test_bad_input_raises_value_errors():
    game = norn.load_game("hnefatafl")
    state = game.new_initial_state()
    illegal = next(
        a for a in range(game.num_distinct_actions()) if a not in state.legal_actions()
    )
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(illegal)
    with pytest.raises(ValueError):
        state.apply_action(-1)
    with pytest.raises(ValueError):
        state.apply_action(2**40)
    with pytest.raises(ValueError, match="player"):
        state.legal_actions(2)
    with pytest.raises(ValueError, match="player"):
        state.observation_tensor(-3)
    with pytest.raises(ValueError):
        state.apply_actions([0, 0])
    with pytest.raises(ValueError):
        state.string_to_action("z99-z98")
    with pytest.raises(ValueError):
        game.new_initial_state("not a position")
    with pytest.raises(ValueError):
        norn.agent("mcts:iters=banana", game)
    with pytest.raises(ValueError):
        norn.agent("no-such-agent", game)
    assert state.history() == [], "refused actions change nothing"


def test_simultaneous_nodes_take_one_action_per_player():
    game = norn.load_game("nibelungen")
    state = game.new_initial_state()
    assert state.current_player() == norn.SIMULTANEOUS
    with pytest.raises(ValueError, match="one action per player"):
        state.apply_action(state.legal_actions(0)[0])
    with pytest.raises(ValueError, match="player"):
        state.legal_actions()
    state.apply_actions([state.legal_actions(0)[0], state.legal_actions(1)[-1]])
    assert len(state.history()) == 2


def test_chance_nodes_list_their_outcomes():
    game = norn.load_game("fenrir-path")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert state.legal_actions() == [o for o, _ in outcomes]
    first = outcomes[0][0]
    assert state.string_to_action(state.action_to_string(first)) == first
