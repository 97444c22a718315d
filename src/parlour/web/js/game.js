// The page of a game without a page of its own (GameSpec.page's default): the view as the server
// sends it, what happened, and one button per legal action. Like every page it holds no rules:
// it shows what it is sent and offers exactly the actions it is sent.

import { nameOf } from "./describe.js";
import { $, fill, h, toast } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { createSeating, tableId } from "./seating.js";

const ui = {
  seat: null, role: null, host: false, settings: {}, view: null, actions: [], socket: null,
  starting: null, sent: false,
};

const seating = createSeating(ui, { onMessage });

/** An action's words: its JSON form without the braces ("play 5"). */
const words = (action) => [action.type, ...Object.entries(action).filter(([k]) => k !== "type")
  .map(([, v]) => (typeof v === "object" ? JSON.stringify(v) : String(v)))].join(" ");

/** A value of the view in a line: numbers and words as they are, the rest as JSON. */
const shown = (value) => (value !== null && typeof value === "object" ? JSON.stringify(value) : String(value));

const HIDDEN = new Set(["log", "seat_info", "table_id", "state_id", "started"]);
/** Parts of every table's view shown elsewhere (seats, log) or of no interest to a player. */

function act(action) {
  if (ui.sent) return;
  ui.sent = true;
  ui.socket.send("act", { state_id: ui.view.state_id, action });
  render();
}

function status(v) {
  if (!v.started) return t("status.waiting");
  if (v.outcome) return t("status.over");
  if (ui.seat === null) return t("status.watching");
  if (ui.actions.length) return t("game.your_move");
  const waiting = v.seat_info.map((_, s) => s).filter((s) => s !== ui.seat && v.turn === s);
  return waiting.length ? t("status.their_turn_human", { name: nameOf(v, waiting[0], ui.seat) }) : "";
}

function render() {
  const v = ui.view;
  if (!v) return;
  $("center-panel").hidden = v.started;
  if (!v.started) fill($("center-panel"), seating.waitingRoom(v));
  $("generic-table").hidden = !v.started;
  fill($("view"), Object.entries(v).filter(([key]) => !HIDDEN.has(key)).map(([key, value]) => [
    h("dt", {}, key), h("dd", { dataset: { key } }, shown(value))]));
  fill($("log"), (v.log ?? []).map((event) => h("li", {}, words(event))));
  $("status").textContent = status(v);
  fill($("moves"), ui.actions.map((action) => h("button.btn", {
    type: "button", disabled: ui.sent, dataset: { action: JSON.stringify(action) },
    onclick: () => act(action) }, words(action))));
  $("btn-invite").hidden = v.started || ui.seat === null;
  document.body.dataset.ready = "1";
}

function onMessage(msg) {
  if (msg.type === "state") {
    ui.view = msg.view;
    ui.actions = msg.actions ?? [];
    ui.sent = false;
    render();
  } else if (msg.type === "error") {
    ui.sent = false;
    toast(errorText(msg.code), "error");
    render();
  }
}

async function title() {
  try {
    const info = await (await fetch(`/api/tables/${encodeURIComponent(tableId)}`)).json();
    const name = String(info.game ?? "").toUpperCase();
    document.title = `${name} — Parlour`;
    $("page-title").textContent = `${name} — Parlour`;
  } catch {
    /* the title stays "Parlour" */
  }
}

seating.setupChrome();
title();
seating.enter();
