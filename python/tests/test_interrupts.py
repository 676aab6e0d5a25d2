"""Ctrl-C during a search called from Python: the search stops and the
call raises KeyboardInterrupt at once, not when the search would have
ended."""

import os
import re

import numpy as np
import pytest

import norn

# Each search would run for 4 s (its time limit) if nothing stopped it.
SEARCHES = [
    ("hnefatafl", "alphabeta:depth=100,ms=4000"),
    ("hnefatafl", "alphabeta:depth=100,ms=4000,threads=2"),
    ("hnefatafl", "mcts:iters=1000000000,ms=4000"),
    ("hnefatafl", "mcts:iters=1000000000,ms=4000,threads=2"),
]

# Searches limited by iterations alone, each of several seconds uninterrupted.
LONG_SEARCHES = [
    ("fenrir-cards", "ismcts:iters=100000"),
    ("nibelungen", "smmcts:iters=1000000,trees=2,threads=2"),
]


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to the process")
@pytest.mark.parametrize("game_name,spec", SEARCHES + LONG_SEARCHES)
def test_a_search_stops_at_ctrl_c(game_name, spec, ctrl_c):
    game = norn.load_game(game_name)
    agent = norn.agent(spec, game)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    # At a simultaneous node the agent chooses for a player named.
    player = 0 if state.is_simultaneous_node() else None
    seconds = ctrl_c(lambda: agent.step(state, player), after=0.3)
    assert seconds < 1.0, f"{seconds:.2f} s after Ctrl-C"
    # The agent plays on after the interrupt.
    quick_spec = re.sub(r"iters=\d+", "iters=100", spec.replace("ms=4000", "ms=50"))
    quick = norn.agent(quick_spec, game)
    assert quick.step(state, player) in state.legal_actions(player)


def uniform_evaluator(game):
    """Uniform logits and values of 0, from Python."""
    actions = game.num_distinct_actions()

    def evaluate(observations, masks):
        batch = len(observations)
        return np.zeros((batch, actions), np.float32), np.zeros(batch, np.float32)

    return evaluate


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to the process")
@pytest.mark.parametrize("evaluator", ["rust network", "python function"])
def test_a_guided_search_stops_at_ctrl_c(evaluator, ctrl_c):
    game = norn.load_game("hnefatafl")
    if evaluator == "rust network":
        # Runs in Rust without the interpreter between its batches.
        guide = norn.Network.init(game, seed=1, options="blocks=1,channels=8")
    else:
        guide = uniform_evaluator(game)
    states = [game.new_initial_state() for _ in range(8)]
    # 8 searches of 100,000 simulations: minutes if nothing stopped them.
    seconds = ctrl_c(lambda: norn.guided_search(states, guide, "sims=100000"), after=0.3)
    assert seconds < 1.0, f"{seconds:.2f} s after Ctrl-C"
    # The evaluator searches on after the interrupt.
    policies, actions, values = norn.guided_search(states[:1], guide, "sims=8")
    assert int(actions[0]) in states[0].legal_actions()


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to the process")
@pytest.mark.parametrize("options", ["net=eval,sims=16", "net=uniform,sims=16"])
def test_self_play_without_an_evaluator_stops_at_ctrl_c(options, tmp_path, ctrl_c):
    game = norn.load_game("hnefatafl")
    out = tmp_path / "samples"
    # 100,000 games of Hnefatafl: hours, were they not stopped.
    seconds = ctrl_c(lambda: norn.self_play(game, str(out), 100_000, options), after=0.3)
    assert seconds < 1.0, f"{seconds:.2f} s after Ctrl-C"
    assert not (out / "manifest.json").exists()
