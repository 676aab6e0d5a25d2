"""One way of refusing: a ValueError with norn's message for a bad value
(an id out of range, a negative count, a number that is not whole, a call at
the wrong kind of node), a TypeError only for a value of the wrong Python
type, and never a panic inside Rust (which reaches Python as
``pyo3_runtime.PanicException``, not an ``Exception``)."""

import random

import pytest

import norn
from conftest import playout_states


def bad_numbers(game):
    """The hostile whole numbers: below the range, just past it, and past
    what 64 bits hold."""
    return [-1, game.num_distinct_actions(), 2**63, 2**70]


def refuses(call, *arguments):
    """Whether ``call`` refuses its arguments with a ValueError (any other
    exception, a panic among them, fails the test)."""
    try:
        call(*arguments)
    except ValueError as error:
        assert str(error), "a message"
        return True
    return False


def every_node_kind(game):
    """A few states of a random playout: the start, chance, simultaneous
    and player nodes where the game has them, and the end."""
    seen = {}
    for state in playout_states(game, seed=5, plies=4000):
        kind = (
            "terminal"
            if state.is_terminal()
            else "chance"
            if state.is_chance_node()
            else "simultaneous"
            if state.is_simultaneous_node()
            else "player"
        )
        seen.setdefault(kind, state.clone())
    return list(seen.values())


def test_every_method_refuses_hostile_numbers_with_value_errors(game):
    """Walks every method that takes a number, on every kind of node of
    every game, with ids -1, N (the action count), 2**63 and 2**70."""
    for state in every_node_kind(game):
        players = state.num_players()
        for bad in bad_numbers(game):
            assert refuses(state.apply_action, bad)
            assert refuses(state.apply_actions, [bad] * players)
            assert refuses(state.action_to_string, bad)
            assert refuses(state.action_to_string, 0, bad)
            assert refuses(state.action_to_string, bad, 0)
            if bad >= players or bad < 0:
                for method in (
                    state.legal_actions,
                    state.legal_actions_mask,
                    state.observation_tensor,
                    state.observation_string,
                    state.information_state_string,
                ):
                    assert refuses(method, bad)
                assert refuses(state.string_to_action, bad, "a1")
            if bad < 0 or bad >= 2**64:
                assert refuses(norn.agent, "random", game, bad)
        assert refuses(state.apply_action, 1.5)
        assert refuses(state.apply_action, float("nan"))
        with pytest.raises(TypeError):
            state.apply_action("1")
        with pytest.raises(TypeError):
            state.apply_action(None)


def test_ids_outside_the_range_are_refused_before_any_game_reads_them():
    """The reported crashes: ids just past the range reached the games'
    tables (an index out of bounds), and other games made up names for
    them."""
    state = norn.load_game("koom-valley").new_initial_state()
    with pytest.raises(ValueError, match="25209"):
        state.apply_action(25209)
    path = norn.load_game("fenrir-path").new_initial_state()
    rng = random.Random(1)
    while path.is_chance_node():
        norn.apply_random_action(path, rng)
    with pytest.raises(ValueError):
        path.apply_action(100)
    nibelungen = norn.load_game("nibelungen").new_initial_state()
    with pytest.raises(ValueError):
        nibelungen.action_to_string(0, 25)
    hnefatafl = norn.load_game("hnefatafl").new_initial_state()
    with pytest.raises(ValueError):
        hnefatafl.action_to_string(2420)
    # Inside the range an id that is not legal here still has a name.
    assert hnefatafl.action_to_string(2419)


def test_whole_floats_are_ids_and_others_are_refused():
    game = norn.load_game("hnefatafl")
    state = game.new_initial_state()
    legal = state.legal_actions()[0]
    state.apply_action(float(legal))
    assert state.history() == [legal]
    with pytest.raises(ValueError, match="whole"):
        state.apply_action(legal + 0.9)
    assert state.history() == [legal]


def test_vector_steps_refuse_fractions_instead_of_truncating():
    vector = norn.VectorGame("hnefatafl", 2, 1)
    _, info = vector.reset()
    legal = [int(mask.nonzero()[0][0]) for mask in info["action_mask"]]
    with pytest.raises(ValueError, match="whole"):
        vector.step([legal[0] + 0.9, legal[1]])
    with pytest.raises(ValueError):
        vector.step([legal[0], 2**70])
    with pytest.raises(ValueError):
        vector.step([-1, legal[1]])
    with pytest.raises(TypeError):
        vector.step(["a", "b"])
    # Whole floats are ids, as in apply_action.
    vector.step([float(legal[0]), float(legal[1])])


@pytest.mark.parametrize(
    "call",
    [
        lambda: norn.VectorGame("hnefatafl", -1, 1),
        lambda: norn.VectorGame("hnefatafl", 2, -1),
        lambda: norn.VectorGame("hnefatafl", 2, 2**70),
        lambda: norn.VectorGame("hnefatafl", 2, 1, threads=-1),
        lambda: norn.VectorGame("hnefatafl", 2, 1, max_steps=-1),
        lambda: norn.VectorGame("hnefatafl", 2.5, 1),
        lambda: norn.load_game("hnefatafl").new_initial_state().legal_actions(2**70),
        lambda: norn.agent("random", norn.load_game("hnefatafl"), seed=-1),
        lambda: norn.tournament("hnefatafl", ["random", "random"], games=-1),
        lambda: norn.tournament("hnefatafl", ["random", "random"], seed=-1),
        lambda: norn.tournament("hnefatafl", ["random", "random"], threads=2**70),
        lambda: norn.winrate("fenrir-path", ["random"], deals=-1),
        lambda: norn.solve(norn.load_game("nibelungen").new_initial_state(), rounds=-1),
        lambda: norn.solve(norn.load_game("nibelungen").new_initial_state(), rounds=0),
        lambda: norn.solve(norn.load_game("nibelungen").new_initial_state(), rounds=2**70),
        lambda: norn.Network.init(norn.load_game("hnefatafl"), -1),
        lambda: norn.Network.init(norn.load_game("hnefatafl"), 0).with_threads(-1),
    ],
)
def test_counts_out_of_range_are_value_errors(call):
    with pytest.raises(ValueError):
        call()


def test_random_helpers_refuse_the_wrong_kind_of_node():
    rng = random.Random(1)
    state = norn.load_game("hnefatafl").new_initial_state()
    with pytest.raises(ValueError, match="chance"):
        norn.sample_chance_outcome(state, rng)
    over = norn.load_game("nibelungen", "round-limit=1").new_initial_state()
    while not over.is_terminal():
        norn.apply_random_action(over, rng)
    with pytest.raises(ValueError, match="over"):
        norn.apply_random_action(over, rng)
