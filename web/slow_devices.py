"""The pages on cheap, slow devices: an old tablet's control page and a TV stick's
scoreboard, measured in the system Chromium slowed down through its DevTools protocol
(the CPU 6 times slower, the network 400 kb/s with 150 ms of latency).

    .venv/bin/python -m web.slow_devices [--url http://127.0.0.1:8000] [--states 500]

Run it against a server of the appliance (``dicetray serve --camera sim --demo``); it
starts games there, so give it a server with a throwaway data folder. It prints, as
JSON: each page's first load (bytes over the network, milliseconds to the first score
shown), then for each family, with the scoreboard and the control page open, the
``--states`` states the game goes through (its example game in ``docs/`` played forward
and undone back, action by action, by POSTs): per state the milliseconds from the POST
to the page's DOM showing it and of the page's own script handling it, and the JS heap,
DOM nodes and event listeners after so many states (a page that grows with each state
runs out of memory on a TV stick over an evening). A measurement to read, not a test:
the numbers depend on the host.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
import urllib.request
from pathlib import Path
from typing import Any

from web.live import launch_chromium

DOCS = Path(__file__).resolve().parents[1] / "docs"
CPU_SLOWDOWN = 6
# 400 kb/s each way, in bytes a second, and 150 ms for each round trip.
SLOW_NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 400_000 / 8,
                "uploadThroughput": 400_000 / 8}
FAMILIES = ["sum_chicago", "ten_thousand", "pub_chicago", "card_chicago"]

# Wraps the pages' "state" listeners: when each state came, how long the page's script
# took over it, and when the next frame was drawn after it. Also notes the first moment a
# score is on screen.
PROBE = """
window.__probe = { states: [], firstScore: null, shown: -1 };
const addListener = EventSource.prototype.addEventListener;
EventSource.prototype.addEventListener = function (type, listener, options) {
  if (type !== "state") return addListener.call(this, type, listener, options);
  return addListener.call(this, type, function (ev) {
    const start = performance.now();
    listener.call(this, ev);
    const scripted = performance.now() - start;
    const doneAt = Date.now();
    const revision = JSON.parse(ev.data).revision;
    window.__probe.shown = Math.max(window.__probe.shown, revision);
    requestAnimationFrame(() => window.__probe.states.push(
      { revision, scripted, doneAt, framed: performance.now() - start }));
  }, options);
};
const SCORE = "#board .panel td, #status b, table.list td";
new MutationObserver((changes, observer) => {
  if (window.__probe.firstScore === null && document.querySelector(SCORE)) {
    window.__probe.firstScore = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""


def _post(url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url + "/api/" + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as resp:
        answer: dict[str, Any] = json.loads(resp.read())
    return answer


class SlowPage:
    """A page opened as on a slow device, with what it downloads counted."""

    def __init__(self, context: Any, url: str) -> None:
        self.page = context.new_page()
        self.page.add_init_script(PROBE)
        self.cdp = context.new_cdp_session(self.page)
        self.bytes = 0.0
        self.cdp.on("Network.loadingFinished", self._count)
        for method, params in [("Network.enable", {}), ("Performance.enable", {}),
                               ("Network.emulateNetworkConditions", SLOW_NETWORK),
                               ("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})]:
            self.cdp.send(method, params)
        self.page.goto(url, wait_until="load")

    def _count(self, event: dict[str, Any]) -> None:
        self.bytes += float(event.get("encodedDataLength", 0))

    def first_load(self) -> dict[str, Any]:
        """Bytes downloaded and ms from navigation to the first score shown."""
        self.page.wait_for_function("window.__probe.firstScore !== null", timeout=60_000)
        return {"bytes": int(self.bytes),
                "first_score_ms": round(self.page.evaluate("window.__probe.firstScore"))}

    def wait_for(self, revision: int) -> None:
        self.page.wait_for_function("(r) => window.__probe.shown >= r", arg=revision,
                                    polling=25, timeout=60_000)

    def metrics(self) -> dict[str, float]:
        """After a garbage collection: the heap in MB, DOM nodes, event listeners, and
        the script's total seconds so far."""
        self.cdp.send("HeapProfiler.collectGarbage")
        got = {m["name"]: m["value"] for m in self.cdp.send("Performance.getMetrics")["metrics"]}
        return {"heap_mb": round(got["JSHeapUsedSize"] / 1e6, 2), "nodes": got["Nodes"],
                "listeners": got["JSEventListeners"], "script_s": round(got["ScriptDuration"], 2)}

    def states_since(self, count: int) -> list[dict[str, Any]]:
        states: list[dict[str, Any]] = self.page.evaluate("window.__probe.states")
        return states[count:]


def _spread(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {}
    return {"median": round(statistics.median(ordered), 1),
            "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 1),
            "max": round(ordered[-1], 1)}


def first_loads(browser: Any, url: str) -> dict[str, Any]:
    """Each page opened afresh on a slow device: bytes and ms to the first score."""
    out = {}
    for path in ["/", "/control", "/history"]:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        out[path] = SlowPage(context, url + path).first_load()
        context.close()
    return out


def _game_steps(family: str) -> list[dict[str, Any] | None]:
    """The example game's actions forward, then as many undos (None) back."""
    actions: list[dict[str, Any] | None] = json.loads((DOCS / f"{family}.json").read_text())["actions"]
    return actions + [None] * len(actions)


def play_family(browser: Any, url: str, family: str, states: int) -> dict[str, Any]:
    """``states`` states of ``family`` on the scoreboard and the control page."""
    game = json.loads((DOCS / f"{family}.json").read_text())
    _post(url, "games", {"family": family, "players": game["players"], "options": game["options"]})
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    pages = {"scoreboard": SlowPage(context, url + "/"), "control": SlowPage(context, url + "/control")}
    for page in pages.values():
        page.first_load()
    before = {name: page.metrics() for name, page in pages.items()}
    counted = {name: len(page.states_since(0)) for name, page in pages.items()}
    sent: dict[int, float] = {}
    steps = _game_steps(family)
    growth: dict[str, list[dict[str, float]]] = {name: [] for name in pages}
    for n in range(states):
        step = steps[n % len(steps)]
        posted_at = time.time() * 1000
        answer = _post(url, "action" if step is not None else "undo", step or {})
        sent[answer["revision"]] = posted_at
        for page in pages.values():
            page.wait_for(answer["revision"])
        if (n + 1) % (states // 4 or 1) == 0:
            for name, page in pages.items():
                growth[name].append(page.metrics())
    out: dict[str, Any] = {}
    for name, page in pages.items():
        seen = [s for s in page.states_since(counted[name]) if s["revision"] in sent]
        out[name] = {
            "states": len(seen),
            "post_to_dom_ms": _spread([s["doneAt"] - sent[s["revision"]] for s in seen]),
            "script_ms": _spread([s["scripted"] for s in seen]),
            "to_next_frame_ms": _spread([s["framed"] for s in seen]),
            "before": before[name], "after_each_quarter": growth[name],
        }
    context.close()
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m web.slow_devices",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--states", type=int, default=500)
    parser.add_argument("--family", choices=FAMILIES, action="append")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch_chromium(p)
        report: dict[str, Any] = {"first_load": first_loads(browser, args.url)}
        for family in args.family or FAMILIES:
            report[family] = play_family(browser, args.url, family, args.states)
            print(json.dumps({family: report[family]}), flush=True)
        browser.close()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
