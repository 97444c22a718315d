// The "Learn to play" page (/learn/<game>): what the lesson covers, and a button that sets up a
// lesson table (POST /api/learn: the game's fixed deal, predictable opponents) and opens it on
// the game's normal page with the coach (?learn=<game>).

import { $ } from "./dom.js";
import { applyCatalogue, errorText, t } from "./i18n.js";
import "./i18n-learn.js";
import { lessons } from "./learn-links.js";
import { player, postJSON, seats } from "./net.js";

const game = decodeURIComponent(location.pathname.split("/")[2] ?? "");

async function start() {
  const button = $("learn-start");
  button.disabled = true;
  button.textContent = t("learn.starting");
  try {
    const data = await postJSON("/api/learn", { game, name: player.name || t("learn.guest") });
    seats.set(data.table_id, data.seat, data.token);
    location.assign(`/t/${encodeURIComponent(data.table_id)}?learn=${encodeURIComponent(game)}`);
  } catch (error) {
    $("learn-error").textContent = t("learn.error", { message: errorText(error.code) });
    button.disabled = false;
    button.textContent = t("learn.start");
  }
}

async function setUp() {
  applyCatalogue();
  const lesson = (await lessons()).find((g) => g.game === game);
  const name = lesson?.title ?? game.toUpperCase();
  document.title = `${t("learn.page_title", { game: name })} — Parlour`;
  $("learn-title").textContent = t("learn.page_title", { game: name });
  $("learn-back").textContent = t("learn.back");
  const button = $("learn-start");
  if (lesson) {
    $("learn-intro").textContent = t(`learn.${game}.intro`);
    button.textContent = t("learn.start");
    button.addEventListener("click", start);
    button.hidden = false; // shown once it works: an early press is never lost
    button.focus();
  } else {
    $("learn-intro").textContent = t("learn.none");
    button.hidden = true;
  }
}

setUp();
addEventListener("pageshow", (event) => {
  if (event.persisted) { // back from the lesson: the page comes from the cache, ready again
    $("learn-start").disabled = false;
    $("learn-start").textContent = t("learn.start");
  }
});
