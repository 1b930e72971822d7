// Dice drawn as SVG: big, high-contrast pips that read from a sofa.
"use strict";

const PIPS = {
  1: [[50, 50]],
  2: [[27, 27], [73, 73]],
  3: [[27, 27], [50, 50], [73, 73]],
  4: [[27, 27], [73, 27], [27, 73], [73, 73]],
  5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[27, 25], [27, 50], [27, 75], [73, 25], [73, 50], [73, 75]],
};

/** SVG markup of one die; value null draws a question mark. */
function dieSVG(value, opts) {
  const o = opts || {};
  const cls = ["die"];
  if (o.flagged) cls.push("flagged");
  if (o.corrected) cls.push("corrected");
  if (o.cls) cls.push(o.cls);
  let inner = "";
  if (PIPS[value]) {
    for (const [x, y] of PIPS[value]) inner += `<circle cx="${x}" cy="${y}" r="9.5" class="pip"/>`;
  } else {
    inner = `<text x="50" y="68" text-anchor="middle" class="unknown">?</text>`;
  }
  const label = value ? `die showing ${value}` : "die not read";
  return `<svg class="${cls.join(" ")}" viewBox="0 0 100 100" role="img" aria-label="${label}"` +
    ` data-value="${value == null ? "" : value}">` +
    `<rect x="3" y="3" width="94" height="94" rx="16" class="face"/>${inner}</svg>`;
}

/** A chance (0..1) as the pages print it: one decimal below 10 %. */
function pct(p) {
  if (p == null) return "";
  const v = 100 * p;
  // A no-break space: a narrow screen wraps before the number, never between it and "%".
  return (v < 10 ? v.toFixed(1) : v.toFixed(0)) + "\u00a0%";
}

/** "1 lid", "2 lids": a count with its word, one or many. */
function plural(n, one, many) { return `${n} ${n === 1 ? one : many || one + "s"}`; }

/** Pub Chicago: why a throw round has the rules' announcement, not the leader's (RULES.md
 *  decision); without it the room saw "high" where the leader had said "low". */
function defaultedNote(rnd) {
  return rnd.default_announcement
    ? `not announced: a correction ended ${rnd.leader}'s turn first, so the rules' default` : "";
}

/** Escape text for HTML. */
function esc(s) {
  return String(s == null ? "" : s).replace(/[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/**
 * Follow the live state over Server-Sent Events. The browser reconnects by itself,
 * sending Last-Event-ID; every event carries the whole state, so nothing else is needed.
 * onState's second argument is true for the first state of a (re)connection: the
 * server's current one, even when its revision is below the last seen (a server
 * started on another data folder counts anew).
 */
function followState(onState, onStatus) {
  const source = new EventSource("/api/events");
  let first = true;
  source.addEventListener("state", (ev) => {
    const fresh = first;
    first = false;
    onState(JSON.parse(ev.data), fresh);
  });
  source.onopen = () => { first = true; if (onStatus) onStatus(true); };
  source.onerror = () => onStatus && onStatus(false);
  return source;
}

/** The dice of the latest throw, wherever the family's state keeps them. */
function latestDice(state) {
  const g = state.game || {};
  const found = (g.last_roll && g.last_roll.dice) || (g.last_throw && g.last_throw.dice) ||
    (g.turn && Array.isArray(g.turn.throw) && g.turn.throw) ||
    (g.round && g.round.turn && g.round.turn.loose);
  if (found && found.length) return found;
  const r = state.reading;
  return r && r.status === "scored" ? r.dice.map((d) => d.value) : [];
}
