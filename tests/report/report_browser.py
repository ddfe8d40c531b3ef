"""Drive a real headless Chromium over the DevTools protocol, standard library only.

Chromium is started with ``--remote-debugging-pipe``: it reads DevTools commands from file
descriptor 3 and writes replies and events to descriptor 4, each message a JSON object ended by
a NUL byte (no websocket needed). A page is loaded with the Runtime, Log, Network and Page
domains enabled, so every console message, uncaught exception, browser log entry (failed
resource loads included) and network request is recorded; then the test evaluates JavaScript
in the page, takes a full-page screenshot and prints the page to PDF.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    pass


@dataclass
class PageLoad:
    url: str
    console: list[dict[str, Any]] = field(default_factory=list)  # type, text
    exceptions: list[str] = field(default_factory=list)
    log_entries: list[dict[str, Any]] = field(default_factory=list)  # level, text, url
    requests: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[str]:
        """Everything that counts as a console error: console.error/assert calls, uncaught
        exceptions, and browser log entries of level error (e.g. a resource that failed)."""
        out = [
            f"console.{c['type']}: {c['text']}"
            for c in self.console
            if c["type"] in ("error", "assert")
        ]
        out += [f"exception: {e}" for e in self.exceptions]
        out += [
            f"log {e['level']}: {e['text']} {e.get('url', '')}"
            for e in self.log_entries
            if e["level"] == "error"
        ]
        out += [f"request failed: {u}" for u in self.failed_requests]
        return out

    @property
    def warnings(self) -> list[str]:
        out = [f"console.warn: {c['text']}" for c in self.console if c["type"] == "warning"]
        out += [f"log warning: {e['text']}" for e in self.log_entries if e["level"] == "warning"]
        return out


class Chromium:
    """One headless Chromium with one page (a tab) attached in flat session mode."""

    def __init__(self, binary: str, width: int = 1280, height: int = 900, timeout_s: float = 30.0):
        self.width = width
        self.height = height
        self.timeout_s = timeout_s
        self._profile = tempfile.mkdtemp(prefix="overprov-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def child_fds() -> None:  # runs in the child before exec
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen(
            [
                binary,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--no-default-browser-check",
                "--hide-scrollbars",
                "--mute-audio",
                "--remote-debugging-pipe",
                f"--user-data-dir={self._profile}",
                "about:blank",
            ],
            pass_fds=(3, 4),
            preexec_fn=child_fds,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.stderr,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buf = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []
        self.session: str | None = None
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        for domain in ("Runtime", "Log", "Network", "Page"):
            self.call(f"{domain}.enable")
        self._metrics(height)

    # -- protocol
    def _send(self, method: str, params: dict[str, Any] | None, session: str | None) -> int:
        self._next_id += 1
        msg: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            n = os.write(self._to_browser, data)
            data = data[n:]
        return self._next_id

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("timed out waiting for Chromium")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise BrowserError(f"Chromium closed the pipe: {self.stderr_text()[-2000:]}")
            self._buf += chunk
        msg, _, self._buf = self._buf.partition(b"\0")
        return json.loads(msg)

    def call(
        self, method: str, params: dict[str, Any] | None = None, *, browser: bool = False
    ) -> Any:
        """Send a command (to the page's session unless ``browser``) and wait for its reply;
        events arriving meanwhile are queued."""
        mid = self._send(method, params, None if browser else self.session)
        deadline = time.monotonic() + self.timeout_s
        while True:
            msg = self._read(deadline)
            if msg.get("id") == mid:
                if "error" in msg:
                    raise BrowserError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self._events.append(msg)

    def _wait_event(self, method: str, deadline: float) -> dict[str, Any]:
        for k, ev in enumerate(self._events):
            if ev["method"] == method and ev.get("sessionId") == self.session:
                return self._events.pop(k)
        while True:
            msg = self._read(deadline)
            if msg.get("method") == method and msg.get("sessionId") == self.session:
                return msg
            if "method" in msg:
                self._events.append(msg)

    def _metrics(self, height: int) -> None:
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": self.width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )

    # -- page
    def load(self, url: str, settle_s: float = 0.5) -> PageLoad:
        self._events.clear()
        result = self.call("Page.navigate", {"url": url})
        if result.get("errorText"):
            raise BrowserError(f"navigation to {url} failed: {result['errorText']}")
        deadline = time.monotonic() + self.timeout_s
        self._wait_event("Page.loadEventFired", deadline)
        # let late events (image decode errors, console calls after load) arrive
        end = time.monotonic() + settle_s
        while time.monotonic() < end:
            try:
                self._events.append(self._read(end))
            except BrowserError:
                break
        page = PageLoad(url)
        for ev in self._events:
            m, p = ev["method"], ev.get("params", {})
            if m == "Runtime.consoleAPICalled":
                text = " ".join(
                    str(a.get("value", a.get("description", ""))) for a in p.get("args", [])
                )
                page.console.append({"type": p.get("type"), "text": text})
            elif m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                page.exceptions.append(
                    d.get("exception", {}).get("description") or d.get("text", "exception")
                )
            elif m == "Log.entryAdded":
                e = p.get("entry", {})
                page.log_entries.append(
                    {"level": e.get("level"), "text": e.get("text"), "url": e.get("url", "")}
                )
            elif m == "Network.requestWillBeSent":
                page.requests.append(p.get("request", {}).get("url", ""))
            elif m == "Network.loadingFailed":
                page.failed_requests.append(f"{p.get('errorText')} ({p.get('type')})")
        self._events.clear()
        return page

    def evaluate(self, expression: str) -> Any:
        res = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in res:
            raise BrowserError(f"evaluate failed: {res['exceptionDetails']}")
        return res["result"].get("value")

    def screenshot(self, path: Path, max_height: int = 16000) -> tuple[int, int]:
        """A full-page PNG (the viewport grown to the page's height, up to ``max_height``).
        ``optimizeForSpeed``: the same pixels, PNG-encoded with less compression (a larger
        file, about half of Chromium's CPU time for the capture)."""
        height = int(self.evaluate("document.documentElement.scrollHeight"))
        height = max(200, min(height, max_height))
        self._metrics(height)
        data = self.call(
            "Page.captureScreenshot",
            {"format": "png", "captureBeyondViewport": False, "optimizeForSpeed": True},
        )["data"]
        self._metrics(self.height)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return self.width, height

    def print_pdf(self, path: Path) -> None:
        """The page loaded last printed as Chromium's ``--print-to-pdf`` prints it (the print
        stylesheet and its @page size, backgrounds, no header or footer), into ``path``. The
        page as the checks left it (they read it, and add nothing to it) prints the same as the
        same page loaded afresh: their PDFs rendered by pdftoppm are pixel-identical."""
        data = self.call(
            "Page.printToPDF",
            {"displayHeaderFooter": False, "printBackground": True, "preferCSSPageSize": True},
        )["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))

    def dom(self) -> str:
        return str(self.evaluate("document.documentElement.outerHTML"))

    def stderr_text(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                try:
                    self._send("Browser.close", None, None)
                    self.proc.wait(timeout=10)
                except (OSError, subprocess.TimeoutExpired):
                    self.proc.kill()
                    self.proc.wait(timeout=10)
        finally:
            for fd in (self._to_browser, self._from_browser):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self.stderr.close()
            shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: Every pair of text boxes on the page that overlap: the line boxes of each HTML text node
#: (Range.getClientRects) and each SVG <text> of an inline figure (its bounding box), in page
#: coordinates, each cut to what the boxes around it show (text scrolled out of a table's or a
#: figure's scrolling box is not on screen). Boxes of the same node never count against each
#: other; two boxes overlap when they share more than ``tol`` px both across and down (glyph
#: boxes of neighbouring words touch; a label drawn over another covers several px). Returns
#: up to 50 pairs with their texts and where they meet.
TEXT_OVERLAPS_JS = r"""
(() => {
  const tol = 2;
  const boxes = [];
  const visible = el => {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden' || s.opacity === '0') return false;
    }
    return true;
  };
  const sx = window.scrollX, sy = window.scrollY;
  // what a box may show of its content: text scrolled out of a box that clips is not seen
  const clips = new Map();
  const clipOf = el => {
    if (!el || el.nodeType !== 1) return {l: -1e9, t: -1e9, r: 1e9, b: 1e9};
    if (clips.has(el)) return clips.get(el);
    let c = clipOf(el.parentElement);
    const s = getComputedStyle(el);
    if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
      const q = el.getBoundingClientRect();
      c = {l: Math.max(c.l, q.left), t: Math.max(c.t, q.top), r: Math.min(c.r, q.right),
           b: Math.min(c.b, q.bottom)};
    }
    clips.set(el, c);
    return c;
  };
  const seen = (q, el) => {
    const c = clipOf(el);
    const l = Math.max(q.left, c.l), t = Math.max(q.top, c.t);
    const r = Math.min(q.right, c.r), b = Math.min(q.bottom, c.b);
    return r - l >= 1 && b - t >= 1 ? {l: l + sx, t: t + sy, r: r + sx, b: b + sy} : null;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let id = 0;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    const parent = n.parentElement;
    if (!text || !parent || !visible(parent)) continue;
    if (parent.closest('svg')) continue;  // SVG text is measured per <text> below
    if (parent.closest('style, script, title')) continue;
    const r = document.createRange(); r.selectNodeContents(n);
    id += 1;
    for (const q of r.getClientRects()) {
      const v = seen(q, parent);
      if (v) boxes.push({id, text: text.slice(0, 60), ...v});
    }
  }
  for (const t of document.querySelectorAll('svg text')) {
    const text = t.textContent.trim();
    if (!text || !visible(t)) continue;
    const v = seen(t.getBoundingClientRect(), t.closest('svg').parentElement);
    if (!v) continue;
    id += 1;
    boxes.push({id, text: text.slice(0, 60), ...v, svg: true});
  }
  boxes.sort((a, b) => a.t - b.t);
  const out = [];
  for (let i = 0; i < boxes.length && out.length < 50; i++) {
    const a = boxes[i];
    for (let j = i + 1; j < boxes.length; j++) {
      const b = boxes[j];
      if (b.t >= a.b - tol) break;  // sorted by top: nothing further down can meet a
      if (a.id === b.id) continue;
      const w = Math.min(a.r, b.r) - Math.max(a.l, b.l);
      const h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
      if (w > tol && h > tol) {
        out.push({a: a.text, b: b.text, x: Math.round(Math.max(a.l, b.l)),
                  y: Math.round(Math.max(a.t, b.t)), w: Math.round(w), h: Math.round(h)});
      }
    }
  }
  return {boxes: boxes.length, svgBoxes: boxes.filter(b => b.svg).length, overlaps: out};
})()
"""
