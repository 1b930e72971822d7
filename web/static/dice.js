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
  // What the outlines show, said too: a screen reader heard a flagged die as any other.
  const label = (value ? `die showing ${value}` : "die not read") + (o.flagged ? ", to be checked" : "") +
    (o.corrected ? ", corrected" : "") + (o.cls === "aside" ? ", set aside" : "");
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

/** Names as said aloud, escaped: "Aino", "Aino and Bo", "Aino, Bo and Åsa". */
function namesSaid(names) {
  const shown = names.map(esc);
  return shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}` : shown.join("");
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

// A stream can die without a word: Wi-Fi that drops may leave the connection half open,
// and the browser then waits on it for good, the screen saying "live" over a frozen game.
// The server's keep-alives are comments, which a page cannot hear; so after QUIET_S with
// no state the page asks the table for its state itself. (The tests set it shorter.)
const QUIET_S = window.DICETRAY_QUIET_S || 20;
// How long that question may take before the table is taken to be out of reach.
const ASK_TIMEOUT_S = 5;

/** The table's state asked for outside the stream; null when no answer came in time. */
async function askState() {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), ASK_TIMEOUT_S * 1000);
  try {
    const resp = await fetch("/api/state", { cache: "no-store", signal: stop.signal });
    return resp.ok ? await resp.json() : null;
  } catch (err) {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Follow the live state over Server-Sent Events. The browser reconnects by itself after
 * an error; every event carries the whole state, so nothing else is needed.
 * onState's second argument is true for the first state of a (re)connection: the
 * server's current one, even when its revision is below the last seen (a server
 * started on another data folder counts anew).
 * A stream quiet for QUIET_S is checked: no answer from the table is said, and an
 * answer while the stream is not open, or a state the stream did not bring, means the
 * stream died; each time another is opened (it starts with the current state). The
 * device going offline is said at once.
 */
function followState(onState, onStatus) {
  let source = null;
  // The last state the stream brought, as text: compared whole, not by its revision, as
  // a change the storage could not keep (a full memory card) is told at the same revision.
  let seen = null;
  let live = false;         // the stream is open (as far as the browser knows)
  let quiet = null;
  const status = (ok) => { live = ok; if (onStatus) onStatus(ok); };
  const heard = () => {
    clearTimeout(quiet);
    quiet = setTimeout(check, QUIET_S * 1000);
  };
  async function check() {
    const state = await askState();
    if (state === null) status(false);
    // The table answers but the stream is not open, or brought no such state: a new one.
    if (state === null || !live || JSON.stringify(state) !== seen) connect();
    else heard();
  }
  function connect() {
    if (source) source.close();
    source = new EventSource("/api/events");
    let first = true;
    source.addEventListener("state", (ev) => {
      heard();
      const state = JSON.parse(ev.data);
      seen = JSON.stringify(state);
      const fresh = first;
      first = false;
      onState(state, fresh);
    });
    source.onopen = () => { first = true; heard(); status(true); };
    source.onerror = () => status(false);
    heard();
  }
  window.addEventListener("offline", () => status(false));
  // Back online, a stream opened afresh catches up at once (the old one may be dead).
  window.addEventListener("online", connect);
  connect();
}

/** Whether Sum Chicago's latest throw was a Tupla-Chicago miss whose second throw is
 * still to come (RULES.md §1): not once its player left, or a correction ended the turn. */
function secondThrowDue(game) {
  const roll = game.last_roll, next = game.next || {};
  return Boolean(roll && roll.counted === false && next.throw === 2 && next.player === roll.player);
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
