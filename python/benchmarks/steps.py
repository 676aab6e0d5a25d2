"""Steps per second of random games through norn's Python APIs, beside the
Rust random playout, in one run.

Every measure plays uniformly random legal actions, so that the games are
those of random play (a Hnefatafl episode lasts a few hundred steps), not
the short games a fixed choice such as the lowest legal id makes:

- per-state: the pyspiel-shaped loop, `norn.apply_random_action` on one
  state at a time (`legal_actions()`, `random.Random.choice`,
  `apply_action`), pyspiel's own games through the same loop;
- batched: `VectorGame(..., legal="ids")` of `--envs` environments in
  self-play, each step's actions drawn by numpy from the legal ids it
  returned (one vectorised draw per step); the figure counts every
  environment's step, timed around `step` alone and around the whole loop
  (drawing the actions included);
- Rust: `examples/random_playout.rs` (random playouts in Rust, no ids,
  observations or masks), given with `--rust PATH` to its built binary,
  on 1 and 2 threads.
"""

import argparse
import random
import subprocess
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
    """Steps per second of `VectorGame.step` with random legal actions:
    timed around `step` alone and around the whole loop; and the mean
    length of the episodes that ended."""
    vector = norn.VectorGame(name, envs, 1, threads=threads, legal="ids")
    rng = np.random.default_rng(1)
    _, info = vector.reset()
    steps = 0
    stepping = 0.0
    # Each environment's steps in its episode so far, and the lengths of
    # the episodes that ended.
    running = np.zeros(envs, np.int64)
    lengths = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        ids, offsets = info["legal_ids"], info["legal_offsets"]
        counts = offsets[1:] - offsets[:-1]
        actions = ids[offsets[:-1] + (rng.random(envs) * counts).astype(np.int64)]
        before = time.perf_counter()
        _, _, terminated, truncated, info = vector.step(actions)
        stepping += time.perf_counter() - before
        steps += envs
        running += 1
        ended = terminated | truncated
        lengths.extend(running[ended])
        running[ended] = 0
    whole = time.perf_counter() - start
    return steps / stepping, steps / whole, float(np.mean(lengths)) if lengths else float("nan")


def rust(binary, name, seconds, threads):
    """Steps per second of the Rust random playout."""
    line = subprocess.run(
        [binary, name, str(seconds), str(threads)], check=True, capture_output=True, text=True
    ).stdout.split()
    return float(line[2])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--rust", help="the built examples/random_playout binary")
    parser.add_argument("--games", nargs="*", help="the games to measure (default: every game)")
    args = parser.parse_args()
    names = args.games or [info.name for info in norn.games()]

    print("| game | per-state steps/s |")
    print("| --- | ---: |")
    single = {}
    for name in names:
        game = norn.load_game(name)
        single[name] = per_state(game.new_initial_state, args.seconds)
        print(f"| norn {name} | {single[name]:,.0f} |")
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    if pyspiel is not None:
        for name in ("breakthrough", "chess"):
            game = pyspiel.load_game(name)
            print(f"| pyspiel {name} | {per_state(game.new_initial_state, args.seconds):,.0f} |")

    print()
    print(
        "| game | steps/episode | batched 1 thread (step, loop) | batched 2 threads (step, loop) "
        "| Rust playout 1 thread | Rust playout 2 threads | 2-thread batched step / per-state "
        "| / Rust 1 thread | / Rust 2 threads |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        one_step, one_loop, length = batched(name, args.envs, 1, args.seconds)
        two_step, two_loop, _ = batched(name, args.envs, 2, args.seconds)
        if args.rust:
            rust_one = rust(args.rust, name, args.seconds, 1)
            rust_two = rust(args.rust, name, args.seconds, 2)
            rust_cells = (
                f"{rust_one:,.0f} | {rust_two:,.0f} | {two_step / single[name]:.2f} "
                f"| {two_step / rust_one:.2f} | {two_step / rust_two:.2f}"
            )
        else:
            rust_cells = f"- | - | {two_step / single[name]:.2f} | - | -"
        print(
            f"| {name} | {length:,.0f} | {one_step:,.0f}, {one_loop:,.0f} "
            f"| {two_step:,.0f}, {two_loop:,.0f} | {rust_cells} |"
        )


if __name__ == "__main__":
    main()
