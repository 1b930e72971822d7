// The tablet control page: start games, check the tray, tap a die to correct it.
"use strict";

let state = null;
let families = {};
let picking = null;        // index of the die whose value picker is open, or "add"
let pickingReading = null; // the throw that die belongs to (trayThrowKey)
let handDice = [];         // the throw being entered by hand

function $(id) { return document.getElementById(id); }

/** Show a message over the page's foot for five seconds. `echo`: it repeats words a
 * screen reader has just said from their own box, so it is not said twice. */
function toast(message, echo) {
  const t = $("toast");
  t.setAttribute("aria-hidden", echo ? "true" : "false");
  t.textContent = message;
  t.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.remove("show"), 5000);
}

// The revision on screen when the POST under way was tapped (null: none under way). A
// second tap on that same screen (a double tap) is not sent; a tap on a newer state, which
// the live stream can show before the POST's own answer comes, is a new choice and is.
let postedOn = null;
// Each POST awaiting its answer, by what stops it: once the live stream is lost, an answer
// would come over that same dead Wi-Fi, maybe minutes later; meanwhile every tap on the
// page was refused as "still waiting", even after the stream was back.
const postsUnderWay = new Set();

// Whether the live stream is up: without it the table cannot be reached, and the page
// may show a state gone by. A tap then is not sent, and said so.
let connected = false;
const NOT_SENT = "No connection to the table just now: this tap was not sent. " +
  "Tap again once the page says live.";
// The connection dropped after the tap was sent: the table may have done it or not.
const NO_ANSWER = "The table did not answer (the connection dropped): the tap may have " +
  "reached it or not. Once the page says live, see whether it took before tapping again.";
const saidNoConnection = new Set();   // the boxes that say one of the two

function sayNoConnection(box, message) {
  showError(box, message);
  saidNoConnection.add(box);
}

/** Back on the stream, the page shows the table as it is, whether the tap took or not:
 * what was said of the lost connection is old news. */
function forgetNoConnection() {
  for (const box of saidNoConnection) {
    if (box.textContent === NOT_SENT || box.textContent === NO_ANSWER) box.textContent = "";
  }
  saidNoConnection.clear();
}

/**
 * POST a JSON action; the answer is the new state (also sent on the live stream).
 * A refusal's message goes to `errBox` (next to the form that sent it) and the toast;
 * a success clears that box. Resolves to the new state, or null when refused (or when
 * another tap's POST is still under way).
 */
async function post(path, body, errBox) {
  const box = errBox || $("error");
  if (!connected) {
    sayNoConnection(box, NOT_SENT);
    return null;
  }
  const shown = state ? state.revision : -1;
  if (postedOn !== null && shown <= postedOn) {
    toast("still waiting for the table's answer to the last tap");
    return null;
  }
  postedOn = shown;
  const stop = new AbortController();
  postsUnderWay.add(stop);
  try {
    const res = await fetch("/api/" + path, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}), signal: stop.signal,
    });
    let data = null;
    try { data = await res.json(); } catch (err) { data = null; }
    if (!res.ok) {
      // `plain`: the refusal in the family's words, where `error` is the API's.
      showError(box, (data && (data.plain || data.error)) || `error ${res.status}`);
      return null;
    }
    box.textContent = "";
    render(data);
    return data;
  } catch (err) {
    sayNoConnection(box, NO_ANSWER);
    return null;
  } finally {
    postsUnderWay.delete(stop);
    if (!postsUnderWay.size) postedOn = null;
  }
}

function showError(box, message) {
  box.textContent = message;
  toast(message, true);
}

let toldNews = null;       // the news last said (or, on opening the page, found there)

/** Words a screen reader says without a tap, once each: the same news again is not.
 * `quietly`: only noted (what the page opens on is not news). */
function announce(words, quietly) {
  if (words === toldNews) return;
  toldNews = words;
  if (words && !quietly) $("news").textContent = words;
}

const DIE_WORDS = ["not read", "1", "2", "3", "4", "5", "6"];

/** A throw read, in words: whose, its dice, and which of them to check. Nothing for a
 * throw already told or one no longer counting. */
function throwNews(r) {
  if (!r || (r.status !== "waiting" && r.status !== "scored")) return "";
  const dice = r.dice.map((d) => DIE_WORDS[d.value || 0]);
  const listed = dice.length > 1 ? `${dice.slice(0, -1).join(", ")} and ${dice[dice.length - 1]}` : dice.join("");
  const unsure = r.dice.map((d, i) => (d.flagged || d.value == null ? i + 1 : 0)).filter(Boolean);
  return `${r.player ? r.player + "'s throw" : "A throw"} read: ${listed}.` +
    (unsure.length ? ` ${unsure.length === 1 ? "Die" : "Dice"} ${unsure.join(" and ")} to be checked.` : "");
}

// The list of actions dropped after corrections, as last drawn (null: not drawn yet).
let droppedShown = null;
let trayUnmarked = null;     // the page's own words for a tray not marked yet

/** What corrections dropped, for the whole game: open when a correction has just dropped
 * more, folded to one line otherwise (on a page opened later, or a turn after), so old
 * news does not stay in the way. Redrawn only when it changes: a person's fold stays. */
function renderDropped(dropped) {
  const key = JSON.stringify(dropped);
  if (key === droppedShown) return;
  const grew = droppedShown !== null && dropped.length > JSON.parse(droppedShown).length;
  droppedShown = key;
  $("dropped").innerHTML = dropped.length ? `<details${grew ? " open" : ""}><summary><b>Dropped after a ` +
    `correction (${dropped.length})</b></summary><ul>` + dropped.map((d) =>
    `<li>action ${esc(d.action)}: ${esc(d.type)}${d.player ? " by " + esc(d.player) : ""} — ${esc(d.reason)}</li>`).join("") +
    `</ul></details>` : "";
}

/** Whether the waiting throw holds another number of dice than the game expects. */
function countOff(s) {
  const expected = s.game && s.game.next ? s.game.next.dice : null;
  return Boolean(s.reading && s.reading.status === "waiting" && expected && s.reading.dice.length !== expected);
}

// A waiting throw with a die read as no value (a picture face not taught yet, a die seen
// edge-on) cannot be confirmed as read: that die's value is wanted first.
function valueMissing(s) {
  return Boolean(s.reading && s.reading.status === "waiting" && s.reading.dice.some((d) => d.value == null));
}

function renderStatus(s) {
  const g = s.game;
  let html = "";
  // A game kept by an earlier version that these rules cannot replay: said, not hidden.
  if (!g) html = s.table.not_continued ? `${esc(s.table.not_continued)}. Start a new game below.` : "No game in progress: start one below.";
  else if (g.finished) {
    // Pub Chicago finds a loser, the other families a winner.
    html = g.winner ? `<b>${esc(g.winner)}</b> wins. Start a new game below.`
      // Tschigg: the Sand lid that ended the game may still be kept, which plays on.
      : g.loser && g.sand_lid ? `<b>${esc(g.loser)}</b> loses, unless ${esc(g.sand_lid.giver)} keeps the lid (below).`
      : g.loser ? `<b>${esc(g.loser)}</b> loses. Start a new game below.`
      // Sum Chicago's top players tied and left (RULES.md §1): the tablet said only "Game
      // over." with no next step, where the TV says why.
      : "Game over, with no single winner. Start a new game below.";
  }
  else {
    const n = g.next || {};
    // Sum Chicago with two throws a round: a miss earns a second, said as the TV says it.
    const again = g.family === "sum_chicago" && n.throw === 2 ? "second " : "";
    if (n.player) html = n.dice ? `<b>${esc(n.player)}</b>'s ${again}throw (${n.dice} ${n.dice === 1 ? "die" : "dice"})` : `<b>${esc(n.player)}</b> to play`;
    else html = g.family === "card_chicago" ? "The hands are entered next" : "Waiting";
    if (g.family === "sum_chicago" && g.target != null) html += ` · round ${g.round} of ${g.rounds}, target ${g.target}`;
    // Who is in it, as the TV says: on the tablet only the thrower's name showed.
    else if (g.family === "sum_chicago" && g.tie_break) html += ` · tie-break of ${namesSaid(g.tie_break.players)}: the highest sum wins`;
    else if (g.family === "ten_thousand") html += tenThousandStage(g);
  }
  $("status").innerHTML = html;
  // A throw of the wrong number of dice cannot be confirmed as read: say what can be done.
  $("note").textContent = s.table.waiting ? s.table.message + (countOff(s)
    ? " — take away what is not a die, add a die the camera missed, enter the throw by hand, or throw again."
    : valueMissing(s) ? " — tap each die marked ? to give its value, enter the throw by hand, or throw again."
    : " — confirm it, tap a die, enter the throw by hand, or throw again.") : "";
  // The source's own line says which camera this is and why (for "auto": why the Pi
  // camera or a webcam was passed over), which is what a person checking the set-up needs.
  // A camera that gives no picture, or is being opened again, reads no throw: said, with
  // what to do meanwhile; once back, why it was opened again (a webcam that keeps hanging).
  // One whose frames all show the same picture (a stuck webcam) is said as stuck, and one
  // that gives a picture only every few seconds as slow: its throws come late.
  const stalled = s.camera.stalled_s != null;
  $("camera").textContent = g && g.family === "card_chicago" ? "" : s.camera.name ? `camera: ${s.camera.name}` +
    (s.camera.moving ? " · rolling…" : "") +
    (stalled ? (s.camera.frozen
      ? ` · the camera's picture has not changed for ${s.camera.stalled_s} s: it seems stuck: check its cable, and if it stays stuck, restart dicetray`
      : ` · the camera has given no picture for ${s.camera.stalled_s} s`) : "") +
    (s.camera.slow_s && !stalled ? ` · the camera is slow: a picture only every ${s.camera.slow_s} s, so throws are scored late (a dim room, or a slow USB port?)` : "") +
    (s.camera.error ? ` · ${s.camera.error}` : "") +
    (stalled || s.camera.reopening ? " · enter throws by hand meanwhile" : "") +
    (s.camera.back_from && !s.camera.error ? ` · the camera is back after: ${s.camera.back_from}` : "") +
    (s.camera.message ? ` · ${s.camera.message}` : "") :
    (s.camera.message || "");
  // The camera's picture, to aim it by and to mark the tray on.
  const camera = s.camera.running && !(g && g.family === "card_chicago");
  $("camerarow").style.display = camera ? "" : "none";
  // Unmarked, a die leaning on the wall is caught only by its looks: with the outline,
  // simulated trays scored 36 leaning dice of 215 instead of 57 (vision/training/README.md).
  $("traynote").style.display = camera && !s.camera.tray ? "" : "none";
  // An outline an earlier version took, refused now, is said until the tray is marked again.
  if (trayUnmarked === null) trayUnmarked = $("traynote").textContent;
  $("traynote").textContent = s.camera.tray_note || trayUnmarked;
  const taught = s.camera.pictures || 0;
  $("forgetpictures").style.display = taught ? "" : "none";
  $("forgetpictures").textContent = taught === 1 ? "Forget 1 taught picture" : `Forget all ${taught} taught pictures`;
  // Like the camera's row (their "Forget all" buttons), shown only while a camera reads
  // throws: not in Card Chicago, entered by hand.
  renderPictures(camera ? s.camera.picture_values || [] : []);
  renderKnownDice(camera ? s.camera.newest_known_dice || [] : []);
  const known = s.camera.known_dice || 0;
  $("forgetknown").style.display = known ? "" : "none";
  $("forgetknown").textContent = `Forget ${known} remembered ${known === 1 ? "die" : "dice"}`;
  followSavedTray(s.camera.tray);
  // Nothing saved, nothing to forget: a tap there on the first evening only asked.
  $("trayforget").style.display = s.camera.tray ? "" : "none";
  $("viewchanged").style.display = s.camera.view_changed ? "" : "none";
  // Only the empty tray taken, no outline, or the tray marked again since: there is no
  // outline to mark (again).
  $("viewchanged").textContent = "The empty tray no longer looks like its picture, and not " +
    "as if it had only been pushed aside: if the camera was turned or raised, " +
    (s.camera.tray && !s.camera.empty_tray_stale
    ? "mark the tray and take it empty again (until then dice outside the old outline are not read)."
    : "take the tray empty again.");
  $("emptyforget").style.display = s.camera.empty_tray ? "" : "none";
  $("emptynote").textContent = s.camera.empty_tray ? "the empty tray is taken" : "";
  $("diceout").style.display = s.camera.can_roll ? "" : "none";
  const size = s.camera.die_size;
  $("diesizenote").textContent = dieSizeNote(size);
  // What the table knows of the tray, said beside the button (the notes above are inside
  // the tray's panel, shut most of the time).
  $("calsummary").textContent = !camera ? "" : [s.camera.tray ? "tray marked" : "",
    s.camera.empty_tray ? "empty tray taken" : "",
    size && size.status === "set" ? `dice ${size.px} px` : ""].filter(Boolean).join(" · ");
  $("diesizeagain").style.display = size && size.status === "set" ? "" : "none";
  const canUndo = g && (g.next.actions || []).includes("undo");
  $("undo").disabled = !canUndo;
  $("rollforme").style.display = s.camera.can_roll ? "" : "none";
  // Only when a throw is due: while a player chooses (10000's keep, Pub Chicago's
  // announcement) a tap would only be refused.
  $("rollforme").disabled = !(g && g.next && g.next.player && g.next.dice &&
    (g.next.actions || []).includes("roll"));
  renderDropped(g && g.dropped ? g.dropped : []);
  // Card Chicago has no dice: the tray and hand entry would only be in the way.
  const dice = !g || g.family !== "card_chicago";
  $("traysection").style.display = dice ? "" : "none";
  $("handsection").style.display = dice ? "" : "none";
}

// 10000's last turns, said as the TV says them: in the final round or a tie-break a turn
// is the player's last chance, and the tablet in hand showed it as any other turn.
function tenThousandStage(g) {
  if (g.tie_break) return ` · tie-break round ${g.tie_break.round}: ${g.tie_break.players.map(esc).join(" vs ")}`;
  if (g.final_round) return ` · final round: ${esc(g.final_round.reached_by)} reached ${g.target}`;
  return "";
}

// The game's rules with the options in force and the project's decisions (RULES.md: a
// decision is shown in the game's help so players know). Rebuilt only when they change,
// so an opened list stays open through the live updates.
let shownRules = null;

function renderRules(s) {
  const help = s.game && s.game.help ? s.game.help : [];
  const key = JSON.stringify(help);
  if (key === shownRules) return;
  shownRules = key;
  $("rules").style.display = help.length ? "" : "none";
  $("ruleslist").innerHTML = help.map((line) => `<li>${esc(line)}</li>`).join("");
}

// How the die size stands (web/table.py: _die_size).
function dieSizeNote(size) {
  if (!size) return "";
  if (size.status === "set") return `dice are read at ${size.px} px across`;
  if (size.status === "differ") return `the dice differ in size (${Math.round(size.agree * 100)} % ` +
    `agree, ${Math.round(size.agree_needed * 100)} % needed): each is read at its own size`;
  if (size.status === "agreed") return "the dice agree on a size, but the calibration file " +
    "could not be written: it is tried again at the next throw";
  const again = size.stale ? `the dice looked ${size.stale} than the size measured before, ` +
    "so they are measured again: " : "";
  return again + `measuring the dice: ${size.dice} of ${size.needed} read surely, ` +
    `in ${size.throws} of ${size.throws_needed} throws`;
}

/** What became of a throw that counts, in the family's words: a missed first throw of
 * Tupla-Chicago is not scored, its second throw is (RULES.md §1). */
function throwStatus(s, status, action) {
  const roll = s.game && s.game.last_roll;
  if (status !== "scored" || !roll || roll.action !== action || roll.counted !== false) return status;
  return secondThrowDue(s.game) ? "missed, second throw to come" : "missed";
}

/** Which throw the tray shows, so a picker open on another one is closed: the camera's
 * reading by its id, a throw entered by hand by its place in the game's log. */
function trayThrowKey(s) {
  if (s.hand_throw) return `hand ${s.hand_throw.action}`;
  return s.reading ? s.reading.id : null;
}

// The latest throw, entered by hand: shown as a camera's throw is, its dice tapped to
// put one right (a family expects the same tap, however the throw came in).
function renderHandThrow(s, ignored) {
  const h = s.hand_throw;
  $("reading").innerHTML = ignored + `<div class="muted">Entered by hand for ${esc(h.player)}: ` +
    `${esc(throwStatus(s, "scored", h.action))} · tap a die to correct it</div>` +
    `<div class="dice">` + h.dice.map((v, i) =>
      `<button type="button" class="diebutton" data-die="${i}">${dieSVG(v)}</button>`).join("") + `</div>`;
  $("readingpicture").replaceChildren();
  $("confirm").style.display = "none";
  $("reading").querySelectorAll("[data-die]").forEach((el) => {
    el.addEventListener("click", () => openPicker(Number(el.dataset.die), false));
  });
  if (typeof picking === "number" && picking >= h.dice.length) closePicker();
}

function renderReading(s) {
  const r = s.reading;
  const box = $("reading");
  // The camera saw dice when no throw was expected: said, but the throw shown stays.
  const ignored = s.table.ignored ? `<div class="muted" id="ignored">${esc(s.table.ignored)}</div>` : "";
  // A picker opened on a throw that another has replaced would correct the one gone.
  if (picking !== null && trayThrowKey(s) !== pickingReading) closePicker();
  if (s.hand_throw) return renderHandThrow(s, ignored);
  if (!r) {
    box.innerHTML = ignored + `<span class="muted">No reading yet.</span>`;
    $("readingpicture").replaceChildren();
    $("confirm").style.display = "none";
    return;
  }
  const who = r.player ? ` for ${esc(r.player)}` : "";
  const waiting = r.status === "waiting";
  // A die the camera missed: the throw is short of what the game expects.
  const expected = s.game && s.game.next ? s.game.next.dice : null;
  const short = waiting && expected != null && r.dice.length < expected;
  // Only a throw that counts (scored) or waits can be corrected; one undone, dropped
  // after a correction or replaced by another is shown, not offered.
  const tappable = waiting || r.status === "scored";
  const gone = r.status === "undone" || r.status === "dropped" ? " · it no longer counts" : "";
  if (!tappable) closePicker();
  // The picture shown is kept and given the new throw's: while that loads, the old one
  // holds its place (a new element is empty until then, and the page below jumped up).
  // It comes below Confirm: on a phone, Confirm under it was a screen below the dice.
  const frame = $("readingpicture");
  const picture = frame.querySelector("img.readingpic");
  box.innerHTML = ignored + `<div class="muted">Reading ${r.id}${who}: ${esc(throwStatus(s, r.status, r.action))}` +
    (tappable ? " · tap a die to correct it" : gone) + `</div>` +
    `<div class="dice">` + r.dice.map((d, i) =>
      `<button type="button" class="diebutton" data-die="${i}" title="${esc(d.reason || "")}">${dieSVG(d.value, d)}</button>`).join("") +
    (short ? `<button class="secondary" id="adddie" title="a die the camera missed">+ missed die</button>` : "") +
    `</div>`;
  // The throw as the camera saw it, dice boxed and numbered as above: which die is which.
  if (s.table.picture) {
    const img = picture || Object.assign(document.createElement("img"),
      { className: "readingpic", alt: "the throw as the camera saw it" });
    const src = `/api/readings/${r.id}/picture.jpg?dice=${r.dice.map((d) => (d.value || 0) + (d.flagged ? "f" : "")).join("-")}`;
    if (img.getAttribute("src") !== src) img.src = src;
    if (!picture) frame.appendChild(img);
  } else frame.replaceChildren();
  if (tappable) box.querySelectorAll("[data-die]").forEach((el) => {
    el.addEventListener("click", () => openPicker(Number(el.dataset.die), waiting));
  });
  if (short) $("adddie").addEventListener("click", () => openPicker(null, true));
  $("confirm").style.display = waiting && !countOff(s) && !valueMissing(s) ? "" : "none";
  if (typeof picking === "number" && picking >= r.dice.length) closePicker();
  if (picking === "add" && !short) closePicker();
}

// A throw waiting for a person comes first, under the status: on a phone it and its
// Confirm lay a screen below the player's choice, whose "Roll" was the button in sight.
function putWaitingThrowFirst(waiting) {
  const tray = $("traysection");
  const before = waiting ? $("othersection") : $("handsection");
  if (tray.nextElementSibling !== before) before.before(tray);
}

// Die i's value, or with i null the value of a die the camera missed; a die of a
// waiting reading can also be taken away ("not a die": a pen, a shadow).
function openPicker(i, waiting) {
  picking = i == null ? "add" : i;
  pickingReading = trayThrowKey(state);
  const hand = state.hand_throw;
  const p = $("picker");
  // A logo the reader has not been taught: the value picked can be remembered, so the
  // next throws read that picture by themselves.
  const teachable = !hand && i != null && (state.table.teachable || []).includes(i);
  const what = i == null ? "The missed die shows:" :
    teachable ? `Die ${i + 1} shows a picture; it stands for:` : `Die ${i + 1} shows:`;
  p.innerHTML = `<span class="muted">${what}</span>` + [1, 2, 3, 4, 5, 6].map((v) =>
    `<button type="button" class="diebutton" data-value="${v}">${dieSVG(v)}</button>`).join("") +
    (teachable ? `<label class="teach"><input type="checkbox" id="teach" checked> remember this picture</label>` : "") +
    (i != null && waiting ? `<button class="secondary" id="notadie">Not a die</button>` : "") +
    `<button class="secondary" id="pickcancel">Cancel</button>`;
  p.classList.add("open");
  p.setAttribute("aria-label", what);
  // The keyboard's focus goes to the die's value as read (Escape or Cancel gives it back).
  // The dice as shown when the picker opened: if another screen takes a die away
  // meanwhile, "die i" is another die, and the table refuses the tap instead.
  const seen = hand ? [...hand.dice] : state.reading.dice.map((d) => (d.value == null ? null : d.value));
  const shown = i == null ? null : seen[i];
  (p.querySelector(`button[data-value="${shown}"]`) || p.querySelector("button[data-value]")).focus();
  const id = hand ? null : state.reading.id;
  // A throw entered by hand is corrected by its place in the log, in the game shown.
  const handFix = hand ? { action: hand.action, seen, ...gameShown() } : null;
  // Buttons only: the die drawn inside each button carries data-value too.
  p.querySelectorAll("button[data-value]").forEach((el) => el.addEventListener("click", async () => {
    const value = Number(el.dataset.value);
    const teach = teachable && $("teach").checked;
    closePicker();
    await post("correct", handFix ? { ...handFix, dice: seen.map((v, k) => (k === i ? value : v)) } :
      i == null ? { reading: id, add: value, seen } :
      teach ? { reading: id, die: i, value, teach: true, seen } : { reading: id, die: i, value, seen },
      $("trayerror"));
  }));
  if (i != null && waiting) $("notadie").addEventListener("click", async () => {
    closePicker();
    await post("correct", { reading: id, remove: i, seen }, $("trayerror"));
  });
  $("pickcancel").addEventListener("click", closePicker);
}

// Each taught picture beside the value it stands for: one named wrongly is forgotten
// alone. Rebuilt only when the list changes (the pictures are fetched afresh then, as
// picture N is another one once an earlier one is forgotten).
let shownPictures = null;

function renderPictures(values) {
  const key = values.join(",");
  if (key === shownPictures) return;
  shownPictures = key;
  const fresh = Date.now();
  renderFolded($("pictures"), "Taught pictures", values.map((v, i) =>
    `<span class="taught" data-picture="${i}"><img src="/api/pictures/${i}.png?t=${fresh}" ` +
    `alt="taught picture ${i + 1}"> is ${v} <button class="secondary" data-forget="${i}" ` +
    `aria-label="forget taught picture ${i + 1}">Forget</button></span>`));
}

// The newest remembered dice beside their values: one remembered with a wrong value (a
// slip when checking a throw) is forgotten alone. Rebuilt only when the list changes.
let shownKnown = null;

function renderKnownDice(newest) {
  const key = newest.map(([i, v]) => `${i}:${v}`).join(",");
  if (key === shownKnown) return;
  shownKnown = key;
  const fresh = Date.now();
  renderFolded($("knowndice"), "Newest remembered dice", newest.map(([i, v]) =>
    `<span class="taught" data-known="${i}"><img src="/api/known-dice/${i}.png?t=${fresh}" ` +
    `alt="remembered die ${i + 1}"> is ${v} <button class="secondary" data-forgetknown="${i}" ` +
    `aria-label="forget remembered die ${i + 1}">Forget</button></span>`));
}

/** What the reader keeps (taught pictures, remembered dice), each with its own Forget,
 * folded under one line: open, the six dice of one checked throw took a phone's screen
 * above the game's own buttons. A list opened stays open when it is drawn again. */
function renderFolded(box, title, items) {
  const open = box.querySelector("details[open]") ? " open" : "";
  box.style.display = items.length ? "" : "none";
  box.innerHTML = items.length ? `<details${open}><summary>${title} (${items.length})</summary>` +
    `<div class="row">${items.join("")}</div></details>` : "";
}

// The tray's outline, tapped corner by corner on the camera's picture (frame pixels).
let trayCorners = [];
// The corners shown are the saved outline, untouched: a tap starts a new outline rather
// than adding a fifth corner to the old one (marking the tray again after the camera
// moved), while "Undo a corner" edits the saved one.
let traySaved = false;
// The saved outline those corners were begun over (JSON): corners kept across a reload are
// dropped once another screen has saved or forgotten an outline since.
let trayBase = "null";

// While the tray's picture is open it is the camera's picture now, not the one it opened
// with: taking the dice out or the empty tray there must show the tray as it is.
const TRAY_PICTURE_EVERY_MS = 2000;
let trayTimer = null;

function openTray() {
  // Tapped again while open: the corners tapped so far stay.
  if ($("trayview").style.display !== "none") return;
  showSavedTray();
  const img = $("trayimg");
  // No picture (a camera that has given none yet): said, not a broken image to tap on.
  img.onload = () => { showTrayPicture(true); weighTrayDraft(); drawTray(); };
  img.onerror = () => showTrayPicture(false);
  img.src = "/api/frame.jpg?t=" + Date.now();
  $("calerror").textContent = "";
  $("trayview").style.display = "";
  $("marktray").setAttribute("aria-expanded", "true");
  $("trayview").focus();       // a screen reader reads the panel's instructions from here
  clearInterval(trayTimer);
  trayTimer = setInterval(newTrayPicture, TRAY_PICTURE_EVERY_MS);
}

// An outline saved while the panel is open (on another tablet, or moved with a bumped
// tray) is drawn in place of the one it opened with, unless a new one is being tapped:
// "Save the outline" would otherwise put the old one back.
function followSavedTray(tray) {
  if ($("trayview").style.display === "none" || !(traySaved || !trayCorners.length)) return;
  const saved = (tray || []).map((p) => p.slice());
  if (JSON.stringify(saved) === JSON.stringify(trayCorners)) return;
  trayCorners = saved;
  traySaved = saved.length > 0;
  trayBase = JSON.stringify(tray || null);
  drawTray();
}

/** The outline the table keeps, drawn as saved (none: no corners). */
function showSavedTray() {
  trayCorners = (state.camera.tray || []).map((p) => p.slice());
  traySaved = trayCorners.length > 0;
  trayBase = JSON.stringify(state.camera.tray || null);
  drawTray();
}

// Corners tapped and not saved, kept in this tab's storage: a tablet drops a tab left in
// the background, and the corners were gone when the family came back to it.
const TRAY_DRAFT = "dicetray.trayCorners";
// Those found on opening the page, until the camera's picture shows whether they still fit.
let trayDraft = readTrayDraft();

function readTrayDraft() {
  try {
    const draft = JSON.parse(sessionStorage.getItem(TRAY_DRAFT));
    return draft && Array.isArray(draft.corners) && draft.corners.length ? draft : null;
  } catch (err) {
    return null;    // no storage (a private window), or words it cannot read: none kept
  }
}

/** Keep the corners shown in this tab's storage while they are not saved. */
function keepTrayDraft(w, h) {
  if (trayDraft) return;        // the one found on opening is kept until it is weighed
  if (traySaved || !trayCorners.length) {
    dropTrayDraft();
    return;
  }
  try {
    sessionStorage.setItem(TRAY_DRAFT, JSON.stringify({ size: [w, h], base: trayBase, corners: trayCorners }));
  } catch (err) {
    // No storage: the corners live as long as the page, as before.
  }
}

function dropTrayDraft() {
  try { sessionStorage.removeItem(TRAY_DRAFT); } catch (err) { /* no storage: none kept */ }
}

/** Corners kept from before a reload, drawn again if they still fit the picture, else
 * dropped with a word: never laid on a camera that may have moved. */
function weighTrayDraft() {
  const draft = trayDraft;
  if (!draft) return;
  trayDraft = null;
  const img = $("trayimg");
  const n = draft.corners.length;
  const tapped = `The ${n === 1 ? "corner" : `${n} corners`} tapped before the page reloaded`;
  if (JSON.stringify(draft.size) !== JSON.stringify([img.naturalWidth, img.naturalHeight])) {
    sayTrayDraft(`${tapped} ${n === 1 ? "was" : "were"} dropped: the camera's picture has another size now. Tap the corners again.`);
  } else if (draft.base !== JSON.stringify(state.camera.tray || null)) {
    sayTrayDraft(`${tapped} ${n === 1 ? "was" : "were"} dropped: the outline was changed on another screen since.`);
  } else {
    trayCorners = draft.corners;
    traySaved = false;
    trayBase = draft.base;
    sayTrayDraft(`${tapped} ${n === 1 ? "is" : "are"} back: save them, or start over.`);
  }
}

function sayTrayDraft(words) {
  $("traydraft").textContent = words;
  $("traydraft").style.display = words ? "" : "none";
}

function closeTray() {
  // Left unsaved after the question: not brought back by a reload either.
  if (!traySaved) dropTrayDraft();
  clearInterval(trayTimer);
  trayTimer = null;
  const hadFocus = $("trayview").contains(document.activeElement);
  $("trayview").style.display = "none";
  $("marktray").setAttribute("aria-expanded", "false");
  if (hadFocus) $("marktray").focus();
}

// Escape closes what the page opened over itself: a die's value picker, else the tray's panel.
function closeOnEscape(ev) {
  if (ev.key !== "Escape") return;
  if (picking !== null) closePicker();
  else if ($("trayview").style.display !== "none") leaveTray();
}

// Corners tapped and not saved are asked about before they go: a family closing the
// panel to look at the game would otherwise find them gone when they came back.
function leaveTray() {
  if (!traySaved && trayCorners.length && !window.confirm("Leave without saving the outline?")) return;
  closeTray();
}

// After a refused outline (or a slip), every corner goes in one tap.
function startTrayOver() {
  trayCorners = [];
  traySaved = false;
  $("calerror").textContent = "";
  sayTrayDraft("");
  drawTray();
}

function showTrayPicture(shown) {
  $("trayimg").parentElement.style.display = shown ? "" : "none";
  $("traynopicture").style.display = shown ? "none" : "";
}

// The camera's picture asked for and not come yet (null: none).
let trayPictureComing = null;

// Loaded aside, then shown: the picture being tapped on never goes blank meanwhile.
// Not asked again while the last one is still coming: on a slow Wi-Fi one picture takes
// longer than the pause between them, and they queued up, each older than the one
// before when it came, and a tap on "Save the outline" waited behind them.
function newTrayPicture() {
  if (trayPictureComing || !$("trayimg").complete) return;
  const next = new Image();
  trayPictureComing = next;
  next.onload = () => { trayPictureComing = null; $("trayimg").src = next.src; };
  next.onerror = () => { trayPictureComing = null; };
  next.src = "/api/frame.jpg?t=" + Date.now();
}

function drawTray() {
  sayTrayState();
  $("traykeys").style.display = crossShown ? "" : "none";
  const img = $("trayimg");
  const w = img.naturalWidth, h = img.naturalHeight;
  if (!w) return;
  keepTrayDraft(w, h);
  const svg = $("trayshape");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.classList.toggle("saved", traySaved);
  const points = trayCorners.map((p) => p.join(",")).join(" ");
  // Each corner a dot 12 px across on the screen: drawn in the picture's pixels, a dot of
  // a 120th of its width came out 5 px across on a phone, hard to see under a finger.
  const r = 6 * w / (img.getBoundingClientRect().width || w);
  svg.innerHTML = (trayCorners.length > 1 ? `<polygon points="${points}"/>` : "") +
    trayCorners.map((p) => `<circle cx="${p[0]}" cy="${p[1]}" r="${r}"/>`).join("") +
    (crossShown ? crossLines(w, h) : "");
}

// Whether the corners shown are the saved outline or taps still to be saved.
function sayTrayState() {
  const n = trayCorners.length;
  $("traystate").textContent = !n ? "" : traySaved ? "This outline is saved." :
    `${n} ${n === 1 ? "corner" : "corners"} tapped, not saved yet.`;
  $("trayundo").disabled = !n;
  $("trayrestart").disabled = !n;
}

function tapTray(ev) {
  const img = $("trayimg");
  const r = img.getBoundingClientRect();
  if (!img.naturalWidth || !r.width) return;
  placeCorner(Math.round((ev.clientX - r.left) * img.naturalWidth / r.width),
    Math.round((ev.clientY - r.top) * img.naturalHeight / r.height));
}

/** A corner at (x, y) in the picture's pixels: the first after a saved outline starts a new one. */
function placeCorner(x, y) {
  if (traySaved) trayCorners = [];
  traySaved = false;
  trayCorners.push([x, y]);
  sayTrayDraft("");
  drawTray();
}

function undoCorner() {
  trayCorners.pop();
  traySaved = false;
  drawTray();
}

// The keyboard's cross on the picture, in percent of its width and height: whole steps
// a screen reader can say, and the same on any camera's picture size.
const cross = { x: 50, y: 50 };
let crossShown = false;     // while the picture holds the keyboard's focus
const CROSS_KEYS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
const CROSS_BIG_STEP = 10;

function crossLines(w, h) {
  const x = cross.x * w / 100, y = cross.y * h / 100;
  const lines = `<line x1="${x}" y1="0" x2="${x}" y2="${h}"/><line x1="0" y1="${y}" x2="${w}" y2="${y}"/>`;
  // A dark line under a light one: seen on a white tray and on a black one alike.
  return `<g class="cross under">${lines}</g><g class="cross">${lines}</g>`;
}

function crossPixels() {
  const img = $("trayimg");
  return [Math.round(cross.x * img.naturalWidth / 100), Math.round(cross.y * img.naturalHeight / 100)];
}

function crossWords() {
  return `${cross.x} % across, ${cross.y} % down`;
}

/** Arrow keys move the cross, Enter or Space places a corner there, Backspace takes the
 * last corner back; each said to a screen reader, which cannot see the picture. */
function keyOnTray(ev) {
  if (!$("trayimg").naturalWidth) return;
  const move = CROSS_KEYS[ev.key];
  crossShown = true;
  let said;
  if (move) {
    const step = ev.shiftKey ? CROSS_BIG_STEP : 1;
    cross.x = Math.min(100, Math.max(0, cross.x + move[0] * step));
    cross.y = Math.min(100, Math.max(0, cross.y + move[1] * step));
    said = `Cross at ${crossWords()}.`;
  } else if (ev.key === "Enter" || ev.key === " ") {
    placeCorner(...crossPixels());
    said = `Corner ${trayCorners.length} placed at ${crossWords()}.`;
  } else if (ev.key === "Backspace") {
    said = trayCorners.length ? `Corner ${trayCorners.length} taken back.` : "No corner to take back.";
    if (trayCorners.length) undoCorner();
  } else {
    return;
  }
  ev.preventDefault();       // not the page scrolled, nor a button under the focus pressed
  drawTray();
  $("traycross").textContent = said;
}

function showCross(shown) {
  crossShown = shown;
  drawTray();
}

// The panel stays open once saved: the next step, taking the tray empty, is below.
async function saveTray(corners) {
  if (await post("tray", { tray: corners, ...calibrationShown() }, $("calerror"))) showSavedTray();
}

/** The calibration as this page knows it, sent with a change to it: one held up on the
 * way must not undo the outline (or empty tray) another tablet saved meanwhile. */
function calibrationShown() {
  return state ? { calibration: state.camera.calibration_revision } : {};
}

function closePicker() {
  // The die that opened the picker takes the focus back from it, as a dialog gives it back.
  const opener = picking === "add" ? "#adddie" : `#reading [data-die="${picking}"]`;
  const hadFocus = $("picker").contains(document.activeElement);
  picking = null;
  $("picker").classList.remove("open");
  $("picker").innerHTML = "";
  if (hadFocus && document.querySelector(opener)) document.querySelector(opener).focus();
}

// The game's number of actions when a die of the throw being entered was first tapped:
// sent with the throw, so one entered on a screen while another scored a throw is
// refused (and shown again) instead of being scored for the next player.
let handAt = null;
// The game those dice were tapped in: a game started meanwhile (on a tablet that was
// offline, say) counts its actions from 0 again, and may reach the number tapped at.
let handGame = null;
let handNoteAt = null;     // the action count when that was said (null: nothing said)

function renderHand(s) {
  const n = s.game && s.game.next ? s.game.next.dice || 0 : 0;
  if (handDice.length !== n) { handDice = Array(n).fill(1); handAt = null; }
  if (handNoteAt !== null && s.game && s.game.actions !== handNoteAt) {
    handNoteAt = null;                      // the note below is about a throw gone by
    $("handerror").textContent = "";
  }
  if (handAt !== null && s.game && (s.game.actions !== handAt || s.table.game_id !== handGame)) {
    // A throw was scored since the first die was tapped (by the camera, or on another
    // screen): the dice being entered may have been for it. Said, before "Score" sends
    // them for the player now shown; a tap on "Score" already on its way is refused.
    handAt = null;
    handNoteAt = s.game.actions;
    $("handerror").textContent = "The game changed meanwhile: check these dice are " +
      `${s.game.next && s.game.next.player ? s.game.next.player + "'s" : "the next throw"} before scoring them.`;
  }
  const box = $("hand");
  box.innerHTML = n ? handDice.map((v, i) => `<button type="button" class="diebutton" data-hand="${i}">${dieSVG(v)}</button>`).join("") +
    `<button id="handgo">Score this throw</button>` : `<span class="muted">No throw expected.</span>`;
  box.querySelectorAll("[data-hand]").forEach((el) => el.addEventListener("click", () => {
    const i = Number(el.dataset.hand);
    if (handAt === null) [handAt, handGame] = [state.game.actions, state.table.game_id];
    handDice[i] = handDice[i] % 6 + 1;       // tap cycles 1 → 6 → 1
    el.innerHTML = dieSVG(handDice[i]);
  }));
  if (n) $("handgo").addEventListener("click", async () => {
    // Back to ones for the next throw, on the page too: the live event that drew the new
    // state may have come before this answer, and the dice shown must be those sent.
    const shown = handAt === null ? gameShown() : { actions: handAt, game: handGame };
    handAt = null;
    if (await post("roll", { dice: handDice, ...shown }, $("handerror"))) {
      handDice = [];
      renderHand(state);
      keepFormInView();       // what to keep from the throw is decided up there
    }
  });
}

// Pub Chicago counts strokes or lids, not points: "Aino: 2" was read as two points.
function scoreWords(p) {
  if (p.strokes != null) return plural(p.strokes, "stroke");
  return p.lids != null ? plural(p.lids, "lid") : String(p.score);
}

function renderPlayers(s) {
  const g = s.game;
  const box = $("players");
  if (!g) { box.innerHTML = ""; return; }
  const canLeave = (g.next.actions || []).includes("leave");
  box.innerHTML = g.players.map((p) => `<span class="row">${esc(p.name)}: ${esc(scoreWords(p))}` +
    (p.active === false ? " (left)" : "") +
    // The button says whose: a row of names and "leave" buttons left it unclear.
    (canLeave && p.active !== false ? ` <button class="secondary" data-leave="${esc(p.name)}">${esc(p.name)} leaves</button>` : "") +
    `</span>`).join(" ");
  box.querySelectorAll("[data-leave]").forEach((el) => el.addEventListener("click",
    () => post("leave", { player: el.dataset.leave }, $("playererror"))));
  const canJoin = (g.next.actions || []).includes("join");
  $("joinrow").style.display = canJoin ? "" : "none";
  // Said, or a family whose player must go to bed looks for a Leave that is not there
  // (RULES.md: only Sum Chicago's players join and leave mid-game).
  $("playersfixed").style.display = g.family !== "sum_chicago" && !g.finished ? "" : "none";
}

// Actions the page has its own controls for; any other a family offers gets a button.
const HANDLED = ["roll", "undo", "correct", "join", "leave"];

let formShown = null;      // the game state the family form was last drawn from

/** A field of ``box`` being typed in, found again once ``box`` is drawn afresh (another
 * screen's tap redraws the form): returns what puts the focus and caret back, so the
 * next keys still go where the person is typing. */
function typingIn(box) {
  const el = document.activeElement;
  if (!el || el.tagName !== "INPUT" || !box.contains(el)) return () => {};
  const which = el.id ? `#${CSS.escape(el.id)}` : el.dataset.hand != null ? `[data-hand="${CSS.escape(el.dataset.hand)}"]` : null;
  const [start, end] = [el.selectionStart, el.selectionEnd];
  return () => {
    const again = which && box.querySelector(which);
    if (!again) return;
    again.focus();
    if (start != null) again.setSelectionRange(start, end);
  };
}

function renderOther(s) {
  const g = s.game;
  if (g && FORMS[g.family]) {
    // A finished game may still leave a choice (Card Chicago: a four that can zero the winner).
    $("othersection").style.display = g.finished && !(g.next.actions || []).some((t) => !HANDLED.includes(t)) ? "none" : "";
    $("othertitle").textContent = g.family === "card_chicago" ? "At the table" : "The player's choice";
    // Redraw only when the game changed: camera news must not wipe a hand being typed.
    const shown = JSON.stringify(g) + s.camera.can_roll;
    if (shown === formShown) return;
    formShown = shown;
    $("othererror").textContent = "";      // an error about the game before is stale now
    const typing = typingIn($("other"));
    FORMS[g.family]($("other"), g, s, formUI);
    typing();
    return;
  }
  formShown = null;
  renderGeneric(s);
}

/** Where a game action is posted, with the number of actions this page shows: the table
 * refuses it if the game changed meanwhile (two tablets tapping one trick's winner). */
function actionPath() {
  if (!state || !state.game) return "action";
  const shown = gameShown();
  return `action?actions=${shown.actions}&game=${shown.game}`;
}

/** The game as this page shows it, sent with a tap that acts on it: its number of
 * actions, and which game it is (a game started meanwhile counts from 0 again). */
function gameShown() {
  return state && state.game ? { actions: state.game.actions, game: state.table.game_id } : {};
}

/** What "Roll for me" is tapped on: the draw's throws or the game's actions as shown. A
 * tap sent again once its throw is scored (its answer lost) is refused, not thrown again. */
function rollShown() {
  return state && state.draw ? drawShown() : gameShown();
}

/** The draw for the starter as this page shows it: which draw (a Cancel or "Start the
 * game" sent again, its answer lost, must not end a draw begun since) and its throws. */
function drawShown() {
  return state && state.draw ? { draw: state.draw.id, throws: state.draw.throws } : {};
}

/** After this screen's own tap, the family's form back in view: a long list (fourteen
 * ways to keep from 1 1 5 5 5 5) folded to Bank and Roll left a phone looking at the
 * new-game form below, and a throw entered by hand left it at the hand entry, the next
 * tap a screen above. */
function keepFormInView() {
  const section = $("othersection");
  if (section.getBoundingClientRect().top < 0) section.scrollIntoView({ block: "start" });
}

/** What a family form may do: post an action, show an error, have dice thrown. */
const formUI = {
  act: async (action) => {
    const answer = await post(actionPath(), action, $("othererror"));
    if (answer) keepFormInView();
    return answer;
  },
  redraw: (draw) => { const refocus = focusKept(); draw(); refocus(); },
  error: (message) => showError($("othererror"), message),
  throwDice: () => {
    if (state && state.camera.can_roll) return post("roll-for-me", rollShown(), $("othererror"));
    // A real camera reads the throw by itself; without one it is entered by hand.
    // A glide, unless the tablet is set to reduce motion (it makes some feel sick).
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    $("handsection").scrollIntoView({ behavior: still ? "auto" : "smooth", block: "center" });
    $("handsection").classList.add("flash");
    setTimeout(() => $("handsection").classList.remove("flash"), 1200);
    return null;
  },
};

// Any family without a form of its own: its actions as buttons with a JSON field.
function renderGeneric(s) {
  const g = s.game;
  const box = $("other");
  const types = g && g.next ? (g.next.actions || []).filter((t) => !HANDLED.includes(t)) : [];
  $("othersection").style.display = types.length ? "" : "none";
  if (!types.length) { box.innerHTML = ""; return; }
  const player = g.next.player;
  const html = `<div class="row">` + types.map((t) => `<button data-type="${esc(t)}">${esc(t.replace(/_/g, " "))}</button>`).join("") +
    `</div><label>details (JSON, for actions that need them)<input id="otherfields" size="50"></label>`;
  const typed = $("otherfields") ? $("otherfields").value : "";
  box.innerHTML = html;
  $("otherfields").value = typed;            // a live update must not wipe what is typed
  box.querySelectorAll("[data-type]").forEach((el) => {
    const t = el.dataset.type;
    el.addEventListener("click", () => {
      let fields = {};
      const text = $("otherfields").value.trim();
      if (text) {
        try { fields = JSON.parse(text); } catch (err) { showError($("othererror"), "details: not valid JSON"); return; }
      }
      post(actionPath(), Object.assign({ type: t }, player ? { player } : {}, fields), $("othererror"));
      $("otherfields").value = "";
    });
  });
}

// Sum Chicago's starter found by each throwing one die: while the draw runs the page is
// about it alone (the game before is not played on meanwhile), with Cancel back to the
// start form. The camera's reading of one die counts by itself; a die can also be tapped.
function renderDraw(s) {
  const draw = s.draw;
  // The style sheet shows the draw's section and hides the game's (and the start form)
  // while the body is "drawing"; the game's own show/hide is left as it was for after.
  document.body.classList.toggle("drawing", Boolean(draw));
  if (!draw) return;
  $("status").innerHTML = "Finding who starts Sum Chicago";
  $("note").textContent = "";
  $("undo").disabled = true;
  $("drawhead").innerHTML = drawHeadline(draw) + (draw.starter ? `<div class="muted">${drawSeating(draw)}</div>` : "");
  $("drawnote").textContent = draw.note || "";
  $("drawtable").innerHTML = drawTable(draw, "tiny");
  const thrower = draw.thrower;
  const hand = $("drawhand");
  hand.innerHTML = thrower ? `<span class="muted">${esc(thrower)}'s die, entered by hand:</span>` +
    [1, 2, 3, 4, 5, 6].map((v) => `<button type="button" class="diebutton" data-drawvalue="${v}">${dieSVG(v)}</button>`).join("") : "";
  // The thrower as shown goes along: a tap made after the camera counted their die is refused.
  hand.querySelectorAll("[data-drawvalue]").forEach((el) => el.addEventListener("click",
    () => post("draw/throw", { value: Number(el.dataset.drawvalue), player: thrower, draw: draw.id }, $("drawerror"))));
  $("drawstart").style.display = draw.starter ? "" : "none";
  $("drawroll").style.display = s.camera.can_roll && thrower ? "" : "none";
  $("drawtakeback").style.display = draw.last ? "" : "none";
  $("drawtakeback").textContent = draw.last ? `Take back ${draw.last.player}'s ${draw.last.value}` : "";
}

/** The control holding the keyboard's focus, found again once a new state has drawn its
 * part of the page afresh: the dice, players and forms are redrawn on each state, and the
 * focus fell back to the top of the page (Tab started over from the nav). Returns what
 * puts it back: on the control redrawn, else on the first one of its section, else (its
 * section hidden: a draw for the starter begun or ended) on the first heading shown. */
function focusKept() {
  const el = document.activeElement;
  if (!el || el === document.body || !$("controlpage").contains(el)) return () => {};
  const marks = [...el.attributes].filter((a) => a.name.startsWith("data-"))
    .map((a) => `[${a.name}="${CSS.escape(a.value)}"]`).join("");
  const which = el.id ? `#${CSS.escape(el.id)}` : marks ? el.tagName.toLowerCase() + marks : null;
  const around = boxesAround(el);
  const shown = (c) => (c && c.getClientRects().length ? c : null);
  // A disabled control takes no focus: Undo first in its section left the focus nowhere.
  const firstIn = (box) => (box.isConnected && shown(box) &&
    [...box.querySelectorAll(TAB_STOPS)].find((c) => shown(c) && !c.disabled)) || null;
  return () => {
    // (A control just hidden may hold the focus until the browser next lays out the page.)
    const now = document.activeElement;
    if (now && now !== document.body && shown(now)) return;
    let again = shown(which && document.querySelector(which));
    for (const box of around) again = again || firstIn(box);
    if (again) { again.focus({ preventScroll: true }); return; }
    const heading = [...$("controlpage").querySelectorAll("h2")].find(shown);
    if (!heading) return;
    heading.tabIndex = -1;      // focused from here, not a stop of Tab's
    heading.focus();
  };
}

const TAB_STOPS = "button, input, select, summary, a[href], [tabindex='0']";

/** The boxes holding ``el``, innermost first, up to its section: a control gone once
 * used (a taught picture's Forget, "Forget the empty tray" hidden once done) leaves the
 * focus beside it, where it went to the page's top (or a section's first button). */
function boxesAround(el) {
  const boxes = [];
  for (let box = el.parentElement; box && box !== $("controlpage"); box = box.parentElement) {
    boxes.push(box);
    if (box.tagName === "SECTION") break;
  }
  return boxes;
}

function render(s, current) {
  // An older answer arriving late; but the stream's first state after a (re)connection
  // is the server's current one, whatever its revision.
  if (state && s.revision < state.revision && !current) return;
  const refocus = focusKept();
  const opening = state === null;
  state = s;
  if (current) forgetNoConnection();
  document.body.dataset.revision = s.revision;
  $("controlpage").inert = false;         // the table's state is known: taps can name it
  renderStatus(s);
  // Corners tapped before the page reloaded: the panel is opened again where it was left.
  if (opening && trayDraft && $("camerarow").style.display !== "none") openTray();
  renderRules(s);
  renderReading(s);
  putWaitingThrowFirst(Boolean(s.table.waiting));
  renderHand(s);
  renderPlayers(s);
  renderOther(s);
  renderDraw(s);
  refocus();
  announce(throwNews(s.reading), opening);
}

function renderOptions() {
  const fam = families[$("family").value];
  // Each option in the rule book's words ("Three 1s score: 300 (Greed)"), not its key in
  // the game file ("greed: true"); the key is the fallback for a family without words.
  $("options").innerHTML = fam ? Object.entries(fam.options).map(([key, values]) => {
    const words = (fam.words || {})[key] || { label: key.replace(/_/g, " "), values: values.map(String) };
    return `<label data-for="${esc(key)}">${esc(words.label)}<select data-option="${esc(key)}">` +
      values.map((v, i) => `<option value='${esc(JSON.stringify(v))}'>${esc(words.values[i])}${i === 0 ? " (default)" : ""}</option>`).join("") +
      `</select></label>`;
  }).join("") : "";
  $("options").querySelectorAll("[data-option]").forEach((el) => el.addEventListener("change", showNeededOptions));
  showNeededOptions();
  showStarterChoice();
}

// Only Sum Chicago finds its starter by a die (RULES.md §1): Pub Chicago draws its first
// leader by lot and Card Chicago deals.
function drawChosen() { return $("family").value === "sum_chicago" && $("starter").value === "draw"; }

function showStarterChoice() {
  $("starterrow").style.display = $("family").value === "sum_chicago" ? "" : "none";
  // Card Chicago's first player deals; the next one exchanges first and leads.
  $("seathint").textContent = $("family").value === "card_chicago" ? "the first deals first" : "first throws first";
  $("start").textContent = drawChosen() ? "Find who starts" : "Start game";
}

// An option that means something only with another's value (Pub Chicago's match length,
// Basis alone) is offered only then, and not sent otherwise.
function showNeededOptions() {
  const fam = families[$("family").value];
  for (const [key, [other, value]] of Object.entries((fam && fam.needs) || {})) {
    const select = document.querySelector(`[data-option="${CSS.escape(other)}"]`);
    const label = document.querySelector(`[data-for="${CSS.escape(key)}"]`);
    if (select && label) label.style.display = JSON.parse(select.value) === value ? "" : "none";
  }
}

/** The start form's games and their options, and the last game's players and choices. */
async function fillStartForm() {
  const [known, settings] = await Promise.all(["/api/families", "/api/settings"].map(
    async (path) => (await fetch(path)).json()));
  families = known;
  $("family").innerHTML = Object.entries(families).map(([k, f]) =>
    `<option value="${esc(k)}">${esc(f.title)}</option>`).join("");
  if (settings.family && families[settings.family]) $("family").value = settings.family;
  if (Array.isArray(settings.players)) $("newplayers").value = settings.players.join(", ");
  if (settings.starter === "draw") $("starter").value = "draw";
  renderOptions();
}

function setup() {
  $("family").addEventListener("change", renderOptions);
  $("starter").addEventListener("change", showStarterChoice);
  $("start").addEventListener("click", async () => {
    const g = state && state.game;
    const leave = `A game is in progress. ${drawChosen() ? "Find who starts a new one" : "Start a new one"}? ` +
      "It can be continued later from the history page.";
    if (g && !g.finished && !window.confirm(leave)) return;
    const options = {};
    document.querySelectorAll("[data-option]").forEach((el) => {
      if (el.parentElement.style.display !== "none") options[el.dataset.option] = JSON.parse(el.value);
    });
    // Each throwing one die starts a draw; the game begins once its starter is found.
    const form = { family: $("family").value, players: $("newplayers").value, options };
    // Pub Chicago's first leader is drawn by lot by the table as the game starts (RULES.md §2).
    if (form.family === "pub_chicago") form.leader = "lot";
    // The game this screen shows: a start from another screen meanwhile refuses this one.
    const started = await post(drawChosen() ? "draw" : "games",
      Object.assign(form, { after: state ? state.table.game_id : null }), $("starterror"));
    // The form is at the page's foot: on a phone the new game's first tap (and whose
    // turn it is) stayed a screen and more above, out of sight. The game is at the top.
    if (started) window.scrollTo({ top: 0 });
  });
  $("drawstart").addEventListener("click", () => post("draw/start-game", drawShown(), $("drawerror")));
  // Each "seen" below is what this screen showed: a tap made before another screen
  // changed it is refused instead of doing something else (take back another throw,
  // forget another picture, confirm dice never seen).
  $("drawtakeback").addEventListener("click", () => post("draw/take-back", drawShown(), $("drawerror")));
  $("drawcancel").addEventListener("click", () => post("draw/cancel", { draw: drawShown().draw }, $("drawerror")));
  $("drawroll").addEventListener("click", () => post("roll-for-me", rollShown(), $("drawerror")));
  // As above: two people tapping Undo for one wrong throw take back one action.
  $("undo").addEventListener("click", () => post("undo", gameShown()));
  $("rollforme").addEventListener("click", () => post("roll-for-me", rollShown(), $("trayerror")));
  $("confirm").addEventListener("click", () => post("confirm",
    { reading: state.reading.id, seen: state.reading.dice.map((d) => d.value) }, $("trayerror")));
  $("join").addEventListener("click", async () => {
    if (await post("join", { player: $("joinname").value.trim() }, $("playererror"))) $("joinname").value = "";
  });
  $("marktray").addEventListener("click", openTray);
  $("forgetpictures").addEventListener("click", () => {
    const seen = state.camera.picture_values;
    if (window.confirm("Forget the pictures taught for logo dice? They are flagged again until named.")) {
      post("forget-pictures", { all: true, seen }, $("error"));
    }
  });
  $("forgetknown").addEventListener("click", () => {
    const seen = state.camera.newest_known_dice;
    if (window.confirm("Forget the dice remembered from checked throws? The reader is then unsure of them again until they are checked anew.")) {
      post("forget-known-dice", { all: true, seen }, $("error"));
    }
  });
  $("knowndice").addEventListener("click", (ev) => {
    const button = ev.target.closest("[data-forgetknown]");
    if (button) {
      post("forget-known-dice", { die: Number(button.dataset.forgetknown),
        seen: state.camera.newest_known_dice }, $("error"));
    }
  });
  $("pictures").addEventListener("click", (ev) => {
    const button = ev.target.closest("[data-forget]");
    if (button) {
      post("forget-pictures", { picture: Number(button.dataset.forget),
        seen: state.camera.picture_values }, $("error"));
    }
  });
  $("trayimg").addEventListener("click", tapTray);
  $("traysave").addEventListener("click", () => saveTray(trayCorners));
  $("trayundo").addEventListener("click", undoCorner);
  $("trayframe").addEventListener("keydown", keyOnTray);
  // Drawn for the keyboard only: a finger's tap focuses the picture too, and a cross it
  // never moves would only be in the way.
  $("trayframe").addEventListener("focus", () => showCross($("trayframe").matches(":focus-visible")));
  $("trayframe").addEventListener("blur", () => showCross(false));
  $("trayrestart").addEventListener("click", startTrayOver);
  $("trayforget").addEventListener("click", () => {
    if (window.confirm("Forget the tray's outline? Dice by the wall are then judged by their looks alone.")) saveTray(null);
  });
  $("trayclose").addEventListener("click", leaveTray);
  document.addEventListener("keydown", closeOnEscape);
  $("diceout").addEventListener("click", () => post("take-dice-out", {}, $("calerror")));
  $("emptytake").addEventListener("click", () => post("empty-tray", { take: true, ...calibrationShown() }, $("calerror")));
  $("emptyforget").addEventListener("click", () => post("empty-tray", { take: false, ...calibrationShown() }, $("calerror")));
  $("diesizeagain").addEventListener("click", () => post("die-size", { measure: true, ...calibrationShown() }, $("calerror")));
  followState(render, (ok) => {
    connected = ok;
    if (!ok) postsUnderWay.forEach((stop) => stop.abort());  // said as no answer
    // Set only when it changes: a status region says its words again on each setting,
    // and the browser reports each failed try while it reconnects.
    const words = ok ? "live" : "reconnecting…";
    if ($("conn").textContent !== words) $("conn").textContent = words;
    $("conn").className = ok ? "conn" : "conn off";
  });
  // Beside the live stream, not before it: on a slow Wi-Fi each question took a round
  // trip, and the game showed half a second later for a form at the page's foot.
  fillStartForm();
}

setup();
