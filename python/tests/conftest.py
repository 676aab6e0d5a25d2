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


# One step of a random playout (the package's own helper).
random_action = norn.apply_random_action


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
