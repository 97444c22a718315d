// "Learn to play" SCOUT: a coach over the normal SCOUT table (table.js) while the page plays a
// lesson table (/t/<id>?learn=scout, made by POST /api/learn on a fixed deal with predictable
// opponents). It reads only what the page shows — the seat's view, its legal actions and the new
// events (each state the page publishes, page-state.js) — asks for each kind of move and explains
// what happened after each. It holds no rules: hints come from the legal actions the server sent.

import { t, tn } from "./i18n.js";
import { createCoach, lessonOf } from "./learn-coach.js";
import { followState } from "./page-state.js";

const LEARNER = 0;
const learning = lessonOf() === "scout";
const easy = { kind: "bot", level: "easy" };
const panel = createCoach({ game: "scout", seats: [easy, easy], options: {} });

const coach = {
  hint: [], // hand positions of the cards the coach suggests
  said: [], // what happened since the last prompt: explanations, newest last
  done: new Set(), // the kinds of move the learner has made: flip, show, scout, ss
  ended: false,
};

const nameOf = (v, seat) => (seat === LEARNER ? t("learn.you") : v.seat_info[seat]?.name || `#${seat + 1}`);
const up = (c) => c[0];

/** The weakest two-card Show among the legal actions (the one the coach suggests first), or null. */
function suggestedShow(v, actions) {
  const key = (a) => {
    const [x, y] = v.hand.slice(a.start, a.start + 2).map(up);
    return x === y ? 100 + x : Math.min(x, y);
  };
  const twos = actions.filter((a) => a.type === "show" && a.length === 2);
  return twos.sort((a, b) => key(a) - key(b))[0] ?? null;
}

/** The Show with the most cards among the legal actions (the rightmost of those), or null: the
 * coach's suggestion to finish a Scout & Show, a show the others are unlikely to beat. */
function strongestShow(v, actions) {
  const shows = actions.filter((a) => a.type === "show");
  return shows.reduce((best, a) => (!best || a.length >= best.length ? a : best), null);
}

/** Explain one event of the lesson (the learner's own moves, and what concerns them). */
function explain(event, v) {
  const mine = event.seat === LEARNER;
  if (event.type === "flip_decided" && mine) {
    coach.done.add("flip");
    return t(event.flip ? "learn.scout.flipped" : "learn.scout.kept");
  }
  if (event.type === "show" && mine) {
    const after = coach.done.has("ss_pending");
    coach.done.delete("ss_pending");
    coach.done.add(after ? "ss" : "show");
    const captured = event.captured ? tn("learn.scout.captured", event.captured) : "";
    return `${t(after ? "learn.scout.ss_done" : "learn.scout.showed")} ${captured}`.trim();
  }
  if (event.type === "show" && event.captured) {
    return t("learn.scout.beaten", { name: nameOf(v, event.seat), n: event.captured });
  }
  if ((event.type === "scout" || event.type === "scout_show") && mine) {
    if (event.type === "scout") coach.done.add("scout");
    else coach.done.add("ss_pending");
    const owner = nameOf(v, event.chip_to);
    return t(event.type === "scout" ? "learn.scout.scouted" : "learn.scout.ss_scouted", {
      card: up(event.card), other: event.card[1], name: owner,
    });
  }
  if (event.type === "scout" && event.chip_to === LEARNER) {
    return t("learn.scout.chip", { name: nameOf(v, event.seat) });
  }
  if (event.type === "round_end") {
    coach.ended = true;
    const you = event.seat === LEARNER ? "_you" : "";
    const kind = event.reason === "scouted_out" ? "end_scouted" : "end_empty";
    const why = t(`learn.scout.${kind}${you}`, { name: nameOf(v, event.seat) });
    return `${why} ${t("learn.scout.points")}`;
  }
  return null;
}

/** What the coach asks for now (key, params), from the view and the legal actions. */
function prompt(v, actions) {
  if (coach.ended) return ["learn.scout.done", {}];
  if (v.phase === "flip" && v.flip === null) return ["learn.scout.flip", {}];
  if (!actions.length) return ["learn.scout.wait", {}];
  if (v.pending_scout_show) {
    return ["learn.scout.ss_show", { hint: strongestShow(v, actions) ? t("learn.scout.ss_hint") : "" }];
  }
  const canScout = actions.some((a) => a.type === "scout");
  const canSS = actions.some((a) => a.type === "scout_show");
  if (!v.active_show.length && !coach.done.has("show")) {
    const hint = suggestedShow(v, actions);
    if (hint) {
      const [a, b] = v.hand.slice(hint.start, hint.start + 2).map(up);
      return ["learn.scout.show", { hint: t("learn.scout.show_hint", { a, b }) }];
    }
    return ["learn.scout.show", { hint: "" }];
  }
  if (canScout && !coach.done.has("scout")) return ["learn.scout.scout", {}];
  if (canSS && !coach.done.has("ss")) return ["learn.scout.ss", {}];
  return ["learn.scout.free", {}];
}

/** The hand positions of the cards the coach suggests now (the hint's cards). */
function hintCards(v, actions, key) {
  const hint = key === "learn.scout.show" ? suggestedShow(v, actions)
    : key === "learn.scout.ss_show" ? strongestShow(v, actions) : null;
  return hint ? Array.from({ length: hint.length }, (_, i) => hint.start + i) : [];
}

/** Mark the suggested cards (again after each time the page draws the hand). */
function markHint() {
  for (const el of document.querySelectorAll("#hand .card")) {
    el.classList.toggle("coach-hint", coach.hint.includes(Number(el.dataset.i)));
  }
}

function onState({ view: v, actions, events }) {
  if (!v || v.seat !== LEARNER) return;
  // what happened since the learner's latest move: that move's explanation, then the others'
  for (const e of events) {
    const line = explain(e, v);
    if (!line) continue;
    if (e.seat === LEARNER && e.type !== "round_end") coach.said = [line];
    else coach.said = [...coach.said, line].slice(-4);
  }
  const [key, params] = prompt(v, actions);
  panel.update({ said: coach.said, ask: t(key, params), step: key.split(".").pop(), ended: coach.ended });
  coach.hint = hintCards(v, actions, key);
  markHint();
}

if (learning) {
  followState(onState);
  new MutationObserver(markHint).observe(document.getElementById("hand"), { childList: true });
}
