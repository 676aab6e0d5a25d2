"""A small driver of headless Chromium through the Chrome DevTools protocol.

Chromium is started with ``--remote-debugging-pipe``: it reads protocol
commands from its file descriptor 3 and writes replies and events to its
file descriptor 4, each message a JSON object followed by a NUL byte. That
needs no WebSocket client, so this driver uses the standard library only.
"""

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time

# The flags of a headless run on a machine with no network: without the
# background-networking ones, Chromium keeps trying to reach its services.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--remote-debugging-pipe",
]


class BrowserError(Exception):
    """A command the browser refused, or a wait that timed out."""


class Browser:
    """One Chromium process with one page, driven over the debugging pipe."""

    def __init__(self, executable="chromium", width=1280, height=900):
        path = shutil.which(executable) or executable
        self.profile = tempfile.mkdtemp(prefix="norn-chromium-")
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()

        def child_pipes():
            # The protocol's descriptors are 3 (commands) and 4 (replies).
            # Copies first, since either end may already be 3 or 4, and
            # dup2 onto itself would leave it closed on exec.
            commands, replies = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(commands, 3)
            os.dup2(replies, 4)

        self.process = subprocess.Popen(
            [path, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=None if os.environ.get("CDP_DEBUG") else subprocess.DEVNULL,
            # Descriptors made by Python are not inherited (PEP 446): only
            # the two that child_pipes places at 3 and 4 reach the browser,
            # and closing the others would close those too.
            close_fds=False,
            preexec_fn=child_pipes,
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        self.events = []
        self.session = None
        targets = self.command("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        attached = self.command(
            "Target.attachToTarget", targetId=page["targetId"], flatten=True
        )
        self.session = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.command(f"{domain}.enable")
        self.command(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )

    def close(self):
        try:
            self.command("Browser.close", on_page=False)
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def command(self, method, on_page=True, timeout=30, **params):
        """Sends one command and returns its result, keeping the events
        that arrive meanwhile in ``self.events``."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if on_page and self.session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def _read(self, deadline):
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise BrowserError("no reply from the browser in time")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise BrowserError("the browser closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def open(self, url, timeout=30):
        """Loads ``url`` and waits for its load event."""
        self.events.clear()
        self.command("Page.navigate", url=url)
        self.wait_for("document.readyState === 'complete'", timeout=timeout)

    def evaluate(self, expression):
        """The value of a JavaScript expression (awaited if a promise)."""
        result = self.command(
            "Runtime.evaluate",
            expression=expression,
            returnByValue=True,
            awaitPromise=True,
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details["text"]
            raise BrowserError(f"{expression}: {text}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout=10):
        """Waits until a JavaScript expression is true."""
        deadline = time.monotonic() + timeout
        while not self.evaluate(f"Boolean({expression})"):
            if time.monotonic() > deadline:
                raise BrowserError(f"still false after {timeout} s: {expression}")
            time.sleep(0.05)

    def errors(self):
        """The page's console errors and uncaught exceptions so far."""
        found = []
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                found.append(details.get("exception", {}).get("description") or details["text"])
            elif method == "Runtime.consoleAPICalled" and params["type"] == "error":
                found.append(" ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append(params["entry"]["text"])
        return found

    def screenshot(self, path, selector=None):
        """Writes a PNG of the viewport, or of the element ``selector``
        names (which must lie within the viewport)."""
        params = {"format": "png"}
        if selector:
            box = self.evaluate(
                f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                ".getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()"
            )
            params["clip"] = dict(zip(("x", "y", "width", "height"), box), scale=1)
        data = self.command("Page.captureScreenshot", **params)["data"]
        with open(path, "wb") as png:
            png.write(base64.b64decode(data))
