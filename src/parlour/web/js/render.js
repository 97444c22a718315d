// Pieces of the SCOUT table drawn from a view: seats, the active show, the log, results.
// Shared by the live table and the replay. No rules here: only what the view says.

import { card, cardBack } from "./scout-cards.js";
import { describe, nameOf, reason } from "./describe.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const HUES = [12, 205, 140, 275, 40];

/** The colour hue of a seat's avatar. */
export function seatHue(seat) {
  return HUES[seat % HUES.length];
}

function avatar(name, seat, bot) {
  return h(`span.avatar${bot ? ".avatar-bot" : ""}`, { style: { "--hue": seatHue(seat) }, "aria-hidden": "true" },
    (name || "?").trim().slice(0, 1).toUpperCase());
}

function stat(kind, value, label) {
  // the words for screen readers are text (a label on a plain span is not read everywhere)
  return h(`span.stat.stat-${kind}`, { title: label },
    h(`span.icon.icon-${kind}`, { "aria-hidden": "true" }), h("span.stat-value", { "aria-hidden": "true" }, value),
    h("span.sr-only", {}, label));
}

/** The seat's stats: captured cards, Scout chips, Scout & Show (3–5 players), total. */
export function seatStats(view, seat) {
  const s = view.seats[seat];
  const out = [
    stat("captured", s.captured, t("seat.captured", { n: s.captured })),
    stat("chips", s.chips, t("seat.chips", { n: s.chips })),
  ];
  if (view.players > 2) {
    const ss = t(s.scout_show_available ? "seat.ss_yes" : "seat.ss_no");
    out.push(h(`span.ss-badge${s.scout_show_available ? "" : ".used"}`, { title: ss },
      h("span", { "aria-hidden": "true" }, t("seat.ss_short")), h("span.sr-only", {}, ss)));
  }
  return out;
}

function seatSub(view, seat, presence, away) {
  const info = view.seat_info[seat];
  if (info.kind === "bot") return t("level.computer", { level: t(`level.${info.level}`) });
  if (info.kind === "open") return t("wait.open");
  if (away) return t("seat.away");
  const parts = [seat === 0 ? t("seat.host") : t("seat.player")];
  if (presence && !presence[seat]) parts.push(t("seat.offline"));
  return parts.join(" · ");
}

/** An opponent's panel (or any seat's, in the replay, with `hand` its cards face up). `away`: a
 * computer plays for this person; `timer`: the countdown of the seat's turn timer. */
export function seatPanel(view, seat, { me = null, presence = null, hand = null, away = false, timer = null } = {}) {
  const info = view.seat_info[seat];
  const s = view.seats[seat];
  const name = nameOf(view, seat, me);
  const acting = view.started && view.to_act.includes(seat);
  const classes = ["seat"];
  if (acting && view.phase === "play") classes.push("seat-turn");
  if (view.owner === seat && view.active_show.length) classes.push("seat-owner");
  if (info.kind === "open") classes.push("seat-open");
  if (presence && !presence[seat]) classes.push("seat-away");
  if (away) classes.push("seat-covered");
  const backs = [];
  const shown = Math.min(s.hand_size, 12);
  for (let i = 0; i < shown; i++) {
    const back = cardBack({ size: "xs" });
    back.style.setProperty("--k", i);
    backs.push(back);
  }
  let badge = null;
  if (acting && view.phase === "play") {
    const label = info.kind === "bot" ? "seat.thinking" : away ? "seat.computer_plays" : "seat.deciding";
    badge = h("span.seat-badge.thinking", {}, t(label),
      h("span.dots", { "aria-hidden": "true" }, h("i"), h("i"), h("i")), timer);
  } else if (view.phase === "flip" && view.started) {
    badge = h(`span.seat-badge${s.flip_decided ? ".ready" : ""}`, {},
      t(s.flip_decided ? "seat.decided" : "seat.deciding"), s.flip_decided ? null : timer);
  }
  // 2 players: no Scout & Show (S15), so nothing about it
  const summary = t(view.players > 2 ? "seat.summary_ss" : "seat.summary", {
    name, hand: t("seat.hand", { n: s.hand_size }), captured: t("seat.captured", { n: s.captured }),
    chips: t("seat.chips", { n: s.chips }), total: t("seat.total", { n: s.total }),
    ss: t(s.scout_show_available ? "seat.ss_yes" : "seat.ss_no"),
  }) + (away ? `, ${t("seat.away")}` : "");
  return h(`article.${classes.join(".")}`, { dataset: { seat }, "aria-label": summary, style: { "--hue": seatHue(seat) } },
    h("div.seat-head", {},
      avatar(name, seat, info.kind === "bot"),
      h("div.seat-id", {}, h("div.seat-name", {}, name), h("div.seat-sub", {}, seatSub(view, seat, presence, away))),
      h("div.seat-total", { title: t("seat.total", { n: s.total }) }, s.total)),
    h("div.seat-hand", { "aria-hidden": "true" },
      hand ? h("div.open-hand", {}, hand.map((c) => card(c, { size: "xs" })))
        : h("div.fan", { style: { "--n": shown } }, backs),
      h("span.seat-count", {}, s.hand_size)),
    h("div.seat-stats", {}, seatStats(view, seat)),
    badge);
}

/** The active show in the middle of the table. `scoutable` names the ends the viewer may take
 * (`{left: true}`), `onScout(end)` is called when one is chosen, `picked` is the chosen end. */
export function showZone(view, { me = null, scoutable = {}, onScout = null, picked = null } = {}) {
  const cards = view.active_show ?? [];
  if (!cards.length) {
    return [h("div.show-label"),
      h("div.show-empty", {}, h("strong", {}, t("show.none")), h("span", {}, t("show.none_hint")))];
  }
  const owner = view.owner;
  const label = owner === me ? t("show.owner_you") : t("show.owner", { name: nameOf(view, owner, me) });
  const row = cards.map((c, i) => {
    const end = i === 0 ? "left" : i === cards.length - 1 ? "right" : null;
    if (end && scoutable[end] && onScout) {
      return card(c, {
        tag: "button", size: "lg",
        cls: `scout-end${picked === end ? ".picked" : ""}`,
        attrs: {
          type: "button", "aria-pressed": String(picked === end),
          "aria-label": t("show.scout_end", { n: c[0], end: t(`end.${end}`) }),
          dataset: { key: `end-${end}`, end }, onclick: () => onScout(end),
        },
      });
    }
    return card(c, { size: "lg", attrs: { dataset: { i } } });
  });
  const canScout = Object.values(scoutable).some(Boolean) && onScout;
  return [
    h("div.show-label", { style: { "--hue": seatHue(owner) } }, h("span.owner-dot"), label),
    h("div.show-cards", {}, row),
    canScout && !picked ? h("div.show-hint", {}, t("show.scout_hint")) : null,
  ];
}

/** The log: one list item per event, with round headers. `rounds` maps round → events. */
export function logItems(rounds, view, me) {
  const items = [];
  for (const round of [...rounds.keys()].sort((a, b) => a - b)) {
    items.push(h("li.log-round", {}, t("log.round", { round })));
    const events = rounds.get(round).filter((e) => e.type !== "flip_decided" || e.seat === me);
    for (const event of events) {
      items.push(h(`li.log-item.log-${event.type}`, { style: { "--hue": seatHue(event.seat ?? 0) } },
        describe(event, view, me)));
    }
  }
  if (!items.length) items.push(h("li.log-empty", {}, t("log.empty")));
  return items;
}

/** The points of one round, broken down per seat, with running totals. */
export function resultsTable(view, result, me) {
  const rows = result.seats.map((s, seat) => h(`tr${seat === me ? ".is-me" : ""}`, {},
    h("th", { scope: "row" }, h("span.dot", { style: { "--hue": seatHue(seat) } }), nameOf(view, seat, me)),
    h("td", {}, `+${s.captured}`),
    h("td", {}, `+${s.chips}`),
    h("td", {}, s.exempt ? h("span.exempt", {}, t("results.exempt")) : s.hand_penalty ? `${s.hand_penalty}` : "0"),
    h("td.pts", {}, s.points > 0 ? `+${s.points}` : `${s.points}`),
    h("td.total", {}, result.totals[seat])));
  return h("div.results-wrap", {},
    h("p.results-why", {}, reason(result, view, me).replace(/^./, (c) => c.toUpperCase()) + "."),
    h("table.results", {},
      h("thead", {}, h("tr", {}, ["results.player", "results.captured", "results.chips", "results.hand",
        "results.round_pts", "results.total"].map((k) => h("th", { scope: "col" }, t(k))))),
      h("tbody", {}, rows)));
}

/** The final ranking, best first. */
export function ranking(view, me) {
  const outcome = view.outcome;
  const order = outcome.scores.map((score, seat) => ({ seat, score, rank: outcome.ranks[seat] }))
    .sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  return h("ol.ranking", {}, order.map(({ seat, score, rank }) => h(`li.rank-${rank}${seat === me ? ".is-me" : ""}`, {},
    h("span.rank", {}, rank),
    h("span.rank-name", {}, h("span.dot", { style: { "--hue": seatHue(seat) } }), nameOf(view, seat, me)),
    h("span.rank-score", {}, t("results.points", { n: score })))));
}

/** The headline of the final ranking. */
export function winnerLine(view, me) {
  const winners = view.outcome.winners;
  if (winners.length > 1) return t("results.shared_win");
  if (winners[0] === me) return t("results.you_won");
  return t("results.winner", { name: nameOf(view, winners[0], me) });
}
