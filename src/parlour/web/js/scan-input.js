// The SCAN page's inputs: touches, Bluffo and the chosen category, sent with their reaction times,
// and a card chosen by typing its number (split from scan.js).

import { $, toast } from "./dom.js";
import { t } from "./i18n.js";
import { render, renderEntry } from "./scan-render.js";
import { canBluffo, canTouch, CHOICE_KEYS, choosing, DIGIT_WAIT_MS, ui } from "./scan-state.js";

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

export function touch(i, at) {
  if (!canTouch() || !ui.legal.touch.has(i)) return;
  play({ type: "touch", blue_index: i }, at);
}

export function bluffo(at) {
  if (!canBluffo()) return;
  play({ type: "bluffo" }, at);
}

export function choose(category) {
  if (!choosing() || !ui.legal.choose.has(category) || ui.sent?.kind === "choose") return;
  play({ type: "choose", category }, performance.now());
}

// ---------------------------------------------------------------- typing a card's number

export function clearEntry() {
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
    toast(t("scan.no_card", { n: digits }), "error");
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

export function onKey(event) {
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
