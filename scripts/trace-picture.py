#!/usr/bin/env python3
"""Draws a Chrome trace-event JSON file (the C library's timeline) as a
PNG, the way a person sees it in a trace viewer: catapult's trace viewer
(the viewer behind chrome://tracing) made into one HTML page by its
`trace2html`, opened in headless Chromium, and captured once the import is
over. Perfetto's UI is a web application fetched from ui.perfetto.dev; this
draws without the network.

usage: trace-picture.py TRACE.json OUT.png --catapult DIR [--select X,Y]
                        [--size WxH]

  --catapult DIR  a checkout of github.com/catapult-project/catapult (its
                  tracing/ and third_party/ folders are what is read)
  --select X,Y    click the page at X,Y (pixels) before the capture, to
                  show that slice's fields in the viewer's lower panel
  --size WxH      the browser window (default 1600x900)

Needs `chromium` (Debian package) and the `websocket-client` pip package
(Chromium's DevTools protocol). docs/iree-run-trace.png is this
script's picture of an `iree-run-module` run (docs/SIMULATOR.md,
"Timeline", says the command).
"""
import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

# How long the viewer may take to import a trace before we give up.
IMPORT_TIMEOUT_S = 300
# How long Chromium may take to open its DevTools endpoint.
BROWSER_START_TIMEOUT_S = 30


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DevTools:
    """One page of a headless Chromium, driven over its DevTools socket."""

    def __init__(self, websocket_url):
        import websocket  # websocket-client

        self.ws = websocket.create_connection(websocket_url, timeout=IMPORT_TIMEOUT_S)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    sys.exit(f"trace-picture: {method}: {message['error']}")
                return message["result"]


def page_socket(port):
    deadline = time.time() + BROWSER_START_TIMEOUT_S
    while time.time() < deadline:
        try:
            targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json"))
            pages = [t for t in targets if t["type"] == "page"]
            if pages:
                return pages[0]["webSocketDebuggerUrl"]
        except OSError:
            pass
        time.sleep(0.3)
    sys.exit("trace-picture: chromium did not open its DevTools port")


def import_done(page):
    """True once the viewer shows its timeline and no import overlay."""
    state = page.call(
        "Runtime.evaluate",
        expression="""(() => {
          const overlay = document.querySelector('tr-ui-b-overlay');
          const view = document.querySelector('tr-ui-timeline-view');
          return !!view && !(overlay && overlay.visible);
        })()""",
        returnByValue=True,
    )
    return state["result"]["value"] is True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace")
    parser.add_argument("out")
    parser.add_argument("--catapult", required=True)
    parser.add_argument("--select")
    parser.add_argument("--size", default="1600x900")
    args = parser.parse_args()
    if shutil.which("chromium") is None:
        sys.exit("trace-picture: needs chromium (Debian package chromium)")
    trace2html = os.path.join(args.catapult, "tracing", "bin", "trace2html")
    if not os.path.isfile(trace2html):
        sys.exit(f"trace-picture: no {trace2html}: --catapult names a catapult checkout")
    width, height = (int(v) for v in args.size.split("x"))
    with tempfile.TemporaryDirectory() as scratch:
        html = os.path.join(scratch, "trace.html")
        subprocess.run(
            [sys.executable, trace2html, os.path.abspath(args.trace), "--output", html],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        port = free_port()
        browser = subprocess.Popen(
            [
                "chromium",
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--remote-debugging-port={port}",
                f"--user-data-dir={os.path.join(scratch, 'profile')}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            page = DevTools(page_socket(port))
            page.call("Page.enable")
            page.call("Page.navigate", url="file://" + html)
            deadline = time.time() + IMPORT_TIMEOUT_S
            while not import_done(page):
                if time.time() > deadline:
                    sys.exit("trace-picture: the viewer did not finish importing the trace")
                time.sleep(1)
            if args.select:
                x, y = (int(v) for v in args.select.split(","))
                for kind in ("mousePressed", "mouseReleased"):
                    page.call(
                        "Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1
                    )
            # The viewer draws its tracks (and the selection's panel) on
            # animation frames after the import ends.
            time.sleep(2)
            shot = page.call("Page.captureScreenshot", format="png")
        finally:
            browser.kill()
            browser.wait()
    with open(args.out, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


if __name__ == "__main__":
    main()
