// The draw for Sum Chicago's starting player (RULES.md §1: each throws one die, the
// highest starts, those tied throw again), drawn the same on the scoreboard and the
// control page from state.draw (scorer/starter.py: StarterDraw.to_json).
"use strict";

/** Where the draw stands, in a line: who starts, or who throws now (and in which throw-off). */
function drawHeadline(draw) {
  if (draw.starter) return `<b>${esc(draw.starter)}</b> starts!`;
  const rounds = draw.rounds;
  const off = rounds.length > 1 ? ` · throw-off: ${namesSaid(rounds[rounds.length - 2].tied)} tied` : "";
  return `<b>${esc(draw.thrower)}</b>: throw one die${off}`;
}

/** What follows the draw: the seat order the game begins with, once the starter is found. */
function drawSeating(draw) {
  return draw.seating ? `The game begins in this order: ${draw.seating.map(esc).join(", ")}` : "";
}

/**
 * The draw as a table: a row per player in list order, a column for the first throw and
 * one per throw-off; the die thrown, "…" for the one who throws now, a "tie" tag on those
 * who throw again and "starts" on the starter. `cls` sizes the dice.
 */
function drawTable(draw, cls) {
  const heads = draw.rounds.map((r, i) => `<th>${i ? `throw-off ${i}` : "throw"}</th>`).join("");
  const rows = draw.players.map((name) => {
    const cells = draw.rounds.map((r) => {
      const mine = r.throws.find((t) => t.player === name);
      if (!mine) return `<td></td>`;
      if (mine.value == null) return `<td class="muted">${name === draw.thrower ? "…" : ""}</td>`;
      return `<td>${dieSVG(mine.value, { cls })}${r.tied.includes(name) ? ` <span class="tag">tie</span>` : ""}</td>`;
    }).join("");
    const starts = name === draw.starter ? ` <span class="tag gold">starts</span>` : "";
    const now = name === draw.thrower || name === draw.starter ? "current" : "";
    return `<tr class="${now}" data-player="${esc(name)}"><td><span class="name">${esc(name)}</span>${starts}</td>${cells}</tr>`;
  }).join("");
  return `<table class="scores draw"><thead><tr><th></th>${heads}</tr></thead><tbody>${rows}</tbody></table>`;
}
