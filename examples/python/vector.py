"""The batched API: 256 Hnefatafl games against a random opponent, stepped
in Rust on two threads, with random legal actions for the learner."""

import time

import numpy as np

import norn

envs = norn.VectorGame("hnefatafl", num_envs=256, seed=1, opponent="random", threads=2)
observations, info = envs.reset()
rng = np.random.default_rng(0)
wins = games = 0
start = time.perf_counter()
for _ in range(200):
    masks = info["action_mask"]
    # A random legal action per environment, chosen with numpy alone.
    scores = rng.random(masks.shape) * masks
    actions = scores.argmax(axis=1)
    seats = info["current_player"]
    observations, rewards, terminated, truncated, info = envs.step(actions)
    finished = terminated | truncated
    games += int(finished.sum())
    wins += int((rewards[np.arange(len(seats)), seats][finished] > 0).sum())
elapsed = time.perf_counter() - start
print(f"{200 * 256 / elapsed:,.0f} learner steps/s; {games} games finished, {wins} won")
