"""The cost of one Python evaluator call in norn's batched guided search:
a search of 64 Hnefatafl positions with 16 simulations each (17 rounds of
one call for all 64 trees) guided by a numpy function that answers zeros,
timed whole and inside the function. Compare with the same search guided
from Rust by zeros (`cargo run --release --example guided_speed`, its last
line): the difference per round is the Python call.

    python python/benchmarks/guided_calls.py
"""

import random
import time

import numpy as np

import norn

game = norn.load_game("hnefatafl")
actions = game.num_distinct_actions()
states = []
for seed in range(64):
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(10 + seed % 31):
        state.apply_action(rng.choice(state.legal_actions()))
    states.append(state)

inside = []


def zeros(observations, masks):
    started = time.perf_counter()
    answer = np.zeros((len(masks), actions), np.float32), np.zeros(len(masks), np.float32)
    inside.append(time.perf_counter() - started)
    return answer


searches = 20
started = time.perf_counter()
for _ in range(searches):
    norn.guided_search(states, zeros, "sims=16")
seconds = (time.perf_counter() - started) / searches
calls = len(inside) / searches
print(f"batch {len(states)}, 16 simulations: {1e3 * seconds:.1f} ms a search, {calls:.0f} calls")
print(f"{1e3 * seconds / calls:.3f} ms a round, of which {1e3 * sum(inside) / len(inside):.3f} ms inside the function")
