// The lobby's "Learn to play" links: one for each game with a lesson (learn-page.js).

import { $, h } from "./dom.js";
import { t } from "./i18n.js";
import "./i18n-learn.js";

const LESSONS = [["scout", "SCOUT"], ["scan", "SCAN"], ["snap", "SNAP"]];

const box = $("learn-links");
if (box) {
  box.replaceChildren(
    h("span.learn-links-title", { id: "learn-links-title" }, t("learn.link_title")),
    // the game's name, read out as "Learn to play SCOUT" (the name the words on screen are part of)
    ...LESSONS.map(([game, name]) => h("a.btn.small.learn-link", { href: `/learn/${game}`, dataset: { learn: game },
      "aria-label": t("learn.link", { game: name }) }, name)));
}
