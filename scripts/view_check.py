"""Opens the pages of `norn view` in headless Chromium and checks them as a
reader would use them: every game is listed, the filters change the list,
stepping to a game's last ply shows the position `norn replay` reaches, the
page logs no error, a page served by `--watch` takes the games added to its
run's log, and a training run's page shows its report and its plots.

Usage: python3 scripts/view_check.py NORN_BINARY WORK_DIR [--screenshots DIR]
"""

import argparse
import csv
import json
import pathlib
import shutil
import signal
import subprocess
import sys

import cdp

# One small tournament per game: agents every game accepts, few games.
TOURNAMENT_GAMES = 4


def norn(binary, *args):
    done = subprocess.run([binary, *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"norn {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def game_names(binary):
    """Every registered game, as `norn tournament --help` lists them."""
    names = []
    listing = False
    for line in norn(binary, "tournament", "--help").splitlines():
        if "Possible values:" in line:
            listing = True
        elif listing and line.strip().startswith("- "):
            names.append(line.strip()[2:].split(":")[0])
        elif listing and names:
            break
    return names


def final_positions(binary, game, log):
    """Each game's last position, as `norn replay --game N` prints it."""
    positions = {}
    for line in log.read_text().splitlines():
        index = json.loads(line)["index"]
        text = norn(binary, "replay", game, str(log), "--game", str(index))
        final = [l for l in text.splitlines() if l.startswith("final position: ")]
        positions[index] = final[-1][len("final position: "):]
    return positions


def screenshot_board(browser, standalone, path):
    """A PNG of the board the page shows, with its marks: the board and the
    page's styles alone on a page of their own, so that it sits at the top
    left corner whatever the page's layout."""
    html = browser.evaluate(
        "'<!doctype html><html><head>' + [...document.querySelectorAll('style')]"
        ".map(s => s.outerHTML).join('') + '</head><body style=\"margin:0\">'"
        " + document.getElementById('board').outerHTML + '</body></html>'"
    )
    standalone.write_text(html)
    browser.open(standalone.as_uri())
    browser.screenshot(path, "svg")


def check_page(browser, page, binary, game, log, screenshot):
    browser.open(page.as_uri())
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    rows = "document.querySelectorAll('#game-list tr[data-index]')"
    browser.wait_for(f"{rows}.length > 0")
    assert browser.evaluate(f"{rows}.length") == len(lines), f"{game}: rows"
    assert str(len(lines)) in browser.evaluate("document.getElementById('game-count').textContent")

    # Each agent plays each side in half the games of a colour-swapped pair.
    agent = browser.evaluate(
        "[...document.getElementById('filter-agent').options].map(o => o.value).filter(v => v)[0]"
    )
    choose = (
        "(id, value) => { const s = document.getElementById(id); s.value = value;"
        " s.dispatchEvent(new Event('change', {bubbles: true})); }"
    )
    browser.evaluate(f"({choose})('filter-agent', {json.dumps(agent)})")
    side = browser.evaluate(
        "[...document.getElementById('filter-side').options].map(o => o.value).filter(v => v)[0]"
    )
    browser.evaluate(f"({choose})('filter-side', {json.dumps(side)})")
    shown = browser.evaluate(f"{rows}.length")
    assert 0 < shown < len(lines), f"{game}: the filters show {shown} of {len(lines)} games"
    browser.evaluate(f"({choose})('filter-side', '')")
    browser.evaluate(f"({choose})('filter-agent', '')")
    assert browser.evaluate(f"{rows}.length") == len(lines), f"{game}: filters cleared"

    finals = final_positions(binary, game, log)
    browser.wait_for("document.getElementById('position-text').value !== ''")
    for line in lines:
        index = line["index"]
        selected = f"document.querySelector('#game-list tr.selected')?.dataset.index === '{index}'"
        # The page opens its first game by itself; a second opening of the
        # game shown would come back after the steps below and undo them.
        if not browser.evaluate(selected):
            browser.evaluate(f"document.querySelector('#game-list tr[data-index=\"{index}\"]').click()")
            browser.wait_for(selected)
        browser.evaluate("document.getElementById('last').click()")
        plies = line["plies"]
        browser.wait_for(f"document.getElementById('ply').textContent.includes('{plies}')")
        shown = browser.evaluate("document.getElementById('position-text').value")
        assert shown == finals[index], f"{game} game {index}: {shown!r} != {finals[index]!r}"
    # Arrows step back and forth.
    browser.evaluate("document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true}))")
    browser.wait_for(f"!document.getElementById('ply').textContent.includes('{plies}')")
    errors = browser.errors()
    assert not errors, f"{game}: the page logged errors: {errors}"
    if screenshot:
        screenshot_board(browser, page.with_suffix(".board.html"), screenshot)


# How `norn play` deals a game of each cooperative game, for a screenshot
# of its dealt position (their runs keep no games to browse).
DEALS = {
    "fenrir-path": ["--gods", "random"],
    "fenrir-cards": ["--rules", "players=3"]
    + [arg for p in range(3) for arg in ("--player", f"player{p}=random")],
}


def screenshot_deal(browser, binary, game, work, path):
    """A PNG of the dealt position of one seeded game, as `norn show --svg`
    draws it for player 0 (its hidden slots as player 0 sees them)."""
    played = json.loads(norn(binary, "play", game, "--seed", "1", "--json", *DEALS[game]))
    rules = DEALS[game][1:2] if DEALS[game][0] == "--rules" else []
    svg = norn(binary, "show", game, "--position", played["start"], "--svg", "--seen-by", "0",
               *(["--rules", *rules] if rules else []))
    picture = work / f"{game}.svg"
    picture.write_text(svg)
    browser.open(picture.as_uri())
    browser.screenshot(path, "svg")


# A policy besides `random` for the win-rate run of each cooperative game,
# one that wins some deals, so that the result filter has both results.
WINNING_POLICIES = {"fenrir-path": "mcts:iters=100", "fenrir-cards": "ismcts:iters=30"}
# How many deals of a win-rate run its page plays again (`norn view --deals`'s
# default).
REPLAYED_DEALS = 10


def check_winrate_page(browser, page, game, run):
    """A win-rate run's page: its chart of rates, and its list of the first
    deals played again by each policy: the deal shown at ply 0 and each
    result are the run's own (deals.csv), stepping to the last ply shows it,
    and where hands are hidden the viewer hides them; no errors."""
    browser.open(page.as_uri())
    charts = browser.evaluate("document.querySelectorAll('#charts svg').length")
    assert charts > 0, f"{game}: no chart on the win-rate page"
    text = browser.evaluate("document.body.textContent")
    assert "win rate" in text.lower(), f"{game}: the page does not speak of win rates"
    with open(run / "deals.csv", newline="") as table:
        rows_of_csv = list(csv.reader(table))
    policies = rows_of_csv[0][2:]
    deals = rows_of_csv[1:REPLAYED_DEALS + 1]
    rows = "document.querySelectorAll('#game-list tr[data-index]')"
    browser.wait_for(f"{rows}.length > 0")
    assert browser.evaluate(f"{rows}.length") == len(policies) * len(deals), f"{game}: rows"
    listed = browser.evaluate(f"[...{rows}].map(tr => [tr.dataset.index, ...[...tr.cells].map(td => td.textContent)])")
    lost = 0
    browser.wait_for("document.getElementById('position-text').value !== ''")
    for key, deal, policy, result, _end, plies in listed:
        column = policies.index(policy)
        row = next(row for row in deals if row[0] == deal)
        expected = "won" if row[2 + column] == "1" else "lost"
        assert result == expected, f"{game} deal {deal} of {policy}: {result}, the run has {expected}"
        lost += result == "lost"
        selected = f"document.querySelector('#game-list tr.selected')?.dataset.index === '{key}'"
        if not browser.evaluate(selected):
            browser.evaluate(f"document.querySelector('#game-list tr[data-index=\"{key}\"]').click()")
            browser.wait_for(selected)
        browser.evaluate("document.getElementById('first').click()")
        browser.wait_for("document.getElementById('ply').textContent === '0'")
        shown = browser.evaluate("document.getElementById('position-text').value")
        assert shown == row[1], f"{game} deal {deal}: the page deals {shown!r}, the run {row[1]!r}"
        browser.evaluate("document.getElementById('last').click()")
        browser.wait_for(f"document.getElementById('ply').textContent === '{plies}'")
    choose = (
        "(id, value) => { const s = document.getElementById(id); s.value = value;"
        " s.dispatchEvent(new Event('change', {bubbles: true})); }"
    )
    browser.evaluate(f"({choose})('filter-result', '1')")
    assert browser.evaluate(f"{rows}.length") == lost, f"{game}: the lost deals"
    browser.evaluate(f"({choose})('filter-result', '')")
    if not browser.evaluate("document.getElementById('viewer-box').hidden"):
        hidden = "document.querySelectorAll('#board use[href=\"#hidden\"]').length"
        # At the deal every hand is full.
        browser.evaluate("document.getElementById('first').click()")
        browser.evaluate(f"({choose})('viewer', '0')")
        assert browser.evaluate(hidden) > 0, f"{game}: player 0 sees every hand"
        browser.evaluate(f"({choose})('viewer', 'all')")
        assert browser.evaluate(hidden) == 0, f"{game}: the open view hides cards"
    errors = browser.errors()
    assert not errors, f"{game}: the page logged errors: {errors}"


def check_train_page(browser, binary, work):
    """A training run's page: the report's tables of generations and
    ratings, and the run's four plots, one point per generation in the
    ratings by generation; no errors."""
    run = work / "train-brandub"
    generations = 2
    norn(binary, "train", "brandub", "--arch", "blocks=0,channels=4,value-hidden=8",
         "--games-per-generation", "2", "--sims", "8", "--batch-size", "16", "--steps", "2",
         "--threads", "1", "--generations", str(generations), "--eval-every", "1",
         "--eval-games", "2", "--out", str(run))
    page = work / "train-brandub.html"
    norn(binary, "view", str(run), "--out", str(page))
    browser.open(page.as_uri())
    charts = browser.evaluate("document.querySelectorAll('#charts svg').length")
    assert charts == 4, f"training page: {charts} charts"
    rows = browser.evaluate("document.querySelectorAll('#report table')[0].rows.length")
    assert rows == generations + 2, f"training page: {rows} rows in the generations' table"
    text = browser.evaluate("document.body.textContent")
    assert "Ratings" in text and "checkpoint-2" in text, "training page: no ratings"
    errors = browser.errors()
    assert not errors, f"training page: the page logged errors: {errors}"


def tournament(binary, game, run):
    """Plays a small tournament of random agents into `run`; False if the
    game has no competing sides to hold one."""
    done = subprocess.run(
        [binary, "tournament", game, "--agents", "random", "random",
         "--games", str(TOURNAMENT_GAMES), "--threads", "1", "--out", str(run)],
        capture_output=True, text=True,
    )
    if done.returncode != 0 and "cooperative" in done.stderr:
        return False
    if done.returncode != 0:
        raise SystemExit(f"norn tournament {game} failed:\n{done.stderr}")
    return True


def check_watch(browser, binary, run, work):
    """`norn view --watch` on a run whose log grows: the open page reloads
    itself and lists the new games; Ctrl-C stops the server."""
    watched = work / "watched"
    shutil.copytree(run, watched)
    lines = (run / "games.jsonl").read_text().splitlines(keepends=True)
    half = len(lines) // 2
    (watched / "games.jsonl").write_text("".join(lines[:half]))
    server = subprocess.Popen([binary, "view", str(watched), "--watch", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline().split()
        assert first[:1] == ["serving"] and first[1].startswith("http://127.0.0.1:"), first
        browser.open(first[1])
        rows = "document.querySelectorAll('#game-list tr[data-index]').length"
        browser.wait_for(f"{rows} === {half}")
        with open(watched / "games.jsonl", "a") as log:
            log.write("".join(lines[half:]))
        browser.wait_for(f"{rows} === {len(lines)}", timeout=30)
        assert not browser.errors(), browser.errors()
    finally:
        server.send_signal(signal.SIGINT)
        status = server.wait(timeout=10)
    assert status == 0, f"the server stopped with status {status}: {server.stderr.read()}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("norn")
    parser.add_argument("work", type=pathlib.Path)
    parser.add_argument("--screenshots", type=pathlib.Path)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    watched = False
    with cdp.Browser() as browser:
        check_train_page(browser, args.norn, args.work)
        print("the page of a training run checked in the browser")
        for game in game_names(args.norn):
            run = args.work / game
            page = args.work / f"{game}.html"
            if not tournament(args.norn, game, run):
                policies = ["--policy", "random"]
                if game in WINNING_POLICIES:
                    policies += ["--policy", WINNING_POLICIES[game]]
                norn(args.norn, "winrate", game, *policies, "--deals", "20", "--out", str(run))
                norn(args.norn, "view", str(run), "--out", str(page))
                check_winrate_page(browser, page, game, run)
                if args.screenshots and game in DEALS:
                    screenshot_deal(browser, args.norn, game, args.work, args.screenshots / f"{game}.png")
                print(f"{game}: the page of a win-rate run and its replayed deals checked in the browser")
                continue
            norn(args.norn, "view", str(run), "--out", str(page))
            shot = args.screenshots / f"{game}.png" if args.screenshots else None
            check_page(browser, page, args.norn, game, run / "games.jsonl", shot)
            print(f"{game}: {TOURNAMENT_GAMES} games checked in the browser")
            if not watched:
                check_watch(browser, args.norn, run, args.work)
                print(f"{game}: the watched page took the games added to its log")
                watched = True
    return 0


if __name__ == "__main__":
    sys.exit(main())
