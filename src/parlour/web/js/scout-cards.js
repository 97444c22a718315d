// SCOUT cards drawn with HTML and CSS: the number in use large on its colour, the other side
// small and upside down underneath.

import { h } from "./dom.js";
import { t } from "./i18n.js";

// 6 and 9 are underlined, as on printed cards, so that an upside-down 9 never reads as a 6.
const mark = (n) => (n === 6 || n === 9 ? ".underlined" : "");

/** A face-up card [up, down]. `tag` "div" or "button"; extra attrs are passed through. */
export function card([up, down], { tag = "div", cls = "", attrs = {}, size = "" } = {}) {
  const classes = ["card", size && `card-${size}`, cls].filter(Boolean).join(".");
  return h(
    `${tag}.${classes}`,
    { ...(tag === "button" ? {} : { role: "img" }), "aria-label": t("card.label", { up, down }), ...attrs,
      dataset: { up, down, ...(attrs.dataset ?? {}) } },
    // The numbers are drawn by CSS (content: attr(data-n)): the card's name is its label alone,
    // so a button's visible text never differs from its accessible name.
    h(`span.card-up.n${up}`, { "aria-hidden": "true" },
      h("span.card-corner", { dataset: { n: up } }), h(`span.card-num${mark(up)}`, { dataset: { n: up } })),
    h(`span.card-down.n${down}`, { "aria-hidden": "true" }, h(`span.card-num${mark(down)}`, { dataset: { n: down } })),
  );
}

/** A card seen from the back (another player's hand). */
export function cardBack({ size = "" } = {}) {
  return h(`div.card.card-back${size ? `.card-${size}` : ""}`, { "aria-hidden": "true" },
    h("span.card-back-mark", {}, "S"));
}

/** A row of face-up cards (mini previews). */
export function cardRow(cards, size = "sm") {
  return h("div.card-row", {}, cards.map((c) => card(c, { size })));
}
