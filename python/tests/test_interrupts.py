"""Ctrl-C during a search called from Python: the search stops and the
call raises KeyboardInterrupt at once, not when the search would have
ended."""

import os
import signal
import threading
import time

import pytest

import norn

# Each search would run for 4 s (its time limit) if nothing stopped it.
SEARCHES = [
    "alphabeta:depth=100,ms=4000",
    "alphabeta:depth=100,ms=4000,threads=2",
    "mcts:iters=1000000000,ms=4000",
    "mcts:iters=1000000000,ms=4000,threads=2",
]


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to the process")
@pytest.mark.parametrize("spec", SEARCHES)
def test_a_search_stops_at_ctrl_c(spec):
    game = norn.load_game("hnefatafl")
    agent = norn.agent(spec, game)
    state = game.new_initial_state()
    sent = []

    def interrupt():
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.3, interrupt)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        agent.step(state)
    stopped = time.perf_counter()
    timer.join()
    assert sent and stopped - sent[0] < 1.0, f"{stopped - sent[0]:.2f} s after Ctrl-C"
    # The agent plays on after the interrupt.
    quick = norn.agent(spec.replace("ms=4000", "ms=50"), game)
    assert quick.step(state) in state.legal_actions()
