// The game log in words: "Ana scouted the 7 from the left and put it third".

import { ordinal, t } from "./i18n.js";

/** The display name of `seat` (or "You"). */
export function nameOf(view, seat, me) {
  if (seat === me && me !== null && me !== undefined) return t("seat.you");
  const info = view.seat_info?.[seat];
  if (!info || info.kind === "open") return t("seat.open");
  return info.name || `${t("lobby.seat_n", { n: seat + 1 })}`;
}

function cardsText(cards) {
  return cards.map((c) => c[0]).join("-");
}

/** One sentence for one public event of the log (see parlour.games.scout.view). */
export function describe(event, view, me) {
  const who = nameOf(view, event.seat, me);
  switch (event.type) {
    case "flip_decided":
      if (event.seat === me && "flip" in event) return t(event.flip ? "log.flip_you" : "log.keep_you");
      return t("log.flip_decided", { who });
    case "show":
      return event.captured
        ? t("log.show_capture", { who, cards: cardsText(event.cards), n: event.captured })
        : t("log.show", { who, cards: cardsText(event.cards) });
    case "scout":
    case "scout_show": {
      const [taken, other] = event.card;
      const key = `log.${event.type}${event.rotate ? "_rotated" : ""}`;
      const text = t(key, {
        who, card: taken, other, end: t(`end.${event.end}`), pos: ordinal(event.insert + 1), place: event.insert + 1,
      });
      const owner = event.chip_to;
      if (owner === null || owner === undefined || owner === event.seat || view.players === 2) {
        return text;
      }
      const name = owner === me ? t("seat.you_lower") : nameOf(view, owner, me);
      return `${text} — ${t("log.chip", { owner: name })}`;
    }
    case "round_end":
      return t("log.round_end", { round: event.round, why: reason(event, view, me) });
    default:
      return event.type;
  }
}

/** Why a round ended, in words. */
export function reason(result, view, me) {
  const mine = result.seat === me;
  const who = nameOf(view, result.seat, me);
  return t(`why.${result.reason}${mine ? "_you" : ""}`, { who });
}
