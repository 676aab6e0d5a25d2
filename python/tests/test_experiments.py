"""The command line's experiments run from Python."""

import json
import os
import pathlib
import subprocess

import pytest

import norn

ROOT = pathlib.Path(__file__).resolve().parents[2]


def without_provenance(summary):
    """A summary without what differs between two runs of the same games:
    the executable, the host and the times."""
    summary = dict(summary)
    for key in ("build", "provenance", "shard_provenance"):
        summary.pop(key, None)
    return summary


def test_a_tournament_returns_the_summary_the_command_line_writes(tmp_path):
    arguments = dict(game="hnefatafl", agents=["random", "greedy"], games=4, seed=3, rules="ply-limit=40")
    summary = norn.tournament(**arguments, threads=2)
    assert summary["games_played"] == 4
    assert [agent["spec"] for agent in summary["agents"]] == ["random", "greedy"]
    binary = pathlib.Path(os.environ.get("NORN_BIN", ROOT / "target" / "release" / "norn"))
    if not binary.exists():
        pytest.skip(f"no norn binary at {binary} (set NORN_BIN)")
    out = tmp_path / "cli-run"
    command = [
        str(binary), "tournament", "hnefatafl", "--agents", "random", "greedy",
        "--games", "4", "--seed", "3", "--rules", "ply-limit=40", "--json",
        "--out", str(out),
    ]
    printed = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    assert without_provenance(json.loads(printed)) == without_provenance(summary)


def test_a_tournament_is_the_same_for_any_thread_count_and_keeps_its_log(tmp_path):
    arguments = dict(game="nibelungen", agents=["random", "smmcts:iters=20"], games=4, seed=9)
    one = norn.tournament(**arguments, threads=1, out=str(tmp_path / "run"))
    two = norn.tournament(**arguments, threads=2)
    assert without_provenance(one) == without_provenance(two)
    assert (tmp_path / "run" / "games.jsonl").exists()
    assert (tmp_path / "run" / "summary.json").exists()


def test_bad_tournaments_are_refused():
    with pytest.raises(ValueError):
        norn.tournament("hnefatafl", ["random", "no-such-agent"])
    with pytest.raises(ValueError):
        norn.tournament("hnefatafl", ["random", "greedy"], games=3)
    with pytest.raises(ValueError):
        norn.tournament("hnefatafl", ["random", "greedy"], openings="random:many")
    with pytest.raises(ValueError):
        norn.tournament("fenrir-path", ["random", "greedy"])
