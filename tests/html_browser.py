#!/usr/bin/env python3
"""One headless chromium for tests/html.sh's page loads, driven through the DevTools protocol
on a pipe (--remote-debugging-pipe), with nothing beyond Python's standard library. A chromium
started for each page costs seconds; here the pages open one after another in one window of
the one browser, each a new document with the room that a chromium started alone with
--window-size W,H gives it.

Requests on stdin, one a line, tab-separated; one answer line each on stdout, "ok" or
"fail<tab>WHY":
  dump URL W,H OUT   the page's summary element (#ts-test) once the page has loaded, as
                     --dump-dom writes it in the page's DOM (what html_check.py reads of it)
  shot URL W,H OUT   a PNG of the page once it has loaded, as --screenshot makes it (the page
                     then given the window's whole size)
  pdf  URL W,H OUT   the page printed to PDF, as --no-pdf-header-footer --print-to-pdf
Each request has LIMIT seconds (150, as html.sh gave each chromium of its own); a browser
that dies or does not answer is started again for the next request. The browser goes when
stdin ends.

usage: html_browser.py CHROMIUM FLAG...   (the flags of a chromium started for one page)"""
import base64
import fcntl
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

LIMIT = 150


class Browser:
    def __init__(self, argv):
        # fd 3: what chromium reads (our commands), fd 4: what it writes (answers, events)
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()

        def child():  # (by way of fds above any that 3 and 4 could clobber; the pipes' own
            # fds are not inherited, as Python makes them)
            a = fcntl.fcntl(to_r, fcntl.F_DUPFD_CLOEXEC, 10)
            b = fcntl.fcntl(from_w, fcntl.F_DUPFD_CLOEXEC, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(argv + ["--remote-debugging-pipe", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, close_fds=False, preexec_fn=child)
        os.close(to_r)
        os.close(from_w)
        self.w, self.r = to_w, from_r
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.tab = None  # (target, session, its window or None)

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except Exception:
            pass
        for fd in (self.w, self.r):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def _read(self, deadline):
        """One message, or TimeoutError at the deadline, EOFError if the browser went."""
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([self.r], [], [], left)
            if ready:
                chunk = os.read(self.r, 1 << 20)
                if not chunk:
                    raise EOFError
                self.buf += chunk
        msg, _, self.buf = self.buf.partition(b"\0")
        return json.loads(msg)

    def send(self, method, params=None, session=None, timeout=LIMIT, deadline=None):
        """A command's result (RuntimeError: the browser's error); events on the way are kept."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            data = data[os.write(self.w, data):]
        deadline = deadline or time.monotonic() + timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error'].get('message')}")
                return m.get("result", {})
            self.events.append(m)

    def loaded(self, session, url, deadline):
        """url navigated to in the tab and loaded: its load event (that of this navigation)."""
        nav = self.send("Page.navigate", {"url": url}, session=session, deadline=deadline)
        if nav.get("errorText"):
            raise RuntimeError(f"{url}: {nav['errorText']}")
        while True:
            for i, m in enumerate(self.events):
                p = m.get("params", {})
                if m.get("sessionId") == session and m.get("method") == "Page.lifecycleEvent" and \
                        p.get("name") == "load" and p.get("loaderId") == nav.get("loaderId"):
                    del self.events[:i + 1]
                    return
            self.events.append(self._read(deadline))

    def evaluate(self, expression, session, deadline):
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                      session=session, deadline=deadline)
        return r["result"]["value"]

    def open_tab(self, deadline):
        """The window the pages open in, one after another."""
        target = self.send("Target.createTarget", {"url": "about:blank", "newWindow": True},
                           deadline=deadline)["targetId"]
        s = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                      deadline=deadline)["sessionId"]
        self.send("Page.enable", session=s, deadline=deadline)
        self.send("Page.setLifecycleEventsEnabled", {"enabled": True}, session=s, deadline=deadline)
        try:
            win = self.send("Browser.getWindowForTarget", {"targetId": target},
                            deadline=deadline)["windowId"]
        except RuntimeError:  # a headless shell has no windows: the room is emulated
            win = None
        self.tab = (target, s, win)

    def page(self, what, url, size, out, bars):
        """bars: what of its size a window of chromium started alone keeps from a page."""
        w, h = (int(v) for v in size.split(","))
        deadline = time.monotonic() + LIMIT
        self.events = []
        if self.tab is None:
            self.open_tab(deadline)
        target, s, win = self.tab
        try:
            # A new document every time (a page whose URL differs from the last one's only in
            # its fragment would not load again), with the room of a window of W x H of
            # chromium started alone: this window made that much larger than the room it gives
            # a blank page.
            self.loaded(s, "about:blank", deadline)
            room = [w - bars[0], h - bars[1]]
            if win is None:
                self.send("Emulation.setDeviceMetricsOverride", {
                    "width": room[0], "height": room[1], "deviceScaleFactor": 1, "mobile": False},
                    session=s, deadline=deadline)
            else:
                self.send("Emulation.clearDeviceMetricsOverride", session=s, deadline=deadline)
                for _ in range(3):
                    got = self.evaluate("[innerWidth, innerHeight]", s, deadline)
                    if got == room:
                        break
                    b = self.send("Browser.getWindowBounds", {"windowId": win},
                                  deadline=deadline)["bounds"]
                    self.send("Browser.setWindowBounds", {"windowId": win, "bounds": {
                        "width": b["width"] + room[0] - got[0],
                        "height": b["height"] + room[1] - got[1]}}, deadline=deadline)
                    self.loaded(s, "about:blank", deadline)
            self.loaded(s, url, deadline)
            got = self.evaluate("[innerWidth, innerHeight]", s, deadline)
            if got != room:
                raise RuntimeError(f"the page had {got[0]}x{got[1]} of room, not the "
                                   f"{room[0]}x{room[1]} of a chromium's window of {w}x{h}")
            if what == "dump":
                ev = "(document.getElementById('ts-test') || {outerHTML: ''}).outerHTML"
                data = (self.evaluate(ev, s, deadline) + "\n").encode()
            elif what == "shot":  # as --screenshot: the page given the window's whole size
                self.send("Emulation.setDeviceMetricsOverride", {
                    "width": w, "height": h, "deviceScaleFactor": 1, "mobile": False},
                    session=s, deadline=deadline)
                data = base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"},
                                                  session=s, deadline=deadline)["data"])
            elif what == "pdf":
                data = base64.b64decode(self.send("Page.printToPDF", {"displayHeaderFooter": False},
                                                  session=s, deadline=deadline)["data"])
            else:
                raise RuntimeError(f"unknown request {what}")
            with open(out, "wb") as f:
                f.write(data)
        except RuntimeError:  # (the browser answers: a new window for the next page)
            self.tab = None
            self.send("Target.closeTarget", {"targetId": target}, timeout=30)
            raise


def calibrate(argv):
    """What of its size (--window-size W,H) a window of chromium started alone, as for one page,
    keeps from the page, width and height (its bars): one such start, on a page that says what
    room it has as its script runs, as the exported page's script does."""
    m = [re.fullmatch(r"--window-size=(\d+),(\d+)", a) for a in argv]
    size = [(int(x.group(1)), int(x.group(2))) for x in m if x]
    if not size:
        raise RuntimeError("no --window-size=W,H among the flags")
    d = tempfile.mkdtemp()
    try:
        page = os.path.join(d, "room.html")
        with open(page, "w") as f:
            f.write("<!doctype html><pre id=room></pre><script>document.getElementById('room')"
                    ".textContent = innerWidth + ',' + innerHeight;</script>\n")
        out = subprocess.run(argv + ["--dump-dom", "file://" + page], capture_output=True,
                             text=True, timeout=LIMIT).stdout
        r = re.search(r'<pre id="room">(\d+),(\d+)</pre>', out)
        if not r:
            raise RuntimeError(f"chromium did not say what room a page has: {out[-300:]!r}")
        bars = size[-1][0] - int(r.group(1)), size[-1][1] - int(r.group(2))
        if not all(0 <= b < n / 2 for b, n in zip(bars, size[-1])):
            raise RuntimeError(f"a window of {size[-1]} gave a page the room {r.group(1, 2)}")
        return bars
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    argv = sys.argv[1:]
    if not argv:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    # The browser's own profile, beside the one a chromium started alone uses (the net log's
    # runs): two chromiums on one profile would be one.
    session = [a + "-session" if a.startswith("--user-data-dir=") else a for a in argv]
    b = bars = None
    for line in sys.stdin:
        parts = line.rstrip("\n").split("\t")
        try:
            if bars is None:
                bars = calibrate(argv)
            if b is None:
                b = Browser(session)
            b.page(*parts, bars=bars)
            answer = "ok"
        except Exception as e:  # (whatever it is, html.sh gets its answer line)
            why = {TimeoutError: f"no answer in {LIMIT} s", EOFError: "the browser went"}
            answer = f"fail\t{why.get(type(e), str(e)) or type(e).__name__}"
            if not isinstance(e, RuntimeError) and b is not None:  # (RuntimeError: the page's)
                b.close()  # started again for the next request
                b = None
        print(answer.replace("\n", " "), flush=True)
    if b is not None:
        b.close()


if __name__ == "__main__":
    main()
