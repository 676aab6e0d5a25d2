"""Steps per second of the Python APIs, printed as markdown tables.

The per-state API: random games through one Python loop (legal actions,
a random choice, apply), for every norn game and, when pyspiel is installed,
for OpenSpiel's C++ breakthrough and chess through the same loop. The batched
API: `VectorGame` steps with observations and masks, the actions chosen by
numpy, for every game on one and two threads.

    python python/benchmarks/steps.py [--seconds S] [--envs N]

The batched table ends with the ratio the targets ask for: two threads'
batched steps per second over the per-state loop's, for the same game.
"""

import argparse
import random
import time

import numpy as np

import norn


def per_state(new_state, seconds):
    """Steps per second of random play through the pyspiel-shaped loop."""
    rng = random.Random(1)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_state()
        while not state.is_terminal():
            norn.apply_random_action(state, rng)
            steps += 1
    return steps / (time.perf_counter() - start)


def batched(name, envs, threads, seconds):
    """Steps per second of VectorGame's `step` (every environment's step
    counted), the learner taking each environment's lowest legal id so
    that choosing costs next to nothing."""
    vector = norn.VectorGame(name, envs, 1, threads=threads)
    _, info = vector.reset()
    steps = 0
    stepping = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = info["action_mask"].argmax(axis=1)
        before = time.perf_counter()
        _, _, _, _, info = vector.step(actions)
        stepping += time.perf_counter() - before
        steps += envs
    return steps / stepping


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--envs", type=int, default=256)
    args = parser.parse_args()

    print("| game | per-state steps/s |")
    print("| --- | ---: |")
    single = {}
    for info in norn.games():
        game = norn.load_game(info.name)
        single[info.name] = per_state(game.new_initial_state, args.seconds)
        print(f"| norn {info.name} | {single[info.name]:,.0f} |")
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    spiel = {}
    if pyspiel is not None:
        for name in ("breakthrough", "chess"):
            game = pyspiel.load_game(name)
            spiel[name] = per_state(game.new_initial_state, args.seconds)
            print(f"| pyspiel {name} | {spiel[name]:,.0f} |")

    print()
    print("| game | batched, 1 thread | batched, 2 threads | 2 threads / per-state |")
    print("| --- | ---: | ---: | ---: |")
    for info in norn.games():
        one = batched(info.name, args.envs, 1, args.seconds)
        two = batched(info.name, args.envs, 2, args.seconds)
        print(f"| {info.name} | {one:,.0f} | {two:,.0f} | {two / single[info.name]:.1f} |")

    if "breakthrough" in spiel:
        print()
        ratio = single["hnefatafl"] / spiel["breakthrough"]
        print(f"per-state hnefatafl / pyspiel breakthrough: {ratio:.2f}")


if __name__ == "__main__":
    main()
