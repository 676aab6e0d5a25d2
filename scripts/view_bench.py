"""How long a page of `norn view` takes to open in headless Chromium, and
how much memory it holds: the figures of bench-results/view.md.

Usage: python3 scripts/view_bench.py PAGE.html [PAGE.html ...]

For each page: its size on disk, the time from navigation to the game list
shown with its first game open (the median of five loads), the time to step
that game to its last ply, and the JavaScript heap in use then.
"""

import pathlib
import statistics
import sys
import time

import cdp

LOADS = 5
# The page lists its games and opens the first by itself.
SHOWN = (
    "document.querySelectorAll('#game-list tr[data-index]').length > 0"
    " && document.getElementById('position-text').value !== ''"
)
LAST = "document.querySelector('#move-list li:last-child')?.classList.contains('current')"


def open_seconds(browser, url):
    start = time.monotonic()
    browser.command("Page.navigate", url=url)
    browser.wait_for(SHOWN, timeout=60)
    return time.monotonic() - start


def main(pages):
    print("| page | size (MB) | games | open (s) | to the last ply (s) | JS heap (MB) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    with cdp.Browser() as browser:
        browser.command("Performance.enable")
        for page in map(pathlib.Path, pages):
            url = page.resolve().as_uri()
            loads = [open_seconds(browser, url) for _ in range(LOADS)]
            games = browser.evaluate("document.getElementById('game-count').textContent")
            start = time.monotonic()
            browser.evaluate("document.getElementById('last').click()")
            browser.wait_for(LAST, timeout=60)
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
