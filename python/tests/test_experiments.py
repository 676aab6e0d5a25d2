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


def test_ctrl_c_stops_a_tournament_and_keeps_its_finished_games(tmp_path):
    import signal
    import sys
    import time

    out = tmp_path / "run"
    script = (
        "import norn\n"
        "try:\n"
        "    norn.tournament('hnefatafl', ['mcts:iters=2000', 'mcts:iters=1999'], games=40,"
        f" seed=1, threads=1, out={str(out)!r})\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    log = out / "games.jsonl"
    deadline = time.monotonic() + 120
    while not (log.exists() and log.read_text().count("\n") >= 1):
        assert time.monotonic() < deadline, "no game finished in time"
        assert child.poll() is None, "the tournament ended before it was interrupted"
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    interrupted_at = time.monotonic()
    printed, _ = child.communicate(timeout=60)
    assert "interrupted" in printed
    # The games under way end first: well under the time of a whole run.
    assert time.monotonic() - interrupted_at < 30
    finished = log.read_text().count("\n")
    assert 1 <= finished < 40
