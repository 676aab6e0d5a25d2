"""norn.train: the command line's training loop from Python, its report
read from the run's own files, resumed by the same call, and stopped by
Ctrl-C with its checkpoints kept."""

import json
import os
import pathlib

import pytest

import norn

# Hnefatafl cut to 8 plies and a network of a few hundred weights: a
# fraction of a second a generation.
TINY = dict(
    rules="ply-limit=8",
    arch="blocks=0,channels=4,value-hidden=8",
    games_per_generation=4,
    sims=8,
    batch_size=16,
    steps=4,
    seed=3,
)


def records(out):
    """Every checkpoint's record, as the run wrote it."""
    checkpoints = pathlib.Path(out, "checkpoints")
    numbers = sorted(int(path.name) for path in checkpoints.iterdir() if path.name.isdigit())
    return [json.loads((checkpoints / str(n) / "checkpoint.json").read_text()) for n in numbers]


def test_a_run_reports_what_its_checkpoints_record_and_resumes(tmp_path):
    out = tmp_path / "run"
    report = norn.train("hnefatafl", str(out), generations=2, **TINY)
    written = records(out)
    assert report["trained"] == 2 and report["generation"] == 2
    assert report["checkpoints"] == written
    manifests = [json.loads(path.read_text()) for path in out.glob("samples/gen-*/manifest.json")]
    assert report["samples"] == sum(manifest["samples"] for manifest in manifests) > 0
    assert report["games"] == 2 * TINY["games_per_generation"]
    assert report["losses"] == written[-1]["losses"] and report["ratings"] is None
    first = (out / "checkpoints/2/network.safetensors").read_bytes()

    more = norn.train("hnefatafl", str(out), generations=3, **TINY)
    assert (more["trained"], more["generation"]) == (1, 3)
    assert (out / "checkpoints/2/network.safetensors").read_bytes() == first
    with pytest.raises(ValueError, match="another seed"):
        norn.train("hnefatafl", str(out), generations=3, **{**TINY, "seed": 4})
    with pytest.raises(ValueError, match="generations"):
        norn.train("hnefatafl", str(tmp_path / "other"), generations=0, **TINY)


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to the process")
@pytest.mark.parametrize(
    "long",
    [
        # Ten million steps: hours, were it not stopped (it stops between steps).
        {"steps": 10_000_000},
        # A generation of a million games: the same, stopped during self-play.
        {"games_per_generation": 1_000_000},
    ],
)
def test_ctrl_c_stops_a_run_and_keeps_its_checkpoints(long, tmp_path, ctrl_c):
    out = tmp_path / "run"
    seconds = ctrl_c(
        lambda: norn.train("hnefatafl", str(out), generations=1, **{**TINY, **long}), after=1.0
    )
    assert seconds < 1.0, f"{seconds:.2f} s after Ctrl-C"
    assert [record["generation"] for record in records(out)] == [0]


def test_a_run_rates_its_generations_as_the_command_line_does(tmp_path, command_line_json):
    baselines = ["random", "alphabeta:depth=1"]
    report = norn.train(
        "hnefatafl", str(tmp_path / "python"), generations=2, eval_every=1, eval_games=2,
        baselines=baselines, **TINY,
    )
    rated = {rating["agent"] for rating in report["ratings"]["agents"]}
    assert rated == {"checkpoint-0", "checkpoint-1", "checkpoint-2", *baselines}
    assert report["win_rates"] is None
    cli = tmp_path / "cli"
    options = {**TINY, "generations": 2, "eval_every": 1, "eval_games": 2, "threads": 1}
    arguments = [f"--{key.replace('_', '-')}={value}" for key, value in options.items()]
    command_line_json("train", "hnefatafl", "--out", str(cli), *arguments, "--baselines", *baselines)
    assert json.loads((cli / "ratings.json").read_text()) == report["ratings"]


def test_a_cooperative_run_measures_its_generations_win_rates(tmp_path):
    report = norn.train(
        "fenrir-path", str(tmp_path / "run"), generations=1, games_per_generation=4, sims=8,
        arch="hidden-layers=1,hidden-size=8", batch_size=16, steps=2, eval_every=1, eval_games=4,
        baselines=["random"],
    )
    assert report["ratings"] is None
    assert [generation["generation"] for generation in report["win_rates"]["generations"]] == [0, 1]
    with pytest.raises(ValueError, match="eval_every"):
        norn.train("hnefatafl", str(tmp_path / "other"), generations=1, eval_every=0, **TINY)
