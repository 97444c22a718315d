// The SCOUT table page: connects one seat (or a spectator), renders what the server sends and
// offers exactly the legal actions it lists. No rules live here.

import { flyIn, flyOut, pulse } from "./anim.js";
import { card, cardRow } from "./scout-cards.js";
import { describe, nameOf } from "./describe.js";
import { $, fill, h, toast } from "./dom.js";
import { errorText, listNames, t } from "./i18n.js";
import { player } from "./net.js";
import { publishState } from "./page-state.js";
import { logItems, ranking, resultsTable, seatPanel, seatStats, showZone, winnerLine } from "./render.js";
import { createCoach } from "./scout-hint.js";
import { createSeating, newTable, otherSeats, seatOrder, tableId } from "./seating.js";
import { countdown, onLowTime, setTimers } from "./turn-timer.js";

const ui = {
  seat: null, role: null, host: false, settings: { anim_ms: 450 },
  view: null, actions: [], presence: [], idx: null,
  sel: null, scout: null, ssIntent: false, pending: null, refusals: {},
  rounds: new Map(), socket: null, finalShown: false,
};
const coach = createCoach(ui, { render: () => render() });
const seating = createSeating(ui, {
  onMessage,
  // a screen reader hears once that time runs low (the countdown itself stays quiet)
  onWelcome: () => onLowTime(ui.seat, (n) => { $("sr-announce").textContent = t("timer.low", { n }); }),
});

// ---------------------------------------------------------------- legal actions, indexed

function index(actions) {
  const idx = { flip: false, shows: new Set(), scout: {}, ss: {}, playable: new Set() };
  for (const a of actions) {
    if (a.type === "flip") idx.flip = true;
    else if (a.type === "show") {
      idx.shows.add(`${a.start}:${a.length}`);
      for (let i = a.start; i < a.start + a.length; i++) idx.playable.add(i);
    } else {
      const bucket = a.type === "scout" ? idx.scout : idx.ss;
      (bucket[`${a.end}:${a.rotate}`] ??= new Set()).add(a.insert);
    }
  }
  return idx;
}

const endOpen = (bucket, end) => Boolean(bucket[`${end}:false`]?.size || bucket[`${end}:true`]?.size);
const anyOpen = (bucket) => Object.values(bucket).some((s) => s.size);
const me = () => ui.seat;
/** Whether a computer plays for this page's person (their turn timer ran out). */
const imAway = () => ui.seat !== null && Boolean(ui.view?.seat_info[ui.seat]?.away);
const myTurn = () => ui.seat !== null && ui.view?.started && ui.actions.length > 0 && !imAway();

// ---------------------------------------------------------------- sending

function act(action) {
  if (ui.pending || !ui.socket) return;
  const ref = ui.socket.send("act", { state_id: ui.view.state_id, action });
  if (ref) {
    ui.pending = ref;
    render();
  }
}

function toggleCard(i) {
  const s = ui.sel;
  if (!s) ui.sel = { a: i, b: i };
  else if (s.a === i && s.b === i) ui.sel = null;
  else if (i === s.a - 1) ui.sel = { a: i, b: s.b };
  else if (i === s.b + 1) ui.sel = { a: s.a, b: i };
  else if (i === s.a) ui.sel = { a: i + 1, b: s.b };
  else if (i === s.b) ui.sel = { a: s.a, b: i - 1 };
  else ui.sel = { a: i, b: i };
  render();
  const why = whyNot();
  if (why) $("sr-announce").textContent = why;
}

/** Why the selected cards cannot be shown, in words: the server's reason (the engine's
 * `refusals`), or null. */
function whyNot() {
  if (!ui.sel || selectionLegal()) return null;
  const reason = ui.refusals[`${ui.sel.a}:${ui.sel.b - ui.sel.a + 1}`];
  return reason ? t(`act.why.${reason}`) : null;
}

function selectionLegal() {
  return ui.sel && ui.idx.shows.has(`${ui.sel.a}:${ui.sel.b - ui.sel.a + 1}`);
}

function pickEnd(end) {
  const ss = ui.ssIntent || (!endOpen(ui.idx.scout, end) && endOpen(ui.idx.ss, end));
  ui.scout = { end, rotate: false, ss };
  ui.sel = null;
  render();
  $("tray").querySelector("button")?.focus();
}

function legalInserts() {
  const { end, rotate, ss } = ui.scout;
  return (ss ? ui.idx.ss : ui.idx.scout)[`${end}:${rotate}`] ?? new Set();
}

// ---------------------------------------------------------------- rendering

function render() {
  const v = ui.view;
  if (!v) return;
  const key = document.activeElement?.dataset?.key;
  const inMe = $("me").contains(document.activeElement) || $("felt").contains(document.activeElement);
  const body = document.body.dataset;
  Object.assign(body, {
    ready: "1", stateId: v.state_id, phase: v.started ? v.phase : "waiting", role: ui.role ?? "",
    myTurn: myTurn() && v.phase === "play" ? "1" : "0", flipping: ui.idx.flip ? "1" : "0",
    over: v.outcome ? "1" : "0", toAct: v.to_act.join(","), seat: ui.seat ?? "",
    away: imAway() ? "1" : "0", pending: ui.pending ? "1" : "0",
  });
  $("round-info").textContent = v.started ? t("top.round", { round: v.round, rounds: v.rounds }) : "";
  $("btn-invite").hidden = ui.role !== "player";
  renderOpponents(v);
  renderShow(v);
  renderCenter(v);
  renderMe(v);
  fill($("log"), logItems(ui.rounds, v, me()));
  $("log-scroll").scrollTop = $("log-scroll").scrollHeight;
  const again = key && document.querySelector(`[data-key="${key}"]`);
  if (again) again.focus();
  else if (inMe && !document.querySelector("dialog[open]")) {
    // the control that had focus is gone (the move was made): keep keyboard players in the hand
    ($("hand").querySelector("button:not([disabled])") ?? $("hand")).focus({ preventScroll: true });
  }
}

function renderOpponents(v) {
  const box = $("opponents");
  box.dataset.count = seatOrder(v, ui.seat).length;
  fill(box, seatOrder(v, ui.seat).map((seat) => seatPanel(v, seat, {
    me: me(), presence: ui.presence, away: Boolean(v.seat_info[seat].away), timer: countdown(seat),
  })));
}

function renderShow(v) {
  const inPlay = myTurn() && v.phase === "play" && !v.pending_scout_show && !ui.pending;
  const bucket = ui.ssIntent ? {} : ui.idx.scout;
  const scoutable = {};
  for (const end of ["left", "right"]) scoutable[end] = inPlay && (endOpen(bucket, end) || endOpen(ui.idx.ss, end));
  const zone = $("show-zone");
  zone.classList.toggle("is-empty", !(v.active_show ?? []).length);
  fill(zone, showZone(v, { me: me(), scoutable, onScout: pickEnd, picked: ui.scout?.end ?? null }));
}

function renderCenter(v) {
  const panel = $("center-panel");
  let content = null;
  if (!v.started) content = seating.waitingRoom(v);
  else if (imAway() && !v.outcome) content = awayPanel();
  else if (v.phase === "flip" && ui.idx.flip && v.hand) content = flipChooser(v);
  panel.hidden = !content;
  $("felt").classList.toggle("has-panel", Boolean(content));
  fill(panel, content);
}

/** The page of a person a computer plays for: say so, and offer to come back. */
function awayPanel() {
  return h("div.panel-card.away-panel", { role: "alert", "aria-labelledby": "away-title" },
    h("h2", { id: "away-title" }, t("away.title")),
    h("p", {}, t("away.body")),
    h("button.btn.primary", { type: "button", id: "im-back", dataset: { key: "im-back" }, disabled: Boolean(ui.backSent),
      onclick: () => { ui.backSent = true; ui.socket?.send("back"); render(); } }, t("away.back")));
}

function flipChooser(v) {
  const flipped = [...v.hand].reverse().map(([a, b]) => [b, a]);
  const option = (flip, cards, label) => h(`button.flip-option${coach.hinted("flip", flip) ? ".hinted" : ""}`, {
    type: "button", dataset: { key: `flip-${flip}`, flip }, disabled: Boolean(ui.pending),
    onclick: () => act({ type: "flip", flip }),
  }, h("span.flip-label", {}, label), cardRow(cards, "sm"));
  return h("div.panel-card.flip-choice", { role: "group", "aria-labelledby": "flip-title" },
    h("h2", { id: "flip-title" }, t("flip.title", { round: v.round }), countdown(ui.seat, { big: true })),
    h("p", {}, t("flip.body")),
    h("div.flip-options", {}, option(false, v.hand, t("flip.keep")), option(true, flipped, t("flip.flip"))),
    coach.button(v));
}

function renderMe(v) {
  const section = $("me");
  section.classList.toggle("spectating", ui.seat === null);
  $("status").textContent = statusText(v);
  if (ui.seat === null || !v.hand) {
    fill($("my-info"));
    fill($("hand"));
    fill($("action-bar"));
    $("tray").hidden = true;
    return;
  }
  const mine = v.seats[ui.seat];
  fill($("my-info"), h("span.avatar", { style: { "--hue": 12 }, "aria-hidden": "true" }, (v.seat_info[ui.seat].name || "?")[0].toUpperCase()),
    h("span.my-name", {}, v.seat_info[ui.seat].name),
    h("span.my-stats", {}, seatStats(v, ui.seat)),
    h("span.my-total", { title: t("seat.total", { n: mine.total }) }, mine.total),
    v.phase === "play" ? countdown(ui.seat, { big: true }) : null);
  section.classList.toggle("my-turn", myTurn() && v.phase === "play");
  renderTray(v);
  coach.renderTip();
  renderHand(v);
  renderActionBar(v);
}

function statusText(v) {
  if (!v.started) return t("status.waiting");
  if (v.outcome) return t("status.over");
  if (ui.seat === null) return t("status.watching");
  if (imAway()) return t("away.status");
  if (v.phase === "flip") {
    if (ui.idx.flip) return t("status.flip", { round: v.round });
    return t("status.flip_wait", { names: listNames(v.to_act.map((s) => nameOf(v, s, me()))) });
  }
  if (myTurn()) {
    if (v.pending_scout_show) return t("status.your_turn_ss");
    if (ui.scout) return t("tray.where");
    if (ui.ssIntent) return t("tray.pick_end");
    return t(v.active_show.length ? "status.your_turn" : "status.your_turn_empty");
  }
  const info = v.seat_info[v.turn];
  return t(info.kind === "bot" ? "status.their_turn" : "status.their_turn_human", { name: nameOf(v, v.turn, me()) });
}

function renderHand(v) {
  const hand = v.hand;
  const box = $("hand");
  const interactive = myTurn() && v.phase === "play" && !ui.pending;
  const scouting = interactive && ui.scout;
  const inserts = scouting ? legalInserts() : null;
  const items = [];
  let ghost = null;
  if (scouting) {
    const show = v.active_show;
    const taken = ui.scout.end === "left" ? show[0] : show[show.length - 1];
    ghost = ui.scout.rotate ? [taken[1], taken[0]] : taken;
  }
  for (let i = 0; i <= hand.length; i++) {
    if (scouting) {
      const label = i === 0 ? t("hand.slot_first") : i === hand.length ? t("hand.slot_last") : t("hand.slot", { n: i + 1 });
      const ok = inserts.has(i);
      items.push(h(`button.slot${ok ? "" : ".slot-off"}${coach.hinted("slot", i) ? ".hinted" : ""}`, {
        type: "button", disabled: !ok, "aria-label": label, title: label, dataset: { key: `slot-${i}`, slot: i },
        onclick: () => act({ type: ui.scout.ss ? "scout_show" : "scout", end: ui.scout.end, rotate: ui.scout.rotate, insert: i }),
      }, h("span.slot-mark", { "aria-hidden": "true" }, "+"), card(ghost, { cls: "slot-ghost", attrs: { "aria-hidden": "true" } })));
    }
    if (i === hand.length) break;
    const selected = ui.sel && i >= ui.sel.a && i <= ui.sel.b;
    if (interactive && !scouting) {
      const classes = [selected ? "selected" : "", ui.idx.playable.has(i) ? "playable" : "",
        coach.hinted("card", i) ? "hinted" : ""].filter(Boolean).join(".");
      const [up, down] = hand[i];
      const label = t("card.label", { up, down });
      items.push(card(hand[i], { tag: "button", cls: classes, attrs: {
        type: "button", "aria-pressed": String(Boolean(selected)), dataset: { key: `card-${i}`, i },
        "aria-label": ui.idx.playable.has(i) ? t("card.playable", { label }) : label,
        onclick: () => toggleCard(i),
      } }));
    } else {
      items.push(card(hand[i], { attrs: { dataset: { i } } }));
    }
  }
  if (!hand.length) items.push(h("p.muted", {}, t("hand.empty")));
  box.classList.toggle("scouting", Boolean(scouting));
  box.dataset.count = hand.length;
  fill(box, items);
  fitHand(box);
}

// Overlap the cards just enough for the whole hand to fit the width (a long hand on a phone).
// When that is not enough, the hand goes "tight": the places to insert a scouted card lie over
// the cards' edges instead of between them, and the cards shrink (down to 65 %) until more than
// half of each one shows (a card to select) or 40 % (while scouting, when only places are pressed).
function fitHand(box) {
  for (const name of ["--overlap", "--cw", "--ch", "--slot-w", "--hand-gap"]) box.style.removeProperty(name);
  box.classList.remove("tight");
  const cards = box.querySelectorAll(":scope > .card");
  if (cards.length < 2) return;
  const n = cards.length;
  const width = cards[0].offsetWidth;
  const gap = parseFloat(getComputedStyle(box).columnGap) || 0;
  const slotList = [...box.querySelectorAll(":scope > .slot")];
  const slots = slotList.reduce((sum, el) => sum + el.offsetWidth + gap, 0);
  const room = box.clientWidth - 16 - slots;
  const need = n * (width + gap) - gap;
  if (need <= room) return;
  const overlapBy = (w, space) => Math.max(0, (n * (w + gap) - gap - space) / (n - 1));
  if (overlapBy(width, room) <= width * 0.42 && !slotList.length) {
    box.style.setProperty("--overlap", `${-Math.ceil(overlapBy(width, room))}px`);
    return;
  }
  box.classList.add("tight");
  const ends = slotList.length ? 2 * (slotList[0].offsetWidth + gap) : 0;
  const space = box.clientWidth - 16 - ends;
  const cap = slotList.length ? 0.6 : 0.42;
  let w = width;
  if (overlapBy(w, space) > w * cap) {
    w = Math.max(width * 0.65, (space - (n - 1) * gap) / (n - (n - 1) * cap));
    const style = getComputedStyle(box);
    const ratio = w / width;
    box.style.setProperty("--cw", `${(parseFloat(style.getPropertyValue("--cw")) * ratio).toFixed(1)}px`);
    box.style.setProperty("--ch", `${(parseFloat(style.getPropertyValue("--ch")) * ratio).toFixed(1)}px`);
  }
  box.style.setProperty("--overlap", `${-Math.ceil(Math.min(w * cap, overlapBy(w, space)))}px`);
  box.style.setProperty("--hand-gap", `${gap}px`);
  if (slotList.length) box.style.setProperty("--slot-w", `${slotList[0].offsetWidth}px`);
}

function renderTray(v) {
  const tray = $("tray");
  const on = myTurn() && v.phase === "play" && ui.scout && !ui.pending;
  tray.hidden = !on;
  if (!on) return fill(tray);
  const { end, rotate, ss } = ui.scout;
  const show = v.active_show;
  const taken = end === "left" ? show[0] : show[show.length - 1];
  const shown = rotate ? [taken[1], taken[0]] : taken;
  const canPlain = endOpen(ui.idx.scout, end);
  const canSS = endOpen(ui.idx.ss, end);
  const none = legalInserts().size === 0;
  fill(tray,
    h("div.tray-card", {}, card(shown, { size: "lg" })),
    h("div.tray-body", {},
      h("strong.tray-title", {}, t(ss ? "tray.title_ss" : "tray.title", { end: t(`end.${end}`) })),
      h("div.tray-controls", {},
        h("button.btn.small", { type: "button", "aria-pressed": String(rotate), dataset: { key: "rotate" },
          onclick: () => { ui.scout.rotate = !rotate; render(); } }, `⟲ ${t("tray.turn")}`),
        canSS && canPlain ? h("label.check", {}, h("input", { type: "checkbox", checked: ss, dataset: { key: "ss" },
          onchange: (e) => { ui.scout.ss = e.target.checked; render(); } }), t("tray.ss_toggle")) : null,
        h("button.btn.small.ghost", { type: "button", dataset: { key: "cancel" }, onclick: cancel }, t("tray.cancel"))),
      h("p.tray-hint", {}, none ? t("tray.no_slot") : t("tray.where"))));
}

function renderActionBar(v) {
  const bar = $("action-bar");
  if (!(myTurn() && v.phase === "play") || ui.scout) return fill(bar);
  const legal = selectionLegal();
  const n = ui.sel ? ui.sel.b - ui.sel.a + 1 : 0;
  const showLabel = !ui.sel ? t("act.show") : legal ? t("act.show_n", { n }) : t("act.show_cannot");
  const canSS = !v.pending_scout_show && anyOpen(ui.idx.ss);
  const why = whyNot();
  fill(bar,
    why ? h("p.hint.why", { id: "show-why" }, why)
      : h("p.hint", {}, v.pending_scout_show ? t("act.hint_select_ss") : t("act.hint_select")),
    h("div.bar-buttons", {},
      canSS ? h("button.btn.ss", { type: "button", "aria-pressed": String(ui.ssIntent), dataset: { key: "ss-intent" },
        disabled: Boolean(ui.pending), onclick: () => { ui.ssIntent = !ui.ssIntent; ui.sel = null; render(); } }, t("act.scout_show")) : null,
      ui.sel ? h("button.btn.ghost", { type: "button", dataset: { key: "clear" }, onclick: () => { ui.sel = null; render(); } }, t("act.clear")) : null,
      coach.button(v),
      h("button.btn.primary.show-btn", { type: "button", disabled: !legal || Boolean(ui.pending), dataset: { key: "show" },
        "aria-describedby": why ? "show-why" : null,
        onclick: () => act({ type: "show", start: ui.sel.a, length: ui.sel.b - ui.sel.a + 1 }) },
      ui.pending ? t("act.sending") : showLabel)));
}

function cancel() {
  ui.scout = null;
  ui.ssIntent = false;
  render();
  $("hand").querySelector("button")?.focus();
}

// ---------------------------------------------------------------- results and the end

function showResults(v, roundNo) {
  const result = v.results[roundNo - 1];
  if (!result) return;
  const dialog = $("results-dialog");
  const final = Boolean(v.outcome) && roundNo === v.rounds;
  const close = () => dialog.close();
  fill(dialog,
    h("div.dialog-head", {}, h("h2", { id: "results-title" }, final ? winnerLine(v, me()) : t("results.round", { round: roundNo, rounds: v.rounds }))),
    final ? h("div.final", {}, h("h3", {}, t("results.final")), ranking(v, me())) : null,
    final ? h("h3.results-sub", {}, t("results.round", { round: roundNo, rounds: v.rounds })) : null,
    resultsTable(v, result, me()),
    final ? coach.turningPoints() : null,
    h("div.dialog-foot", {}, final ? [
      h("a.btn.ghost", { href: "/" }, t("results.lobby")),
      h("a.btn", { href: `/replay/${encodeURIComponent(tableId)}` }, t("results.replay")),
      ui.seat !== null ? h("button.btn.primary", { type: "button", id: "play-again", onclick: playAgain }, t("results.play_again")) : null,
    ] : h("button.btn.primary", { type: "button", id: "results-continue", onclick: close }, t("results.next"))));
  dialog.classList.toggle("is-final", final);
  if (!dialog.open) dialog.showModal();
  dialog.querySelector(".dialog-foot .primary")?.focus();
}

function playAgain(event) {
  const v = ui.view;
  return newTable(event, () => ({
    game: "scout",
    name: v.seat_info[ui.seat].name || player.name,
    seats: otherSeats(v, ui.seat),
    options: v.players === 2 ? { count_unspent_chips: v.options.count_unspent_chips } : {},
  }));
}

// ---------------------------------------------------------------- messages

function onState(msg) {
  const prev = ui.view;
  const changed = !prev || msg.state_id !== prev.state_id || msg.view.started !== prev.started;
  if (msg.history) ui.rounds = new Map();
  const events = msg.history ?? msg.events ?? [];
  for (const event of events) {
    if (!ui.rounds.has(event.round)) ui.rounds.set(event.round, []);
    ui.rounds.get(event.round).push(event);
  }
  if (!ui.rounds.has(msg.view.round) && msg.view.started) ui.rounds.set(msg.view.round, []);
  const rects = [...document.querySelectorAll("#show-zone .card")].map((el) => {
    el.getAnimations?.().forEach((a) => a.finish()); // measure where it rests, not mid-flight
    return { el, rect: el.getBoundingClientRect() };
  });
  const wasMyTurn = myTurn();
  awayNews(prev, msg.view);
  setTimers(msg.timers);
  ui.view = msg.view;
  ui.actions = msg.actions;
  if (!imAway()) ui.backSent = false;
  ui.presence = msg.presence;
  ui.idx = index(msg.actions);
  ui.refusals = msg.refusals ?? {};
  coach.onState(msg);
  if (changed) {
    ui.sel = null;
    ui.scout = null;
    ui.ssIntent = false;
    ui.pending = null;
  }
  render();
  if (prev && !msg.history) animate(msg.events ?? [], rects);
  announce(msg.history ? [] : msg.events ?? [], !wasMyTurn && myTurn());
  const done = msg.view.results.length;
  // A page opened (or refreshed) between rounds, before this seat chose its flip for the new
  // round, has not seen the last round's result yet: show it.
  const between = !prev && done > 0 && msg.view.phase === "flip" && msg.view.flip === null
    && ui.seat !== null;
  if ((prev && done > prev.results.length) || between) showResults(ui.view, done);
  else if (msg.view.outcome && !ui.finalShown) showResults(ui.view, msg.view.rounds);
  if (msg.view.outcome) ui.finalShown = true;
  // for the "Learn to play" coach (learn-scout.js): what the page now shows
  publishState({ view: ui.view, actions: ui.actions, events });
}

/** Tell everyone when another person goes away (a computer plays for them) or is back. */
function awayNews(prev, v) {
  if (!prev) return;
  v.seat_info.forEach((info, seat) => {
    const was = Boolean(prev.seat_info[seat]?.away);
    if (seat === ui.seat || was === Boolean(info.away)) return;
    const text = t(info.away ? "away.someone" : "away.other_back", { name: nameOf(v, seat, me()) });
    toast(text);
    $("sr-announce").textContent = text;
  });
}

function seatElement(seat) {
  if (seat === ui.seat) return $("hand");
  return document.querySelector(`#opponents [data-seat="${seat}"]`);
}

function animate(events, rects) {
  const ms = ui.settings.anim_ms;
  if (!ms) return;
  for (const event of events) {
    const seat = seatElement(event.seat);
    if (event.type === "show") {
      flyIn([...document.querySelectorAll("#show-zone .card")], seat, ms);
    } else if (event.type === "scout" || event.type === "scout_show") {
      const from = event.end === "left" ? rects[0] : rects[rects.length - 1];
      if (from) flyOut(card(event.card, { size: "lg" }), from.rect, seat, ms);
    } else {
      continue;
    }
    if (event.seat !== ui.seat) pulse(seat);
  }
}

function announce(events, turnNow) {
  const lines = events.filter((e) => e.type !== "flip_decided").map((e) => describe(e, ui.view, me()));
  if (turnNow && ui.view.phase === "play") lines.push(statusText(ui.view));
  if (lines.length) $("sr-announce").textContent = lines.join(". ");
}

/** A server message (the welcome and seat errors are the seating's). */
function onMessage(msg) {
  if (msg.type === "state") {
    onState(msg);
  } else if (msg.type === "presence") {
    ui.presence = msg.presence; // a person came or left: who is here, nothing else changed
    if (ui.view) render();
  } else if (msg.type === "hint") {
    coach.onHint(msg);
  } else if (msg.type === "turning_points") {
    coach.onPoints(msg);
  } else if (msg.type === "ack") {
    if (ui.pending === msg.ref) ui.pending = null;
  } else if (msg.type === "error") {
    if (coach.onError(msg)) return render(); // the hint is asked again for the new state
    if (msg.ref === undefined || msg.ref === ui.pending) ui.pending = null;
    if (msg.code !== "not_away") toast(errorText(msg.code), "error"); // "I'm back" twice: already back
    render();
  }
}

function onKey(event) {
  if (event.key === "Escape" && (ui.scout || ui.sel || ui.ssIntent) && !document.querySelector("dialog[open]")) {
    ui.sel = null;
    cancel();
    return;
  }
  if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
  const hand = $("hand");
  if (!hand.contains(document.activeElement)) return;
  const buttons = [...hand.querySelectorAll("button:not([disabled])")];
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  const next = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: buttons.length - 1 }[event.key];
  buttons[Math.max(0, Math.min(buttons.length - 1, next))]?.focus();
  event.preventDefault();
}

function setupChrome() {
  seating.setupChrome();
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", () => fitHand($("hand")));
}

setupChrome();
seating.enter();
