// The lobby: pick a game, players and opponents, and play at once.

import { card } from "./cards.js";
import { $, fill, h } from "./dom.js";
import { setupHelp } from "./help.js";
import { applyCatalogue, t } from "./i18n.js";
import { createTable, player } from "./net.js";

const LEVELS = ["beginner", "easy", "medium", "hard", "expert"];
const GAMES = [
  { id: "scout", name: "SCOUT", blurb: "lobby.scout.blurb", ready: true },
  { id: "scan", name: "SCAN", blurb: "lobby.scan.blurb", ready: false },
  { id: "snap", name: "SNAP", blurb: "lobby.snap.blurb", ready: false },
];

const saved = (() => {
  try {
    return JSON.parse(localStorage.getItem("parlour.setup") ?? "null");
  } catch {
    return null;
  }
})();

const state = {
  players: saved?.seats ? saved.seats.length + 1 : 4,
  seats: Array.from({ length: 4 }, (_, i) => saved?.seats?.[i]?.kind === "open" ? "open"
    : saved?.seats?.[i]?.level ?? ["easy", "medium", "easy", "medium"][i]),
};

function renderGames() {
  fill($("games"), GAMES.map((game) => h(
    `label.game-tile${game.ready ? "" : ".soon"}`, {},
    h("input", { type: "radio", name: "game", value: game.id, checked: game.id === "scout", disabled: !game.ready }),
    h("span.game-name", {}, game.name),
    h("span.game-blurb", {}, t(game.blurb)),
    game.ready ? null : h("span.badge", {}, t("lobby.soon")),
  )));
}

function renderPlayers() {
  fill($("players"), [2, 3, 4, 5].map((n) => h(
    "label.segment", {},
    h("input", { type: "radio", name: "players", value: n, checked: n === state.players,
      "aria-label": t("lobby.players_n", { n }),
      onchange: () => { state.players = n; renderOpponents(); } }),
    h("span", {}, n),
  )));
}

function renderOpponents() {
  const rows = [];
  for (let i = 0; i < state.players - 1; i++) {
    const id = `seat-${i + 1}`;
    rows.push(h("div.opponent-row", {},
      h("label", { for: id }, t("lobby.seat_n", { n: i + 2 })),
      h("select", { id, name: id, onchange: (e) => { state.seats[i] = e.target.value; } },
        LEVELS.map((level) => h("option", { value: level, selected: state.seats[i] === level },
          t("level.computer", { level: t(`level.${level}`) }))),
        h("option", { value: "open", selected: state.seats[i] === "open" }, t("lobby.friend"))),
    ));
  }
  fill($("opponent-list"), rows);
  $("options-field").hidden = state.players !== 2;
}

function heroCards() {
  const cards = [[5, 2], [6, 9], [7, 3], [8, 1], [9, 4]];
  fill($("hero-cards"), cards.map((c, i) => card(c, { cls: "hero-card", attrs: {
    style: { "--i": i - 2 }, "aria-hidden": "true" } })));
}

async function play(event) {
  event.preventDefault();
  const button = $("play");
  const name = $("name").value.trim();
  player.name = name;
  const setup = {
    game: "scout",
    name: name || t("lobby.name_placeholder"),
    seats: state.seats.slice(0, state.players - 1).map((s) => s === "open" ? { kind: "open" } : { kind: "bot", level: s }),
    options: state.players === 2 ? { count_unspent_chips: $("count-chips").checked } : {},
  };
  button.disabled = true;
  button.textContent = t("lobby.creating");
  try {
    const tableId = await createTable(setup);
    location.assign(`/t/${tableId}`);
  } catch (error) {
    $("form-error").textContent = t("error.create", { message: error.message });
    button.disabled = false;
    button.textContent = t("lobby.play");
  }
}

applyCatalogue();
$("name").value = player.name;
renderGames();
renderPlayers();
renderOpponents();
heroCards();
setupHelp();
$("lobby-form").addEventListener("submit", play);
