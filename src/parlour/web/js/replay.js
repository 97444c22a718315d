// A finished game, move by move: every hand face up (the game is over), the show, the log.

import { describe } from "./describe.js";
import { $, fill, h } from "./dom.js";
import { setupHelp } from "./help.js";
import { applyCatalogue, t } from "./i18n.js";
import { logItems, seatPanel, showZone } from "./render.js";
import { pointItem } from "./scout-hint.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const rp = { data: null, at: 0, timer: null };

function viewAt(i) {
  const frame = rp.data.frames[i];
  return { ...frame.view, seat_info: rp.data.seat_info };
}

function show(i) {
  const frames = rp.data.frames;
  rp.at = Math.max(0, Math.min(frames.length - 1, i));
  const frame = frames[rp.at];
  const view = viewAt(rp.at);
  const rounds = new Map();
  for (let k = 0; k <= rp.at; k++) {
    for (const event of frames[k].events) {
      if (!rounds.has(event.round)) rounds.set(event.round, []);
      rounds.get(event.round).push(event);
    }
  }
  document.body.dataset.ready = "1";
  document.body.dataset.step = rp.at;
  $("round-info").textContent = t("top.round", { round: view.round, rounds: view.rounds });
  fill($("opponents"), view.seat_info.map((_, seat) => seatPanel(view, seat, { hand: frame.hands[seat] })));
  fill($("show-zone"), showZone(view));
  fill($("log"), logItems(rounds, view, null));
  $("log-scroll").scrollTop = $("log-scroll").scrollHeight;
  const said = frame.events.filter((e) => e.type !== "flip_decided").map((e) => describe(e, view, null));
  $("replay-event").textContent = rp.at === 0 ? t("replay.deal") : said.join(" · ") || describe(frame.events[0] ?? { type: "" }, view, null);
  $("rp-range").value = rp.at;
  $("rp-step").textContent = t("replay.step", { n: rp.at, total: frames.length - 1 });
}

function play() {
  if (rp.timer) {
    clearInterval(rp.timer);
    rp.timer = null;
    $("rp-play").textContent = t("replay.play");
    return;
  }
  if (rp.at >= rp.data.frames.length - 1) show(0);
  $("rp-play").textContent = t("replay.pause");
  rp.timer = setInterval(() => {
    if (rp.at >= rp.data.frames.length - 1) return play();
    show(rp.at + 1);
  }, 700);
}

function message(text) {
  fill($("center-panel"), h("div.panel-card", {}, h("h2", {}, text), h("a.btn.primary", { href: "/" }, t("results.lobby"))));
  $("center-panel").hidden = false;
  document.body.dataset.ready = "1";
}

async function main() {
  applyCatalogue();
  setupHelp();
  $("btn-log").addEventListener("click", () => {
    const open = document.body.classList.toggle("log-open");
    $("btn-log").setAttribute("aria-expanded", String(open));
  });
  const response = await fetch(`/api/replay/${encodeURIComponent(tableId)}`);
  if (!response.ok) return message(t(response.status === 409 ? "replay.not_finished" : "replay.missing"));
  rp.data = await response.json();
  $("rp-range").max = rp.data.frames.length - 1;
  $("rp-range").addEventListener("input", (e) => show(Number(e.target.value)));
  $("rp-first").addEventListener("click", () => show(0));
  $("rp-prev").addEventListener("click", () => show(rp.at - 1));
  $("rp-next").addEventListener("click", () => show(rp.at + 1));
  $("rp-last").addEventListener("click", () => show(rp.data.frames.length - 1));
  $("rp-play").addEventListener("click", play);
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") show(rp.at + 1);
    else if (e.key === "ArrowLeft") show(rp.at - 1);
  });
  show(0);
  turningPoints();
}

/** Every person's turning points (issue 11), each with a button to the position before it. */
async function turningPoints() {
  const response = await fetch(`/api/replay/${encodeURIComponent(tableId)}/turning-points`);
  if (!response.ok) return;
  const seats = (await response.json()).seats.filter((s) => s.points.length);
  const box = $("rp-points");
  box.hidden = !seats.length;
  fill(box, seats.map((s) => [
    h("h3", {}, t("hint.tp.of", { name: s.name })),
    h("ol.tp-list", {}, s.points.map((p) => pointItem(p,
      h("button.btn.small.ghost.tp-go", { type: "button", dataset: { seq: p.seq },
        onclick: () => { show(p.seq - 1); $("felt").scrollIntoView({ block: "nearest" }); } }, t("hint.tp.go")), s.name))),
  ]));
}

main();
