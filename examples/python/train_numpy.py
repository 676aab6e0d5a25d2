"""Training a network of one's own on norn's self-play data: norn.train
runs a short self-play run (its shards are ordinary .npz files), a numpy
network of one hidden layer learns from every sample of it by gradient
descent on the policy's cross-entropy and the value's squared error, and
then guides norn's batched search, which plays a game with it.

Options: --generations G (2), --epochs E (300). PyTorch or JAX would
train the same arrays; numpy keeps the example free of them."""

import argparse
import json
import pathlib
import tempfile

import numpy as np

import norn

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--generations", type=int, default=2)
parser.add_argument("--epochs", type=int, default=300)
args = parser.parse_args()

RULES = "ply-limit=12"
game = norn.load_game("hnefatafl", RULES)

with tempfile.TemporaryDirectory() as run:
    report = norn.train(
        "hnefatafl",
        run,
        rules=RULES,
        generations=args.generations,
        games_per_generation=4,
        sims=8,
        arch="blocks=0,channels=4,value-hidden=8",
        batch_size=32,
        steps=8,
        seed=1,
    )
    print(f"norn.train: {report['generation']} generations, {report['games']} games, {report['samples']} samples")
    # Every generation's shards, as the manifests list them.
    arrays = {"observation": [], "mask": [], "policy": [], "outcome": []}
    for manifest_path in sorted(pathlib.Path(run, "samples").glob("gen-*/manifest.json")):
        manifest = json.loads(manifest_path.read_text())
        for shard in manifest["shards"]:
            with np.load(manifest_path.parent / shard["file"]) as data:
                for name, parts in arrays.items():
                    parts.append(data[name])
    observations, masks, targets, outcomes = (np.concatenate(arrays[name]) for name in arrays)

inputs = observations.reshape(len(observations), -1)
outcomes = outcomes[:, 0]  # the outcome for the player who decided
rng = np.random.default_rng(0)
hidden = 32
weights = {
    "hidden": rng.normal(0, 1 / np.sqrt(inputs.shape[1]), (inputs.shape[1], hidden)).astype(np.float32),
    "policy": np.zeros((hidden, masks.shape[1]), np.float32),
    # Random, so that the value starts wrong: games cut at 12 plies end
    # drawn, and the value learns 0.
    "value": rng.normal(0, 0.5, hidden).astype(np.float32),
}


def forward(x):
    features = np.tanh(x @ weights["hidden"])
    return features, features @ weights["policy"], np.tanh(features @ weights["value"])


def losses_and_gradients(x, mask, target, outcome):
    """The mean losses of a batch and their gradients for every weight."""
    features, logits, values = forward(x)
    logits = np.where(mask, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    policy = np.exp(logits)
    policy /= policy.sum(axis=1, keepdims=True)
    n = len(x)
    policy_loss = -(target * np.log(np.where(mask, policy, 1.0))).sum(axis=1).mean()
    value_loss = ((values - outcome) ** 2).mean()
    d_logits = (policy - target) / n
    d_value = 2 * (values - outcome) * (1 - values**2) / n
    d_features = d_logits @ weights["policy"].T + np.outer(d_value, weights["value"])
    gradients = {
        "policy": features.T @ d_logits,
        "value": features.T @ d_value,
        "hidden": x.T @ (d_features * (1 - features**2)),
    }
    return policy_loss, value_loss, gradients


first = None
for epoch in range(args.epochs):
    policy_loss, value_loss, gradients = losses_and_gradients(inputs, masks, targets, outcomes)
    first = first or (policy_loss, value_loss)
    for name, gradient in gradients.items():
        weights[name] -= 0.05 * gradient.astype(np.float32)
# The policy loss cannot go below the targets' own entropy.
entropy = -(targets * np.log(np.where(targets > 0, targets, 1.0))).sum(axis=1).mean()
print(f"numpy training on {len(inputs)} samples: policy loss {first[0]:.3f} -> {policy_loss:.3f} "
      f"(the targets' entropy: {entropy:.3f}), value loss {first[1]:.3f} -> {value_loss:.3f}")


def evaluate(observations, legal):
    """What norn's search calls: observations and legal masks in, logits
    and values (for the player to move) out."""
    _, logits, values = forward(observations.reshape(len(observations), -1))
    return logits, values


state = game.new_initial_state()
decisions = 0
while not state.is_terminal():
    policies, actions, values = norn.guided_search([state], evaluate, "sims=8", seed=decisions)
    state.apply_action(int(actions[0]))
    decisions += 1
print(f"a game of the numpy network's search: {decisions} decisions, returns {state.returns()}")
