// Control-page forms of 10000, Pub Chicago and Card Chicago: the decisions of each
// family as buttons, built from game.next and the family's state. A form is
// form(box, game, s, ui): it fills `box` and posts through ui.act(action), which shows
// the server's error next to the form; ui.throwDice() rolls or points to hand entry;
// ui.redraw(draw) draws the form afresh where the keyboard's focus stays put.
"use strict";

const FORMS = {
  ten_thousand: tenThousandForm,
  pub_chicago: pubChicagoForm,
  card_chicago: cardChicagoForm,
};

function on(box, selector, fn) {
  box.querySelectorAll(selector).forEach((el) => el.addEventListener("click", () => fn(el)));
}

function can(game, type) { return (game.next.actions || []).includes(type); }

function throwButton(game, s) {
  const n = game.next.dice;
  return `<button data-throw>${s.camera.can_roll ? `Roll ${n} ${n === 1 ? "die" : "dice"} for me`
    : `Throw ${n} ${n === 1 ? "die" : "dice"}`}</button>`;
}

// -- 10000 -------------------------------------------------------------------------------

function tenThousandForm(box, game, s, ui) {
  const turn = game.turn;
  const player = game.next.player;
  if (!player || !turn) { box.innerHTML = `<span class="muted">Nothing to decide: the game is over.</span>`; return; }
  let html = `<div class="formhead"><b>${esc(player)}</b>: ${turn.points} this turn` +
    (turn.needs_to_open ? ` · needs ${turn.needs_to_open} more to open` : "") +
    (turn.set_aside.length ? ` · set aside ${turn.set_aside.map((k) => k.dice.join(" ")).join(" / ")}` : "") + `</div>`;
  if (can(game, "set_aside") && turn.choices.length) {
    html += `<div class="muted">Keep from the throw ${turn.throw.join(" ")}: one tap</div><div class="row">` +
      turn.choices.map((c, i) => `<button class="choice" data-choice="${i}">` +
        `<span>${c.dice.map((v) => dieSVG(v, { cls: "tiny" })).join("")}</span><span>keep ${c.dice.join(" ")} · +${c.points}</span>` +
        `<small>then ${c.dice_left} ${c.dice_left === 1 ? "die" : "dice"}, farkle ${pct(c.farkle_chance)}</small></button>`).join("") + `</div>`;
  }
  const row = [];
  if (can(game, "bank")) {
    // A bank that counts nothing is allowed: below the opening it records nothing, and
    // with the exact target one past it is lost (RULES.md §3). Say so before the tap.
    const lost = turn.bank === "over the target" ? `over ${game.target}, so lost`
      : turn.bank === "below the opening" ? `below the opening ${game.options.opening}, so nothing` : "";
    row.push(lost
      ? `<button class="danger" data-type="bank">Bank ${turn.points}: ${lost}</button>`
      : `<button data-type="bank">Bank ${turn.points}</button>`);
  }
  if (can(game, "roll")) {
    row.push(throwButton(game, s));
    row.push(`<span class="muted">chance of a farkle with ${game.next.dice}: ${pct(game.farkle_chance)}` +
      (turn.hot_dice && !turn.throw && turn.dice_left === 6 && turn.set_aside.length ? " · hot dice!" : "") + `</span>`);
  }
  if (row.length) html += `<div class="row" style="margin-top:.6em">${row.join("")}</div>`;
  const last = game.last_turn;
  if (last && !turn.set_aside.length && !turn.throw) {
    html += `<div class="muted">${esc(last.player)}'s turn: ${esc(last.outcome)}` +
      (last.outcome === "banked" ? ` ${last.points}` : last.at_stake ? ` (${last.at_stake} at stake)` : "") + `</div>`;
  }
  box.innerHTML = html;
  on(box, "[data-choice]", (el) => ui.act({ type: "set_aside", player, dice: turn.choices[Number(el.dataset.choice)].dice }));
  on(box, "[data-type='bank']", () => ui.act({ type: "bank", player }));
  on(box, "[data-throw]", () => ui.throwDice());
}

// -- Pub Chicago --------------------------------------------------------------------------

const ANNOUNCEMENTS = [];
for (const order of ["high", "low"]) {
  for (const ones of [100, 1]) for (const sixes of [60, 6]) ANNOUNCEMENTS.push({ ones, sixes, order });
}

/** Tschigg: the last who made Sand "may give" a lid away (RULES.md §2). It went when the
 * round was settled; its giver may keep it, until the next throw. */
function sandLidChoice(game) {
  if (!can(game, "sand_lid")) return "";
  const { giver, taker } = game.sand_lid;
  return `<h3>Sand: ${esc(giver)} may give ${esc(taker)} a lid, or keep it</h3><div class="row">` +
    `<button data-sandlid="give">${esc(giver)} gives ${esc(taker)} the lid</button>` +
    `<button class="secondary" data-sandlid="keep">${esc(giver)} keeps the lid</button>` +
    `<span class="muted">${game.finished ? "giving it ended the game; keeping it plays on"
      : "the lid goes unless kept before the next throw"}</span></div>`;
}

function pubChicagoForm(box, game, s, ui) {
  const player = game.next.player;
  const rnd = game.round;
  const sandLid = sandLidChoice(game);
  const choose = () => on(box, "[data-sandlid]", (el) => ui.act({ type: "sand_lid",
    player: game.sand_lid.giver, give: el.dataset.sandlid === "give" }));
  if (!player || !rnd) {
    box.innerHTML = sandLid || `<span class="muted">Nothing to decide: the game is over.</span>`;
    choose();
    return;
  }
  const turn = rnd.turn;
  let html = sandLid + `<div class="formhead">Throw round ${rnd.number}, leader <b>${esc(rnd.leader)}</b>` +
    (rnd.announced ? ` · ${esc(rnd.announced)}` : "") + ` · <b>${esc(player)}</b>'s turn</div>` +
    (rnd.default_announcement ? `<div class="note">${esc(defaultedNote(rnd))}</div>` : "");
  // One draw offered: drawn again and again, the lot could fall where the tapper wished.
  // The table draws, once a game: a draw Undo took back comes back the same.
  if (can(game, "leader") && !game.leader_drawn) {
    html += `<div class="row"><button data-draw>Draw the first leader by lot</button>` +
      `<span class="muted">the app picks one of ${game.players.length} at random, once a game</span></div>`;
  }
  if (turn && (turn.kept.length || turn.loose.length)) {
    const tap = can(game, "set_aside");
    html += `<div class="muted">${tap ? "Tap a die to set it aside" : "The dice"}` +
      (turn.kept.length ? " (outlined: set aside)" : "") + `</div><div class="dice row">` +
      turn.kept.map((v) => dieSVG(v, { cls: "aside" })).join("") +
      turn.loose.map((v) => (tap ? `<button type="button" class="diebutton" data-aside="${v}">${dieSVG(v)}</button>` : dieSVG(v))).join("") + `</div>`;
  }
  const row = [];
  if (can(game, "turn_sixes")) row.push(`<button data-type="turn_sixes">Turn two sixes into a one</button>`);
  if (can(game, "roll")) {
    row.push(throwButton(game, s));
    row.push(`<span class="muted">throw ${game.next.throw}, ${game.next.throws_left} left</span>`);
  }
  if (can(game, "done")) row.push(`<button class="secondary" data-type="done">Done: stop throwing</button>`);
  if (row.length) html += `<div class="row" style="margin-top:.6em">${row.join("")}</div>`;
  if (can(game, "announce")) {
    const early = can(game, "roll") || can(game, "done");
    html += `<h3>${esc(rnd.leader)} announces${early ? " (ends the leader's throwing)" : ""}</h3><div class="announcegrid">` +
      ANNOUNCEMENTS.map((a, i) => `<button class="secondary announce" data-announce="${i}"><b>${a.order}</b><span>ones ${a.ones} · sixes ${a.sixes}</span></button>`).join("") +
      (game.variant === "tschigg" ? `<button data-sand>Sand</button>` : "") + `</div>`;
  }
  box.innerHTML = html;
  on(box, "[data-draw]", () => ui.act({ type: "leader", lot: true }));
  on(box, "[data-aside]", (el) => ui.act({ type: "set_aside", player, dice: [Number(el.dataset.aside)] }));
  on(box, "[data-type]", (el) => ui.act({ type: el.dataset.type, player }));
  on(box, "[data-throw]", () => ui.throwDice());
  on(box, "[data-announce]", (el) => ui.act(Object.assign({ type: "announce", player: rnd.leader },
    ANNOUNCEMENTS[Number(el.dataset.announce)])));
  on(box, "[data-sand]", () => ui.act({ type: "announce", player: rnd.leader, sand: true }));
  choose();
}

// -- Card Chicago -------------------------------------------------------------------------

const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
const SUIT_SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// What is being typed or picked survives the live updates (which redraw the form): the
// hands of the show under way, whose hand the picker fills, and a trick's card.
const cardDraft = { key: null, hands: {}, active: null, trickCard: "" };

/** Parse a hand as typed ("as ks qs js ts", "10H" for TH): {cards, error}. */
function parseHand(text) {
  const words = text.toUpperCase().replace(/,/g, " ").split(/\s+/).filter(Boolean);
  const cards = [];
  for (const w of words) {
    const code = w.replace(/^10/, "T");
    if (!/^[2-9TJQKA][SHDC]$/.test(code)) return { cards, error: `"${w}" is not a card (rank 2-9 T J Q K A, suit S H D C)` };
    if (cards.includes(code)) return { cards, error: `${code} is there twice` };
    cards.push(code);
  }
  if (cards.length && cards.length !== 5) return { cards, error: `${cards.length} cards: a hand is 5` };
  return { cards, error: null };
}

function cardLabel(code) {
  return `${code[0] === "T" ? "10" : code[0]}${SUIT_SIGNS[code[1]]}`;
}

const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

function cardName(code) {
  return `${RANK_NAMES[code[0]] || code[0]} of ${SUIT_NAMES[code[1]]}`;
}

function cardChicagoForm(box, game, s, ui) {
  const deal = game.deal;
  if (game.finished && !can(game, "zero")) { box.innerHTML = `<span class="muted">Nothing to decide: the game is over.</span>`; return; }
  const names = game.players.map((p) => p.name);
  // A new game, deal or show round starts with empty hands, and a new trick (or one
  // undone) with no card.
  const key = `${s.table.game_id}/${deal.number}/${game.next.round}/${deal.tricks.length}`;
  if (cardDraft.key !== key) Object.assign(cardDraft, { key, hands: {}, active: null, trickCard: "" });
  if (!cardDraft.active || !names.includes(cardDraft.active)) cardDraft.active = deal.order[0];
  let html = `<div class="formhead">Deal ${deal.number}, dealer <b>${esc(deal.dealer)}</b> · ${esc(deal.phase)}</div>` +
    // More players than the game is made for: said where the hands are entered too.
    (game.warning ? `<div class="note">${esc(game.warning)}</div>` : "");

  if (can(game, "exchange")) {
    const done = deal.exchanges[deal.exchange - 1] || {};
    html += `<h3>Exchange ${deal.exchange}: how many cards?</h3>` + deal.order.map((p) => {
      let cell;
      if (deal.buy_stop.includes(p)) cell = `<span class="muted">buy stop: no exchange</span>`;
      else if (p in done) cell = `<span class="muted">exchanged ${done[p]}</span>`;
      // A screen reader says whose count and of what: a bare "3" could be anyone's anything.
      else cell = `<span class="nums">` + [0, 1, 2, 3, 4, 5].map((n) => `<button class="secondary num" data-ex="${esc(p)}" ` +
        `data-count="${n}" aria-label="${esc(p)} exchanges ${n} ${n === 1 ? "card" : "cards"}">${n}</button>`).join("") + `</span>`;
      return `<div class="row exrow"><span class="who">${esc(p)}</span>${cell}</div>`;
    }).join("");
  }

  if (can(game, "call")) {
    // Who may call is the engine's to say (with chicago_from 0, a score below zero too).
    const from = game.options.chicago_from;
    html += `<h3>Chicago</h3><div class="row">` + deal.callers.map((p) =>
      `<button class="secondary" data-call="${esc(p)}">${esc(p)} calls Chicago</button>`).join("") +
      `<span class="muted">${from ? `from ${from} points` : "at any score"}, before the first trick</span></div>`;
  }

  if (can(game, "show")) html += showForm(game);

  if (can(game, "trick")) {
    const number = deal.tricks.length + 1;
    const bonus = game.options.last_trick === "two_bonus";
    html += `<h3>Trick ${number} of 5: who took it?</h3>`;
    if (bonus) {
      html += `<label>winning card${number === 5 ? " (needed: a two scores the bonus)" : " (optional)"}` +
        `<input id="trickcard" size="6" placeholder="e.g. 2H" value="${esc(cardDraft.trickCard)}"></label>`;
      // The last trick's card is needed, so it can be tapped as well as typed.
      if (number === 5) {
        const took = new Set(deal.tricks.map((t) => t.card).filter(Boolean));
        const picked = cardDraft.trickCard.trim().toUpperCase().replace(/^10/, "T");
        html += cardPicker((code) => code === picked ? "picked" : took.has(code) ? "taken" : "");
      }
    }
    html += `<div class="row">` + deal.order.map((p) =>
      `<button class="${p === deal.leader ? "" : "secondary"}" data-trick="${esc(p)}" ` +
      `aria-label="${esc(p)} took trick ${number}">${esc(p)}</button>`).join("") +
      `<span class="muted">${esc(deal.leader)} leads</span></div>`;
  }

  if (can(game, "zero")) {
    html += `<div class="row"><button class="danger" data-zero="${esc(game.zero)}">${esc(game.zero)} zeroes the opponents (four of a kind)</button></div>`;
  }
  box.innerHTML = html;

  on(box, "[data-ex]", (el) => ui.act({ type: "exchange", player: el.dataset.ex, count: Number(el.dataset.count) }));
  on(box, "[data-call]", (el) => ui.act({ type: "call", player: el.dataset.call }));
  on(box, "[data-zero]", (el) => ui.act({ type: "zero", player: el.dataset.zero }));
  const cardInput = box.querySelector("#trickcard");
  if (cardInput) cardInput.addEventListener("input", () => { cardDraft.trickCard = cardInput.value; });
  if (can(game, "trick")) on(box, ".cardpicker [data-card]", (el) => {
    const code = el.dataset.card;
    if (el.classList.contains("taken")) return ui.error(`${cardLabel(code)} has already taken a trick`);
    cardDraft.trickCard = el.classList.contains("picked") ? "" : code;
    ui.redraw(() => cardChicagoForm(box, game, s, ui));
  });
  on(box, "[data-trick]", async (el) => {
    const action = { type: "trick", winner: el.dataset.trick };
    const card = cardDraft.trickCard.trim().toUpperCase().replace(/^10/, "T");
    if (card) action.card = card;
    if (await ui.act(action)) cardDraft.trickCard = "";
  });
  if (can(game, "show")) bindShow(box, game, s, ui);
}

function showForm(game) {
  const round = game.next.round;
  const used = {};
  for (const [p, text] of Object.entries(cardDraft.hands)) for (const c of parseHand(text).cards) used[c] = p;
  let html = `<h3>Round ${round}: the hands shown</h3><div class="muted">Type five cards (AS KS QS JS TS) ` +
    `or pick a player and tap cards; leave empty who does not show.</div>`;
  html += game.players.map((p) => {
    const before = lastShown(game, p.name);
    const text = cardDraft.hands[p.name] || "";
    return `<div class="row handrow${cardDraft.active === p.name ? " active" : ""}">` +
      `<button class="secondary who" data-pick="${esc(p.name)}" aria-label="tap cards for ${esc(p.name)}'s hand">${esc(p.name)}</button>` +
      `<input data-hand="${esc(p.name)}" aria-label="${esc(p.name)}'s hand" size="18" value="${esc(text)}" autocomplete="off" spellcheck="false">` +
      (before ? `<button class="secondary" data-again="${esc(p.name)}" title="${esc(before)}" ` +
        `aria-label="${esc(p.name)}'s hand as before">as before</button>` : "") +
      `<button class="secondary" data-clear="${esc(p.name)}" aria-label="clear ${esc(p.name)}'s hand">clear</button>` +
      `<span class="handerror" data-err="${esc(p.name)}">${esc(parseHand(text).error || "")}</span></div>`;
  }).join("");
  html += cardPicker((code) => used[code] === cardDraft.active ? "picked" : used[code] ? "taken" : "");
  html += `<div class="row" style="margin-top:.6em"><button data-show>Score round ${round}</button>` +
    `<span class="muted">with every hand empty: nobody shows</span></div>`;
  return html;
}

/** The 52 cards to tap, a row a suit; classOf(code) marks one "picked" or "taken". */
function cardPicker(classOf) {
  return `<div class="cardpicker">` + ["S", "H", "D", "C"].map((suit) => `<div>` + RANKS.map((r) => {
    const code = r + suit;
    const state = classOf(code);
    // Said as a card's name ("queen of hearts", not "Q black heart suit"), picked or taken.
    return `<button class="pcard ${suit === "H" || suit === "D" ? "red" : ""} ${state}" data-card="${code}" ` +
      `aria-label="${cardName(code)}" aria-pressed="${state === "picked"}"${state === "taken" ? ` aria-disabled="true"` : ""}>` +
      `${cardLabel(code)}</button>`;
  }).join("") + `</div>`).join("") + `</div>`;
}

/** The player's hand in the latest show of this deal, to enter it again with one tap. */
function lastShown(game, name) {
  for (const show of game.deal.shows.slice().reverse()) {
    if (show.hands[name]) return show.hands[name].cards;
  }
  return null;
}

function bindShow(box, game, s, ui) {
  const redraw = () => ui.redraw(() => cardChicagoForm(box, game, s, ui));
  box.querySelectorAll("[data-hand]").forEach((el) => el.addEventListener("input", () => {
    // Typing updates only the draft and the hint, so the field keeps its focus.
    cardDraft.hands[el.dataset.hand] = el.value;
    cardDraft.active = el.dataset.hand;
    box.querySelectorAll(".handrow").forEach((row) => row.classList.toggle("active", row.contains(el)));
    box.querySelector(`[data-err="${CSS.escape(el.dataset.hand)}"]`).textContent = parseHand(el.value).error || "";
  }));
  on(box, "[data-pick]", (el) => { cardDraft.active = el.dataset.pick; redraw(); });
  on(box, "[data-again]", (el) => { cardDraft.hands[el.dataset.again] = lastShown(game, el.dataset.again); redraw(); });
  on(box, "[data-clear]", (el) => { delete cardDraft.hands[el.dataset.clear]; redraw(); });
  on(box, "[data-card]", (el) => {
    const who = cardDraft.active;
    const cards = parseHand(cardDraft.hands[who] || "").cards;
    const code = el.dataset.card;
    if (cards.includes(code)) cards.splice(cards.indexOf(code), 1);
    else if (el.classList.contains("taken")) return ui.error(`${cardLabel(code)} is already in another hand`);
    else if (cards.length >= 5) return ui.error(`${who}'s hand has five cards: tap one to take it out`);
    else cards.push(code);
    cardDraft.hands[who] = cards.join(" ");
    redraw();
  });
  on(box, "[data-show]", async () => {
    const hands = {};
    for (const [p, text] of Object.entries(cardDraft.hands)) {
      const parsed = parseHand(text);
      if (!parsed.cards.length) continue;
      if (parsed.error) return ui.error(`${p}: ${parsed.error}`);
      hands[p] = parsed.cards.join(" ");
    }
    if (await ui.act({ type: "show", round: game.next.round, hands })) cardDraft.hands = {};
  });
}
