"""The command line's experiments run from Python."""

import copy
import json
import subprocess

import pytest

import norn



def without_provenance(summary):
    """A summary without what differs between two runs of the same games:
    the executable, the host and the times (the agents' search records hold
    the times of their decisions)."""
    summary = dict(summary)
    # `forfeits` is the Python result's own: the games lost by a failing
    # agent, with the reason, which the command line's summary leaves to
    # the game log.
    for key in ("build", "provenance", "shard_provenance", "forfeits"):
        summary.pop(key, None)
    summary["agents"] = [
        {key: value for key, value in agent.items() if key != "search"}
        for agent in summary.get("agents", [])
    ]
    return summary


def test_a_tournament_returns_the_summary_the_command_line_writes(tmp_path, command_line_json):
    arguments = dict(game="hnefatafl", agents=["random", "greedy"], games=4, seed=3, rules="ply-limit=40")
    summary = norn.tournament(**arguments, threads=2)
    assert summary["games_played"] == 4
    assert [agent["spec"] for agent in summary["agents"]] == ["random", "greedy"]
    printed = command_line_json(
        "tournament", "hnefatafl", "--agents", "random", "greedy", "--games", "4",
        "--seed", "3", "--rules", "ply-limit=40", "--out", str(tmp_path / "cli-run"),
    )
    assert without_provenance(printed) == without_provenance(summary)


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


def interrupt_when_logged(call, log, lines):
    """Runs the package call `call` (Python text) in a child interpreter,
    sends it Ctrl-C once `log` holds a line, and returns how many lines the
    log holds after the child has stopped (of `lines` for the whole run)."""
    import signal
    import sys
    import time

    script = (
        "import norn\n"
        "try:\n"
        f"    {call}\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (log.exists() and log.read_text().count("\n") >= 1):
        assert time.monotonic() < deadline, "nothing finished in time"
        assert child.poll() is None, "the run ended before it was interrupted"
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    interrupted_at = time.monotonic()
    printed, _ = child.communicate(timeout=60)
    assert "interrupted" in printed
    # The work under way ends first: well under the time of a whole run.
    assert time.monotonic() - interrupted_at < 30
    finished = log.read_text().count("\n")
    assert finished < lines
    return finished


def test_ctrl_c_stops_a_tournament_and_keeps_its_finished_games(tmp_path):
    out = tmp_path / "run"
    call = (
        "norn.tournament('hnefatafl', ['mcts:iters=2000', 'mcts:iters=1999'], games=40,"
        f" seed=1, threads=1, out={str(out)!r})"
    )
    assert interrupt_when_logged(call, out / "games.jsonl", 40) >= 1


def without_timing(summary):
    """A win-rate summary without what differs between two runs of the same
    deals: the build, the times and the thread count."""
    summary = without_provenance(copy.deepcopy(summary))
    summary.pop("threads")
    for rows in [summary.get("policies", [])] + [point["policies"] for point in summary.get("points", [])]:
        for row in rows:
            row.pop("seconds")
            row.pop("deals_per_second")
    return summary


def test_a_win_rate_run_returns_the_summary_the_command_line_writes(command_line_json):
    summary = norn.winrate("fenrir-path", ["greedy", "exact"], deals=30, seed=4, threads=2)
    assert [row["policy"] for row in summary["policies"]] == ["greedy", "exact"]
    assert all(row["deals"] == 30 for row in summary["policies"])
    printed = command_line_json(
        "winrate", "fenrir-path", "--policy", "greedy", "exact", "--deals", "30", "--seed", "4",
    )
    assert without_timing(printed) == without_timing(summary)


def test_a_win_rate_run_is_the_same_for_any_thread_count_and_keeps_its_log(tmp_path):
    arguments = dict(game="fenrir-cards", policies=["counting", "ismcts:iters=30"], deals=12, seed=2)
    one = norn.winrate(**arguments, threads=1, out=str(tmp_path / "run"))
    two = norn.winrate(**arguments, threads=2)
    assert without_timing(one) == without_timing(two)
    assert (tmp_path / "run" / "deals.jsonl").read_text().count("\n") == 24
    assert json.loads((tmp_path / "run" / "summary.json").read_text())["policies"] == one["policies"]


def test_a_sweep_gives_a_rate_per_value_of_the_option():
    summary = norn.winrate("fenrir-cards", ["counting"], deals=6, sweep="track=10..14", sweep_step=2)
    assert summary["option"] == "track"
    assert [point["value"] for point in summary["points"]] == [10, 12, 14]
    assert all(point["policies"][0]["deals"] == 6 for point in summary["points"])


def test_bad_win_rate_runs_are_refused(tmp_path):
    refused = {
        "a game of competing sides": dict(game="thud", policies=["random"]),
        "an unknown policy": dict(game="fenrir-path", policies=["no-such-agent"]),
        "no deals": dict(game="fenrir-path", policies=["greedy"], deals=0),
        "the exact solver on hidden hands": dict(game="fenrir-cards", policies=["exact"]),
        "a shard without a directory": dict(game="fenrir-path", policies=["greedy"], shard="1/2"),
        "a shard that is not one": dict(game="fenrir-path", policies=["greedy"], shard="3/2", out=str(tmp_path)),
        "a sweep of no option": dict(game="fenrir-path", policies=["greedy"], sweep="no-such=1..3"),
        "a deal that does not read": dict(game="fenrir-path", policies=["greedy"], deal="nonsense"),
    }
    for case, arguments in refused.items():
        with pytest.raises(ValueError):
            norn.winrate(**arguments)
            pytest.fail(f"not refused: {case}")


def test_ctrl_c_stops_a_win_rate_run_and_keeps_its_finished_deals(tmp_path):
    out = tmp_path / "run"
    call = f"norn.winrate('fenrir-cards', ['ismcts:iters=300'], deals=2000, seed=1, threads=1, out={str(out)!r})"
    assert interrupt_when_logged(call, out / "deals.jsonl", 2000) >= 1


def test_a_gauntlet_plays_the_challenger_against_each_baseline_only(tmp_path, command_line_json):
    arguments = dict(game="hnefatafl", agents=["random", "greedy"], games=2, seed=4, rules="ply-limit=30")
    summary = norn.tournament(**arguments, gauntlet="alphabeta:depth=1")
    assert summary["gauntlet"] is True
    assert [pairing["agents"][0] for pairing in summary["pairings"]] == ["alphabeta:depth=1"] * 2
    assert summary["games_played"] == 4
    # Anchored on the first baseline, as on the command line.
    assert summary["anchor"] == "random"
    printed = command_line_json(
        "tournament", "hnefatafl", "--gauntlet", "alphabeta:depth=1", "--agents", "random", "greedy",
        "--games", "2", "--seed", "4", "--rules", "ply-limit=30", "--out", str(tmp_path / "cli-run"),
    )
    assert without_provenance(printed) == without_provenance(summary)
    with pytest.raises(ValueError):
        norn.tournament(**arguments, anchor="no-such-agent")
