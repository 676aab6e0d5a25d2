"""How long a page of `norn view` takes to open in headless Chromium, and
how much memory it holds: the figures of bench-results/view.md.

Usage: python3 scripts/view_bench.py PAGE.html [PAGE.html ...]

For each page: its size on disk, the time from navigation to a listed game
list (the median of five loads), the time to open the first game and step
to its last ply, and the JavaScript heap in use once that game is open.
"""

import pathlib
import statistics
import sys
import time

import cdp

LOADS = 5
ROWS = "document.querySelectorAll('#game-list tr[data-index]').length > 0"


def open_seconds(browser, url):
    start = time.monotonic()
    browser.command("Page.navigate", url=url)
    browser.wait_for(ROWS, timeout=60)
    return time.monotonic() - start


def main(pages):
    print("| page | size (MB) | games | open (s) | first game to its last ply (s) | JS heap (MB) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    with cdp.Browser() as browser:
        browser.command("Performance.enable")
        for page in map(pathlib.Path, pages):
            url = page.resolve().as_uri()
            loads = [open_seconds(browser, url) for _ in range(LOADS)]
            games = browser.evaluate("document.querySelectorAll('#game-list tr[data-index]').length")
            start = time.monotonic()
            browser.evaluate("document.querySelector('#game-list tr[data-index]').click()")
            browser.wait_for("document.getElementById('position-text').value !== ''", timeout=60)
            browser.evaluate("document.getElementById('last').click()")
            browser.wait_for("document.getElementById('next').disabled", timeout=60)
            stepped = time.monotonic() - start
            metrics = browser.command("Performance.getMetrics")["metrics"]
            heap = next(m["value"] for m in metrics if m["name"] == "JSHeapUsedSize")
            print(
                f"| {page.name} | {page.stat().st_size / 1e6:.1f} | {games} "
                f"| {statistics.median(loads):.2f} | {stepped:.2f} | {heap / 1e6:.1f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
