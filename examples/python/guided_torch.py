"""A PyTorch network guiding norn's batched search, where PyTorch is
installed (skipped otherwise): the search calls it with numpy arrays, once
per round for every state of the batch."""

import importlib.util

import numpy as np

import norn

if importlib.util.find_spec("torch") is None:
    print("PyTorch is not installed: skipped")
    raise SystemExit(0)

import torch

game = norn.load_game("hnefatafl", "ply-limit=40")
torch.manual_seed(0)
network = torch.nn.Sequential(
    torch.nn.Flatten(),
    torch.nn.Linear(game.observation_tensor_size(), 64),
    torch.nn.ReLU(),
    torch.nn.Linear(64, game.num_distinct_actions() + 1),
)


@torch.no_grad()
def evaluate(observations, masks):
    out = network(torch.from_numpy(observations)).numpy()
    return out[:, :-1], np.tanh(out[:, -1])


states = [game.new_initial_state() for _ in range(8)]
policies, actions, values = norn.guided_search(states, evaluate, "sims=32,gumbel=on", seed=1)
print("chosen actions:", [states[0].action_to_string(int(a)) for a in actions])
print("root values:", np.round(values, 3))
