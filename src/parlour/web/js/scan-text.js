// SCAN's events in words: "Ana found it — card 7 — in 812 ms". Only what the view says.

import { nameOf } from "./describe.js";
import { h } from "./dom.js";
import { listNames, t } from "./i18n.js";
import { seatHue } from "./render.js";

const cat = (c) => t(`scan.cat_lower.${c}`);
const num = (index) => (index ?? -1) + 1;
const ms = (rt) => Math.round(rt ?? 0);

/** The seat that slapped Bluffo first in a round's events (the claimant), if any. */
export function claimantOf(events) {
  return events.find((e) => e.type === "bluffo" && e.verdict === "claim")?.seat ?? null;
}

/** One sentence for one event of a round (`round` is the card's number in its game). */
export function describeScan(event, view, me, events = [], round = null) {
  const who = nameOf(view, event.seat, me);
  switch (event.type) {
    case "setup":
      return t("log.setup", { game: event.game, cat: cat(event.category) });
    case "reveal":
      return t("log.reveal", { round: round ?? "", cat: cat(event.category) });
    case "anticipation":
      return t("log.anticipation", { who, rt: ms(event.rt_ms) });
    case "touch":
      return t(`log.touch.${event.verdict}`, { who, n: num(event.blue_index), rt: ms(event.rt_ms) });
    case "bluffo":
      return t(`log.bluffo.${event.verdict}`, { who, rt: ms(event.rt_ms) });
    case "draw": {
      const names = listNames(event.seats.map((s) => nameOf(view, s, me)));
      return t("log.draw", { names, who: nameOf(view, event.chosen, me) });
    }
    case "checking":
      return t(event.seat === me && me !== null ? "log.checking_you" : "log.checking", { who });
    case "claim_wrong":
      return t(event.seat === me && me !== null ? "log.claim_wrong_you" : "log.claim_wrong", { who });
    case "win": {
      const text = t(`log.win.${event.by}${event.seat === me && me !== null ? "_you" : ""}`, { who });
      if (!event.taken?.length) return text;
      const claimant = claimantOf(events);
      const names = listNames(event.taken.map((g) => t(g.from === claimant && event.by === "touch"
        ? "log.from_claimant" : "log.from_dq", { who: nameOf(view, g.from, me) })));
      return t("log.win.taken", { text, names });
    }
    case "no_winner": {
      const none = event.match === null || event.match === undefined;
      const key = event.reason === "no_match_call" ? "log.no_winner.no_match_call"
        : `log.no_winner.${event.reason}${none ? "_none" : ""}`;
      return t(key, { n: num(event.match) });
    }
    case "choose":
      return t("log.choose", { who, cat: cat(event.category) });
    case "choice_lapsed":
      return t("log.choice_lapsed", { who, cat: cat(event.category) });
    case "game_over":
      return t("log.game_over", { game: event.game });
    default:
      return event.type;
  }
}

/** What happened in a finished round, for the banner: `{title, lines, winner}` or null while
 * the round goes on. */
export function roundHeadline(events, view, me) {
  const win = events.find((e) => e.type === "win");
  const none = events.find((e) => e.type === "no_winner");
  if (!win && !none) return null;
  const lines = [];
  let title;
  let winner = null;
  if (win) {
    winner = win.seat;
    const mine = win.seat === me && me !== null;
    const who = nameOf(view, win.seat, me);
    if (win.by === "touch") {
      const touch = events.find((e) => e.type === "touch" && e.verdict === "won");
      title = t(mine ? "scan.head.found_you" : "scan.head.found", { who, rt: Math.round(touch?.rt_ms ?? 0) });
    } else {
      title = t(mine ? "scan.head.bluffo_you" : "scan.head.bluffo", { who });
    }
    if (win.taken?.length) {
      const claimant = claimantOf(events);
      lines.push(t("scan.head.took", { names: listNames(win.taken.map((g) => t(
        g.from === claimant && win.by === "touch" ? "log.from_claimant" : "log.from_dq",
        { who: nameOf(view, g.from, me) }))) }));
    }
  } else {
    title = t(`scan.head.${none.reason}`);
    if (none.reason !== "no_match_call") {
      lines.push(none.match === null || none.match === undefined
        ? t("scan.head.no_match") : t("scan.head.match_was", { n: none.match + 1 }));
    }
  }
  return { title, lines, winner };
}

/** The final scores: per game with four in a row, else tan cards and (with Bluffo on) Bluffo
 * cards, each worth two; `fastOf(seat)` says whether to flag a seat as unusually fast. */
export function finalScores(v, me, fastOf = () => false) {
  const bluffo = Boolean(v.options?.bluffo);
  const single = v.games > 1 ? null : v.outcome.games[0];
  return h("table.results.scan-results", {},
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("results.player")),
      v.games > 1 ? v.outcome.games.map((g) => h("th", { scope: "col" }, t("scan.end.game_col", { game: g.game }), h("br"), h("small", {}, t(`scan.cat_lower.${g.category}`)))) : [
        h("th", { scope: "col" }, t("scan.end.tan_col")),
        bluffo ? h("th", { scope: "col" }, t("scan.end.bluffo_col")) : null,
      ],
      h("th", { scope: "col" }, t("scan.end.total")))),
    h("tbody", {}, v.seats.map((s, seat) => h(`tr${seat === me ? ".is-me" : ""}`, { dataset: { seat } },
      h("th", { scope: "row" }, h("span.dot", { style: { "--hue": seatHue(seat) } }), nameOf(v, seat, me),
        fastOf(seat) ? h("span.flag-fast", { title: t("scan.end.fast_title") }, t("scan.end.fast")) : null),
      v.games > 1 ? v.outcome.games.map((g) => h("td", { title: t("scan.end.breakdown", { won: g.tan[seat], bluffo: g.bluffo[seat] }) }, g.scores[seat]))
        : [h("td", {}, single?.tan[seat] ?? s.won.length),
          bluffo ? h("td", {}, t("scan.end.bluffo_cell", { n: single?.bluffo[seat] ?? s.bluffo })) : null],
      h("td.total", {}, v.outcome.scores[seat])))));
}
