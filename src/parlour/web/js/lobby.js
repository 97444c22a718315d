// The lobby: pick a game, players, opponents and options, and play at once. Every game, its
// player counts, options, their defaults and which exclude which come from the server
// (GET /api/games, read from each game's GameSpec): no rule of a game is written here.

import { $, fill, h } from "./dom.js";
import { gamePicture } from "./game-pictures.js";
import { applyCatalogue, errorText, has, helpSections, listItems, t } from "./i18n.js";
import { createTable, player } from "./net.js";

const LEVELS = ["beginner", "easy", "medium", "hard", "expert"];
const STORE = "parlour.lobby";
/** The level a first visit starts at in a real-time game: a newcomer reacting in 450–700 ms wins
 * about half the races against its table (README, "Reaction times of the real-time bots"). */
export const FIRST_LEVEL = "easy";

/** The levels of `bots` computer opponents of a real-time game (SCAN, SNAP) at a table set to
 * `level`: one pace-setter at that level and slower companions one level below (Beginner stays
 * Beginner). Mirrors `parlour.bots.reaction.pace_setter_levels`. */
export function paceSetterLevels(level, bots) {
  const index = LEVELS.indexOf(level);
  if (index < 0) throw new Error(`unknown level ${level}`);
  const slower = LEVELS[Math.max(0, index - 1)];
  return Array.from({ length: Math.max(0, bots) }, (_, i) => (i === 0 ? level : slower));
}

// The page's words and the remembered name first: a person (or a test) may type a name while the
// games are still on their way.
applyCatalogue();
$("name").value = player.name;

/** Each game's schema by id, in the server's order (GET /api/games). */
const GAMES = Object.fromEntries((await loadGames()).map((game) => [game.game, game]));

async function loadGames() {
  try {
    const response = await fetch("/api/games");
    if (!response.ok) throw new Error(response.statusText);
    return (await response.json()).games;
  } catch (error) {
    $("form-error").textContent = t("error.generic", { message: error.message });
    return [];
  }
}

/** The catalogue's sentence for `key`, or `fallback` when it has none (a game that brings no
 * words of its own). */
function said(key, params, fallback) {
  const text = t(key, params);
  return text === key ? fallback : text;
}

/** "low_wins" → "Low wins": an option's own name, when the catalogue has no words for it. */
const named = (id) => {
  const text = String(id).replace(/([a-z])([A-Z])/g, "$1 $2").replaceAll("_", " ").toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/** An element id for an option: "four_in_a_row" → "four-in-a-row", "colourBlind" → "colour-blind". */
const idOf = (key) => key.replace(/([a-z])([A-Z])/g, "$1-$2").replaceAll("_", "-").toLowerCase();

/** Whether `option` matters with `players` players. */
const applies = (option, players) => players >= option.players[0] && players <= option.players[1];

/** Whether another option that excludes `option` is on in the choices `s`. */
const turnedOff = (option, s) => option.off_when.some((other) => s[other]);

function defaults() {
  const state = { game: Object.keys(GAMES)[0] };
  for (const [id, game] of Object.entries(GAMES)) {
    const s = { players: game.players };
    if (game.realtime) Object.assign(s, { level: FIRST_LEVEL, friends: 0 });
    else s.seats = Array.from({ length: game.max_players - 1 }, (_, i) => (i % 2 ? "medium" : "easy"));
    for (const [key, option] of Object.entries(game.options)) s[key] = option.default;
    state[id] = s;
  }
  return state;
}

function readJSON(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

const isBool = (v) => typeof v === "boolean";
const clamp = (n, lo, hi) => Math.min(hi, Math.max(lo, n));

/** Take from `from` only what is valid for `game`; the rest stays as in `into`. */
function merge(id, into, from) {
  if (!from || typeof from !== "object") return;
  const game = GAMES[id];
  if (Number.isInteger(from.players)) into.players = clamp(from.players, game.min_players, game.max_players);
  if (game.realtime) {
    if (LEVELS.includes(from.level)) into.level = from.level;
    if (Number.isInteger(from.friends)) into.friends = from.friends;
    into.friends = clamp(into.friends, 0, into.players - 1);
  } else if (Array.isArray(from.seats)) {
    from.seats.slice(0, into.seats.length).forEach((s, i) => {
      if (s === "open" || LEVELS.includes(s)) into.seats[i] = s;
    });
  }
  const options = Object.entries(game.options);
  for (const [key, option] of options) {
    const value = from[key];
    if (option.kind === "bool" ? isBool(value) : option.choices.includes(value)) into[key] = value;
  }
  // Of two options that exclude each other, the first is turned off (as the engine would refuse both).
  for (const [key, option] of options) if (into[key] === true && turnedOff(option, into)) into[key] = false;
}

/** The lobby's choices: the per-game memory ("parlour.lobby"), else the last table created
 * ("parlour.setup", written by net.js), else defaults. */
function load() {
  const state = defaults();
  const stored = readJSON(STORE);
  if (stored && typeof stored === "object") {
    for (const game of Object.keys(GAMES)) merge(game, state[game], stored[game]);
    if (stored.game in GAMES) state.game = stored.game;
    return state;
  }
  const setup = readJSON("parlour.setup");
  const game = setup?.game ?? state.game;
  if (game in GAMES && Array.isArray(setup?.seats)) {
    state.game = game;
    const seats = setup.seats.map((s) => (s?.kind === "open" ? "open" : s?.level));
    const from = { ...(setup.options ?? {}), players: seats.length + 1 };
    if (!GAMES[game].realtime) from.seats = seats;
    else {
      from.friends = seats.filter((s) => s === "open").length;
      from.level = seats.find((s) => s !== "open");
    }
    merge(game, state[game], from);
  }
  return state;
}

const state = load();

function save() {
  try {
    localStorage.setItem(STORE, JSON.stringify(state));
  } catch {
    /* private mode: nothing is remembered */
  }
}

function changed() {
  $("form-error").textContent = "";
  save();
}

// ------------------------------------------------------------------ games

function renderGames() {
  fill($("games"), Object.entries(GAMES).map(([id, game]) => h(
    "label.game-tile", { dataset: { game: id } },
    h("input", { type: "radio", name: "game", value: id, checked: id === state.game,
      "aria-describedby": `blurb-${id}`,
      onchange: () => { state.game = id; changed(); renderSetup(); } }),
    gamePicture(id),
    h("span.game-name", {}, game.title),
    h("span.game-range", { "aria-hidden": "true" }, t("lobby.range", { min: game.min_players, max: game.max_players })),
    h("span.game-blurb", { id: `blurb-${id}` }, said(`lobby.${id}.blurb`, {}, "")),
  )));
}

// ------------------------------------------------------------------ players

function renderPlayers() {
  const game = GAMES[state.game];
  const { min_players: min, max_players: max } = game;
  const s = state[state.game];
  if (max - min <= 3) { // a few counts: one button each
    const counts = Array.from({ length: max - min + 1 }, (_, i) => min + i);
    fill($("players"), h("div.segmented", {}, counts.map((n) => h(
      "label.segment", {},
      h("input", { type: "radio", name: "players", value: n, checked: n === s.players,
        "aria-label": t("lobby.players_n", { n }),
        onchange: () => setPlayers(n) }),
      h("span", {}, n),
    ))));
    return;
  }
  const input = h("input", {
    type: "number", id: "players-n", min, max, value: s.players,
    inputmode: "numeric", "aria-label": t("lobby.players_count"),
    onchange: (e) => setPlayers(Number.parseInt(e.target.value, 10) || s.players),
  });
  const step = (by) => () => setPlayers(s.players + by);
  fill($("players"), h("div.stepper", {},
    h("button.btn.step", { type: "button", id: "players-dec", "aria-label": t("lobby.fewer"),
      onclick: step(-1) }, "−"),
    input,
    h("button.btn.step", { type: "button", id: "players-inc", "aria-label": t("lobby.more"),
      onclick: step(1) }, "+"),
    h("span.stepper-range", { "aria-hidden": "true" }, t("lobby.range", { min, max })),
  ));
  syncStepper();
}

function syncStepper() {
  const { min_players: min, max_players: max } = GAMES[state.game];
  const n = state[state.game].players;
  if (!$("players-n")) return;
  $("players-n").value = n;
  $("players-dec").disabled = n <= min;
  $("players-inc").disabled = n >= max;
}

function setPlayers(n) {
  const { min_players: min, max_players: max } = GAMES[state.game];
  const s = state[state.game];
  s.players = clamp(n, min, max);
  if (GAMES[state.game].realtime) s.friends = clamp(s.friends, 0, s.players - 1);
  syncStepper();
  changed();
  renderOpponents();
  renderOptions();
}

// ------------------------------------------------------------------ opponents

function levelOptions(selected) {
  return LEVELS.map((level) => h("option", { value: level, selected: selected === level },
    t("level.computer", { level: t(`level.${level}`) })));
}

/** What `level` means, in the game's words from its bots (the schema's `levels`): "Easy —
 * reacts in about 0.6 s" (SNAP), "Easy — finds the match in about 4.8 s" (SCAN, for the chosen
 * category, or its `when` value while that option is on). */
function levelWords(level) {
  const name = t(`level.${level}`);
  const words = GAMES[state.game].levels;
  if (!words) return t("level.computer", { level: name });
  const s = state[state.game];
  let seconds = words.seconds[level];
  if (words.by) {
    const on = Object.keys(words.when ?? {}).find((key) => s[key]);
    seconds = seconds[on ? words.when[on] : s[words.by]];
  }
  return t(words.label, { level: name, s: seconds });
}

function realtimeLevelOptions(selected) {
  return LEVELS.map((level) => h("option", { value: level, selected: selected === level },
    levelWords(level)));
}

function renderOpponents() {
  const s = state[state.game];
  if (!GAMES[state.game].realtime) { // seat by seat
    const rows = [];
    for (let i = 0; i < s.players - 1; i++) {
      const id = `seat-${i + 1}`;
      rows.push(h("div.opponent-row", {},
        h("label", { for: id }, t("lobby.seat_n", { n: i + 2 })),
        h("select", { id, name: id, onchange: (e) => { s.seats[i] = e.target.value; changed(); } },
          levelOptions(s.seats[i]),
          h("option", { value: "open", selected: s.seats[i] === "open" }, t("lobby.friend"))),
      ));
    }
    fill($("opponent-list"), rows);
    return;
  }
  const friends = Array.from({ length: s.players }, (_, n) => h("option", { value: n, selected: n === s.friends },
    n === 0 ? t("lobby.friends_none") : t("lobby.friends_n", { n })));
  fill($("opponent-list"),
    h("div.opponent-row.realtime", {},
      h("label", { for: "level" }, t("lobby.level")),
      h("select", { id: "level", name: "level", "aria-describedby": "pace-hint",
        onchange: (e) => { s.level = e.target.value; changed(); showLineup(); } },
      realtimeLevelOptions(s.level))),
    h("div.opponent-row.realtime", {},
      h("label", { for: "friends" }, t("lobby.friends")),
      h("select", { id: "friends", name: "friends",
        onchange: (e) => { s.friends = Number(e.target.value); changed(); showLineup(); } }, friends)),
    h("p.pace-hint", { id: "pace-hint", "aria-live": "polite" }),
  );
  showLineup();
}

/** "Computers: 1 Medium, 2 Easy. One opponent at your level sets the pace; …" */
function showLineup() {
  const s = state[state.game];
  const bots = s.players - 1 - s.friends;
  $("level").disabled = bots === 0;
  if (bots === 0) {
    $("pace-hint").textContent = t("lobby.no_bots");
    return;
  }
  const counts = new Map();
  for (const level of paceSetterLevels(s.level, bots)) counts.set(level, (counts.get(level) ?? 0) + 1);
  const list = listItems([...counts].map(([level, n]) => t("lobby.lineup_item", { n, level: t(`level.${level}`) })));
  const lineup = t("lobby.lineup", { list });
  $("pace-hint").textContent = counts.size > 1 ? `${t("lobby.pace")} ${lineup}` : lineup;
}

// ------------------------------------------------------------------ options

/** A check box with its words and, if the catalogue has one, its hint. */
function checkBox(id, label, hint, checked, onchange, cls = "div.opt") {
  const hintId = `${id}-hint`;
  const hintText = said(hint, {}, "");
  return h(cls, {},
    h("label.check", {},
      h("input", { type: "checkbox", id, checked, "aria-describedby": hintText ? hintId : null,
        onchange: (e) => onchange(e.target.checked) }),
      " ", h("span", {}, label)),
    hintText ? h("p.opt-hint", { id: hintId }, hintText) : null);
}

/** One option of the game, as its schema says: chips for a choice, a check box for a bool. */
function optionField(key, option, s) {
  const id = idOf(key);
  const pick = (value) => { s[key] = value; changed(); syncOptions(); relabelLevels(); };
  if (option.kind === "choice") {
    return h("fieldset.subfield", {},
      h("legend", { id: `${id}-legend` }),
      h("div.chips", { id }, option.choices.map((value) => h("label.chip", {},
        h("input", { type: "radio", name: key, value, checked: value === s[key], onchange: () => pick(value) }),
        h("span", {}, said(option.choice_labels[value], {}, named(value)))))));
  }
  return checkBox(id, said(option.label, {}, named(key)), option.hint, s[key], pick);
}

/** Check boxes this browser keeps for the game's page (e.g. colour-blind mode). */
function deviceField(key, device) {
  const store = `parlour.${key}`;
  const on = localStorage.getItem(store) === "1";
  return checkBox(idOf(key), said(device.label, {}, named(key)), device.hint, on,
    (checked) => localStorage.setItem(store, checked ? "1" : "0"), "div.opt.opt-device");
}

/** The game's options that matter at its player count, and its device settings. */
function renderOptions() {
  const game = GAMES[state.game];
  const s = state[state.game];
  const shown = Object.entries(game.options).filter(([, option]) => applies(option, s.players));
  const device = Object.entries(game.device);
  const field = h("fieldset.field.lobby-options", { id: `options-${state.game}`, dataset: { game: state.game } },
    h("legend", {}, t("lobby.options")),
    shown.map(([key, option]) => optionField(key, option, s)),
    device.map(([key, info]) => deviceField(key, info)));
  field.hidden = shown.length === 0 && device.length === 0;
  fill($("options"), field);
  syncOptions();
}

/** An option another one turns off is disabled and says why; a label may follow another option
 * (SCAN: the category of the first game, with four in a row). */
function syncOptions() {
  const game = GAMES[state.game];
  const s = state[state.game];
  for (const [key, option] of Object.entries(game.options)) {
    const id = idOf(key);
    if (!$(id)) continue;
    if (option.kind === "choice") {
      const on = Object.keys(option.label_when).find((other) => s[other]);
      $(`${id}-legend`).textContent = said(on ? option.label_when[on] : option.label, {}, named(key));
      continue;
    }
    const off = turnedOff(option, s);
    $(id).disabled = off;
    const hint = $(`${id}-hint`);
    if (hint) hint.textContent = off ? said(option.off, {}, "") : said(option.hint, {}, "");
  }
}

/** The level words may follow an option (SCAN's category). */
function relabelLevels() {
  if (!$("level")) return;
  for (const option of $("level").options) option.textContent = levelWords(option.value);
}

// ------------------------------------------------------------------ help and the rest

/** The game's help: its sections `lobby.help.<game>.<n>` in the catalogue, or the catalogue's
 * own help panel when that is the game's ("help.game"). */
function renderHelp() {
  const dialog = $("help-dialog");
  const game = state.game;
  const title = t("lobby.help_title", { game: GAMES[game].title });
  let sections = [];
  let keys = [];
  for (let i = 1; has(`lobby.help.${game}.${i}`); i++) {
    sections.push([t(`lobby.help.${game}.${i}`), t(`lobby.help.${game}.${i}.text`)]);
  }
  if (!sections.length && t("help.game") === game) ({ sections, keys } = helpSections());
  fill(dialog,
    h("div.dialog-head", {},
      h("h2", { id: "help-title" }, title),
      h("button.icon-btn", { type: "button", "aria-label": t("help.close"), onclick: () => dialog.close() }, "×")),
    h("div.help-body", {},
      sections.map(([head, text]) => h("section", {}, h("h3", {}, head),
        text.split("\n").map((p) => h("p", {}, p)))),
      keys.length ? h("section", {}, h("h3", {}, t("help.keys_title")), h("ul", {}, keys.map((k) => h("li", {}, k))))
        : null),
    h("div.dialog-foot", {}, h("button.btn.primary", { type: "button", onclick: () => dialog.close() }, t("help.close"))),
  );
}

function setupHelpDialog() {
  const dialog = $("help-dialog");
  dialog.setAttribute("aria-labelledby", "help-title");
  for (const button of document.querySelectorAll("[data-open-help]")) {
    button.addEventListener("click", () => {
      renderHelp();
      if (!dialog.open) dialog.showModal();
    });
  }
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close();
  });
}

function renderSetup() {
  const game = GAMES[state.game];
  const range = t("lobby.range", { min: game.min_players, max: game.max_players });
  $("game-facts").textContent = said(`lobby.facts.${state.game}`, {}, `${game.title}: ${range}.`);
  $("play").textContent = t("lobby.play_game", { game: game.title });
  document.body.dataset.game = state.game;
  renderPlayers();
  renderOpponents();
  renderOptions();
}

/** The body of POST /api/tables for the lobby's choices: the options that matter at the chosen
 * player count (one turned off by another is sent off). */
function setupBody(name) {
  const id = state.game;
  const game = GAMES[id];
  const s = state[id];
  const options = {};
  for (const [key, option] of Object.entries(game.options)) {
    if (applies(option, s.players)) options[key] = option.kind === "bool" && turnedOff(option, s) ? false : s[key];
  }
  if (!game.realtime) {
    const seats = s.seats.slice(0, s.players - 1).map((x) => (x === "open" ? { kind: "open" } : { kind: "bot", level: x }));
    return { game: id, name, seats, options };
  }
  const bots = paceSetterLevels(s.level, s.players - 1 - s.friends).map((level) => ({ kind: "bot", level }));
  const open = Array.from({ length: s.friends }, () => ({ kind: "open" }));
  return { game: id, name, seats: [...bots, ...open], options };
}

async function play(event) {
  event.preventDefault();
  const button = $("play");
  const name = $("name").value.trim();
  player.name = name;
  const typed = Number.parseInt($("players-n")?.value ?? "", 10);
  if (typed && typed !== state[state.game].players) setPlayers(typed);
  const setup = setupBody(name || t("lobby.name_placeholder"));
  save();
  button.disabled = true;
  button.textContent = t("lobby.creating");
  try {
    const tableId = await createTable(setup);
    location.assign(`/t/${tableId}`);
  } catch (error) {
    $("form-error").textContent = t("error.create", { message: errorText(error.code) });
    button.disabled = false;
    button.textContent = t("lobby.play_game", { game: GAMES[state.game].title });
  }
}

renderGames();
if (state.game) { // else the games could not be loaded: the form says so, and Play stays off
  renderSetup();
  $("play").disabled = false; // off in the page until the games have come
}
setupHelpDialog();
$("lobby-form").addEventListener("submit", play);
document.body.dataset.ready = "1";
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return; // back from a table: the page comes from the cache, ready again
  $("play").disabled = false;
  $("play").textContent = t("lobby.play_game", { game: GAMES[state.game].title });
});
