import random

import pytest

import norn


def _names():
    return [info.name for info in norn.games()]


@pytest.fixture(params=_names())
def game(request):
    """Every registered game under its default rules: a new game is tested
    without touching the tests."""
    return norn.load_game(request.param)


def random_action(state, rng):
    """One step of a random playout: a chance outcome drawn by its
    probability, one choice per player at a simultaneous node, or one of the
    player's legal actions."""
    if state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, weights)[0])
    elif state.is_simultaneous_node():
        state.apply_actions(
            [rng.choice(state.legal_actions(p)) for p in range(state.num_players())]
        )
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def playout_states(game, seed, plies, games=1):
    """The states of a few seeded random playouts, up to ``plies`` steps each."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        for _ in range(plies):
            yield state
            if state.is_terminal():
                break
            random_action(state, rng)
