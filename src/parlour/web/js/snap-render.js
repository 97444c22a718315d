// Pieces of the SNAP table drawn from a view: playing cards, seat tiles, the Snap Pot, the
// latest decision, the log in words, the ranking and reaction-time summaries.
// No rules here: only what the view and its public events say.

import { nameOf } from "./describe.js";
import { h } from "./dom.js";
import { capitalised, inSentence, listNames, ordinal, t, tn } from "./i18n.js";

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const FACES = new Set(["J", "Q", "K"]);

/** A seat's colour hue (12 seats: spread around the wheel). */
export function seatHue(seat) {
  return Math.round((seat * 137.5 + 18) % 360);
}

/** "10H" → { rank: "10", suit: "H" }. */
export function split(name) {
  return { rank: name.slice(0, -1), suit: name.slice(-1) };
}

/** "10 of hearts", "queen of spades". */
export function cardName(name) {
  const { rank, suit } = split(name);
  const word = /^\d+$/.test(rank) ? rank : t(`snap.rank.${rank}`);
  return t("snap.card_label", { rank: word, suit: t(`snap.suit.${suit}`) });
}

/** "10♥" — short, for the log. */
export function cardShort(name) {
  const { rank, suit } = split(name);
  return `${rank}${SUITS[suit] ?? suit}`;
}

/** A face-up playing card drawn with HTML: corner indices, a big pip or the face letter;
 * hearts and diamonds red. `size` "" (normal), "lg", "sm" or "xs". */
export function playingCard(name, { size = "", attrs = {}, cls = "" } = {}) {
  const { rank, suit } = split(name);
  const red = suit === "H" || suit === "D";
  const pip = SUITS[suit] ?? suit;
  const corner = (where) => h(`span.pc-corner.${where}`, { "aria-hidden": "true" }, h("b", {}, rank), h("i", {}, pip));
  const classes = ["pc", red ? "red" : "black", size && `pc-${size}`, cls].filter(Boolean).join(".");
  return h(`div.${classes}`, { role: "img", "aria-label": cardName(name), ...attrs, dataset: { card: name, ...(attrs.dataset ?? {}) } },
    corner("tl"),
    FACES.has(rank)
      ? h("span.pc-face", { "aria-hidden": "true" }, h("b", {}, rank), h("i", {}, pip))
      : h(`span.pc-pip${rank === "A" ? ".ace" : ""}`, { "aria-hidden": "true" }, pip),
    corner("br"));
}

/** A card seen from the back, with a count on it (a stock). */
export function cardBack(count, { size = "" } = {}) {
  return h(`div.pc.pc-back${size ? `.pc-${size}` : ""}${count ? "" : ".pc-none"}`, { "aria-hidden": "true" },
    h("span.pc-count", {}, count));
}

/** An empty place for a pile. */
export function emptySlot({ size = "", label = "" } = {}) {
  return h(`div.pc.pc-empty${size ? `.pc-${size}` : ""}`, { "aria-hidden": "true" }, label);
}

/** A seat's face-up top, or an empty place; carries `data-top`, `data-seat` and `data-card`
 * (the card's name, "" when the pile is empty). */
export function topCard(top, seat, size) {
  const dataset = { top: "", seat, card: top ?? "" };
  if (!top) return h(`div.pc.pc-empty${size ? `.pc-${size}` : ""}`, { dataset, "aria-label": t("snap.no_pile"), role: "img" });
  return playingCard(top, { size, attrs: { dataset } });
}

/** The name to show for `seat` ("You" for the viewer). */
export function who(view, seat, me) {
  return nameOf(view, seat, me);
}

function lowerYou(view, seat, me) {
  return seat === me ? t("snap.you") : nameOf(view, seat, me);
}

/** "Ana 312 ms — you 405 ms": a decided race's calls, earliest first. */
export function callsText(view, calls, me) {
  return calls.map((c) => t("snap.rt_pair", { name: lowerYou(view, c.seat, me), ms: c.rt_ms })).join(" — ");
}

/** One opponent's tile: name, stock, face-up top, and what is happening to it. */
export function seatTile(view, seat, { me = null, presence = null, callers = [], flash = null } = {}) {
  const info = view.seat_info?.[seat] ?? { kind: "open" };
  const s = view.seats[seat];
  const name = nameOf(view, seat, me);
  const running = view.started && !view.outcome;
  const turn = running && view.turn === seat && !s.out;
  const classes = ["st"];
  if (turn) classes.push("st-turn");
  if (s.out) classes.push("st-out");
  if (info.kind === "open") classes.push("st-open");
  if (presence && !presence[seat]) classes.push("st-away");
  if (view.last_flipper === seat && view.seq > 0) classes.push("st-last");
  if (flash) classes.push(`st-${flash}`);
  const label = s.out ? t("snap.seat_label_out", { name })
    : t("snap.seat_label", { name, top: s.top ? cardName(s.top) : t("snap.no_pile"), pile: s.pile, stock: s.stock });
  let badge = null;
  if (callers.includes(seat)) badge = h("span.st-badge.call", {}, t("snap.called"));
  else if (s.out) badge = h("span.st-badge.out", {}, t("snap.out"));
  else if (turn) badge = h("span.st-badge.turn", {}, t("snap.to_flip"));
  else if (presence && !presence[seat] && info.kind === "human") badge = h("span.st-badge.away", {}, t("snap.away"));
  const sub = info.kind === "bot" ? t(`level.${info.level}`) : info.kind === "open" ? t("seat.open") : "";
  return h(`article.${classes.join(".")}`, { dataset: { seat }, "aria-label": label, style: { "--hue": seatHue(seat) } },
    h("div.st-head", {},
      h(`span.st-dot${info.kind === "bot" ? ".bot" : ""}`, { "aria-hidden": "true" }),
      h("span.st-name", { title: name }, name),
      sub ? h("span.st-sub", {}, sub) : null),
    h("div.st-body", { "aria-hidden": "true" },
      h("div.st-stock", { title: t("snap.stock_n", { n: s.stock }) }, cardBack(s.stock, { size: "sm" })),
      h("div.st-pile", {}, topCard(s.top, seat, "sm"), s.pile > 1 ? h("span.st-pile-n", {}, s.pile) : null)),
    turn ? h("div.timer", { dataset: { timer: seat }, "aria-hidden": "true" }, h("i")) : null,
    badge);
}

/** The Snap Pot: its top (data-pot, data-card) and size. */
export function pot(view) {
  const p = view.pot;
  const card = p.top
    ? playingCard(p.top, { size: "lg", attrs: { dataset: { pot: "" } } })
    : h("div.pc.pc-empty.pc-lg", { dataset: { pot: "", card: "" }, "aria-hidden": "true" }, t("snap.pot_empty"));
  const label = p.top ? t("snap.pot_label", { n: p.size, card: cardName(p.top) }) : t("snap.pot_label_empty");
  return h("div.pot-box", { role: "group", "aria-label": label },
    h("div.pot-stack", {}, card),
    h("div.pot-caption", {}, h("strong", {}, t("snap.pot")), " ", p.size ? t("snap.pot_n", { n: p.size }) : ""));
}

function whyText(reason) {
  return t(`snap.why.${reason}`);
}

/** Names for the middle of a sentence: the viewer is "you". */
function names(view, seats, me) {
  return listNames(seats.map((s) => inSentence(nameOf(view, s, me))));
}

/** "{names} is out" / "are out": the key (`base`, or `base_you` when the viewer is among them)
 * and its words, the plural form chosen by how many went out. */
function outText(key, keyYou, view, seats, me) {
  return t(seats.includes(me) ? keyYou : key, { names: capitalised(names(view, seats, me)), n: seats.length });
}

/** One public event in words (for the log and the screen reader). */
export function describe(event, view, me) {
  const name = (seat) => nameOf(view, seat, me);
  switch (event.type) {
    case "flip": {
      const text = t(event.auto ? "snap.log.flip_auto" : "snap.log.flip", { who: name(event.seat), card: cardShort(event.card) });
      return event.recycled ? `${text} ${t("snap.log.recycled")}` : text;
    }
    case "call":
      if (event.verdict === "false") return t("snap.log.call_false", { who: name(event.seat), to: name(event.to) });
      return t(`snap.log.call_${event.verdict}`, { who: name(event.seat) });
    case "win":
      return t("snap.log.win", { who: name(event.seat), n: event.cards });
    case "tie":
      return t("snap.log.tie", { names: names(view, event.seats, me) });
    case "void":
      return t("snap.log.void");
    case "out":
      return outText("snap.log.out", "snap.log.out_you", view, event.seats, me);
    case "end":
      return t("snap.log.end", { why: whyText(event.reason) });
    default:
      return event.type;
  }
}

/** Whether an event is worth the banner in the middle of the table. */
export function bannerWorthy(event) {
  return ["win", "tie", "void", "out", "end"].includes(event.type) || (event.type === "call" && event.verdict === "false");
}

/** The banner for a decision, a false call, an elimination or the end. */
export function banner(event, view, me) {
  const name = (seat) => nameOf(view, seat, me);
  let text;
  let kind = event.type;
  switch (event.type) {
    case "win":
      text = event.seat === me ? t("snap.banner.win_you", { n: event.cards }) : t("snap.banner.win", { who: name(event.seat), n: event.cards });
      if (event.seat === me) kind = "win-you";
      break;
    case "tie":
      text = t("snap.banner.tie", { names: names(view, event.seats, me) });
      break;
    case "void":
      text = t("snap.banner.void");
      break;
    case "call":
      kind = "false";
      if (event.seat === me) text = t("snap.banner.false_you", { to: name(event.to) });
      else if (event.to === me) text = t("snap.banner.false_to_you", { who: name(event.seat) });
      else text = t("snap.banner.false", { who: name(event.seat), to: name(event.to) });
      break;
    case "out":
      text = outText("snap.banner.out", "snap.banner.out_you", view, event.seats, me);
      break;
    case "end":
      text = t("snap.banner.end", { why: whyText(event.reason) });
      break;
    default:
      text = describe(event, view, me);
  }
  const calls = event.calls?.length ? event.calls : null;
  return h(`div.banner-card.b-${kind}`, { dataset: { kind: event.type } },
    h("p.banner-text", {}, text),
    calls ? h("p.banner-calls", {}, calls.map((c, i) => [
      i ? h("span.sep", { "aria-hidden": "true" }, " — ") : null,
      h(`span.rt${c.seat === me ? ".rt-me" : ""}${i === 0 ? ".rt-first" : ""}`, { style: { "--hue": seatHue(c.seat) } },
        h("span.rt-name", {}, i ? lowerYou(view, c.seat, me) : capitalised(lowerYou(view, c.seat, me))), " ", h("b", {}, t("snap.ms", { n: c.rt_ms }))),
    ])) : null);
}

/** The viewer's reaction times: every call of `me` that joined a race (the calls of each
 * win, tie or void event). */
export function myReactions(events, me) {
  const list = [];
  let won = 0;
  for (const e of events) {
    if (!["win", "tie", "void"].includes(e.type)) continue;
    const mine = e.calls?.find((c) => c.seat === me);
    if (!mine) continue;
    list.push(mine.rt_ms);
    if (e.type === "win" && e.seat === me) won += 1;
  }
  if (!list.length) return null;
  const sorted = [...list].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
  return { median, best: sorted[0], races: list.length, won };
}

/** The reaction-time summary for the end of the game. */
export function reactionSummary(stats) {
  if (!stats) return h("div.rt-summary", { id: "rt-summary" }, h("h3", {}, t("snap.results.rt_title")), h("p", {}, t("snap.results.no_rt")));
  return h("div.rt-summary", { id: "rt-summary", dataset: { median: stats.median, best: stats.best } },
    h("h3", {}, t("snap.results.rt_title")),
    h("div.rt-figures", {},
      h("div.rt-fig", {}, h("span.rt-num", {}, stats.median), h("span.rt-unit", {}, "ms"), h("span.rt-cap", {}, "median")),
      h("div.rt-fig.best", {}, h("span.rt-num", {}, stats.best), h("span.rt-unit", {}, "ms"), h("span.rt-cap", {}, "best"))),
    h("p.rt-line.sr-only", {}, t("snap.results.rt", { median: stats.median, best: stats.best })),
    h("p", {}, tn("snap.results.races", stats.races, { won: stats.won })),
    h("p.muted.small", {}, t("snap.results.rt_note")));
}

/** The final ranking, best first, with the cards each seat held. */
export function ranking(view, me) {
  const o = view.outcome;
  const order = o.ranks.map((rank, seat) => ({ seat, rank, held: o.cards_held[seat], out: o.went_out?.[seat] ?? null }))
    .sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  return h(`ol.ranking.snap-ranking${order.length > 6 ? ".many" : ""}`, {}, order.map(({ seat, rank, held, out }) => h(`li.rank-${rank}${seat === me ? ".is-me" : ""}`, { dataset: { seat, rank } },
    h("span.rank", {}, rank),
    h("span.rank-name", {}, h("span.dot", { style: { "--hue": seatHue(seat) } }), nameOf(view, seat, me)),
    h("span.rank-score", {}, out && !held ? h("span.went-out", {}, t("snap.results.went_out", { nth: ordinal(out) })) : t("snap.results.cards", { n: held })))));
}

/** Why the game ended, as a sentence. */
export function endReason(view) {
  const why = whyText(view.outcome.reason);
  return why.charAt(0).toUpperCase() + why.slice(1) + ".";
}
