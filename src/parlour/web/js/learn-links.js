// The lobby's "Learn to play" links: one for each game with a lesson, as GET /api/games says
// (the game's GameSpec.lesson), each leading to its lesson page (learn-page.js).

import { $, h } from "./dom.js";
import { t } from "./i18n.js";
import "./i18n-learn.js";

/** The games with a lesson: [{game, title}], from the server (none if it cannot be asked). */
export async function lessons() {
  try {
    const response = await fetch("/api/games");
    const data = await response.json();
    return data.games.filter((g) => g.lesson).map(({ game, title }) => ({ game, title }));
  } catch {
    return [];
  }
}

async function showLinks(box) {
  const found = await lessons();
  if (!found.length) return;
  box.replaceChildren(
    h("span.learn-links-title", { id: "learn-links-title" }, t("learn.link_title")),
    // the game's name, read out as "Learn to play SCOUT" (the name the words on screen are part of)
    ...found.map(({ game, title }) => h("a.btn.small.learn-link", { href: `/learn/${encodeURIComponent(game)}`,
      dataset: { learn: game }, "aria-label": t("learn.link", { game: title }) }, title)));
}

const box = $("learn-links");
if (box) showLinks(box);
