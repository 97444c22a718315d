// The SCAN table page: a real-time race. It renders the view the server sends, offers exactly
// the legal actions it lists, and measures reaction times from the moment a reveal is painted.
// No rules live here: the page never works out which blue card matches (the server says so
// after the round, in view.match).

import "./i18n-scan.js";
import { nameOf } from "./describe.js";
import { $, fill, h, toast } from "./dom.js";
import { gameNow, readClock } from "./game-clock.js";
import { t, tn } from "./i18n.js";
import { player } from "./net.js";
import { ranking, seatHue, winnerLine } from "./render.js";
import { CATS, cardSvg, loadSprite, quarterIcon, words } from "./scan-cards.js";
import { claimantOf, describeScan, finalScores, roundHeadline } from "./scan-text.js";
import { createSeating, newTable, otherSeats, tableId } from "./seating.js";

const CB_KEY = "parlour.colourBlind";
const DIGIT_WAIT_MS = 600;
const CORRECT = new Set(["won", "tie_lost", "beaten", "late"]);
const CHOICE_KEYS = { 1: "shape", 2: "pattern", 3: "position", 4: "colour", s: "shape", p: "pattern", o: "position", c: "colour" };

const ui = {
  seat: null, role: null, host: false, settings: { anim_ms: 0 },
  view: null, actions: [], presence: [], legal: { touch: new Set(), bluffo: false, choose: new Set() },
  clock: null, socket: null, finalShown: false, layoutKey: null, fairPlay: [],
  painted: new Map(), rounds: new Map(), sent: null,
  entry: { digits: "", timer: null },
  colourBlind: localStorage.getItem(CB_KEY) === "1",
  spriteReady: null,
};
const seating = createSeating(ui, {
  onMessage,
  onWelcome: () => document.body.classList.toggle("no-anim", !ui.settings.anim_ms),
  before: () => ui.spriteReady,
});

const me = () => ui.seat;
const view = () => ui.view;

// ---------------------------------------------------------------- the game clock

/** The timer to draw now: `{start, end, kind}` on the game clock, or null. */
function currentTimer(v) {
  if (!v || !v.started || v.outcome) return null;
  const o = v.options;
  if (v.phase === "round" && v.reveal_ms !== null) {
    if (checking(v)) { // a Bluffo claim is checked: the same timer whether it is right or wrong
      return { start: v.checking_until_ms - o.confirm_window_ms, end: v.checking_until_ms, kind: "checking" };
    }
    return { start: v.reveal_ms, end: v.reveal_ms + o.round_timer_ms, kind: "round" };
  }
  if (v.phase === "pause" && v.chooser !== null && v.deadline_kind === "choice") {
    return { start: v.deadline_ms - o.choice_timer_ms, end: v.deadline_ms, kind: "choice" };
  }
  return null;
}

function tick() {
  const v = ui.view;
  const timer = currentTimer(v);
  for (const bar of document.querySelectorAll(".timer")) {
    const fillEl = bar.querySelector(".timer-fill");
    if (!timer || bar.dataset.kind !== timerGroup(timer.kind)) {
      bar.classList.add("idle");
      fillEl.style.transform = "scaleX(0)";
      continue;
    }
    const left = Math.max(0, Math.min(1, (timer.end - gameNow(ui.clock, ui.view?.time_ms ?? 0)) / Math.max(1, timer.end - timer.start)));
    bar.classList.remove("idle");
    bar.classList.toggle("low", left < 0.25);
    fillEl.style.transform = `scaleX(${left.toFixed(4)})`;
    bar.setAttribute("aria-valuenow", String(Math.round(left * 100)));
  }
  const count = $("countdown-n");
  if (count && ui.clock?.startsAt) {
    count.textContent = String(Math.max(1, Math.ceil((ui.clock.startsAt - performance.now()) / 1000)));
  }
  requestAnimationFrame(tick);
}

const timerGroup = (kind) => (kind === "choice" ? "choice" : "round");
const checking = (v) => v.phase === "round" && v.checking_until_ms !== null && v.checking_until_ms !== undefined;

// ---------------------------------------------------------------- legal actions

function index(actions) {
  const legal = { touch: new Set(), bluffo: false, choose: new Set() };
  for (const a of actions) {
    if (a.type === "touch") legal.touch.add(a.blue_index);
    else if (a.type === "bluffo") legal.bluffo = true;
    else if (a.type === "choose") legal.choose.add(a.category);
  }
  return legal;
}

/** Whether this seat's input for the card showing is on its way or waiting for the decision.
 * Once the server has acknowledged it and the view no longer shows it waiting, it has been
 * decided (or ignored as anticipation), and the legal actions say what is left to do. */
function inputSent(v) {
  if (v.my_input) return true;
  const sent = ui.sent;
  if (sent === null || sent.seq !== v.seq || sent.kind === "choose") return false;
  return !(sent.ackedAt !== undefined && v.state_id >= sent.ackedAt);
}

function canTouch(v = ui.view) {
  return Boolean(v) && v.phase === "round" && ui.legal.touch.size > 0 && !inputSent(v);
}

function canBluffo(v = ui.view) {
  return Boolean(v) && v.phase === "round" && ui.legal.bluffo && !inputSent(v);
}

const choosing = (v = ui.view) => Boolean(v) && v.phase === "pause" && v.chooser !== null && v.chooser === me() && ui.legal.choose.size > 0;

// ---------------------------------------------------------------- sending

/** The reaction time of an input made at `at` (a performance.now() time) to reveal `seq`. */
function reactionTime(seq, at) {
  const painted = ui.painted.get(seq);
  if (painted === undefined) return 0;
  return Math.max(0, Math.min(60000, Math.round(at - painted)));
}

function play(action, at) {
  const v = ui.view;
  if (!ui.socket || !v) return;
  const body = { seq: v.seq, action };
  if (action.type !== "choose") body.rt_ms = reactionTime(v.seq, at);
  const ref = ui.socket.send("play", body);
  if (!ref) return;
  if (action.type === "choose") ui.sent = { seq: v.seq, kind: "choose", category: action.category, ref };
  else ui.sent = { seq: v.seq, kind: action.type, index: action.blue_index ?? null, ref, rt: body.rt_ms };
  render();
}

function touch(i, at) {
  if (!canTouch() || !ui.legal.touch.has(i)) return;
  play({ type: "touch", blue_index: i }, at);
}

function bluffo(at) {
  if (!canBluffo()) return;
  play({ type: "bluffo" }, at);
}

function choose(category) {
  if (!choosing() || !ui.legal.choose.has(category) || ui.sent?.kind === "choose") return;
  play({ type: "choose", category }, performance.now());
}

// ---------------------------------------------------------------- typing a card's number

function clearEntry() {
  clearTimeout(ui.entry.timer);
  ui.entry = { digits: "", timer: null };
  renderEntry();
}

function completeEntry(at) {
  const digits = ui.entry.digits;
  clearEntry();
  if (!digits) return;
  const n = Number(digits);
  const size = ui.view?.layout.length ?? 0;
  if (!(n >= 1 && n <= size)) {
    toast(t("log.card", { n: digits }) + " ?", "error");
    return;
  }
  touch(n - 1, at);
}

function typeDigit(d, at) {
  const size = ui.view.layout.length;
  clearTimeout(ui.entry.timer);
  ui.entry.digits += d;
  const n = Number(ui.entry.digits);
  // A number that cannot grow into another card's number is complete at once (any two digits,
  // or 3–9 with 23 cards); 1 and 2 wait for a second digit or Enter.
  if (ui.entry.digits.length >= 2 || (n > 0 && n * 10 > size)) {
    completeEntry(at);
    return;
  }
  ui.entry.timer = setTimeout(() => completeEntry(performance.now()), DIGIT_WAIT_MS);
  renderEntry();
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
  const v = ui.view;
  if (!v) return;
  const key = event.key.toLowerCase();
  if (choosing(v) && key in CHOICE_KEYS) {
    event.preventDefault();
    choose(CHOICE_KEYS[key]);
    return;
  }
  if (/^[0-9]$/.test(event.key)) {
    if (!canTouch(v)) return;
    event.preventDefault();
    typeDigit(event.key, event.timeStamp);
    return;
  }
  if (event.key === "Enter" && ui.entry.digits) {
    event.preventDefault();
    completeEntry(event.timeStamp);
    return;
  }
  if (event.key === "Backspace" && ui.entry.digits) {
    event.preventDefault();
    clearTimeout(ui.entry.timer);
    ui.entry.digits = ui.entry.digits.slice(0, -1);
    if (ui.entry.digits) ui.entry.timer = setTimeout(() => completeEntry(performance.now()), DIGIT_WAIT_MS);
    renderEntry();
    return;
  }
  if (event.key === "Escape" && ui.entry.digits) {
    clearEntry();
    return;
  }
  if (key === "b" && v.phase === "round") {
    event.preventDefault();
    bluffo(event.timeStamp);
    return;
  }
  if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) moveFocus(event);
}

function moveFocus(event) {
  const grid = $("blue-grid");
  if (!grid.contains(document.activeElement)) return;
  const cards = [...grid.querySelectorAll(".blue-card")];
  const at = cards.indexOf(document.activeElement);
  if (at < 0) return;
  const cols = Number(grid.style.getPropertyValue("--cols")) || 6;
  const next = { ArrowLeft: at - 1, ArrowRight: at + 1, ArrowUp: at - cols, ArrowDown: at + cols, Home: 0, End: cards.length - 1 }[event.key];
  if (next >= 0 && next < cards.length) cards[next].focus();
  event.preventDefault();
}

// ---------------------------------------------------------------- rounds seen (the log)

function roundKey(v) {
  const reveal = v.log.find((e) => e.type === "reveal");
  if (reveal) return { key: `s${reveal.seq}`, seq: reveal.seq };
  const setup = v.log.find((e) => e.type === "setup");
  return { key: setup ? `g${setup.game}` : `g${v.game_number}`, seq: null };
}

/** Fold the view's log (the current round's events) into the rounds seen so far; returns the
 * events that are new since the last state. */
function ingest(v) {
  const { key, seq } = roundKey(v);
  let rec = ui.rounds.get(key);
  if (!rec) {
    rec = { key, seq, game: v.game_number, round: seq !== null ? v.round : null, events: [] };
    ui.rounds.set(key, rec);
  }
  const fresh = v.log.slice(rec.events.length);
  rec.events = v.log.slice();
  return fresh;
}

function currentRound() {
  return ui.view ? ui.rounds.get(roundKey(ui.view).key) : null;
}

/** This seat's reaction times (credited, game ms) on correct touches, and its wrong touches. */
function myTimes() {
  const store = loadTimes();
  for (const rec of ui.rounds.values()) {
    for (const e of rec.events) {
      if (e.type === "touch" && e.seat === me() && me() !== null) store[`${rec.key}`] = { rt: e.rt_ms, verdict: e.verdict };
    }
  }
  saveTimes(store);
  const entries = Object.values(store);
  const rts = entries.filter((e) => CORRECT.has(e.verdict)).map((e) => e.rt).sort((a, b) => a - b);
  const wrong = entries.filter((e) => e.verdict === "wrong").length;
  if (!rts.length) return { n: 0, wrong };
  const mid = Math.floor(rts.length / 2);
  const median = rts.length % 2 ? rts[mid] : (rts[mid - 1] + rts[mid]) / 2;
  return { n: rts.length, median: Math.round(median), best: Math.round(rts[0]), wrong };
}

function loadTimes() {
  try {
    return JSON.parse(sessionStorage.getItem(`parlour.scan.rt.${tableId}`) ?? "{}");
  } catch {
    return {};
  }
}

function saveTimes(store) {
  try {
    sessionStorage.setItem(`parlour.scan.rt.${tableId}`, JSON.stringify(store));
  } catch {
    /* storage full or blocked: the summary covers this visit only */
  }
}

// ---------------------------------------------------------------- rendering

function render() {
  const v = ui.view;
  if (!v) return;
  const body = document.body.dataset;
  Object.assign(body, {
    ready: "1", seq: v.seq, stateId: v.state_id, phase: v.started ? v.phase : "waiting",
    over: v.outcome ? "1" : "0", chooser: choosing(v) ? "1" : "0", seat: ui.seat ?? "",
    role: ui.role ?? "", category: v.category, canTouch: canTouch(v) ? "1" : "0",
    canBluffo: canBluffo(v) ? "1" : "0", game: v.game_number, round: v.round,
    checking: checking(v) ? "1" : "0",
    clock: ui.clock ? (ui.clock.running ? "running" : "stopped") : "",
  });
  const long = [];
  const short = [];
  if (v.games > 1) {
    long.push(t("scan.top.game", { game: v.game_number, games: v.games }));
    short.push(t("scan.top.game_short", { game: v.game_number, games: v.games }));
  }
  if (v.started && v.round > 0) {
    long.push(t("scan.top.card", { round: v.round, rounds: v.rounds }));
    short.push(t("scan.top.card_short", { round: v.round, rounds: v.rounds }));
  }
  fill($("round-info"), h("span.info-long", {}, long.join(" · ")),
    h("span.info-short", {}, short.join(" · ")));
  $("btn-invite").hidden = ui.role !== "player";
  renderSeats(v);
  renderTan(v);
  renderSide(v);
  renderGrid(v);
  renderSeries(v);
  renderPanel(v);
  renderLog(v);
}

function seatClasses(v, seat) {
  const s = v.seats[seat];
  const out = ["scan-seat"];
  if (seat === me()) out.push("is-me");
  if (s.disqualified) out.push("is-dq");
  if (v.phase === "round" && v.claimant === seat) out.push("is-claimant");
  if (s.waiting) out.push("is-waiting");
  if (ui.presence.length && !ui.presence[seat]) out.push("is-away");
  if (v.seat_info[seat].kind === "open") out.push("is-open");
  const head = v.phase !== "round" ? roundHeadline(currentRound()?.events ?? [], v, me()) : null;
  if (head?.winner === seat) out.push("is-winner");
  return out.join(".");
}

function renderSeats(v) {
  const box = $("seats");
  box.classList.toggle("many", v.players > 5);
  fill(box, v.seats.map((s, seat) => {
    const info = v.seat_info[seat];
    const name = nameOf(v, seat, me());
    let badge = null;
    if (s.disqualified) badge = h("span.seat-flag.flag-dq", {}, t("scan.seat.dq"));
    else if (v.phase === "round" && v.claimant === seat) badge = h("span.seat-flag.flag-claim", {}, t("scan.seat.claimant"));
    else if (s.waiting) badge = h("span.seat-flag.flag-wait", {}, t("scan.seat.waiting"));
    else if (v.phase === "pause" && v.chooser === seat) badge = h("span.seat-flag.flag-choose", {}, t("scan.seat.choosing"));
    const sub = info.kind === "bot" ? t("level.computer", { level: t(`level.${info.level}`) })
      : info.kind === "open" ? t("wait.open")
        : ui.presence.length && !ui.presence[seat] ? t("seat.offline") : seat === 0 ? t("seat.host") : t("seat.player");
    const extra = badge ? ` — ${badge.textContent}` : "";
    const label = t("scan.seat.summary", { name, score: s.score, won: s.won.length, bluffo: s.bluffo, extra });
    const total = v.games > 1 ? s.total : s.score;
    return h(`article.${seatClasses(v, seat)}`, { dataset: { seat }, style: { "--hue": seatHue(seat) }, "aria-label": label },
      h(`span.avatar${info.kind === "bot" ? ".avatar-bot" : ""}`, { "aria-hidden": "true" }, (name || "?").trim().slice(0, 1).toUpperCase()),
      h("span.seat-id", { "aria-hidden": "true" },
        h("span.seat-name", {}, name),
        h("span.seat-sub", {}, sub)),
      h("span.seat-pile", { "aria-hidden": "true", title: t("scan.seat.won", { n: s.won.length }) },
        v.games > 1 ? h("span.pile-tan", {}, s.won.length) : null,
        s.bluffo ? h("span.pile-bluffo", { title: t("scan.seat.bluffo", { n: s.bluffo }) }, `+${s.bluffo}B`) : null),
      h("span.seat-score", { "aria-hidden": "true", title: t("scan.seat.score", { n: total }) }, total),
      badge);
  }));
}

function renderTan(v) {
  const holder = $("tan");
  const cat = v.phase === "round" ? v.category : v.phase === "pause" && v.tan ? v.category : v.next_category;
  holder.dataset.cat = cat;
  const key = v.tan ? `${v.tan.join(",")}|${v.seq}` : "covered";
  if (holder.dataset.key !== key) {
    holder.dataset.key = key;
    if (v.tan) {
      holder.dataset.designs = v.tan.join(",");
      fill(holder, cardSvg(v.tan, "tan"));
      holder.classList.remove("covered");
    } else {
      delete holder.dataset.designs;
      fill(holder, h("span.cover-mark", { "aria-hidden": "true" }, "SCAN"));
      holder.classList.add("covered");
    }
    if (v.phase === "round" && ui.settings.anim_ms) {
      holder.animate?.([{ transform: "rotateY(80deg)", opacity: 0.3 }, { transform: "none", opacity: 1 }],
        { duration: Math.min(180, ui.settings.anim_ms), easing: "ease-out" });
    }
  }
  holder.setAttribute("aria-label", v.tan
    ? t("scan.tan_card", { words: CATS.map((c, i) => t("scan.quarter", { cat: t(`scan.cat.${c}`), words: words(c, v.tan[i]) })).join("; ") })
    : t("scan.tan_covered"));
  const label = $("cat-label");
  const showNext = v.phase !== "round" && v.next_category !== v.category;
  fill(label, quarterIcon(showNext ? v.next_category : cat),
    h("span", {}, showNext ? t("scan.next_by", { cat: t(`scan.cat_lower.${v.next_category}`) })
      : t("scan.match_by", { cat: t(`scan.cat_lower.${cat}`) })));
  label.dataset.cat = showNext ? v.next_category : cat;
}

function statusText(v) {
  if (!v.started) return t("status.waiting");
  if (v.outcome) return t("scan.status.over");
  if (ui.clock && !ui.clock.running) return ui.clock.startsAt ? t("scan.countdown_hint") : t("scan.waiting_clock");
  const mine = me() !== null ? v.seats[me()] : null;
  if (v.phase === "round") {
    if (ui.seat === null) return t("scan.status.watching");
    if (mine?.disqualified) return t("scan.status.round_you_dq");
    if (v.claimant === me()) return t("scan.status.round_you_claim");
    if (inputSent(v)) return t("scan.status.round_waiting");
    if (checking(v) && v.claimant !== null) {
      return t("scan.status.checking", { who: nameOf(v, v.claimant, me()) });
    }
    return t("scan.status.round", { cat: t(`scan.cat_lower.${v.category}`) });
  }
  if (choosing(v)) return t("scan.status.choose");
  if (v.chooser !== null) return t("scan.status.choosing", { who: nameOf(v, v.chooser, me()) });
  if (v.deadline_kind === "next_game") return t("scan.status.next_game", { game: v.game_number });
  return t("scan.status.pause");
}

function renderSide(v) {
  $("status").textContent = statusText(v);
  const head = v.phase !== "round" ? roundHeadline(currentRound()?.events ?? [], v, me()) : null;
  const banner = $("round-banner");
  banner.hidden = !head;
  if (head) {
    banner.style.setProperty("--hue", head.winner !== null ? seatHue(head.winner) : 0);
    banner.classList.toggle("no-winner", head.winner === null);
    fill(banner, h("strong.banner-title", {}, head.title), head.lines.map((line) => h("span.banner-line", {}, line)));
  }
  const button = $("btn-bluffo");
  button.hidden = !v.options.bluffo || ui.seat === null;
  if (v.options.bluffo) {
    const stack = v.bluffo_stack;
    const ok = canBluffo(v);
    button.setAttribute("aria-disabled", String(!ok));
    button.classList.toggle("is-off", !ok);
    button.classList.toggle("is-sent", v.my_input?.input === "bluffo" || (inputSent(v) && ui.sent?.kind === "bluffo"));
    button.setAttribute("aria-label", stack ? t("scan.bluffo_label", { n: stack }) : t("scan.bluffo_call_label"));
    fill(button,
      h("span.bluffo-stack", { "aria-hidden": "true" }, Array.from({ length: Math.max(stack, 0) }, (_, k) => h("i", { style: { "--k": k } }))),
      h("span.bluffo-text", { "aria-hidden": "true" }, h("strong", {}, stack ? t("scan.bluffo") : t("scan.bluffo_none")),
        h("small", {}, stack ? t("scan.bluffo_stack", { n: stack }) : "")),
      h("kbd", { "aria-hidden": "true" }, "B"));
  }
  renderEntry();
}

function renderEntry() {
  const v = ui.view;
  const box = $("entry");
  if (!v) return;
  const show = ui.seat !== null && v.started && !v.outcome;
  box.hidden = !show;
  if (!show) return;
  const typing = ui.entry.digits;
  box.classList.toggle("typing", Boolean(typing));
  box.classList.toggle("active", canTouch(v));
  fill(box,
    h("span.entry-label", {}, t("scan.entry")),
    h("span.entry-digits", { "aria-live": "assertive" }, typing ? `${typing}_` : "—"),
    h("span.entry-hint", {}, v.options.bluffo ? t("scan.entry_hint") : t("scan.entry_hint_plain")));
}

function layoutKeyOf(v) {
  return `${v.game_number}|${v.layout.map((c) => c.join(".")).join(",")}`;
}

function buildGrid(v) {
  const grid = $("blue-grid");
  fill(grid, v.layout.map((designs, i) => h("button.blue-card", {
    type: "button", dataset: { index: i, designs: designs.join(",") },
    onclick: (event) => touch(i, event.timeStamp || performance.now()),
  }, h("span.card-num", { "aria-hidden": "true" }, i + 1), cardSvg(designs, "blue"),
  h("span.card-mark", { "aria-hidden": "true" }))));
  ui.layoutKey = layoutKeyOf(v);
  fitGrid();
}

function cardLabel(v, i, extra) {
  const designs = v.layout[i];
  const cat = v.category;
  const at = CATS.indexOf(cat);
  const others = CATS.filter((c) => c !== cat).map((c) => t("scan.quarter", { cat: t(`scan.cat_lower.${c}`), words: words(c, designs[CATS.indexOf(c)]) })).join("; ");
  const text = t("scan.blue_card", { n: i + 1, cat: t(`scan.cat.${cat}`), active: words(cat, designs[at]), others });
  return extra.length ? `${text} (${extra.join(", ")})` : text;
}

function renderGrid(v) {
  if (ui.layoutKey !== layoutKeyOf(v)) buildGrid(v);
  const grid = $("blue-grid");
  grid.dataset.cat = v.category;
  grid.classList.toggle("live", canTouch(v));
  grid.classList.toggle("resting", v.phase !== "round");
  const events = currentRound()?.events ?? [];
  const marks = new Map();
  for (const e of events) {
    if (e.type === "touch") (marks.get(e.blue_index) ?? marks.set(e.blue_index, []).get(e.blue_index)).push(e);
  }
  const mineWaiting = v.my_input?.input === "touch" ? v.my_input.blue_index
    : inputSent(v) && ui.sent?.kind === "touch" ? ui.sent.index : null;
  const match = v.phase !== "round" ? v.match : null;
  for (const el of grid.querySelectorAll(".blue-card")) {
    const i = Number(el.dataset.index);
    const touches = marks.get(i) ?? [];
    const won = touches.find((e) => e.verdict === "won");
    const wrong = touches.filter((e) => e.verdict === "wrong");
    const extra = [];
    el.classList.toggle("is-match", match === i);
    el.classList.toggle("is-won", Boolean(won));
    el.classList.toggle("is-wrong", wrong.length > 0);
    el.classList.toggle("is-mine", mineWaiting === i);
    el.setAttribute("aria-disabled", String(!canTouch(v)));
    // the mark's words are drawn by CSS (attr(data-text)): the card's accessible name says them
    const mark = el.querySelector(".card-mark");
    const who = (e) => nameOf(v, e.seat, me());
    if (won) {
      mark.dataset.text = `${i + 1} ✓ ${who(won)}`;
      extra.push(`${who(won)} ✓`);
    } else if (wrong.length) {
      mark.dataset.text = `${i + 1} ✗ ${wrong.map(who).join(", ")}`;
      extra.push(...wrong.map((e) => `${who(e)} ✗`));
    } else if (match === i) {
      mark.dataset.text = `${i + 1} · ${t("scan.blue_card_match")}`;
    } else if (mineWaiting === i) {
      mark.dataset.text = `${i + 1} …`;
    } else {
      delete mark.dataset.text;
    }
    if (match === i) extra.push(t("scan.blue_card_match"));
    if (mineWaiting === i) extra.push(t("scan.blue_card_touched"));
    el.setAttribute("aria-label", cardLabel(v, i, extra));
    if (won || wrong.length) el.style.setProperty("--hue", seatHue((won ?? wrong[0]).seat));
  }
}

/** Size the blue cards so that the whole layout fits the space it has, on any screen. */
function fitGrid() {
  const wrap = $("blue-wrap");
  const grid = $("blue-grid");
  const n = grid.children.length;
  if (!n) return;
  const style = getComputedStyle(grid);
  const gap = parseFloat(style.columnGap) || 8;
  const label = 16;
  const width = wrap.clientWidth - 4;
  const height = wrap.clientHeight - 4;
  let best = { size: 0, cols: 6 };
  for (let cols = 3; cols <= 12; cols++) {
    const rows = Math.ceil(n / cols);
    const size = Math.min((width - gap * (cols - 1)) / cols, (height - gap * (rows - 1)) / rows - label);
    if (size > best.size + 0.5) best = { size, cols };
  }
  const size = Math.max(44, Math.min(150, Math.floor(best.size)));
  grid.style.setProperty("--cols", best.cols);
  grid.style.setProperty("--card", `${size}px`);
}

function renderSeries(v) {
  const box = $("series");
  box.hidden = v.games < 2;
  if (v.games < 2) return;
  fill(box, h("span.series-title", {}, t("scan.series.label")), h("ol.series-games", {}, v.series.map((c, g) => {
    const result = v.results[g];
    const now = g + 1 === v.game_number && !v.outcome;
    let detail = now ? t("scan.series.now") : "";
    if (result) {
      const top = Math.max(...result.scores);
      detail = result.scores.map((s, seat) => (s === top ? `${nameOf(v, seat, me())} ${s}` : null)).filter(Boolean).join(", ");
    }
    return h(`li.series-game${now ? ".now" : ""}${result ? ".done" : ""}`, {},
      quarterIcon(c), h("span.series-name", {}, t("scan.series.game", { game: g + 1, cat: t(`scan.cat_lower.${c}`) })),
      h("span.series-detail", {}, detail));
  })));
}

function renderPanel(v) {
  const panel = $("center-panel");
  let content = null;
  let kind = "";
  if (!v.started) {
    content = seating.waitingRoom(v);
    kind = "waiting";
  } else if (!v.outcome && ui.clock && !ui.clock.running) {
    content = countdown();
    kind = "countdown";
  } else if (choosing(v)) {
    content = chooser(v);
    kind = "chooser";
  }
  panel.hidden = !content;
  panel.dataset.kind = kind;
  $("board").classList.toggle("has-panel", Boolean(content) && kind !== "chooser");
  const key = `${kind}|${kind === "chooser" ? v.seq : ""}|${kind === "waiting" ? JSON.stringify(v.seat_info) + ui.host + ui.starting?.may_start + ui.starting?.host_here : ""}|${ui.clock?.startsAt ? 1 : 0}`;
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  const focusChoice = kind === "chooser";
  fill(panel, content);
  if (focusChoice) panel.querySelector(`[data-category="${v.category}"]`)?.focus({ preventScroll: true });
}

function countdown() {
  if (!ui.clock?.startsAt) {
    return h("div.panel-card.countdown", {}, h("h2", {}, t("scan.waiting_clock")));
  }
  return h("div.panel-card.countdown", { role: "timer" },
    h("p.countdown-label", {}, t("scan.countdown")),
    h("div.countdown-n", { id: "countdown-n" }, String(Math.max(1, Math.ceil((ui.clock.startsAt - performance.now()) / 1000)))),
    h("p", {}, t("scan.countdown_hint")));
}

function chooser(v) {
  const keys = { shape: "1 · S", pattern: "2 · P", position: "3 · O", colour: "4 · C" };
  return h("div.panel-card.chooser", { role: "group", "aria-labelledby": "choose-title" },
    h("h2", { id: "choose-title" }, t("scan.choose.title")),
    h("p", {}, t("scan.choose.body")),
    h("div.choose-options", {}, CATS.map((c) => h("button.choose-option", {
      type: "button", dataset: { category: c, key: `choose-${c}` }, disabled: !ui.legal.choose.has(c),
      "aria-pressed": String(c === v.next_category), "aria-keyshortcuts": keys[c].replace(" · ", " "),
      onclick: () => choose(c),
    }, quarterIcon(c), h("span.choose-name", {}, t(`scan.cat.${c}`)), h("kbd", {}, keys[c])))),
    h("div.timer", { dataset: { kind: "choice" }, role: "progressbar", "aria-label": t("scan.timer_choice"), "aria-valuemin": "0", "aria-valuemax": "100" },
      h("span.timer-fill")));
}

function renderLog(v) {
  const items = [];
  let game = null;
  for (const rec of ui.rounds.values()) {
    if (v.games > 1 && rec.game !== game) {
      game = rec.game;
      items.push(h("li.log-round.log-game", {}, t("log.game", { game })));
    }
    if (rec.round !== null) items.push(h("li.log-round", {}, t("log.card", { n: rec.round })));
    for (const e of rec.events) {
      if (e.type === "reveal") continue;
      const cls = e.type === "touch" || e.type === "bluffo" ? `log-${e.type}.v-${e.verdict}` : `log-${e.type}`;
      items.push(h(`li.log-item.${cls}`, { style: { "--hue": seatHue(e.seat ?? e.chosen ?? 0) } },
        describeScan(e, v, me(), rec.events, rec.round)));
    }
  }
  if (!items.length) items.push(h("li.log-empty", {}, t("log.empty")));
  fill($("log"), items);
  $("log-scroll").scrollTop = $("log-scroll").scrollHeight;
}

// ---------------------------------------------------------------- the end

function showEnd(v) {
  const dialog = $("results-dialog");
  const times = myTimes();
  const close = () => dialog.close();
  const seatsBox = finalScores(v, me(), fastOf);
  const rt = ui.seat === null ? null : h("section.rt-summary", { id: "rt-summary" },
    h("h3", {}, t("scan.end.your_rt")),
    times.n ? h("p", {}, h("strong", {}, tn("scan.end.rt_summary", times.n, { median: times.median, best: times.best })),
      times.wrong ? ` · ${tn("scan.end.rt_wrong", times.wrong)}` : "")
      : h("p", {}, t("scan.end.rt_none")));
  const fast = ui.fairPlay.length ? h("section.fair-play", { id: "fair-play", role: "note" },
    h("h3", {}, t("scan.end.fast_heading")),
    ui.fairPlay.map((f) => h("p", {}, t("scan.end.fast_line", {
      name: nameOf(v, f.seat, me()), median: f.median_rt_ms, n: f.inputs, floor: f.floor_ms,
    })))) : null;
  const removed = v.removed?.length ? h("section.removed", {},
    h("h3", {}, t("scan.end.removed")),
    h("div.removed-cards", {}, v.removed.map((designs) => h("div.removed-card", {
      dataset: { designs: designs.join(",") }, role: "img",
      "aria-label": CATS.map((c, i) => t("scan.quarter", { cat: t(`scan.cat.${c}`), words: words(c, designs[i]) })).join("; "),
    }, cardSvg(designs, "blue"))))) : null;
  fill(dialog,
    h("div.dialog-head", {}, h("h2", { id: "results-title" }, winnerLine(v, me()))),
    h("div.final", {}, h("h3", {}, t("scan.end.title")), ranking(v, me())),
    seatsBox, fast, rt, removed,
    h("div.dialog-foot", {},
      h("button.btn.ghost", { type: "button", id: "end-look", onclick: close }, t("scan.end.look")),
      h("a.btn.ghost", { href: "/" }, t("results.lobby")),
      ui.seat !== null ? h("button.btn.primary", { type: "button", id: "play-again", onclick: playAgain }, t("results.play_again")) : null));
  dialog.classList.add("is-final", "scan-end");
  if (!dialog.open) dialog.showModal();
  (dialog.querySelector(".dialog-foot .primary") ?? dialog.querySelector(".dialog-foot button"))?.focus();
}

/** The "unusually fast" flag the server raised for `seat` at a friends' table (fair_play). */
const fastOf = (seat) => ui.fairPlay.find((f) => f.seat === seat && f.flag === "unusually_fast");

function playAgain(event) {
  const v = ui.view;
  const keep = ["category", "dealers_choice", "bluffo", "four_in_a_row"];
  return newTable(event, () => ({
    game: "scan",
    name: v.seat_info[ui.seat].name || player.name,
    seats: otherSeats(v, ui.seat),
    options: Object.fromEntries(keep.map((k) => [k, v.options[k]])),
  }));
}

// ---------------------------------------------------------------- messages

function onState(msg) {
  const prev = ui.view;
  const v = msg.view;
  if (msg.clock) {
    ui.clock = readClock(msg.clock);
  }
  ui.view = v;
  ui.fairPlay = msg.fair_play ?? [];
  ui.actions = msg.actions ?? [];
  ui.presence = msg.presence ?? [];
  ui.legal = index(ui.actions);
  if (ui.sent && (ui.sent.seq !== v.seq || (ui.sent.kind === "choose" && v.chooser === null))) ui.sent = null;
  if (ui.entry.digits && !canTouch(v)) clearEntry();
  const fresh = v.started ? ingest(v) : [];
  render();
  const revealed = v.phase === "round" && !ui.painted.has(v.seq);
  if (revealed) notePaint(v.seq);
  announce(prev, v, msg.history ? fresh.filter((e) => e.type === "reveal") : fresh);
  if (v.outcome && !ui.finalShown) {
    ui.finalShown = true;
    showEnd(v);
  }
}

/** Note when reveal `seq` reaches the screen: the next animation frame (or, in a tab that
 * paints no frames, a moment later). */
function notePaint(seq) {
  const asked = performance.now();
  const mark = (at) => {
    if (!ui.painted.has(seq)) ui.painted.set(seq, Math.max(at, asked));
  };
  requestAnimationFrame((ts) => mark(ts));
  setTimeout(() => mark(performance.now()), 100);
  if (ui.painted.size > 64) ui.painted.delete(ui.painted.keys().next().value);
}

function announce(prev, v, events) {
  const lines = [];
  const rec = currentRound();
  for (const e of events) {
    if (e.type === "reveal") {
      lines.push(describeScan(e, v, me(), rec?.events ?? [], v.round));
    } else if (e.type === "win" || e.type === "no_winner") {
      const head = roundHeadline(rec?.events ?? [], v, me());
      if (head) lines.push([head.title, ...head.lines].join(". "));
    } else if (["touch", "bluffo", "choose", "choice_lapsed", "draw", "game_over"].includes(e.type)) {
      if (e.type === "touch" && e.verdict === "won") continue; // the headline says it
      lines.push(describeScan(e, v, me(), rec?.events ?? [], v.round));
    }
  }
  if (choosing(v) && !(prev && choosing(prev))) lines.push(t("scan.status.choose"));
  if (lines.length) $("sr-announce").textContent = lines.join(". ");
}

/** A server message (the welcome and seat errors are the seating's). */
function onMessage(msg) {
  if (msg.type === "state") {
    onState(msg);
  } else if (msg.type === "presence") {
    ui.presence = msg.presence; // a person came or left: who is here, nothing else changed
    if (ui.view) render();
  } else if (msg.type === "ack") {
    if (ui.sent && msg.ref === ui.sent.ref) {
      ui.sent.ackedAt = msg.state_id;
      render();
    }
  } else if (msg.type === "error") {
    if (ui.sent && (msg.ref === undefined || msg.ref === ui.sent.ref)) ui.sent = null;
    if (msg.code === "stale_reveal") toast(t("scan.error.too_late"));
    else toast(msg.message, "error");
    render();
  }
}

// ---------------------------------------------------------------- chrome

function setColourBlind(on) {
  ui.colourBlind = on;
  localStorage.setItem(CB_KEY, on ? "1" : "0");
  document.body.classList.toggle("colour-blind", on);
  $("btn-cb").setAttribute("aria-pressed", String(on));
  return loadSprite(on).catch((error) => toast(t("error.generic", { message: error.message }), "error"));
}

function setupChrome() {
  seating.setupChrome();
  document.title = `${t("scan.title")} — ${t("app.name")}`;
  $("btn-cb").addEventListener("click", () => setColourBlind(!ui.colourBlind));
  $("btn-bluffo").addEventListener("click", (event) => bluffo(event.timeStamp || performance.now()));
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", fitGrid);
  if (window.ResizeObserver) new ResizeObserver(() => fitGrid()).observe($("blue-wrap"));
  window.addEventListener("storage", (event) => {
    if (event.key === CB_KEY) setColourBlind(event.newValue === "1");
  });
  ui.spriteReady = setColourBlind(ui.colourBlind);
  requestAnimationFrame(tick);
}

setupChrome();
seating.enter();
