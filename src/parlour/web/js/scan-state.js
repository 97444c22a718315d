// The SCAN page's state (what it was sent and what it sent), its game clock, the legal actions
// it was sent by kind, and the rounds seen so far (split from scan.js).

import { $ } from "./dom.js";
import { gameNow } from "./game-clock.js";
import { tableId } from "./seating.js";

export const CB_KEY = "parlour.colourBlind";
export const DIGIT_WAIT_MS = 600;
const CORRECT = new Set(["won", "tie_lost", "beaten", "late"]);
export const CHOICE_KEYS = { 1: "shape", 2: "pattern", 3: "position", 4: "colour", s: "shape", p: "pattern", o: "position", c: "colour" };

export const ui = {
  seat: null, role: null, host: false, settings: { anim_ms: 0 },
  view: null, actions: [], presence: [], legal: { touch: new Set(), bluffo: false, choose: new Set() },
  clock: null, socket: null, finalShown: false, layoutKey: null, fairPlay: [],
  painted: new Map(), rounds: new Map(), sent: null,
  entry: { digits: "", timer: null },
  colourBlind: localStorage.getItem(CB_KEY) === "1",
  spriteReady: null,
};

export const me = () => ui.seat;
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

export function tick() {
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
export const checking = (v) => v.phase === "round" && v.checking_until_ms !== null && v.checking_until_ms !== undefined;

// ---------------------------------------------------------------- legal actions

export function index(actions) {
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
export function inputSent(v) {
  if (v.my_input) return true;
  const sent = ui.sent;
  if (sent === null || sent.seq !== v.seq || sent.kind === "choose") return false;
  return !(sent.ackedAt !== undefined && v.state_id >= sent.ackedAt);
}

export function canTouch(v = ui.view) {
  return Boolean(v) && v.phase === "round" && ui.legal.touch.size > 0 && !inputSent(v);
}

export function canBluffo(v = ui.view) {
  return Boolean(v) && v.phase === "round" && ui.legal.bluffo && !inputSent(v);
}

export const choosing = (v = ui.view) => Boolean(v) && v.phase === "pause" && v.chooser !== null && v.chooser === me() && ui.legal.choose.size > 0;

// ---------------------------------------------------------------- rounds seen (the log)

function roundKey(v) {
  const reveal = v.log.find((e) => e.type === "reveal");
  if (reveal) return { key: `s${reveal.seq}`, seq: reveal.seq };
  const setup = v.log.find((e) => e.type === "setup");
  return { key: setup ? `g${setup.game}` : `g${v.game_number}`, seq: null };
}

/** Fold the view's log (the current round's events) into the rounds seen so far; returns the
 * events that are new since the last state. */
export function ingest(v) {
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

export function currentRound() {
  return ui.view ? ui.rounds.get(roundKey(ui.view).key) : null;
}

/** This seat's reaction times (credited, game ms) on correct touches, and its wrong touches. */
export function myTimes() {
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
