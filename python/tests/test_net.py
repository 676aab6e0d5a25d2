"""norn's networks from Python: a Rust network's outputs against a numpy
forward pass of the weights read from its file with numpy alone, a file
written with numpy alone loaded by Rust, and bad input refused."""

import json
import struct

import numpy as np
import pytest

import norn


def read_safetensors(path):
    """The tensors and metadata of a safetensors file, read with numpy
    alone: an 8-byte little-endian header length, a JSON header, the data."""
    with open(path, "rb") as file:
        data = file.read()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length])
    metadata = header.pop("__metadata__", {})
    body = data[8 + length :]
    tensors = {}
    for name, info in header.items():
        assert info["dtype"] == "F32"
        start, end = info["data_offsets"]
        tensors[name] = np.frombuffer(body[start:end], dtype="<f4").reshape(info["shape"])
    return tensors, metadata


def write_safetensors(path, tensors, metadata):
    """A safetensors file written with numpy alone."""
    header = {"__metadata__": metadata}
    offset = 0
    blobs = []
    for name, array in tensors.items():
        blob = np.ascontiguousarray(array, dtype="<f4").tobytes()
        header[name] = {
            "dtype": "F32",
            "shape": list(array.shape),
            "data_offsets": [offset, offset + len(blob)],
        }
        offset += len(blob)
        blobs.append(blob)
    text = json.dumps(header).encode()
    with open(path, "wb") as file:
        file.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def conv(x, weight, bias):
    """A convolution with zero padding over (batch, in, H, W), by its taps."""
    size = weight.shape[2]
    pad = size // 2
    padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    height, width = x.shape[2], x.shape[3]
    out = np.zeros((x.shape[0], weight.shape[0], height, width))
    for dy in range(size):
        for dx in range(size):
            window = padded[:, :, dy : dy + height, dx : dx + width]
            out += np.einsum("oi,bihw->bohw", weight[:, :, dy, dx], window)
    return out + bias[None, :, None, None]


def numpy_forward(description, t, observations):
    """The network's logits and values, in float64 numpy."""
    t = {name: value.astype(np.float64) for name, value in t.items()}
    relu = lambda x: np.maximum(x, 0.0)
    linear = lambda x, name: x @ t[name + ".weight"].T + t[name + ".bias"]
    batch = observations.shape[0]
    architecture = description["architecture"]
    if architecture["kind"] == "residual":
        x = relu(conv(observations, t["stem.weight"], t["stem.bias"]))
        for block in range(architecture["blocks"]):
            prefix = f"blocks.{block}."
            hidden = relu(conv(x, t[prefix + "conv1.weight"], t[prefix + "conv1.bias"]))
            x = relu(x + conv(hidden, t[prefix + "conv2.weight"], t[prefix + "conv2.bias"]))
        policy = relu(conv(x, t["policy.conv.weight"], t["policy.conv.bias"])).reshape(batch, -1)
        value = relu(conv(x, t["value.conv.weight"], t["value.conv.bias"])).reshape(batch, -1)
    else:
        x = observations.reshape(batch, -1)
        for layer in range(len(architecture["hidden"])):
            x = relu(linear(x, f"trunk.{layer}"))
        policy = value = x
    logits = linear(policy, "policy.fc")
    values = np.tanh(linear(relu(linear(value, "value.fc1")), "value.fc2"))
    return logits, values


def observations_of(game, count, seed):
    """Observations of a random playout's positions."""
    import random

    rng = random.Random(seed)
    state = game.new_initial_state()
    seen = []
    while len(seen) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_player_node():
            seen.append(state.observation_tensor())
        if state.is_simultaneous_node():
            seen.append(state.observation_tensor(0))
        norn.apply_random_action(state, rng)
    return np.stack(seen).astype(np.float32)


@pytest.mark.parametrize(
    "name, options",
    [
        ("hnefatafl", "blocks=2,channels=8"),
        ("stealth-chess", "blocks=1,channels=4,policy-channels=3,value-channels=2"),
        ("fenrir-path", "hidden-layers=2,hidden-size=32"),
    ],
)
def test_rust_outputs_match_numpy_on_the_files_weights(tmp_path, name, options):
    game = norn.load_game(name)
    path = tmp_path / "net.safetensors"
    norn.Network.init(game, seed=3, options=options).save(str(path))
    tensors, metadata = read_safetensors(path)
    description = json.loads(metadata["norn.net"])
    assert description["game"] == name
    network = norn.Network.load(str(path))
    observations = observations_of(game, 5, seed=1)
    logits, values = network(observations)
    want_logits, want_values = numpy_forward(description, tensors, observations.astype(np.float64))
    assert logits.shape == (5, game.num_distinct_actions())
    np.testing.assert_allclose(logits, want_logits, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values, want_values, rtol=1e-5, atol=1e-5)
    # The same outputs on two threads, and one sample alone.
    again, _ = network.with_threads(2)(observations)
    assert np.array_equal(again, logits)
    alone, _ = network(observations[3:4])
    assert np.array_equal(alone[0], logits[3])


def test_a_network_written_with_numpy_alone_loads_in_rust(tmp_path):
    game = norn.load_game("hnefatafl")
    description = norn.Network.init(game, seed=0, options="blocks=1,channels=4").description
    rng = np.random.default_rng(5)
    tensors = {
        name: rng.normal(0.0, 0.2, size=shape).astype(np.float32)
        for name, shape in norn.Network.tensor_shapes(description)
    }
    path = tmp_path / "mine.safetensors"
    write_safetensors(path, tensors, {"norn.net": json.dumps(description)})
    network = norn.Network.load(str(path))
    observations = observations_of(game, 4, seed=2)
    logits, values = network(observations)
    want_logits, want_values = numpy_forward(description, tensors, observations.astype(np.float64))
    np.testing.assert_allclose(logits, want_logits, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values, want_values, rtol=1e-5, atol=1e-5)
    # The helper builds the same network from the arrays.
    built = norn.Network.from_arrays(description, tensors)
    assert np.array_equal(built(observations)[0], logits)
    assert built.parameter_count == sum(array.size for array in tensors.values())


def test_bad_files_arrays_and_observations_are_refused(tmp_path):
    game = norn.load_game("fenrir-path")
    network = norn.Network.init(game, seed=1)
    path = tmp_path / "net.safetensors"
    network.save(str(path))
    data = path.read_bytes()
    cut = tmp_path / "cut.safetensors"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="not a safetensors file"):
        norn.Network.load(str(cut))
    with pytest.raises(ValueError, match="cannot use the file"):
        norn.Network.load(str(tmp_path / "missing.safetensors"))
    tensors = network.tensors()
    tensors["value.fc2.bias"] = np.zeros(3, dtype=np.float32)
    with pytest.raises(ValueError, match="has shape"):
        norn.Network.from_arrays(network.description, tensors)
    tensors = network.tensors()
    tensors["policy.fc.bias"][0] = np.nan
    with pytest.raises(ValueError, match="not a finite number"):
        norn.Network.from_arrays(network.description, tensors)
    size = int(np.prod(game.observation_tensor_shape()))
    with pytest.raises(ValueError, match="expected"):
        network(np.zeros((2, size + 1), dtype=np.float32))
    with pytest.raises(ValueError, match="thread"):
        network.with_threads(0)
