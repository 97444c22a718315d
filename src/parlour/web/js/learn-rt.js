// "Learn to play" SCAN and SNAP: a coach over the normal real-time table (scan.js, snap.js) while
// the page plays a lesson table (/t/<id>?learn=scan|snap, made by POST /api/learn on a fixed
// deal with patient tutor opponents). It reads only what the page shows — the seat's view, its
// legal actions and the new events (each state the page publishes, page-state.js) — asks for
// each kind of move and explains what happened after each.

import { listNames, t, tn } from "./i18n.js";
import { createCoach, lessonOf } from "./learn-coach.js";
import { followState } from "./page-state.js";

const LEARNER = 0;
const lesson = lessonOf();
const beginner = { kind: "bot", level: "beginner" };
const REAL = {
  scan: { game: "scan", seats: [beginner], options: { category: "shape", bluffo: true } },
  snap: { game: "snap", seats: [beginner, beginner], options: {} },
};

const coach = { said: [], done: new Set(), ended: false, wonAt: null };

const nameOf = (v, seat) => (seat === LEARNER ? t("learn.you") : v.seat_info[seat]?.name || `#${seat + 1}`);

function tell(line, mine) {
  if (!line) return;
  coach.said = mine ? [line] : [...coach.said, line].slice(-4);
}

// ---------------------------------------------------------------- SCAN

function explainScan(e, v) {
  const mine = e.seat === LEARNER;
  if (e.type === "touch" && mine && e.verdict === "wrong") {
    coach.done.add("wrong");
    return tell(t("learn.scan.wrong_done"), true);
  }
  if (e.type === "bluffo" && mine) {
    coach.done.add("bluffo");
    return tell(t("learn.scan.bluffo_done"), true);
  }
  if (e.type === "win" && e.seat === LEARNER) {
    if (e.by === "bluffo") {
      coach.ended = true;
      return tell(t("learn.scan.bluffo_right"), false);
    }
    coach.done.add("find");
    return tell(tn("learn.scan.found", 1 + e.taken.length), true);
  }
  if (e.type === "win") {
    const took = e.taken.some((g) => g.from === LEARNER);
    return tell(t(took ? "learn.scan.other_took_mine" : "learn.scan.other_found", { name: nameOf(v, e.seat) }), false);
  }
  if (e.type === "claim_wrong" && e.seat === LEARNER) {
    coach.ended = true;
    return tell(t("learn.scan.bluffo_wrong"), false);
  }
  if (e.type === "no_winner") return tell(t("learn.scan.no_winner"), false);
  return null;
}

function askScan(v) {
  if (coach.ended) return "done";
  if (v.phase !== "round" || !v.tan) return "next";
  if (v.disqualified.includes(LEARNER) || v.claimant === LEARNER) return "wait";
  if (!coach.done.has("find")) return "find";
  if (!coach.done.has("wrong")) return "wrong";
  return "bluffo";
}

// ---------------------------------------------------------------- SNAP

const RANK = (name) => name.slice(0, -1);

/** The seats whose face-up piles a snap would claim now, and whether it would claim the Pot
 * (N5, matching by rank as the lesson does), from the view. */
function snapClaim(v) {
  const tops = v.seats.filter((s) => s.top && !s.out).map((s) => [s.seat, RANK(s.top)]);
  const pot = v.pot.top ? RANK(v.pot.top) : null;
  const ranks = tops.map(([, r]) => r);
  const seats = new Set(tops.filter(([, r]) => ranks.filter((x) => x === r).length > 1 || r === pot).map(([s]) => s));
  return { seats, pot: pot !== null && ranks.includes(pot) };
}

function explainSnap(e, v) {
  const mine = e.seat === LEARNER;
  if (e.type === "flip" && mine) {
    coach.done.add("flip");
    return tell(t("learn.snap.flipped"), true);
  }
  if (e.type === "win" && mine) {
    coach.done.add(e.pot_cards ? "pot" : "snap");
    coach.wonAt = e.seq; // a call right after a decided race is late (ignored): not this reveal
    return tell(tn(e.pot_cards ? "learn.snap.won_pot" : "learn.snap.won", e.cards), true);
  }
  if (e.type === "win") return tell(t("learn.snap.other_won", { name: nameOf(v, e.seat) }), false);
  if (e.type === "tie") {
    coach.done.add("tie");
    return tell(t("learn.snap.tie", { names: listNames(e.seats.map((s) => nameOf(v, s))) }), false);
  }
  if (e.type === "call" && mine && e.verdict === "false") {
    coach.done.add("false");
    coach.ended = true;
    return tell(t("learn.snap.false_done", { name: nameOf(v, e.to) }), true);
  }
  if (e.type === "end") {
    coach.ended = true;
    return tell(t("learn.snap.over"), false);
  }
  return null;
}

function askSnap(v, actions) {
  if (coach.ended) return "done";
  const claim = snapClaim(v);
  const canFlip = actions.some((a) => a.type === "flip");
  if (!coach.done.has("flip")) return canFlip ? "flip" : "watch";
  if (claim.pot) return "pot_now";
  if (claim.seats.has(LEARNER)) return "snap_now";
  if (claim.seats.size) return "pot_wait"; // the others' piles: watch them call
  if (!coach.done.has("snap")) return "snap";
  if (!coach.done.has("pot")) return v.pot.size ? "pot" : "pot_wait";
  return v.seq === coach.wonAt ? "false_wait" : "false";
}

// ---------------------------------------------------------------- the coach

function onState({ view: v, actions, events }) {
  if (!v || v.seat !== LEARNER || !v.started) return;
  for (const e of events) (lesson === "scan" ? explainScan : explainSnap)(e, v);
  const step = lesson === "scan" ? askScan(v) : askSnap(v, actions);
  const ask = step === "done" ? t(`learn.${lesson}.done`) : t(`learn.${lesson}.${step}`);
  panel.update({ said: coach.said, ask, step, ended: coach.ended });
}

// on a phone: SNAP's coach above the player's own controls (the opponents' piles and the Pot
// stay in view), SCAN's at the bottom of the screen (the tan card stays in view)
const ABOVE = { snap: "#me", scan: "bottom" };
const panel = REAL[lesson] ? createCoach(REAL[lesson], { above: ABOVE[lesson] }) : null;
if (panel) followState(onState);
