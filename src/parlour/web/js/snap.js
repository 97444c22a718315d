// The SNAP table page: connects one seat (or a spectator), renders what the server sends, and
// sends flips (F) and calls (Space, or the SNAP button) timed from the moment each reveal was
// painted on this screen (N9). No rules live here.

import "./i18n-snap.js";
import { nameOf } from "./describe.js";
import { $, fill, h, toast } from "./dom.js";
import { gameNow, readClock } from "./game-clock.js";
import { capitalised, errorText, listNames, t } from "./i18n.js";
import { player } from "./net.js";
import { publishState } from "./page-state.js";
import { createSeating, newTable, otherSeats, seatOrder } from "./seating.js";
import {
  banner, bannerWorthy, cardBack, cardName, describe, endReason, myReactions, ranking,
  reactionSummary, seatHue, seatTile, pot, topCard,
} from "./snap-render.js";
import { winnerLine } from "./render.js";

/** A touch screen with no hovering pointer: no keyboard hints in the words. */
const TOUCH = matchMedia("(hover: none) and (pointer: coarse)");
const BANNER_MS = 4500; // wall ms a decision stays in the middle of the table
const FLASH_MS = 900;

const ui = {
  seat: null, role: null, host: false, settings: { anim_ms: 450 },
  view: null, actions: [], presence: [], clock: null, clockAt: 0, startAt: null,
  events: [], seen: new Set(),
  paint: new Map(), paintedSeq: -1, renderedSeq: -1, receivedAt: 0,
  flipPending: null, snapped: null, refs: new Map(),
  banner: null, flashes: new Map(), socket: null, finalShown: false, spaceAt: -1e9,
};
const seating = createSeating(ui, {
  onMessage,
  onWelcome: () => document.body.classList.toggle("no-anim", !ui.settings.anim_ms),
  connecting: "snap.status.connecting",
});

// ---------------------------------------------------------------- time

const running = () => Boolean(ui.view?.started && !ui.view.outcome && (ui.clock ? ui.clock.running : true));
const canFlip = () => running() && ui.actions.some((a) => a.type === "flip");
const canCall = () => ui.seat !== null && running() && ui.actions.some((a) => a.type === "snap");

// ---------------------------------------------------------------- inputs

function flip() {
  const v = ui.view;
  if (!v || !canFlip() || ui.flipPending === v.seq || !ui.socket) return;
  const ref = ui.socket.send("play", { seq: v.seq, action: { type: "flip" } });
  if (ref) {
    ui.flipPending = v.seq;
    ui.refs.set(ref, "flip");
    renderMe(v);
  }
}

function snap() {
  if (!canCall() || !ui.socket) return;
  const now = performance.now();
  // The reveal the player saw: the latest one painted on this screen.
  let seq = ui.paintedSeq;
  let shown = ui.paint.get(seq);
  if (shown === undefined) {
    seq = ui.view.seq;
    shown = ui.receivedAt;
  }
  if (ui.snapped === seq) return; // one call per reveal; the server ignores repeats anyway
  const rt = Math.max(0, Math.min(60000, Math.round(now - shown)));
  const ref = ui.socket.send("play", { seq, rt_ms: rt, action: { type: "snap" } });
  if (!ref) return;
  ui.snapped = seq;
  ui.refs.set(ref, "snap");
  const button = $("snap-btn");
  button.classList.remove("pressed");
  void button.offsetWidth;
  button.classList.add("pressed");
  document.body.dataset.lastRt = rt;
}

function onKeyDown(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (document.querySelector("dialog[open]")) return;
  const tag = event.target?.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const key = event.key;
  if (key === " " || event.code === "Space") {
    event.preventDefault(); // no page scroll, no click on a focused button
    if (event.repeat) return;
    ui.spaceAt = performance.now();
    snap();
  } else if (key === "f" || key === "F") {
    event.preventDefault();
    if (event.repeat) return;
    flip();
  } else if (key === "?" || key === "h" || key === "H") {
    event.preventDefault();
    if (!event.repeat) $("help-dialog").showModal();
  }
}

function onKeyUp(event) {
  // Space activates a focused button on key up: the call was already made on key down.
  if ((event.key === " " || event.code === "Space") && event.target?.tagName === "BUTTON" && !document.querySelector("dialog[open]")) {
    event.preventDefault();
  }
}

// ---------------------------------------------------------------- rendering

function flashOf(seat) {
  const f = ui.flashes.get(seat);
  return f && performance.now() - f.at < FLASH_MS ? f.kind : null;
}

function render() {
  const v = ui.view;
  if (!v) return;
  const callers = v.race?.callers ?? [];
  const body = document.body.dataset;
  Object.assign(body, {
    ready: "1", stateId: v.state_id, seq: v.seq, role: ui.role ?? "", seat: ui.seat ?? "",
    phase: !v.started ? "waiting" : v.outcome ? "over" : running() ? "play" : "countdown",
    myTurn: canFlip() ? "1" : "0", over: v.outcome ? "1" : "0", race: v.race ? "1" : "0",
    turn: v.turn ?? "",
  });
  $("round-info").textContent = v.started && v.seq > 0 ? t("snap.flips", { n: v.seq }) : t("snap.title");
  $("btn-invite").hidden = ui.role !== "player";
  const box = $("opponents");
  const order = seatOrder(v, ui.seat);
  box.dataset.count = order.length;
  fill(box, order.map((seat) => seatTile(v, seat, { me: ui.seat, presence: ui.presence, callers, flash: flashOf(seat) })));
  fill($("pot"), pot(v));
  renderBanner(v);
  renderCentre(v);
  renderMe(v);
  tick();
}

// The banner is a polite live region: screen readers hear who called and who won each race.
// It is filled only when what it says changes (a refill would be read again).
function renderBanner(v) {
  const el = $("banner");
  const b = ui.banner;
  const live = b && (performance.now() - b.at < BANNER_MS || b.event.type === "end" || v.outcome);
  if (v.race && !v.outcome) {
    const key = `race ${v.seq} ${v.race.callers.join(",")}`;
    if (el.dataset.key !== key) {
      const names = v.race.callers.map((s) => (s === ui.seat ? t("snap.you") : nameOf(v, s, ui.seat)));
      fill(el, h("div.banner-card.b-race", {}, h("p.banner-text", {}, t("snap.race_by", { names: capitalised(listNames(names)) })),
        h("p.banner-calls", {}, t("snap.status.race"))));
      el.dataset.key = key;
    }
    el.className = "banner show";
  } else if (live) {
    const key = JSON.stringify(b.event);
    if (el.dataset.key !== key) {
      fill(el, banner(b.event, v, ui.seat));
      el.dataset.key = key;
    }
    el.className = "banner show";
  } else {
    el.className = "banner";
  }
}

function renderCentre(v) {
  const panel = $("center-panel");
  let content = null;
  if (!v.started) content = seating.waitingRoom(v);
  else if (ui.clock && !ui.clock.running && !v.outcome) content = countdown();
  panel.hidden = !content;
  $("felt").classList.toggle("has-panel", Boolean(content));
  const focused = panel.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  fill(panel, content);
  if (focused) panel.querySelector(`[data-key="${focused}"]`)?.focus();
}

function countdown() {
  const waiting = ui.clock.starts_in_ms === null || ui.clock.starts_in_ms === undefined;
  return h("div.panel-card.countdown", {},
    h("h2", {}, t("snap.countdown.title")),
    h("p.count-big", { id: "countdown", "aria-live": "polite" }, waiting ? "" : countdownText()),
    h("p", {}, waiting ? t("snap.countdown.wait") : t("snap.countdown.body")));
}

function countdownText() {
  if (ui.startAt === null) return "";
  const left = Math.max(0, Math.ceil((ui.startAt - performance.now()) / 1000));
  return left > 0 ? t("snap.countdown.in", { n: left }) : "…";
}

function statusText(v) {
  if (!v.started) return t("snap.status.waiting");
  if (v.outcome) return t("snap.status.over");
  if (ui.clock && !ui.clock.running) return t("snap.status.countdown");
  const turnName = nameOf(v, v.turn, ui.seat);
  if (ui.seat === null) return t("snap.status.watching", { name: turnName });
  if (v.seats[ui.seat].out) return t("snap.status.out");
  if (v.race) return t("snap.status.race");
  if (v.flipping !== null && v.flipping !== undefined) { // N3: the card appears after a short random pause
    return t(v.flipping === ui.seat ? "snap.status.flipping_you" : "snap.status.flipping", { name: turnName });
  }
  if (canFlip()) return t(TOUCH.matches ? "snap.status.your_turn_touch" : "snap.status.your_turn");
  if (v.turn === ui.seat) return t("snap.status.your_turn_soon");
  return t("snap.status.their_turn", { name: turnName });
}

function renderMe(v) {
  const section = $("me");
  const spectating = ui.seat === null;
  section.classList.toggle("spectating", spectating);
  $("status").textContent = statusText(v);
  $("me-controls").hidden = spectating;
  if (spectating) {
    fill($("my-seat"));
    return;
  }
  const s = v.seats[ui.seat];
  const info = v.seat_info[ui.seat] ?? {};
  const mine = canFlip();
  const myTurn = running() && v.turn === ui.seat && !s.out;
  section.classList.toggle("my-turn", mine);
  section.classList.toggle("is-out", Boolean(s.out));
  const flash = flashOf(ui.seat);
  section.dataset.flash = flash ?? "";
  const called = v.race?.callers?.includes(ui.seat);
  fill($("my-seat"),
    h("div.my-id", {},
      h("span.st-dot", { style: { "--hue": seatHue(ui.seat) }, "aria-hidden": "true" }),
      h("span.my-name", {}, info.name || t("seat.you")),
      s.out ? h("span.st-badge.out", {}, t("snap.out")) : null,
      called ? h("span.st-badge.call", {}, t("snap.called")) : null),
    h("div.my-cards", {},
      h("div.my-stock", { title: t("snap.stock_n", { n: s.stock }), "aria-label": `${t("snap.my_stock")}: ${t("snap.stock_n", { n: s.stock })}`, role: "img" },
        cardBack(s.stock), h("span.cap", {}, t("snap.stock"))),
      h("div.my-pile", { role: "group", "aria-label": `${t("snap.my_pile")}: ${s.top ? cardName(s.top) : t("snap.no_pile")}, ${t("snap.pile_n", { n: s.pile })}` },
        topCard(s.top, ui.seat, ""), h("span.cap", {}, t("snap.pile_n", { n: s.pile })))));
  const flipBtn = $("flip-btn");
  flipBtn.disabled = !mine || ui.flipPending === v.seq;
  flipBtn.classList.toggle("ready", mine && ui.flipPending !== v.seq);
  $("my-timer").dataset.timer = myTurn ? ui.seat : "";
  $("my-timer").classList.toggle("on", myTurn);
  const snapBtn = $("snap-btn");
  snapBtn.disabled = !canCall();
  const stats = myReactions(ui.events, ui.seat);
  $("my-rt").textContent = stats ? t("snap.my_rt", { median: stats.median, best: stats.best }) : "";
}

const LOG_MAX = 150;

/** Add the newest events to the top of the log (newest first: nothing to scroll). */
function renderLog(v, fresh) {
  const log = $("log");
  log.querySelector(".log-empty")?.remove();
  const items = fresh.slice(-LOG_MAX).map((e) => h(`li.log-item.log-${e.type}${e.verdict ? `.v-${e.verdict}` : ""}`,
    { style: { "--hue": seatHue(e.seat ?? e.seats?.[0] ?? 0) } }, describe(e, v, ui.seat)));
  log.prepend(...items.reverse());
  while (log.childElementCount > LOG_MAX) log.lastElementChild.remove();
  if (!log.childElementCount) log.append(h("li.log-empty", {}, t("log.empty")));
}

/** The moving parts between two states: turn timers, the countdown, fading banners. */
function tick() {
  const v = ui.view;
  if (!v) return;
  const total = v.options?.turn_timer_ms || 3000;
  let frac = null;
  if (running() && !v.race && v.deadline_ms !== null && v.deadline_ms !== undefined) {
    const end = v.deadline_ms > v.flip_open_ms ? v.deadline_ms : v.flip_open_ms + total;
    frac = Math.max(0, Math.min(1, (end - gameNow(ui.clock && readClock(ui.clock, ui.clockAt), ui.view?.clock_ms ?? 0)) / total));
  }
  for (const el of document.querySelectorAll(".timer[data-timer]")) {
    if (el.dataset.timer === "") continue;
    const bar = el.firstElementChild;
    bar.style.transform = `scaleX(${frac ?? 0})`;
    el.classList.toggle("low", frac !== null && frac < 0.3);
  }
  const count = $("countdown");
  if (count && ui.clock?.starts_in_ms !== null && ui.clock?.starts_in_ms !== undefined) count.textContent = countdownText();
  const b = ui.banner;
  if (b && !v.race && !v.outcome && b.event.type !== "end" && performance.now() - b.at >= BANNER_MS) {
    $("banner").className = "banner";
  }
}

function loop() {
  tick();
  requestAnimationFrame(loop);
}

// ---------------------------------------------------------------- messages

function mergeEvents(lists) {
  const fresh = [];
  for (const list of lists) {
    for (const event of list ?? []) {
      const key = JSON.stringify(event);
      if (ui.seen.has(key)) continue;
      ui.seen.add(key);
      ui.events.push(event);
      fresh.push(event);
    }
  }
  return fresh;
}

function onState(msg) {
  const first = !ui.view || Boolean(msg.history);
  const wasMyTurn = canFlip();
  const v = msg.view;
  ui.receivedAt = performance.now();
  ui.view = v;
  ui.actions = msg.actions ?? [];
  ui.presence = msg.presence ?? [];
  const clock = msg.clock ?? v.clock ?? null;
  if (clock) {
    ui.clock = clock;
    ui.clockAt = ui.receivedAt;
    ui.startAt = clock.starts_in_ms === null || clock.starts_in_ms === undefined ? null : ui.receivedAt + clock.starts_in_ms;
  }
  if (ui.flipPending !== null && (ui.flipPending !== v.seq || !canFlip())) ui.flipPending = null;
  const fresh = mergeEvents([msg.history, msg.events, v.log]);
  for (const event of fresh) {
    if (bannerWorthy(event)) ui.banner = { event, at: performance.now() };
    if (first) continue;
    if (event.type === "win") ui.flashes.set(event.seat, { kind: "won", at: performance.now() });
    else if (event.type === "call" && event.verdict === "false") {
      ui.flashes.set(event.seat, { kind: "gave", at: performance.now() });
      ui.flashes.set(event.to, { kind: "got", at: performance.now() });
    }
  }
  if (first && ui.banner && ui.banner.event.type !== "end") ui.banner = null; // old news
  const newReveal = v.seq > ui.renderedSeq;
  render();
  renderLog(v, fresh);
  if (newReveal) {
    ui.renderedSeq = v.seq;
    const seq = v.seq;
    // The reveal is painted in the next frame: its start time counts as the paint time (N9:
    // rt = key press − paint), so a press from then on answers this reveal.
    requestAnimationFrame((frame) => {
      if (!ui.paint.has(seq)) ui.paint.set(seq, Math.min(frame, performance.now()));
      if (seq > ui.paintedSeq) ui.paintedSeq = seq;
      if (ui.paint.size > 64) ui.paint.delete(ui.paint.keys().next().value);
      // for tests: the reveal the page has painted (a frame later, surely on screen)
      requestAnimationFrame(() => {
        if (seq > Number(document.body.dataset.paintedSeq ?? -1)) {
          Object.assign(document.body.dataset, { paintedSeq: seq, paintedAt: Math.round(ui.paint.get(seq) ?? frame) });
        }
      });
    });
    if (!first && ui.settings.anim_ms) {
      const el = document.querySelector(`[data-top][data-seat="${v.last_flipper}"]`);
      el?.classList.add("just-flipped");
    }
  }
  if (!first) announce(fresh, !wasMyTurn && canFlip());
  // for the "Learn to play" coach (learn-rt.js): what the page now shows
  publishState({ view: v, actions: ui.actions, events: first ? [] : fresh });
  if (v.outcome && !ui.finalShown) {
    ui.finalShown = true;
    showResults(v);
  }
}

function announce(events, turnNow) {
  const lines = [];
  for (const e of events) {
    if (e.type === "flip") lines.push(t("snap.announce.flip", { who: nameOf(ui.view, e.seat, ui.seat), card: cardName(e.card) }));
    // decisions, false calls, eliminations: the banner (a live region) says them
  }
  if (turnNow) lines.push(t("snap.status.your_turn"));
  if (lines.length) $("sr-announce").textContent = lines.slice(-3).join(". ");
}

function showResults(v) {
  const dialog = $("results-dialog");
  const stats = ui.seat === null ? null : myReactions(ui.events, ui.seat);
  fill(dialog,
    h("div.dialog-head", {}, h("h2", { id: "results-title" }, winnerLine(v, ui.seat)),
      h("button.icon-btn", { type: "button", "aria-label": t("help.close"), onclick: () => dialog.close() }, "×")),
    h("p.results-why", {}, endReason(v)),
    h("h3", {}, t("results.final")),
    ranking(v, ui.seat),
    ui.seat !== null ? reactionSummary(stats) : null,
    h("div.dialog-foot", {},
      h("a.btn.ghost", { href: "/" }, t("results.lobby")),
      ui.seat !== null ? h("button.btn.primary", { type: "button", id: "play-again", onclick: playAgain }, t("results.play_again")) : null));
  dialog.classList.add("is-final", "snap-results");
  if (!dialog.open) dialog.showModal();
  (dialog.querySelector(".dialog-foot .primary") ?? dialog.querySelector(".dialog-foot .btn"))?.focus({ preventScroll: true });
  dialog.scrollTop = 0;
}

function playAgain(event) {
  const v = ui.view;
  return newTable(event, () => {
    const { match, index_card, shuffle_on_recycle } = v.options ?? {};
    return {
      game: "snap",
      name: v.seat_info[ui.seat].name || player.name || t("lobby.name_placeholder"),
      seats: otherSeats(v, ui.seat),
      options: Object.fromEntries(Object.entries({ match, index_card, shuffle_on_recycle }).filter(([, x]) => x !== undefined)),
    };
  });
}

/** A server message (the welcome and seat errors are the seating's). */
function onMessage(msg) {
  if (msg.type === "state") {
    onState(msg);
  } else if (msg.type === "presence") {
    ui.presence = msg.presence; // a person came or left: who is here, nothing else changed
    if (ui.view) render();
  } else if (msg.type === "ack") {
    if (msg.rt_ms !== undefined) document.body.dataset.creditedRt = msg.rt_ms;
    ui.refs.delete(msg.ref);
  } else if (msg.type === "error") {
    const what = ui.refs.get(msg.ref);
    ui.refs.delete(msg.ref);
    if (what === "flip") ui.flipPending = null;
    if (what === "snap") ui.snapped = null;
    // A reveal that moved on under a key press is no news to the player.
    if (msg.code !== "stale_reveal") toast(errorText(msg.code), "error");
    if (ui.view) render();
  }
}

function setupChrome() {
  seating.setupChrome();
  const snapBtn = $("snap-btn");
  // A press counts when it goes down (mouse, touch, pen); Enter on the focused button clicks.
  snapBtn.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    snap();
  });
  snapBtn.addEventListener("click", (event) => {
    if (event.detail > 0) return; // a pointer press: already called on pointerdown
    if (performance.now() - ui.spaceAt < 600) return; // the space bar's own click
    snap();
  });
  $("flip-btn").addEventListener("click", flip);
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("keyup", onKeyUp);
  requestAnimationFrame(loop);
}

setupChrome();
seating.enter();
