// Scoreboard panels of 10000, Pub Chicago and Card Chicago, drawn from game.state() alone.
// Each returns [left HTML, right HTML] like the Sum Chicago panel in scoreboard.js; the
// left column tells what is happening now, the right one holds the table of players.
"use strict";

/** A row of dice; `mark` gives extra classes per die (e.g. kept, scoring). */
function diceRow(values, cls, mark) {
  return `<div class="roll ${cls || ""}">` +
    values.map((v, i) => dieSVG(v, { cls: mark ? mark(v, i) : "" })).join("") + `</div>`;
}

/** Which dice of a throw belong to `chosen` (a multiset of values): true per position. */
function markChosen(values, chosen) {
  const left = (chosen || []).slice();
  return values.map((v) => {
    const at = left.indexOf(v);
    if (at < 0) return false;
    left.splice(at, 1);
    return true;
  });
}

function winnerBanner(text) { return `<div class="winner">${text}</div>`; }

/** What the camera is doing, for the room: a throw waiting for a person (the TV named
 *  no place: "Check the tray…" sent the family to the dice, not to the tablet), dice
 *  rolling, a camera that reads nothing now, so a throw must be entered by hand, or one
 *  so slow that throws are scored late. */
function trayHTML(state) {
  const table = state.table || {}, camera = state.camera || {};
  if (table.waiting) {
    const why = (table.message || "").replace(/^check the tray:\s*/, "");
    return `<div class="waiting">Throw to check on the control page` + (why ? ` (${esc(why)})` : "") + `</div>`;
  }
  const trouble = camera.name && (!camera.running || camera.stalled_s != null || camera.reopening);
  if (trouble) {
    const why = camera.reopening ? "The camera is being opened again"
      : camera.frozen && camera.stalled_s != null ? "The camera's picture is stuck"
      : camera.running ? "The camera gives no picture" : "The camera stopped";
    return `<div class="waiting">${why}: enter throws on the control page</div>`;
  }
  // A picture only every few seconds: the board seemed stuck after a throw, and only
  // the control page said why (and what to check).
  if (camera.slow_s) return `<div class="waiting">The camera is slow: throws show up late</div>`;
  if (camera.moving) return `<div class="muted chance">Rolling…</div>`;
  return "";
}

/** The table of players scales down past `fit` rows so 8 or 10 players stay on screen. */
function rowScale(rows, fit) { return Math.min(1, fit / Math.max(1, rows)); }

/** A font size of `base` (a CSS length) at `scale`, which the TV then grows as far as the
 *  panel has room (growPanel in scoreboard.js sets --fit): rowScale alone is made for the
 *  longest names and left ten rows in half the panel, their names in 15 px at 720 lines.
 *  Never below the board's floor (--least, style.css): twelve players' names were 2.3 %
 *  of the screen, the shown hands of ten 1.8 %; a long name is cut short (…) instead. */
function fitSize(base, scale) {
  return `max(var(--least, 0px), calc(${base} * var(--fit, ${scale.toFixed(3)})))`;
}

// -- 10000 -------------------------------------------------------------------------------

function tenThousandPanel(game, state) {
  const turn = game.turn;
  const last = game.last_throw;
  const lastTurn = game.last_turn;
  const next = game.next || {};
  let left = `<h1>Ten Thousand</h1><div class="sub">to ${game.target} · opening ${game.opening}</div>`;

  if (game.finished) left += winnerBanner(game.winner ? `${esc(game.winner)} wins!` : "Game over");
  else if (game.tie_break) {
    left += `<div class="banner">Tie-break round ${game.tie_break.round}: ` +
      `${game.tie_break.players.map(esc).join(" vs ")}</div>`;
  } else if (game.final_round) {
    // Past three, a count: eight long names filled the column (the scores say whose turn).
    const rest = game.final_round.to_play || [];
    const still = rest.length > 3 ? `${rest.length} still to play` : `still to play: ${rest.map(esc).join(", ")}`;
    left += `<div class="banner">Final round! ${esc(game.final_round.reached_by)} reached ${game.target}` +
      (rest.length ? ` · ${still}` : "") + `</div>`;
  }

  // The moment just passed: a farkle (the throw that ended the turn is the latest one),
  // hot dice (all six scored and none thrown since) or a bank.
  const justEnded = lastTurn && last && lastTurn.action === last.action && last.farkle;
  if (justEnded) {
    const third = lastTurn.outcome.includes("third");
    left += `<div class="moment farkle">Farkle!</div><div class="rollnote">${esc(lastTurn.player)} ` +
      (lastTurn.at_stake ? `loses ${lastTurn.at_stake} points` : "scores nothing") +
      (third ? ` · third in a row: ${lastTurn.points}` : "") + `</div>`;
  } else if (turn && turn.hot_dice && turn.throw == null && turn.set_aside.length && turn.dice_left === 6) {
    left += `<div class="moment hot">Hot dice!</div><div class="rollnote">${esc(turn.player)} may throw all six again</div>`;
  }

  if (turn && !game.finished) {
    const doing = turn.throw ? "sets dice aside" : next.dice ? `throws ${plural(next.dice, "die", "dice")}` : "to play";
    left += `<div class="turn"><b>${esc(turn.player)}</b> ${doing}</div>`;
    left += `<div class="statrow"><div><div class="label">this turn</div><div class="num">${turn.points}</div></div>`;
    if (!turn.throw) {
      left += `<div><div class="label">dice left</div><div class="num">${turn.dice_left}</div></div>` +
        `<div><div class="label">farkle chance</div><div class="num warnnum">${pct(game.farkle_chance)}</div></div>`;
    }
    left += `</div>`;
    if (turn.needs_to_open) left += `<div class="chance">needs ${turn.needs_to_open} more to open</div>`;
    if (turn.set_aside.length) {
      left += `<div class="label">set aside</div><div class="kept">` + turn.set_aside.map((k) =>
        `<span class="keep">${k.dice.map((v) => dieSVG(v, { cls: "small" })).join("")}<b>${k.points}</b></span>`).join("") + `</div>`;
    }
  }
  left += trayHTML(state);

  if (last) {
    // Dice that can score (the largest choice) stand out from the dead ones.
    const best = turn && turn.throw && turn.choices.length
      ? turn.choices.reduce((a, c) => (c.dice.length > a.dice.length ? c : a)).dice : [];
    const scoring = markChosen(last.dice, best);
    left += diceRow(last.dice, "six", (v, i) => (last.farkle ? "dead" : scoring[i] ? "scoring" : ""));
    if (!justEnded) left += `<div class="rollnote muted">${esc(last.player)} threw ${last.dice.join(" ")}</div>`;
  } else {
    left += `<div class="rollnote muted">No throws yet</div>`;
  }
  if (!justEnded && lastTurn && turn && turn.throw == null && !turn.set_aside.length) {
    const what = lastTurn.outcome === "banked" ? `banked <span class="hit">${lastTurn.points}</span>`
      : `${esc(lastTurn.outcome)} (${lastTurn.at_stake})`;
    left += `<div class="rollnote">${esc(lastTurn.player)} ${what}</div>`;
  }

  const current = next.player;
  const scale = rowScale(game.players.length, 5);
  let right = `<table class="scores tt" data-fit="${scale}" style="font-size:${fitSize("4.4vh", scale)}">` + game.players.map((p) => {
    const share = Math.max(0, Math.min(1, p.score / game.target));
    return `<tr class="${p.name === current ? "current" : ""}"><td><span class="name">${esc(p.name)}</span>` +
      (p.opened || !game.opening ? "" : ` <small class="muted">not opened</small>`) +
      (p.farkles_in_a_row ? ` <small class="warn">${"✗".repeat(p.farkles_in_a_row)}</small>` : "") +
      `<div class="bar"><i style="width:${(100 * share).toFixed(1)}%"></i></div></td>` +
      `<td class="big">${p.score}</td></tr>`;
  }).join("") + `</table>`;
  if (turn && turn.throw && turn.choices.length) {
    const shown = turn.choices.slice(0, 6);
    right += `<h2>Keep from this throw</h2><table class="choices">` + shown.map((c) =>
      `<tr><td>${c.dice.map((v) => dieSVG(v, { cls: "small" })).join("")}</td><td class="hit">+${c.points}</td>` +
      `<td class="muted">${plural(c.dice_left, "die", "dice")} left · farkle ${pct(c.farkle_chance)}</td></tr>`).join("") +
      `</table>` + (turn.choices.length > shown.length ? `<div class="muted">and ${turn.choices.length - shown.length} more</div>` : "");
  }
  return [left, right];
}

// -- Pub Chicago --------------------------------------------------------------------------

const PUB_VARIANTS = { basis: "Basis · strokes", bayrisch: "Bayrisch · lids", tschigg: "Tschigg · lids" };

/** Lids as tokens; past ten the count beside them says how many (19 lids in Tschigg for 10). */
function tokens(n, cls) {
  return n > 0 ? `<span class="tokens ${cls}">${"●".repeat(Math.min(n, 10))}${n > 10 ? "…" : ""}</span>` : "";
}

/** A player's lids or strokes in the table: up to three marks and the count, past that
 *  one mark and "×7". Seven lids drawn as dots took the row's width, cutting the name
 *  to one letter and the tags off the panel. */
function tally(n, cls, mark) {
  if (n <= 3) return (n ? `<span class="${cls}">${mark.repeat(n)}</span>` : "") + `<small>${n}</small>`;
  return `<span class="${cls}">${mark}</span><small>×${n}</small>`;
}

function pubChicagoPanel(game, state) {
  const rnd = game.round || game.last_round;
  const next = game.next || {};
  const lids = game.variant !== "basis";
  let left = `<h1>Pub Chicago</h1><div class="sub">${esc(PUB_VARIANTS[game.variant] || game.variant)}`;
  if (lids) left += ` · phase ${game.phase === "distribute" ? "1: distribute" : "2: reduce"}`;
  if (game.search) {
    left += game.search.tie_break ? " · tie-break search"
      : ` · loser search ${game.search.number} of ${game.search.match_length}`;
  }
  left += `</div>`;
  if (lids) left += `<div class="chance">pot ${tokens(game.pot, "lid")}<b>${game.pot}</b> of ${game.lids_in_game}</div>`;

  if (game.finished) {
    left += winnerBanner(game.loser ? `${esc(game.loser)} loses!` : "Game over");
  } else if (rnd) {
    left += `<div class="chance">Throw round ${rnd.number} · leader <b>${esc(rnd.leader)}</b></div>`;
    if (rnd.announcement) {
      left += `<div class="announce${rnd.announcement.sand ? " sand" : ""}">${esc(rnd.announced)}</div>`;
      if (rnd.default_announcement) left += `<div class="chance">${esc(defaultedNote(rnd))}</div>`;
    } else if (next.actions && next.actions.includes("announce") && !next.actions.includes("roll")) {
      // The line below says who announces ("Bertil announces…" above it said it twice):
      // this one says what is chosen from.
      const sand = game.variant === "tschigg" ? " · or Sand" : "";
      left += `<div class="announce pending">ones 100 or 1 · sixes 60 or 6 · high or low${sand}</div>`;
    } else {
      left += `<div class="announce pending">${esc(rnd.leader)} throws, then announces</div>`;
    }
  }

  const turn = game.round && game.round.turn;
  if (!game.finished && next.player) {
    let doing = "to play";
    if (turn && turn.must_throw) doing = "throws again (two sixes made a one)";
    // The throw due next, said as to come: the dice below are the throws already made.
    else if (next.throw) doing = `next: throw ${next.throw} of ${turn ? turn.throws + next.throws_left : "?"}`;
    else if (next.actions.includes("announce")) doing = "announces";
    left += `<div class="turn"><b>${esc(next.player)}</b> ${doing}</div>`;
  }
  left += trayHTML(state);

  // The dice: the thrower's set-aside and loose dice, or else the latest result.
  // Until the first result of a new throw round, the round before stays on the table so
  // the room sees how it ended (its best, worst and outcome).
  const shown = rnd && rnd.results.length ? rnd : game.last_round || rnd;
  const results = shown ? shown.results : [];
  const latest = results[results.length - 1];
  if (turn && (turn.kept.length || turn.loose.length)) {
    left += `<div class="roll three">` + turn.kept.map((v) => dieSVG(v, { cls: "aside" })).join("") +
      turn.loose.map((v) => dieSVG(v)).join("") + `</div>` +
      `<div class="rollnote muted">${esc(turn.player)} after throw ${turn.throws}` +
      (turn.kept.length ? " · outlined: set aside" : "") + `</div>`;
  } else if (latest) {
    left += diceRow(latest.dice, "three");
    // A round over stays on the table until the next one's first result: say so, so
    // its last dice are not taken for the thrower's now.
    const over = shown !== rnd ? `round ${shown.number} · ` : "";
    left += `<div class="rollnote">${over}${esc(latest.player)}: ${latest.dice.join(" · ")}` +
      (shown.announcement && shown.announcement.sand ? (latest.sand ? " · <b>Sand</b>" : " · no Sand")
        : latest.value != null ? ` = <b>${latest.value}</b>` : "") + `</div>`;
    if (latest.chicago) left += `<div class="moment hot">Chicago! ${esc(latest.player)}</div>`;
  } else {
    left += `<div class="rollnote muted">No throws yet</div>`;
  }

  // Right: the throw round, a row per player (throw order), then those out of it.
  const byPlayer = {};
  for (const r of results) byPlayer[r.player] = r;
  const order = shown ? shown.order : [];
  const others = game.players.map((p) => p.name).filter((n) => !order.includes(n));
  const info = {};
  for (const p of game.players) info[p.name] = p;
  const scale = rowScale(game.players.length, 6);
  // Bounded by the width too: a 4:3 screen (a tablet lying down) has less panel per vh.
  let right = `<table class="scores pub" data-fit="${scale}" style="font-size:${fitSize("min(4.2vh, 2.4vw)", scale)}">` +
    `<thead><tr><th>${shown ? `round ${shown.number}${shown === game.round ? "" : " · over"}` : ""}</th><th>${lids ? "lids" : "strokes"}</th><th>result</th><th>value</th><th></th></tr></thead><tbody>`;
  for (const name of order.concat(others)) {
    const p = info[name] || { score: 0, status: "" };
    const r = byPlayer[name];
    const out = !order.includes(name);
    const tags = [];
    if (r && r.chicago) tags.push(`<span class="tag gold">Chicago</span>`);
    if (shown && shown.best === name) tags.push(`<span class="tag good">best</span>`);
    if (shown && shown.worst === name && results.length > 1) tags.push(`<span class="tag bad">worst</span>`);
    const sandRound = shown && shown.announcement && shown.announcement.sand;
    if (r && sandRound) tags.push(r.sand ? `<span class="tag">Sand</span>` : `<span class="tag muted">no Sand</span>`);
    if (p.status === "loser") tags.push(`<span class="tag bad">loser</span>`);
    else if (out && p.status !== "playing") tags.push(`<span class="tag muted">${p.status === "chicago" ? "out by Chicago" : "safe"}</span>`);
    right += `<tr class="${name === next.player ? "current" : ""}${out ? " out" : ""}"><td><span class="name">${esc(name)}</span></td>` +
      `<td class="count">${lids ? tally(p.score, "tokens lid", "●") : tally(p.score, "strokes", "|")}</td>` +
      `<td>${r ? r.dice.map((v) => dieSVG(v, { cls: "small" })).join("") : ""}</td>` +
      `<td class="big">${r && r.value != null && !sandRound ? r.value : ""}</td><td>${tags.join(" ")}</td></tr>`;
  }
  right += `</tbody></table>`;
  const lastRound = game.last_round;
  if (lastRound && lastRound.outcome && lastRound.outcome.length) {
    right += `<div class="outcome">Round ${lastRound.number}: ${lastRound.outcome.map(esc).join(" · ")}</div>`;
  }
  // Tschigg's Sand lid "may" be given: given already, unless its giver keeps it.
  if (game.sand_lid) {
    right += `<div class="outcome">${esc(game.sand_lid.giver)} may still keep the lid instead of giving it to ${esc(game.sand_lid.taker)}</div>`;
  }
  if (game.search && game.search.losers.length) {
    right += `<div class="muted outcome">Strokes so far: ${game.search.losers.map((l, i) => `${i + 1}. ${esc(l)}`).join(", ")}</div>`;
  }
  return [left, right];
}

// -- Card Chicago -------------------------------------------------------------------------

const SUITS = { S: ["♠", "black"], H: ["♥", "red"], D: ["♦", "red"], C: ["♣", "black"] };

/** A card code such as "TS" drawn as a small face: rank and suit sign. */
function cardHTML(code) {
  const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
  const [sign, colour] = SUITS[code.slice(-1)] || ["?", "black"];
  return `<span class="card ${colour}" data-card="${esc(code)}">${esc(rank)}${sign}</span>`;
}

function handHTML(cards) { return `<span class="hand">${cards.split(/\s+/).map(cardHTML).join("")}</span>`; }

function title(text) { return text ? text.charAt(0).toUpperCase() + text.slice(1) : ""; }

function cardChicagoPanel(game, state) {
  const deal = game.deal;
  const next = game.next || {};
  let left = `<h1>Card Chicago</h1><div class="sub">to 52 · deal ${deal.number} · ` +
    `dealer <b>${esc(deal.dealer)}</b></div>`;
  if (game.finished) left += winnerBanner(game.winner ? `${esc(game.winner)} wins!` : "Game over");
  else {
    left += `<div class="phase">${esc(title(deal.phase))}</div>`;
    let step = "";
    if (deal.exchange && deal.exchange < 3) step = `then the best hand scores`;
    else if (deal.exchange === 3) step = `then five tricks · ${esc(deal.leader)} leads`;
    else if (deal.phase === "tricks") step = `trick ${deal.tricks.length + 1} of 5 · ${esc(deal.leader)} leads`;
    else if (deal.phase === "final hands") step = "the best hand scores a third time";
    left += `<div class="chance">${step}</div>`;
  }
  if (deal.caller) {
    const what = { called: "calls Chicago!", won: "made Chicago! +15", failed: "Chicago failed: −15" }[deal.chicago] || "calls Chicago";
    left += `<div class="moment call ${deal.chicago === "failed" ? "farkle" : "hot"}">${esc(deal.caller)} ${what}</div>`;
  }
  if (deal.buy_stop.length) left += `<div class="chance warn">Buy stop: ${deal.buy_stop.map(esc).join(", ")} (no exchanges)</div>`;
  if (game.zero) left += `<div class="chance">${esc(game.zero)} may zero the opponents with four of a kind</div>`;
  if (game.warning) left += `<div class="chance warn">${esc(game.warning)}</div>`;
  // This deal's story, or the last deal's while the new one has none yet.
  const done = game.deals.length ? game.deals[game.deals.length - 1] : null;
  const story = deal.events.length || !done || game.finished ? deal.events : done.events;
  const storyTitle = deal.events.length || !done || game.finished ? `Deal ${deal.number}` : `Deal ${done.number}`;
  if (story.length) {
    left += `<div class="events"><b>${storyTitle}</b><ul>` + story.slice(-5).map((e) => `<li>${esc(e)}</li>`).join("") + `</ul></div>`;
  }

  const tricks = {};
  for (const t of deal.tricks) tricks[t.winner] = (tricks[t.winner] || 0) + 1;
  const scale = rowScale(game.players.length, 5);
  let right = `<table class="scores cc" data-fit="${scale}" style="font-size:${fitSize("4.2vh", scale)}">` + game.players.map((p) => {
    const share = Math.max(0, Math.min(1, p.score / 52));
    const badges = [];
    if (p.name === deal.dealer) badges.push(`<span class="tag">dealer</span>`);
    if (p.buy_stop) badges.push(`<span class="tag bad">buy stop</span>`);
    if (p.chicago) badges.push(`<span class="tag gold">★ Chicago</span>`);
    const cur = p.name === next.player || p.name === game.winner;
    return `<tr class="${cur ? "current" : ""}"><td><span class="name">${esc(p.name)}</span> ${badges.join(" ")}` +
      `<div class="bar"><i style="width:${(100 * share).toFixed(1)}%"></i></div></td>` +
      `<td class="tricks">${tricks[p.name] ? "▮".repeat(tricks[p.name]) + `<small>${plural(tricks[p.name], "trick")}</small>` : ""}</td>` +
      `<td class="muted">${p.deal_points ? (p.deal_points > 0 ? "+" : "") + p.deal_points : ""}</td>` +
      `<td class="big">${p.score}</td></tr>`;
  }).join("") + `</table>`;
  const show = deal.shows[deal.shows.length - 1];
  if (show) {
    // A royal flush that wins at once scores no points: it wins the game.
    const what = show.points || !(game.finished && game.winner === show.best) ? `scores ${show.points}` : "wins at once";
    // The shown hands and the tricks shrink with the players too: with eight, the
    // scores alone took the panel and five of the hands fell below the TV's edge. On a
    // 4:3 screen they shrink with its width as well: at 1024x768 the cards left the
    // hand's name a column two letters wide.
    right += `<h2 class="showhead" style="font-size:${fitSize("3.4vh", scale)}">Round ${show.round}: ` +
      (show.best ? `${esc(show.best)} ${what} · ${esc(show.name)}` : esc(show.note)) +
      `</h2><table class="shows" style="font-size:${fitSize("min(3vh, 1.7vw)", scale)}">` + Object.entries(show.hands).map(([name, h]) =>
      `<tr class="${name === show.best ? "best" : ""}"><td>${esc(name)}</td><td>${handHTML(h.cards)}</td>` +
      `<td class="muted">${esc(h.name)}</td></tr>`).join("") + `</table>`;
    if (show.best && show.note) right += `<div class="muted">${esc(show.note)}</div>`;
  }
  if (deal.tricks.length) {
    right += `<div class="outcome" style="font-size:${fitSize("3vh", scale)}">Tricks: ` + deal.tricks.map((t) => `${t.number}. <span class="who">${esc(t.winner)}</span>` +
      (t.card ? ` ${cardHTML(t.card)}` : "")).join(" · ") + `</div>`;
  }
  return [left, right];
}
