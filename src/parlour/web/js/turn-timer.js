// Turn timers as the server sends them (`timers` in each state: seat, remaining_ms, total_ms),
// shown as countdowns near the seat whose turn it is. The server decides when a timer runs out
// (a computer then plays for the seat, marked away); the page only counts down.

import { h } from "./dom.js";
import { t } from "./i18n.js";

let timers = new Map(); // seat → { ends (performance.now() ms), total, warned }
let lowWatch = null; // { seat, fn }: called once when that seat's timer gets low

/** The timers of a new state message (`list`), counted from now. */
export function setTimers(list) {
  const now = performance.now();
  const next = new Map();
  for (const item of list ?? []) {
    const ends = now + item.remaining_ms;
    const before = timers.get(item.seat);
    const same = before && Math.abs(before.ends - ends) < 1500; // the same timer, sent again
    next.set(item.seat, { ends, total: item.total_ms, warned: same ? before.warned : false });
  }
  timers = next;
  tick();
}

/** Call `fn(seconds)` once when the timer of `seat` gets low (the page's own seat). */
export function onLowTime(seat, fn) {
  lowWatch = { seat, fn };
}

const leftMs = (timer) => Math.max(0, timer.ends - performance.now());
const isLow = (timer, ms) => ms <= Math.min(10000, timer.total / 3);

/** A countdown for `seat` (an element the ticker keeps up to date), or null if no timer runs. */
export function countdown(seat, { big = false } = {}) {
  if (!timers.has(seat)) return null;
  const el = h(`span.turn-timer${big ? ".big" : ""}`, { role: "timer", dataset: { timerSeat: seat } },
    h("span.turn-timer-bar", { "aria-hidden": "true" }), h("span.turn-timer-text"));
  paint(el);
  return el;
}

function paint(el) {
  const timer = timers.get(Number(el.dataset.timerSeat));
  if (!timer) {
    el.hidden = true;
    return;
  }
  const ms = leftMs(timer);
  const secs = Math.ceil(ms / 1000);
  el.querySelector(".turn-timer-text").textContent = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
  el.setAttribute("aria-label", t("timer.left", { n: secs }));
  el.style.setProperty("--left", (ms / timer.total).toFixed(3));
  el.classList.toggle("urgent", isLow(timer, ms));
}

function tick() {
  document.querySelectorAll("[data-timer-seat]").forEach(paint);
  const mine = lowWatch && timers.get(lowWatch.seat);
  if (mine && !mine.warned && isLow(mine, leftMs(mine))) {
    mine.warned = true;
    lowWatch.fn(Math.ceil(leftMs(mine) / 1000));
  }
}

setInterval(tick, 250);
