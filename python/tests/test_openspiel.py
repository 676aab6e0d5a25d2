"""The OpenSpiel adapter: game strings that load back, serialized and
pickled games and states, start positions as parameters, and observers
that give what the observation type asks for."""

import pickle
import random

import numpy as np
import pytest

import norn
from conftest import other_rules, playout_states

pyspiel = pytest.importorskip("pyspiel")
from norn import openspiel  # noqa: E402

openspiel.register()


def spiel_game(game, **parameters):
    return pyspiel.load_game(openspiel.short_name(game.name), parameters)


@pytest.mark.parametrize("rules", ["default", "other"])
def test_random_simulation_with_serialization_passes(game, rules):
    """OpenSpiel's own check, serializing and deserializing every state
    (and the game through its string), under the defaults and under rules
    that differ in one option."""
    text = "" if rules == "default" else other_rules(game)
    loaded = spiel_game(game, rules=text)
    assert norn.load_game(game.name, text).rules == loaded.norn_game.rules
    pyspiel.random_sim_test(loaded, num_sims=2, serialize=True, verbose=False)


def test_game_strings_with_rules_and_positions_load_back(game):
    text = other_rules(game)
    start = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(6):
        if not start.is_terminal():
            norn.apply_random_action(start, rng)
    position = start.position()
    loaded = spiel_game(game, rules=text, position=position)
    again = pyspiel.load_game(str(loaded))
    assert again.norn_game.rules == norn.load_game(game.name, text).rules
    assert again.new_initial_state().inner.position() == position
    assert str(again) == str(loaded)


def test_games_and_states_pickle(game):
    loaded = spiel_game(game, rules=other_rules(game))
    again = pickle.loads(pickle.dumps(loaded))
    assert str(again) == str(loaded)
    state = loaded.new_initial_state()
    rng = random.Random(1)
    for _ in range(5):
        if state.is_terminal():
            break
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(state.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    restored = pickle.loads(pickle.dumps(state))
    assert restored.history() == state.history()
    assert str(restored) == str(state)


def test_every_game_is_a_class_of_the_module():
    for info in norn.games():
        game_class = getattr(openspiel, openspiel.class_name(info.name))
        assert game_class.norn_name == info.name
        assert game_class.__module__ == "norn.openspiel"


def test_a_position_parameter_starts_openspiel_there():
    """Nibelungen from an in-round position, made by the game itself:
    OpenSpiel's algorithms, and convert-to-turn-based (which rebuilds the
    game from its name and parameters), start there."""
    game = norn.load_game("nibelungen", "round-limit=3")
    state = game.new_initial_state()
    state.apply_actions([state.legal_actions(0)[0], state.legal_actions(1)[-1]])
    position = state.position()
    loaded = pyspiel.load_game("norn_nibelungen", {"rules": "round-limit=3", "position": position})
    assert loaded.new_initial_state().inner.position() == position
    turns = pyspiel.convert_to_turn_based(loaded)
    assert str(turns.new_initial_state()) != str(
        pyspiel.convert_to_turn_based(
            pyspiel.load_game("norn_nibelungen", {"rules": "round-limit=3"})
        ).new_initial_state()
    )
    with pytest.raises(Exception, match="position"):
        pyspiel.load_game("norn_nibelungen", {"position": "not a position"})
    with pytest.raises(Exception, match="colour"):
        pyspiel.load_game("norn_nibelungen", {"colour": "red"})


def hidden_states():
    game = norn.load_game("fenrir-cards", "players=3")
    loaded = spiel_game(game, rules="players=3")
    state = loaded.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    return loaded, state


def test_observers_give_no_more_than_the_type_asks():
    loaded, state = hidden_states()
    kind = pyspiel.PrivateInfoType
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=kind.NONE
    )
    observer = loaded.make_py_observer(public)
    views = []
    for player in range(3):
        observer.set_from(state, player)
        views.append(observer.tensor.copy())
        text = observer.string_from(state, player)
        hand = state.inner.observation_string(player).splitlines()[1]
        assert hand.startswith("hand") and hand not in text
    assert all(np.array_equal(views[0], view) for view in views), "one public view"
    own = loaded.make_py_observer(
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=kind.SINGLE_PLAYER
        )
    )
    own.set_from(state, 1)
    np.testing.assert_array_equal(own.tensor, state.inner.observation_tensor(1).ravel())
    assert not np.array_equal(own.tensor, views[1])
    with pytest.raises(ValueError, match="hides"):
        loaded.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False, public_info=True, private_info=kind.ALL_PLAYERS
            )
        )
    # Where nothing is hidden, every player's information is the public one.
    open_game = pyspiel.load_game("norn_hnefatafl")
    every = open_game.make_py_observer(
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=kind.ALL_PLAYERS
        )
    )
    start = open_game.new_initial_state()
    every.set_from(start, 0)
    np.testing.assert_array_equal(every.tensor, start.inner.public_observation_tensor().ravel())


def test_the_public_view_is_the_same_for_deals_that_differ_in_every_hand():
    """Dealt positions whose hands are shuffled among the hands and the
    stock (sizes kept) agree on every public fact: their public tensors and
    strings are equal, while each player's own view tells them apart."""
    game = norn.load_game("fenrir-cards", "players=3,ranks=5")
    rng = random.Random(2)
    for _ in range(20):
        state = game.new_initial_state()
        while state.is_chance_node():
            norn.apply_random_action(state, rng)
        hands_text, _, stock_text = state.position().partition(":")
        hands = [hand.split(",") for hand in hands_text.split("/")]
        stock = stock_text.split(",") if stock_text else []
        cards = [card for hand in hands for card in hand] + stock
        rng.shuffle(cards)
        sizes = [len(hand) for hand in hands]
        shuffled, rest = [], cards
        for size in sizes:
            shuffled.append(",".join(rest[:size]))
            rest = rest[size:]
        text = "/".join(shuffled) + (":" + ",".join(rest) if rest else "")
        other = game.new_initial_state(text)
        np.testing.assert_array_equal(
            state.public_observation_tensor(), other.public_observation_tensor()
        )
        assert state.public_observation_string() == other.public_observation_string()
        assert (
            state.public_information_state_string() == other.public_information_state_string()
        )
        if sorted(hands[0]) != sorted(shuffled[0].split(",")):
            assert not np.array_equal(state.observation_tensor(0), other.observation_tensor(0))
            assert state.observation_string(0) != other.observation_string(0)


def test_information_state_tensors_are_refused_rather_than_empty():
    loaded, state = hidden_states()
    with pytest.raises(Exception, match="information-state tensor"):
        state.information_state_tensor(0)
