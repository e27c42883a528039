#!/usr/bin/env python3
"""Drives headless Chromium through its DevTools protocol over --remote-debugging-pipe (the
standard library is enough: no WebSocket client, no open debugging port).

    studio-driver.py CHROMIUM URL STEPS.json

STEPS is a list run in order: {"eval": "js"} awaits the expression and records its value,
{"write": PATH, "text": "..."} replaces a file (atomically, by rename), {"read": PATH} records a
file's text, {"screenshot": PATH} writes a PNG of the page, {"key": KEY, "shift": "1"} types a
key as a person does (KeyboardEvent.key: "ArrowLeft", " ", "l", "L", "?"), {"signal": "STOP",
"pid": PID} sends a signal to a process (the studio: stopped, it stops answering). Prints {"results": [...], "errors": [...]}: errors are everything the
page logged as an error (exceptions, console.error, failed loads)."""
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile


class Browser:
    def __init__(self, chromium, profile):
        to_chromium_read, self.to_chromium = os.pipe()
        self.from_chromium, from_chromium_write = os.pipe()

        def wire():  # the pipe transport reads commands on fd 3 and writes replies on fd 4
            high_read, high_write = os.dup(to_chromium_read), os.dup(from_chromium_write)
            os.dup2(high_read, 3)
            os.dup2(high_write, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--remote-debugging-pipe", "--user-data-dir=" + profile, "--window-size=1280,800",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=wire, close_fds=False)
        os.close(to_chromium_read)
        os.close(from_chromium_write)
        self.buffer = b""
        self.next_id = 0
        self.errors = []
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_chromium, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.note(reply)

    def read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_chromium, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(line)

    def note(self, event):
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.errors.append("exception: " + details.get("exception", {}).get("description", details["text"]))
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            self.errors.append("console: " + " ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            self.errors.append("log: " + params["entry"]["text"] + " " + params["entry"].get("url", ""))

    def wait_for(self, method):
        while True:
            event = self.read()
            self.note(event)
            if event.get("method") == method:
                return event

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate",
                           {"expression": expression, "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")


NAMED_KEYS = {" ": ("Space", 32), "ArrowLeft": ("ArrowLeft", 37), "ArrowRight": ("ArrowRight", 39),
              "Home": ("Home", 36), "End": ("End", 35), "Escape": ("Escape", 27), "?": ("Slash", 191)}


def press(browser, key, shift):
    if key in NAMED_KEYS:
        code, virtual = NAMED_KEYS[key]
    else:
        code, virtual = "Key" + key.upper(), ord(key.upper())
    text = key if len(key) == 1 else ""
    event = {"key": key, "code": code, "windowsVirtualKeyCode": virtual, "modifiers": 8 if shift else 0}
    browser.send("Input.dispatchKeyEvent", {**event, "type": "keyDown" if text else "rawKeyDown", "text": text})
    browser.send("Input.dispatchKeyEvent", {**event, "type": "keyUp"})


def main():
    chromium, url, steps_file = sys.argv[1:4]
    with open(steps_file) as f:
        steps = json.load(f)
    signal.alarm(180)  # a hung browser fails the test instead of hanging it
    profile = tempfile.mkdtemp(prefix="kiln-studio-chromium-")
    browser = Browser(chromium, profile)
    results = []
    try:
        targets = browser.send("Target.getTargets", session=False)["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        browser.session = browser.send(
            "Target.attachToTarget", {"targetId": page["targetId"], "flatten": True}, session=False)["sessionId"]
        for domain in ("Runtime", "Log", "Page"):
            browser.send(domain + ".enable")
        browser.send("Emulation.setDeviceMetricsOverride",
                     {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
        browser.send("Page.navigate", {"url": url})
        browser.wait_for("Page.loadEventFired")
        for step in steps:
            if "eval" in step:
                results.append(browser.evaluate(step["eval"]))
            elif "write" in step:
                temporary = step["write"] + ".tmp"
                with open(temporary, "w") as f:
                    f.write(step["text"])
                os.replace(temporary, step["write"])
                results.append(None)
            elif "read" in step:
                with open(step["read"]) as f:
                    results.append(f.read())
            elif "key" in step:
                press(browser, step["key"], step.get("shift") == "1")
                results.append(None)
            elif "signal" in step:
                os.kill(int(step["pid"]), getattr(signal, "SIG" + step["signal"]))
                results.append(None)
            elif "screenshot" in step:
                shot = browser.send("Page.captureScreenshot", {"format": "png"})
                with open(step["screenshot"], "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
                results.append(None)
        try:
            browser.send("Browser.close", session=False)
        except RuntimeError:
            pass
    finally:
        try:
            browser.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            browser.process.kill()
        shutil.rmtree(profile, ignore_errors=True)
    print(json.dumps({"results": results, "errors": browser.errors}))


if __name__ == "__main__":
    main()
