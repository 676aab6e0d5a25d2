import json
import os
import pathlib
import random
import signal
import subprocess
import threading
import time

import pytest

import norn


def _names():
    return [info.name for info in norn.games()]


@pytest.fixture(params=_names())
def game(request):
    """Every registered game under its default rules: a new game is tested
    without touching the tests."""
    return norn.load_game(request.param)


# One step of a random playout (the package's own helper).
random_action = norn.apply_random_action


def playout_states(game, seed, plies, games=1):
    """The states of a few seeded random playouts, up to ``plies`` steps each."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        for _ in range(plies):
            yield state
            if state.is_terminal():
                break
            random_action(state, rng)


def other_rules(game):
    """Rules that differ from ``game``'s defaults in one option and load,
    found from the rules text alone (so a new game needs no entry here): a
    limit lowered where the game has one (which keeps random games short),
    else a switch turned or a number moved by one."""
    candidates = []
    for item in game.rules.split(","):
        key, _, value = item.partition("=")
        if "limit" in key:
            candidates[:0] = [f"{key}=3", f"{key}=40"][::-1]
        if value in ("on", "off"):
            candidates.append(f"{key}={'off' if value == 'on' else 'on'}")
        elif value.isdigit():
            candidates += [f"{key}={int(value) - 1}", f"{key}={int(value) + 1}"]
    for text in candidates:
        try:
            loaded = norn.load_game(game.name, text)
        except ValueError:
            continue
        if loaded.rules != game.rules:
            return text
    raise AssertionError(f"no other rules found for {game.name}")


ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def command_line_json():
    """``command_line_json(*arguments)``: what the norn command prints with
    ``arguments`` and ``--json``, read back; the test is skipped where no
    norn binary is built (``NORN_BIN`` names another)."""
    binary = pathlib.Path(os.environ.get("NORN_BIN", ROOT / "target" / "release" / "norn"))
    if not binary.exists():
        pytest.skip(f"no norn binary at {binary} (set NORN_BIN)")

    def run(*arguments):
        command = [str(binary), *arguments, "--json"]
        return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)

    return run


@pytest.fixture
def ctrl_c():
    """``stop(call, after)`` runs ``call()`` with Ctrl-C (SIGINT to this
    process) sent ``after`` seconds in, checks that it raises
    KeyboardInterrupt, and returns the seconds from the signal to the end
    of the call."""

    def stop(call, after):
        sent = []

        def interrupt():
            sent.append(time.perf_counter())
            os.kill(os.getpid(), signal.SIGINT)

        timer = threading.Timer(after, interrupt)
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            call()
        stopped = time.perf_counter()
        timer.join()
        assert sent, "the call ended before Ctrl-C was sent"
        return stopped - sent[0]

    return stop
