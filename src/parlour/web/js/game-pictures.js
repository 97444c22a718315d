// A small picture of each game's cards for its tile in the lobby: decoration, hidden from screen
// readers (the tile's words say it all). A game without a picture here gets two plain cards.

import { h } from "./dom.js";
import { card } from "./scout-cards.js";

const PICTURES = {
  scout: () => h("span.game-pic.pic-scout", { "aria-hidden": "true" },
    [[7, 3], [8, 1]].map((c, i) => card(c, { size: "xs", attrs: { style: { "--i": i } } }))),
  scan: () => h("span.game-pic.pic-scan", { "aria-hidden": "true" },
    h("span.mini-scan.tan", {}, h("i.q1"), h("i.q2"), h("i.q3"), h("i.q4")),
    h("span.mini-scan.blue", {}, h("i.q1"), h("i.q2"), h("i.q3"), h("i.q4"))),
  snap: () => h("span.game-pic.pic-snap", { "aria-hidden": "true" },
    h("span.mini-pc.red", {}, "7♥"), h("span.mini-pc", {}, "7♠")),
};

/** The picture for game `id`'s tile. */
export function gamePicture(id) {
  return PICTURES[id]?.() ?? h("span.game-pic", { "aria-hidden": "true" },
    h("span.mini-pc", {}, "1"), h("span.mini-pc", {}, "2"));
}
