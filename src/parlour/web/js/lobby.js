// The lobby: pick a game, players, opponents and options, and play at once.

import { card } from "./scout-cards.js";
import { $, fill, h } from "./dom.js";
import { applyCatalogue, helpSections, t } from "./i18n.js";
import { createTable, player } from "./net.js";

const LEVELS = ["beginner", "easy", "medium", "hard", "expert"];
const GAMES = {
  scout: { name: "SCOUT", min: 2, max: 5 },
  scan: { name: "SCAN", min: 2, max: 8, realtime: true },
  snap: { name: "SNAP", min: 2, max: 12, realtime: true },
};
const CATEGORIES = ["shape", "pattern", "position", "colour", "random"];
const MATCHES = ["rank", "rank_and_colour"];
const STORE = "parlour.lobby";
/** The level a first visit starts at in SCAN and SNAP: a newcomer reacting in 450–700 ms wins
 * about half the races against its table (README, "Reaction times of the real-time bots"). */
export const FIRST_LEVEL = "easy";
/** What each level means, in seconds: SNAP's median reaction time, SCAN's median time to touch
 * the match per category ("random": all four). Medians of the bots' models
 * (parlour.bots.snap, parlour.bots.scan); tests/bots/test_level_words.py keeps them equal. */
export const REACTION_S = {
  "snap": {"beginner": 0.8, "easy": 0.6, "medium": 0.5, "hard": 0.4, "expert": 0.3},
  "scan": {
    "beginner": {"shape": 6.2, "pattern": 6.6, "position": 4.9, "colour": 4.2, "random": 5.2},
    "easy": {"shape": 4.8, "pattern": 5.1, "position": 3.8, "colour": 3.3, "random": 4.1},
    "medium": {"shape": 3.4, "pattern": 3.6, "position": 2.8, "colour": 2.4, "random": 2.9},
    "hard": {"shape": 2.6, "pattern": 2.8, "position": 2.1, "colour": 1.9, "random": 2.3},
    "expert": {"shape": 2.0, "pattern": 2.1, "position": 1.7, "colour": 1.5, "random": 1.8}
  }
};
const COLOUR_BLIND = "parlour.colourBlind";

/** The levels of `bots` computer opponents of a real-time game (SCAN, SNAP) at a table set to
 * `level`: one pace-setter at that level and slower companions one level below (Beginner stays
 * Beginner). Mirrors `parlour.bots.reaction.pace_setter_levels`. */
export function paceSetterLevels(level, bots) {
  const index = LEVELS.indexOf(level);
  if (index < 0) throw new Error(`unknown level ${level}`);
  const slower = LEVELS[Math.max(0, index - 1)];
  return Array.from({ length: Math.max(0, bots) }, (_, i) => (i === 0 ? level : slower));
}

function defaults() {
  return {
    game: "scout",
    scout: { players: 4, seats: ["easy", "medium", "easy", "medium"], count_unspent_chips: true },
    scan: { players: 4, level: FIRST_LEVEL, friends: 0, category: "shape", dealers_choice: false,
      bluffo: false, four_in_a_row: false },
    snap: { players: 4, level: FIRST_LEVEL, friends: 0, match: "rank", index_card: false,
      shuffle_on_recycle: false },
  };
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
function merge(game, into, from) {
  if (!from || typeof from !== "object") return;
  const { min, max } = GAMES[game];
  if (Number.isInteger(from.players)) into.players = clamp(from.players, min, max);
  if (game === "scout") {
    if (Array.isArray(from.seats)) {
      from.seats.slice(0, 4).forEach((s, i) => {
        if (s === "open" || LEVELS.includes(s)) into.seats[i] = s;
      });
    }
    if (isBool(from.count_unspent_chips)) into.count_unspent_chips = from.count_unspent_chips;
    return;
  }
  if (LEVELS.includes(from.level)) into.level = from.level;
  if (Number.isInteger(from.friends)) into.friends = from.friends;
  into.friends = clamp(into.friends, 0, into.players - 1);
  const keys = game === "scan" ? ["dealers_choice", "bluffo", "four_in_a_row"] : ["index_card", "shuffle_on_recycle"];
  for (const key of keys) if (isBool(from[key])) into[key] = from[key];
  if (game === "scan" && CATEGORIES.includes(from.category)) into.category = from.category;
  if (game === "scan" && into.four_in_a_row) into.dealers_choice = false;
  if (game === "snap" && MATCHES.includes(from.match)) into.match = from.match;
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
  const game = setup?.game ?? "scout";
  if (game in GAMES && Array.isArray(setup?.seats)) {
    state.game = game;
    const seats = setup.seats.map((s) => (s?.kind === "open" ? "open" : s?.level));
    const from = { ...(setup.options ?? {}), players: seats.length + 1 };
    if (game === "scout") from.seats = seats;
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

/** A small picture of each game's cards, drawn in its tile (decoration: hidden from screen
 * readers, the tile's words say it all). */
function gamePicture(id) {
  if (id === "scout") {
    return h("span.game-pic.pic-scout", { "aria-hidden": "true" },
      [[7, 3], [8, 1]].map((c, i) => card(c, { size: "xs", attrs: { style: { "--i": i } } })));
  }
  if (id === "scan") {
    return h("span.game-pic.pic-scan", { "aria-hidden": "true" },
      h("span.mini-scan.tan", {}, h("i.q1"), h("i.q2"), h("i.q3"), h("i.q4")),
      h("span.mini-scan.blue", {}, h("i.q1"), h("i.q2"), h("i.q3"), h("i.q4")));
  }
  return h("span.game-pic.pic-snap", { "aria-hidden": "true" },
    h("span.mini-pc.red", {}, "7♥"), h("span.mini-pc", {}, "7♠"));
}

function renderGames() {
  fill($("games"), Object.entries(GAMES).map(([id, game]) => h(
    "label.game-tile", { dataset: { game: id } },
    h("input", { type: "radio", name: "game", value: id, checked: id === state.game,
      "aria-describedby": `blurb-${id}`,
      onchange: () => { state.game = id; changed(); renderSetup(); } }),
    gamePicture(id),
    h("span.game-name", {}, game.name),
    h("span.game-range", { "aria-hidden": "true" }, t("lobby.range", { min: game.min, max: game.max })),
    h("span.game-blurb", { id: `blurb-${id}` }, t(`lobby.${id}.blurb`)),
  )));
}

// ------------------------------------------------------------------ players

function renderPlayers() {
  const game = GAMES[state.game];
  const s = state[state.game];
  if (state.game === "scout") {
    fill($("players"), h("div.segmented", {}, [2, 3, 4, 5].map((n) => h(
      "label.segment", {},
      h("input", { type: "radio", name: "players", value: n, checked: n === s.players,
        "aria-label": t("lobby.players_n", { n }),
        onchange: () => setPlayers(n) }),
      h("span", {}, n),
    ))));
    return;
  }
  const input = h("input", {
    type: "number", id: "players-n", min: game.min, max: game.max, value: s.players,
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
    h("span.stepper-range", { "aria-hidden": "true" }, t("lobby.range", { min: game.min, max: game.max })),
  ));
  syncStepper();
}

function syncStepper() {
  const { min, max } = GAMES[state.game];
  const n = state[state.game].players;
  if (!$("players-n")) return;
  $("players-n").value = n;
  $("players-dec").disabled = n <= min;
  $("players-inc").disabled = n >= max;
}

function setPlayers(n) {
  const { min, max } = GAMES[state.game];
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

/** "Easy — reacts in about 0.6 s" (SNAP), "Easy — finds the match in about 4.8 s" (SCAN, for
 * the chosen category). */
function levelWords(level) {
  const name = t(`level.${level}`);
  if (state.game === "snap") return t("level.snap_means", { level: name, s: REACTION_S.snap[level] });
  const category = state.scan.four_in_a_row ? "random" : state.scan.category;
  return t("level.scan_means", { level: name, s: REACTION_S.scan[level][category] });
}

function realtimeLevelOptions(selected) {
  return LEVELS.map((level) => h("option", { value: level, selected: selected === level },
    levelWords(level)));
}

function renderOpponents() {
  const s = state[state.game];
  if (state.game === "scout") {
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
  const list = [...counts].map(([level, n]) => `${n} ${t(`level.${level}`)}`).join(", ");
  const lineup = t("lobby.lineup", { list });
  $("pace-hint").textContent = counts.size > 1 ? `${t("lobby.pace")} ${lineup}` : lineup;
}

// ------------------------------------------------------------------ options

function chips(container, name, values, selected, labelKey, onpick) {
  fill($(container), values.map((value) => h("label.chip", {},
    h("input", { type: "radio", name, value, checked: value === selected,
      onchange: () => onpick(value) }),
    h("span", {}, t(labelKey(value))))));
}

function bindCheck(id, obj, key, after) {
  const box = $(id);
  box.checked = obj[key];
  box.addEventListener("change", () => {
    obj[key] = box.checked;
    changed();
    after?.();
  });
}

function setupOptions() {
  const scout = state.scout;
  const scan = state.scan;
  const snap = state.snap;
  bindCheck("count-chips", scout, "count_unspent_chips");
  chips("category", "category", CATEGORIES, scan.category, (c) => `lobby.scan.${c}`,
    (c) => { scan.category = c; changed(); relabelLevels(); });
  bindCheck("dealers-choice", scan, "dealers_choice", scanConflicts);
  bindCheck("bluffo", scan, "bluffo");
  bindCheck("four-in-a-row", scan, "four_in_a_row", () => { scanConflicts(); relabelLevels(); });
  const blind = $("colour-blind");
  blind.checked = localStorage.getItem(COLOUR_BLIND) === "1";
  blind.addEventListener("change", () => localStorage.setItem(COLOUR_BLIND, blind.checked ? "1" : "0"));
  chips("match", "match", MATCHES, snap.match, (m) => `lobby.snap.${m}`,
    (m) => { snap.match = m; changed(); });
  bindCheck("index-card", snap, "index_card");
  bindCheck("shuffle-on-recycle", snap, "shuffle_on_recycle");
  scanConflicts();
}

/** SCAN's level words follow the category. */
function relabelLevels() {
  if (state.game !== "scan" || !$("level")) return;
  for (const option of $("level").options) option.textContent = levelWords(option.value);
}

/** As ScanOptions: Dealer's Choice cannot be combined with four in a row. With four in a row the
 * chosen category is the first game's (the others follow). */
function scanConflicts() {
  const scan = state.scan;
  const dealers = $("dealers-choice");
  const four = $("four-in-a-row");
  dealers.disabled = scan.four_in_a_row;
  four.disabled = scan.dealers_choice;
  $("dealers-choice-hint").textContent = t(scan.four_in_a_row ? "lobby.scan.dealers_choice_off"
    : "lobby.scan.dealers_choice_hint");
  $("four-in-a-row-hint").textContent = t(scan.dealers_choice ? "lobby.scan.four_in_a_row_off"
    : "lobby.scan.four_in_a_row_hint");
  $("category-legend").textContent = t(scan.four_in_a_row ? "lobby.scan.category_first" : "lobby.scan.category");
}

function renderOptions() {
  for (const field of document.querySelectorAll(".lobby-options")) {
    field.hidden = field.dataset.game !== state.game;
  }
  if (state.game === "scout") $("options-scout").hidden = state.scout.players !== 2;
}

// ------------------------------------------------------------------ help and the rest

function renderHelp() {
  const dialog = $("help-dialog");
  const game = state.game;
  let title = t("help.title");
  let { sections, keys } = helpSections();
  if (game !== "scout") {
    title = t("lobby.help_title", { game: GAMES[game].name });
    sections = [];
    for (let i = 1; t(`lobby.help.${game}.${i}`) !== `lobby.help.${game}.${i}`; i++) {
      sections.push([t(`lobby.help.${game}.${i}`), t(`lobby.help.${game}.${i}.text`)]);
    }
    keys = [];
  }
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
  $("game-facts").textContent = t(`lobby.facts.${state.game}`);
  $("play").textContent = t("lobby.play_game", { game: GAMES[state.game].name });
  document.body.dataset.game = state.game;
  renderPlayers();
  renderOpponents();
  renderOptions();
}

/** The body of POST /api/tables for the lobby's choices. */
function setupBody(name) {
  const game = state.game;
  const s = state[game];
  if (game === "scout") {
    return {
      game,
      name,
      seats: s.seats.slice(0, s.players - 1).map((x) => (x === "open" ? { kind: "open" } : { kind: "bot", level: x })),
      options: s.players === 2 ? { count_unspent_chips: s.count_unspent_chips } : {},
    };
  }
  const bots = paceSetterLevels(s.level, s.players - 1 - s.friends).map((level) => ({ kind: "bot", level }));
  const open = Array.from({ length: s.friends }, () => ({ kind: "open" }));
  const options = game === "scan"
    ? { category: s.category, dealers_choice: s.dealers_choice && !s.four_in_a_row, bluffo: s.bluffo,
      four_in_a_row: s.four_in_a_row }
    : { match: s.match, index_card: s.index_card, shuffle_on_recycle: s.shuffle_on_recycle };
  return { game, name, seats: [...bots, ...open], options };
}

async function play(event) {
  event.preventDefault();
  const button = $("play");
  const name = $("name").value.trim();
  player.name = name;
  const typed = Number.parseInt($("players-n")?.value ?? "", 10);
  if (GAMES[state.game].realtime && typed && typed !== state[state.game].players) setPlayers(typed);
  const setup = setupBody(name || t("lobby.name_placeholder"));
  save();
  button.disabled = true;
  button.textContent = t("lobby.creating");
  try {
    const tableId = await createTable(setup);
    location.assign(`/t/${tableId}`);
  } catch (error) {
    $("form-error").textContent = t("error.create", { message: error.message });
    button.disabled = false;
    button.textContent = t("lobby.play_game", { game: GAMES[state.game].name });
  }
}

applyCatalogue();
$("name").value = player.name;
renderGames();
setupOptions();
renderSetup();
setupHelpDialog();
$("lobby-form").addEventListener("submit", play);
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return; // back from a table: the page comes from the cache, ready again
  $("play").disabled = false;
  $("play").textContent = t("lobby.play_game", { game: GAMES[state.game].name });
});
