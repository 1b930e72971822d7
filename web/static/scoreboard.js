// The TV scoreboard: redrawn from each live state; no polling, no reloads.
"use strict";

/** Family panels: each returns [left HTML, right HTML]. Add a family by adding a key. */
const PANELS = {
  sum_chicago: sumChicagoPanel,
  ten_thousand: tenThousandPanel,     // the other three live in panels.js
  pub_chicago: pubChicagoPanel,
  card_chicago: cardChicagoPanel,
};

function lastRollHTML(game, reading) {
  const roll = game.last_roll;
  let dice = null, who = null;
  if (roll) { dice = roll.dice; who = roll.player; }
  else if (reading && reading.status === "scored") { dice = reading.dice.map((d) => d.value); who = reading.player; }
  if (!dice) return `<div class="roll muted rollnote">No throws yet</div>`;
  let note = `${esc(who)} threw ${dice.join(" + ")}`;
  if (roll && roll.sum != null) note += ` = ${roll.sum}`;
  if (roll && roll.target != null) {
    note += roll.points ? ` <span class="hit">→ ${roll.points} points!</span>`
      : secondThrowDue(game) ? " → throws again" : " → 0";
  }
  return `<div class="roll">${dice.map((v) => dieSVG(v)).join("")}</div><div class="rollnote">${note}</div>`;
}

function turnHTML(game, state) {
  if (game.finished) {
    return game.winner ? `<div class="winner">${esc(game.winner)} wins!</div>`
      : `<div class="winner">Game over</div>`;
  }
  let html = "";
  const next = game.next || {};
  if (next.player) {
    const actions = next.actions || [];
    const again = next.throw === 2 && game.family === "sum_chicago" ? " (second throw)" : "";
    const what = actions.includes("roll") ? `throws${again}` : "to play";
    html += `<div class="turn"><b>${esc(next.player)}</b> ${what}</div>`;
  }
  return html + trayHTML(state);
}

/** One round of tie-break throws, {name: sum}, as the TV says it: "Mum 6 · Dad 6", or
 *  past three players the highest and the rest. */
function tieThrows(t) {
  const sums = Object.entries(t).sort((a, b) => b[1] - a[1]);
  if (sums.length <= 3) return sums.map(([name, sum]) => `${esc(name)} ${sum}`).join(" · ");
  return `${esc(sums[0][0])} ${sums[0][1]}, the others ${sums[1][1]} or less`;
}

/** The tie-break so far (RULES.md §1: the tied throw again as often as needed): how the
 *  throw before tied again, and this throw's sums thrown yet. The last die alone did not
 *  say that the throws had tied, nor what the others had thrown. */
function tieBreakSoFar(tie) {
  const rounds = tie.throws || [];
  const done = rounds.slice(0, -1).filter((t) => Object.keys(t).length);
  const now = rounds.length ? rounds[rounds.length - 1] : {};
  let html = "";
  if (done.length) {
    html += `<div class="chance">tied again: ${tieThrows(done[done.length - 1])}` +
      (done.length > 1 ? ` (tie-break throw ${done.length})` : "") + `</div>`;
  }
  if (Object.keys(now).length) html += `<div class="chance">this throw: ${tieThrows(now)}</div>`;
  return html;
}

// How a finished game was decided, when the totals alone do not say: the tie-break's
// throws, or who tied when no one could break the tie (RULES.md §1).
function sumChicagoEnd(game) {
  const top = Math.max(...game.players.map((p) => p.score));
  const tied = game.players.filter((p) => p.score === top).map((p) => p.name);
  if (tied.length < 2) return "";
  const rounds = (game.tie_break ? game.tie_break.throws : []).filter((t) => Object.keys(t).length);
  // Short enough for the TV: eight long names in four tie-break rounds ran 20 lines down
  // the screen. Past three players the sheet names them; past two rounds the last tells.
  const who = tied.length > 3 ? `${tied.length} players` : tied.map(esc).join(", ");
  const said = tieThrows;
  const throws = rounds.length > 2 ? [`of ${rounds.length} rounds, the last: ${said(rounds[rounds.length - 1])}`]
    : rounds.map(said);
  // The others tied having left, the one still playing wins with no tie-break (RULES.md §1).
  const how = !game.winner ? `no single winner: ${who} tied on ${top}`
    : throws.length ? `tied on ${top}: ${who}; tie-break ${throws.join(", then ")}`
    : `tied on ${top}: ${who}; ${esc(game.winner)} alone of them still plays: no tie-break`;
  return `<div class="chance" id="endnote">${how}</div>`;
}

function sumChicagoPanel(game, state) {
  let left = `<h1>Sum Chicago</h1>`;
  if (game.target != null) {
    left += `<div class="muted chance">Round ${game.round} of ${game.rounds} · target</div>` +
      `<div class="target">${game.target}</div>` +
      `<div class="chance">chance of a hit ${pct(game.chance)}</div>`;
  } else if (game.tie_break && !game.finished) {
    left += `<div class="big">Tie-break</div><div class="chance">${namesSaid(game.tie_break.players)} throw again; highest sum wins</div>`;
    left += tieBreakSoFar(game.tie_break);
  }
  left += turnHTML(game, state) + (game.finished ? sumChicagoEnd(game) : "") +
    lastRollHTML(game, state.reading);

  const players = game.players.map((p) => p.name);
  const gone = new Set(game.players.filter((p) => p.active === false).map((p) => p.name));
  const current = game.next && game.next.player;
  // Up to six players and twelve rounds at full size; a bigger sheet shrinks to stay
  // on screen (three dice make 16 rounds; up to 40 players may sit in).
  const scale = Math.min(1, 6 / Math.max(1, players.length), 12 / Math.max(1, game.sheet.length));
  // Past six players the names stand upright over their columns (style.css): across,
  // at the scores' size a column holds four letters a line.
  const many = players.length > 6 ? " many" : "";
  let right = `<table class="sheet${many}" data-fit="${scale}" style="font-size:${fitSize("4.4vh", scale)}"><thead><tr><th></th>` +
    players.map((p) => `<th class="${p === current ? "current" : ""}${gone.has(p) ? " muted" : ""}"><span class="nm">${esc(p)}</span></th>`).join("") +
    `</tr></thead><tbody>`;
  for (const row of game.sheet) {
    const now = row.round === game.round ? " now" : "";
    right += `<tr class="${now}"><td class="rt">${row.target}<small>${pct(row.chance)}</small></td>`;
    for (const p of players) {
      const v = row.scores[p];
      right += v == null ? `<td></td>` : `<td class="${v ? "hit" : "zero"}">${v ? v : "–"}</td>`;
    }
    right += `</tr>`;
  }
  right += `</tbody><tfoot><tr><td class="rt">total</td>` +
    game.players.map((p) => `<td>${p.score}</td>`).join("") + `</tr></tfoot></table>`;
  return [left, right];
}

/** Any family: players and scores, whose turn, the last dice read. */
function genericPanel(game, state) {
  const title = game.family.replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
  let left = `<h1>${esc(title)}</h1>` + turnHTML(game, state);
  const dice = latestDice(state);
  if (dice.length) left += `<div class="roll">${dice.map((v) => dieSVG(v)).join("")}</div>`;
  const current = game.next && game.next.player;
  let right = `<table class="scores">` + game.players.map((p) =>
    `<tr><td class="${p.name === current ? "current" : ""}"><span class="name">${esc(p.name)}</span></td>` +
    `<td class="big">${esc(p.score)}</td></tr>`).join("") + `</table>`;
  if (game.help && game.help.length) right += `<p class="muted">${esc(game.help[0])}</p>`;
  return [left, right];
}

/** Sum Chicago's starter being found by one die each: the draw, not yet the game. */
function drawPanel(draw) {
  const left = `<h1>Sum Chicago</h1><div class="chance">Who starts? Each throws one die; the highest starts</div>` +
    `<div class="turn">${drawHeadline(draw)}</div>` +
    (draw.note ? `<div class="waiting">${esc(draw.note)}</div>` : "") +
    `<div class="chance">${drawSeating(draw)}</div>`;
  return [left, drawTable(draw, "small")];
}

function render(state) {
  const board = document.getElementById("board");
  const game = state.game;
  board.dataset.revision = state.revision;
  if (state.draw) {
    board.dataset.family = "draw";
    const [left, right] = drawPanel(state.draw);
    showColumns(board, { family: "draw", left, right });   // fitted: ten players' rows fell below the TV's edge
    return;
  }
  board.dataset.family = game ? game.family : "";   // lets the stylesheet size columns per family
  if (!game) {
    drawnColumns = null;
    board.innerHTML = `<div><h1>dicetray</h1><div class="turn">No game yet</div>` +
      // The address as the TV reached the appliance: the one a tablet on the same network
      // types (a bare "/control" left the family to find the Pi's address).
      `<div class="chance">Start one on the control page: <b>${esc(location.host)}/control</b></div></div><div></div>`;
    return;
  }
  const [left, right] = (PANELS[game.family] || genericPanel)(game, state);
  showColumns(board, { family: game.family, left, right });
}

// The board's two columns as last drawn ({family, left, right} HTML; null: no game shown).
let drawnColumns = null;

/** The two columns on the board, fitted to the screen, drawn again only where they
 *  changed: on a TV stick each state took 0.2-0.6 s, most of it fitting the table of
 *  players, where half the states of an evening change only the left column ("Rolling…")
 *  and some change nothing shown (the camera's time to read a throw). */
function showColumns(board, columns) {
  const was = drawnColumns;
  drawnColumns = columns;
  const sameTable = was && was.family === columns.family && was.right === columns.right;
  if (sameTable && was.left === columns.left) return;
  if (sameTable) { redrawLeft(board, columns.left); return; }
  board.innerHTML = `<div>${columns.left}</div><div class="panel">${columns.right}</div>`;
  fitBoard(board);
}

/** The left column drawn afresh beside the table as it is, unless it took the table's
 *  room (the columns share the screen's width): then the table is fitted again too. */
function redrawLeft(board, left) {
  const panel = board.querySelector(".panel");
  const room = [panel.clientWidth, panel.clientHeight];
  board.firstElementChild.innerHTML = left;
  if (panel.clientWidth !== room[0] || panel.clientHeight !== room[1]) { fitBoard(board); return; }
  fitWinner(board);
  fitColumns(board);
}

/** Sizes that depend on the screen's: drawn afresh when the window changes (a kiosk
 *  browser going full screen after the first state). */
function fitBoard(board) {
  for (const el of board.querySelectorAll(":scope > * > *")) el.style.zoom = "";
  fitWinner(board);
  growPanel(board);
  fitSheetNames(board);
  fitColumns(board);
}
window.addEventListener("resize", () => fitBoard(document.getElementById("board")));

/** A winner's name is not broken mid-word, nor Card Chicago's phase ("Exchange / 1" on a
 *  4:3 screen): a line too wide for its column is made smaller. */
function fitWinner(board) {
  for (const el of board.querySelectorAll(".winner, .phase")) {
    el.style.fontSize = "";
    if (el.scrollWidth <= el.clientWidth + 1) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    el.style.fontSize = `${(size * el.clientWidth / el.scrollWidth * 0.98).toFixed(1)}px`;
  }
}

/** The sheet's names are not broken mid-word: four players on a 16:9 TV showed
 *  "Mamm / a" over a column. The names are made smaller together until the words of
 *  each fit its column, to no less than two thirds; a word too long even then (a long
 *  name with no space) still breaks, and shrinks nobody's name for nothing. */
function fitSheetNames(board) {
  const names = [...board.querySelectorAll(".sheet:not(.many) thead .nm")];
  const wordsFit = (el) => {
    el.style.overflowWrap = "normal";       // a word too wide for the line then sticks out
    const fits = el.scrollWidth <= el.clientWidth + 1;
    el.style.overflowWrap = "";
    return fits;
  };
  const sizeNames = (em) => names.forEach((el) => { el.style.fontSize = em ? `${em}em` : ""; });
  const least = 0.65;
  sizeNames(least);
  const fitting = names.filter(wordsFit);
  sizeNames(null);
  for (let em = 0.95; em >= least && !fitting.every(wordsFit); em -= 0.05) sizeNames(em.toFixed(2));
}

/** A table of many players, made small enough for the longest names (rowScale), grows
 *  back towards its full size as far as the panel has room: no taller or wider than the
 *  panel, and no score or die wider than its cell. An upright phone sizes it by width. */
function growPanel(board) {
  const panel = board.querySelector(".panel");
  if (!panel) return;
  panel.style.removeProperty("--fit");
  const table = panel.querySelector("[data-fit]");
  const least = table ? Number(table.dataset.fit) : 1;
  if (!(least < 1) || matchMedia("(orientation: portrait)").matches) return;
  // (a cell that cuts its text short, a shown hand's player, is no cell too narrow)
  const cells = [...panel.querySelectorAll("td")].filter((td) => getComputedStyle(td).overflowX === "visible");
  const names = panel.querySelectorAll(".name, .nm");
  const shownWhole = (el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1;
  const emHigh = (el) => el.scrollHeight / parseFloat(getComputedStyle(el).fontSize);
  const whole = new Map([...names].filter(shownWhole).map((el) => [el, emHigh(el)]));
  const letterRoom = (el) => {   // (the box's own fractions: at 6 px a pixel rounded is a sixth)
    const box = el.getBoundingClientRect();
    return box.width * box.height / parseFloat(getComputedStyle(el).fontSize) ** 2;
  };
  const letters = new Map([...names].filter((el) => !whole.has(el) && el.matches(".nm"))
    .map((el) => [el, letterRoom(el)]));
  const fits = (fit) => {
    panel.style.setProperty("--fit", fit.toFixed(3));
    if (panel.scrollHeight > panel.clientHeight + 1 || panel.scrollWidth > panel.clientWidth + 1) return false;
    for (const td of cells) if (td.scrollWidth > td.clientWidth + 1) return false;
    // Bigger letters are no help when they cut a name: one shown whole stays whole, a
    // long one cut short (…) on one line keeps room for ten letters or so, not "Wolf…",
    // and one cut short on the sheet keeps as many letters as it had.
    for (const name of names) {
      if (whole.has(name)) {
        if (!shownWhole(name)) return false;
        // (nor broken onto more lines: "Oskar" in a narrow column became "O / sk / ar",
        // and a Pub Chicago row of seven "Bartholomä / us")
        if (emHigh(name) > whole.get(name) + 0.3) return false;
        continue;
      }
      if (letters.has(name)) { if (letterRoom(name) < letters.get(name) * 0.98) return false; continue; }
      const room = 6 * parseFloat(getComputedStyle(name).fontSize);
      if (name.clientWidth + 1 < Math.min(name.scrollWidth, room)) return false;
    }
    return true;
  };
  if (fits(1)) return;
  let low = least, high = 1;
  // Too tall even at its own scale (seven long names upright over the sheet): smaller
  // still here, down to the letters' floor, rather than zoomed out whole by fitColumns,
  // which took the small words under the floor with it.
  if (!fits(least)) [low, high] = [least / 2, least];
  for (let i = 0; i < 7; i++) {
    const mid = (low + high) / 2;
    if (fits(mid)) low = mid; else high = mid;
  }
  fits(low);
}

/** A TV cannot scroll: a column taller than the screen is zoomed out until it fits (an
 *  8-way tie-break's note, a final round's banner of long names, Card Chicago's hands).
 *  An upright phone scrolls the page instead. */
function fitColumns(board) {
  if (matchMedia("(orientation: portrait)").matches) return;
  const bottom = window.innerHeight - parseFloat(getComputedStyle(board).paddingBottom);
  for (const column of board.children) {
    for (let tries = 0; tries < 4 && column.firstElementChild; tries++) {
      const top = column.getBoundingClientRect().top;
      const needed = column.scrollHeight;
      if (top + needed <= bottom + 1) break;
      const zoom = (parseFloat(column.firstElementChild.style.zoom) || 1) * (bottom - top) / needed;
      for (const el of column.children) el.style.zoom = zoom.toFixed(3);
    }
  }
}

followState(render, (ok) => {
  const c = document.getElementById("conn");
  // Lost, the board still shows the last state and nothing new comes: said big enough
  // to be read from the sofa (the control page keeps its small corner line).
  const words = ok ? "live" : "connection to the table lost · reconnecting…";
  if (c.textContent !== words) c.textContent = words;    // a status region says each setting
  c.className = ok ? "conn" : "conn off tv";
});
