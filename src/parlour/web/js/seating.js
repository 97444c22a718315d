// What every table page (SCOUT, SNAP, SCAN) does alike around its game: finding this browser's
// seat (a stored token, the join dialog, or watching), the connection and its status, the
// waiting room with its invite links, the shared top-bar buttons, and a new table to play again.
// Each page passes its `ui` state and its own message handler; no rules live here.

import { nameOf } from "./describe.js";
import { $, fill, h, toast } from "./dom.js";
import { setupHelp } from "./help.js";
import { applyCatalogue, errorText, t } from "./i18n.js";
import { withLang } from "./lang.js";
import { GameSocket, createTable, player, postJSON, seats } from "./net.js";

/** The table this page shows (from its address, /t/<id>). */
export const tableId = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const params = new URLSearchParams(location.search);
const LEVELS = ["beginner", "easy", "medium", "hard", "expert"];

/** The seats drawn around the table: everyone after `seat` in turn order, or every seat for a
 * spectator (`seat` null). */
export function seatOrder(v, seat) {
  const n = v.players;
  if (seat === null) return [...Array(n).keys()];
  return Array.from({ length: n - 1 }, (_, k) => (seat + 1 + k) % n);
}

/** The seats of a new table like `v` for the player in `seat`: the same computers, the others open. */
export function otherSeats(v, seat) {
  return v.seat_info.filter((_, s) => s !== seat).map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level } : { kind: "open" }));
}

/** "Play again" (the click `event` on its button): a new table from `setup()`, and there. */
export async function newTable(event, setup) {
  event.target.disabled = true;
  try {
    location.assign(`/t/${await createTable(setup())}`);
  } catch (error) {
    toast(t("error.create", { message: errorText(error.code) }), "error");
    event.target.disabled = false;
  }
}

/** The invite links, each with a copy button; `withWatch` adds the spectator link, `watchOnly`
 * gives only that one. */
export function inviteBox(withWatch = false, watchOnly = false) {
  const link = (suffix) => withLang(`${location.origin}/t/${encodeURIComponent(tableId)}${suffix}`);
  const row = (value, id) => {
    const input = h("input.invite-link", { value, readonly: true, id, "aria-label": t("wait.invite"), onfocus: (e) => e.target.select() });
    return h("div.invite", {}, input, h("button.btn.small", { type: "button", onclick: async (e) => {
      try {
        await navigator.clipboard.writeText(value);
      } catch {
        input.select();
        document.execCommand?.("copy");
      }
      e.target.textContent = t("wait.copied");
    } }, t("wait.copy")));
  };
  if (watchOnly) return h("div.invite-box", {}, row(link("?watch"), "watch-link"));
  return h("div.invite-box", {}, row(link(""), "invite-link"),
    withWatch ? [h("p.muted", {}, t("wait.spectate")), row(link("?watch"), "watch-link")] : null);
}

/** The panel of a table not yet found. */
function noTable() {
  fill($("center-panel"), h("div.panel-card", {}, h("h2", {}, t("error.no_table")), h("a.btn.primary", { href: "/" }, t("results.lobby"))));
  $("center-panel").hidden = false;
  document.body.dataset.ready = "1";
}

/** The seating of one table page. `ui` is the page's state: this keeps its seat, role, host,
 * settings and socket up to date. Options:
 * - `onMessage(msg)`: every server message but the welcome and the seat errors (a stale token,
 *   no such table), which are answered here;
 * - `onWelcome()`: after a welcome has set the seat and the settings;
 * - `connecting`: the message key of the status line while connecting;
 * - `before()`: awaited before the page takes its seat (e.g. images it must have first). */
export function createSeating(ui, { onMessage, onWelcome = null, connecting = "status.connecting", before = null }) {
  function receive(msg) {
    if (msg.type === "welcome") {
      Object.assign(ui, { seat: msg.seat, role: msg.role, host: msg.host, settings: msg.settings ?? ui.settings });
      onWelcome?.();
      return;
    }
    if (msg.type === "error" && msg.code === "bad_token") {
      seats.drop(tableId);
      ui.socket?.close();
      ui.socket = null;
      enter(false);
      return;
    }
    if (msg.type === "error" && msg.code === "no_such_table") return noTable();
    if (msg.type === "state") ui.starting = msg.starting ?? null;
    onMessage(msg);
  }

  function connect(hello) {
    $("status").textContent = t(connecting);
    ui.socket = new GameSocket(tableId, hello, {
      onMessage: receive,
      onStatus: (status) => {
        document.body.dataset.conn = status;
        if (status === "reconnecting") toast(t("status.reconnecting"), "error");
      },
    });
  }

  /** Take this browser's seat (its stored token unless `useToken` is false), ask to join an open
   * seat, or watch. */
  async function enter(useToken = true) {
    if (before) await before();
    const mine = useToken ? seats.get(tableId) : null;
    if (params.has("watch")) return connect({ watch: true });
    if (mine) return connect({ token: mine.token });
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
    if (!response.ok) return noTable();
    const info = await response.json();
    if (info.started || info.open_seats === 0) {
      toast(t("join.full"));
      return connect({ watch: true });
    }
    const dialog = $("join-dialog");
    const name = h("input", { id: "join-name", maxlength: 20, value: player.name, autocomplete: "nickname", placeholder: t("lobby.name_placeholder") });
    const sit = async (event) => {
      event.preventDefault();
      player.name = name.value.trim();
      try {
        const data = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/join`, { name: name.value.trim() || t("lobby.name_placeholder") });
        seats.set(tableId, data.seat, data.token);
        dialog.close();
        connect({ token: data.token });
      } catch (error) {
        dialog.close();
        toast(errorText(error.code), "error");
        connect({ watch: true });
      }
    };
    fill(dialog, h("form", { method: "dialog", onsubmit: sit },
      h("div.dialog-head", {}, h("h2", { id: "join-title" }, t("join.title", { name: info.seat_info[0].name }))),
      h("p", {}, t("join.body")),
      h("div.field", {}, h("label", { for: "join-name" }, t("lobby.your_name")), name),
      h("div.dialog-foot", {},
        h("button.btn.ghost", { type: "button", onclick: () => { dialog.close(); connect({ watch: true }); } }, t("join.watch")),
        h("button.btn.primary", { type: "submit", id: "join-sit" }, t("join.sit")))));
    dialog.addEventListener("cancel", (e) => e.preventDefault());
    dialog.showModal();
    name.focus();
  }

  /** The waiting room: the invite links, the seats (the host fills open ones with computers)
   * and the host's start button — anyone seated's, once the server says the host has been away
   * a while (`starting` in the state). */
  function waitingRoom(v) {
    const starting = ui.starting;
    const may = starting ? starting.may_start : ui.host;
    const rows = v.seat_info.map((info, seat) => {
      let right = null;
      if (info.kind === "open" && may) {
        const select = h("select", { "aria-label": t("wait.add_bot"), dataset: { key: `lvl-${seat}` } },
          LEVELS.map((level) => h("option", { value: level, selected: level === "medium" }, t(`level.${level}`))));
        right = h("span.wait-add", {}, select, h("button.btn.small", {
          type: "button", dataset: { key: `add-${seat}` },
          onclick: () => ui.socket?.send("fill", { seat, level: select.value }),
        }, t("wait.add_bot")));
      }
      const label = info.kind === "open" ? t("wait.open")
        : info.kind === "bot" ? t("level.computer", { level: t(`level.${info.level}`) })
          : seat === 0 ? t("seat.host") : t("seat.player");
      return h(`li.wait-seat.wait-${info.kind}`, {},
        h("span.wait-name", {}, info.kind === "open" ? t("seat.open") : nameOf(v, seat, ui.seat)),
        h("span.wait-kind", {}, label), right);
    });
    const open = v.seat_info.some((s) => s.kind === "open");
    return h("div.panel-card.waiting", {},
      h("h2", {}, t("wait.title")),
      h("p", {}, t("wait.invite")),
      inviteBox(),
      h("ul.wait-seats", {}, rows),
      may && !ui.host ? h("p.wait-note", { role: "status" }, t("wait.you_may")) : null,
      !may && starting && !starting.host_here && ui.seat !== null
        ? h("p.wait-note", { role: "status" }, t("wait.host_left", { n: Math.ceil((starting.others_in_ms ?? 0) / 1000) }))
        : null,
      may ? h("div.wait-actions", {},
        open ? h("button.btn", { type: "button", dataset: { key: "fill-all" }, onclick: () => {
          v.seat_info.forEach((s, seat) => s.kind === "open" && ui.socket?.send("fill", { seat, level: "medium" }));
        } }, t("wait.fill_all")) : null,
        h("button.btn.primary", { type: "button", disabled: open, dataset: { key: "start" },
          onclick: () => ui.socket?.send("start") }, t("wait.start")))
        : starting && !starting.host_here ? null : h("p.muted", {}, t("wait.host_starts")));
  }

  /** The page's words and help, and the top bar's log and invite buttons. */
  function setupChrome() {
    applyCatalogue();
    setupHelp();
    $("btn-log").addEventListener("click", () => {
      const open = document.body.classList.toggle("log-open");
      $("btn-log").setAttribute("aria-expanded", String(open));
    });
    $("btn-invite").addEventListener("click", () => {
      const dialog = $("invite-dialog");
      // Only a seat still open can be taken: otherwise whoever opens the link watches.
      const v = ui.view;
      const open = Boolean(v && !v.started && v.seat_info.some((s) => s.kind === "open"));
      fill(dialog, h("div.dialog-head", {}, h("h2", { id: "invite-title" }, t("top.invite")),
        h("button.icon-btn", { type: "button", "aria-label": t("help.close"), onclick: () => dialog.close() }, "×")),
      open ? [h("p", {}, t("wait.invite")), inviteBox(true)]
        : [h("p", {}, t(v?.started ? "invite.started" : "invite.full")), inviteBox(false, true)]);
      dialog.showModal();
    });
  }

  return { enter, waitingRoom, setupChrome };
}
