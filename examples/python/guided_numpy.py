"""A small numpy network guiding norn's batched Gumbel search: self-play
games on Brandubh-sized budgets, their samples read back with numpy, and
one step of training on them (policy cross-entropy and value error)."""

import tempfile

import numpy as np

import norn

game = norn.load_game("hnefatafl", "ply-limit=20")
rng = np.random.default_rng(0)
size = game.observation_tensor_size()
actions = game.num_distinct_actions()
weights = {
    "hidden": rng.normal(0, 0.05, (size, 32)).astype(np.float32),
    "policy": rng.normal(0, 0.05, (32, actions)).astype(np.float32),
    "value": rng.normal(0, 0.05, (32,)).astype(np.float32),
}


def forward(observations):
    features = np.tanh(observations.reshape(len(observations), -1) @ weights["hidden"])
    return features, features @ weights["policy"], np.tanh(features @ weights["value"])


def evaluate(observations, masks):
    """What the search calls: a batch of observations and legal masks in,
    logits and values (for the player to move) out."""
    _, logits, values = forward(observations)
    return logits, values


with tempfile.TemporaryDirectory() as out:
    manifest = norn.self_play(game, out, games=4, options="sims=16,gumbel=on", evaluator=evaluate, batch=4)
    shard = np.load(f"{out}/{manifest['shards'][0]['file']}")
    observations, masks, targets = shard["observation"], shard["mask"], shard["policy"]
    outcomes = shard["outcome"][:, 0]

features, logits, values = forward(observations)
logits = np.where(masks, logits, -np.inf)
logits -= logits.max(axis=1, keepdims=True)
log_policy = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
policy_loss = -(targets * np.where(masks, log_policy, 0)).sum(axis=1).mean()
value_loss = ((values - outcomes) ** 2).mean()
# One gradient step on the value head alone, to show the shapes fit.
gradient = ((values - outcomes) * (1 - values**2))[:, None] * features
weights["value"] -= 0.1 * gradient.mean(axis=0)
print(f"{manifest['samples']} samples from {manifest['games']} games")
print(f"policy loss {policy_loss:.3f}, value loss {value_loss:.3f}")
