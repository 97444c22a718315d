// The SCAN table page: a real-time race. It renders the view the server sends, offers exactly
// the legal actions it lists, and measures reaction times from the moment a reveal is painted.
// No rules live here: the page never works out which blue card matches (the server says so
// after the round, in view.match).

import "./i18n-scan.js";
import { $, toast } from "./dom.js";
import { readClock } from "./game-clock.js";
import { errorText, t } from "./i18n.js";
import { publishState } from "./page-state.js";
import { loadSprite } from "./scan-cards.js";
import { bluffo, clearEntry, onKey } from "./scan-input.js";
import { fitGrid, render, showEnd } from "./scan-render.js";
import { canTouch, CB_KEY, choosing, currentRound, index, ingest, me, tick, ui } from "./scan-state.js";
import { describeScan, roundHeadline } from "./scan-text.js";
import { createSeating } from "./seating.js";

export const seating = createSeating(ui, {
  onMessage,
  onWelcome: () => document.body.classList.toggle("no-anim", !ui.settings.anim_ms),
  before: () => ui.spriteReady,
});

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
  // for the "Learn to play" coach (learn-rt.js): what the page now shows
  publishState({ view: v, actions: ui.actions, events: msg.history ? [] : fresh });
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
    else toast(errorText(msg.code), "error");
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
  document.title = t("page.title.scan");
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
