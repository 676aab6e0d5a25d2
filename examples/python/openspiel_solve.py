"""OpenSpiel's value iteration on Nibelungen cut after one round, started
from a position given as a game parameter, beside norn.solve: the same
value, and norn's solver as the fast path for deeper cuts."""

import time

import pyspiel
from open_spiel.python.algorithms import value_iteration

import norn
from norn import openspiel

openspiel.register()
start = norn.load_game("nibelungen", "round-limit=1").new_initial_state()
game = pyspiel.load_game(
    "norn_nibelungen", {"rules": "round-limit=1", "position": start.position()}
)
began = time.perf_counter()
values = value_iteration.value_iteration(game, depth_limit=-1, threshold=1e-9)
spiel_seconds = time.perf_counter() - began
began = time.perf_counter()
solved = norn.solve(start, rounds=1)
norn_seconds = time.perf_counter() - began
value = values[str(game.new_initial_state())]
assert abs(value - solved["value"]) < 1e-6
print(f"value iteration: {value:+.6f} in {spiel_seconds:.1f} s")
print(f"norn.solve:      {solved['value']:+.6f} in {norn_seconds:.3f} s")
