// Drawing the SCAN page from the view: seats, the tan card, the blue cards, the side panel, the
// log and the end of the game (split from scan.js).

import { nameOf } from "./describe.js";
import { $, fill, h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { player } from "./net.js";
import { ranking, seatHue, winnerLine } from "./render.js";
import { CATS, cardSvg, quarterIcon, words } from "./scan-cards.js";
import { choose, touch } from "./scan-input.js";
import { canBluffo, canTouch, checking, choosing, currentRound, inputSent, me, myTimes, ui } from "./scan-state.js";
import { describeScan, finalScores, roundHeadline } from "./scan-text.js";
import { seating } from "./scan.js";
import { newTable, otherSeats } from "./seating.js";

// ---------------------------------------------------------------- rendering

export function render() {
  const v = ui.view;
  if (!v) return;
  const body = document.body.dataset;
  Object.assign(body, {
    ready: "1", seq: v.seq, stateId: v.state_id, phase: v.started ? v.phase : "waiting",
    over: v.outcome ? "1" : "0", chooser: choosing(v) ? "1" : "0", seat: ui.seat ?? "",
    role: ui.role ?? "", category: v.category, canTouch: canTouch(v) ? "1" : "0",
    canBluffo: canBluffo(v) ? "1" : "0", game: v.game_number, round: v.round,
    checking: checking(v) ? "1" : "0",
    clock: ui.clock ? (ui.clock.running ? "running" : "stopped") : "",
  });
  const long = [];
  const short = [];
  if (v.games > 1) {
    long.push(t("scan.top.game", { game: v.game_number, games: v.games }));
    short.push(t("scan.top.game_short", { game: v.game_number, games: v.games }));
  }
  if (v.started && v.round > 0) {
    long.push(t("scan.top.card", { round: v.round, rounds: v.rounds }));
    short.push(t("scan.top.card_short", { round: v.round, rounds: v.rounds }));
  }
  fill($("round-info"), h("span.info-long", {}, long.join(" · ")),
    h("span.info-short", {}, short.join(" · ")));
  $("btn-invite").hidden = ui.role !== "player";
  renderSeats(v);
  renderTan(v);
  renderSide(v);
  renderGrid(v);
  renderSeries(v);
  renderPanel(v);
  renderLog(v);
}

function seatClasses(v, seat) {
  const s = v.seats[seat];
  const out = ["scan-seat"];
  if (seat === me()) out.push("is-me");
  if (s.disqualified) out.push("is-dq");
  if (v.phase === "round" && v.claimant === seat) out.push("is-claimant");
  if (s.waiting) out.push("is-waiting");
  if (ui.presence.length && !ui.presence[seat]) out.push("is-away");
  if (v.seat_info[seat].kind === "open") out.push("is-open");
  const head = v.phase !== "round" ? roundHeadline(currentRound()?.events ?? [], v, me()) : null;
  if (head?.winner === seat) out.push("is-winner");
  return out.join(".");
}

function renderSeats(v) {
  const box = $("seats");
  box.classList.toggle("many", v.players > 5);
  fill(box, v.seats.map((s, seat) => {
    const info = v.seat_info[seat];
    const name = nameOf(v, seat, me());
    let badge = null;
    if (s.disqualified) badge = h("span.seat-flag.flag-dq", {}, t("scan.seat.dq"));
    else if (v.phase === "round" && v.claimant === seat) badge = h("span.seat-flag.flag-claim", {}, t("scan.seat.claimant"));
    else if (s.waiting) badge = h("span.seat-flag.flag-wait", {}, t("scan.seat.waiting"));
    else if (v.phase === "pause" && v.chooser === seat) badge = h("span.seat-flag.flag-choose", {}, t("scan.seat.choosing"));
    const sub = info.kind === "bot" ? t("level.computer", { level: t(`level.${info.level}`) })
      : info.kind === "open" ? t("wait.open")
        : ui.presence.length && !ui.presence[seat] ? t("seat.offline") : seat === 0 ? t("seat.host") : t("seat.player");
    const extra = badge ? ` — ${badge.textContent}` : "";
    const label = t("scan.seat.summary", { name, score: s.score, won: s.won.length, bluffo: s.bluffo, extra });
    const total = v.games > 1 ? s.total : s.score;
    return h(`article.${seatClasses(v, seat)}`, { dataset: { seat }, style: { "--hue": seatHue(seat) }, "aria-label": label },
      h(`span.avatar${info.kind === "bot" ? ".avatar-bot" : ""}`, { "aria-hidden": "true" }, (name || "?").trim().slice(0, 1).toUpperCase()),
      h("span.seat-id", { "aria-hidden": "true" },
        h("span.seat-name", {}, name),
        h("span.seat-sub", {}, sub)),
      h("span.seat-pile", { "aria-hidden": "true", title: t("scan.seat.won", { n: s.won.length }) },
        v.games > 1 ? h("span.pile-tan", {}, s.won.length) : null,
        s.bluffo ? h("span.pile-bluffo", { title: t("scan.seat.bluffo", { n: s.bluffo }) }, `+${s.bluffo}B`) : null),
      h("span.seat-score", { "aria-hidden": "true", title: t("scan.seat.score", { n: total }) }, total),
      badge);
  }));
}

function renderTan(v) {
  const holder = $("tan");
  const cat = v.phase === "round" ? v.category : v.phase === "pause" && v.tan ? v.category : v.next_category;
  holder.dataset.cat = cat;
  const key = v.tan ? `${v.tan.join(",")}|${v.seq}` : "covered";
  if (holder.dataset.key !== key) {
    holder.dataset.key = key;
    if (v.tan) {
      holder.dataset.designs = v.tan.join(",");
      fill(holder, cardSvg(v.tan, "tan"));
      holder.classList.remove("covered");
    } else {
      delete holder.dataset.designs;
      fill(holder, h("span.cover-mark", { "aria-hidden": "true" }, "SCAN"));
      holder.classList.add("covered");
    }
    if (v.phase === "round" && ui.settings.anim_ms) {
      holder.animate?.([{ transform: "rotateY(80deg)", opacity: 0.3 }, { transform: "none", opacity: 1 }],
        { duration: Math.min(180, ui.settings.anim_ms), easing: "ease-out" });
    }
  }
  holder.setAttribute("aria-label", v.tan
    ? t("scan.tan_card", { words: CATS.map((c, i) => t("scan.quarter", { cat: t(`scan.cat.${c}`), words: words(c, v.tan[i]) })).join("; ") })
    : t("scan.tan_covered"));
  const label = $("cat-label");
  const showNext = v.phase !== "round" && v.next_category !== v.category;
  fill(label, quarterIcon(showNext ? v.next_category : cat),
    h("span", {}, showNext ? t("scan.next_by", { cat: t(`scan.cat_lower.${v.next_category}`) })
      : t("scan.match_by", { cat: t(`scan.cat_lower.${cat}`) })));
  label.dataset.cat = showNext ? v.next_category : cat;
}

function statusText(v) {
  if (!v.started) return t("status.waiting");
  if (v.outcome) return t("scan.status.over");
  if (ui.clock && !ui.clock.running) return ui.clock.startsAt ? t("scan.countdown_hint") : t("scan.waiting_clock");
  const mine = me() !== null ? v.seats[me()] : null;
  if (v.phase === "round") {
    if (ui.seat === null) return t("scan.status.watching");
    if (mine?.disqualified) return t("scan.status.round_you_dq");
    if (v.claimant === me()) return t("scan.status.round_you_claim");
    if (inputSent(v)) return t("scan.status.round_waiting");
    if (checking(v) && v.claimant !== null) {
      return t("scan.status.checking", { who: nameOf(v, v.claimant, me()) });
    }
    return t("scan.status.round", { cat: t(`scan.cat_lower.${v.category}`) });
  }
  if (choosing(v)) return t("scan.status.choose");
  if (v.chooser !== null) return t("scan.status.choosing", { who: nameOf(v, v.chooser, me()) });
  if (v.deadline_kind === "next_game") return t("scan.status.next_game", { game: v.game_number });
  return t("scan.status.pause");
}

function renderSide(v) {
  $("status").textContent = statusText(v);
  const head = v.phase !== "round" ? roundHeadline(currentRound()?.events ?? [], v, me()) : null;
  const banner = $("round-banner");
  banner.hidden = !head;
  if (head) {
    banner.style.setProperty("--hue", head.winner !== null ? seatHue(head.winner) : 0);
    banner.classList.toggle("no-winner", head.winner === null);
    fill(banner, h("strong.banner-title", {}, head.title), head.lines.map((line) => h("span.banner-line", {}, line)));
  }
  const button = $("btn-bluffo");
  button.hidden = !v.options.bluffo || ui.seat === null;
  if (v.options.bluffo) {
    const stack = v.bluffo_stack;
    const ok = canBluffo(v);
    button.setAttribute("aria-disabled", String(!ok));
    button.classList.toggle("is-off", !ok);
    button.classList.toggle("is-sent", v.my_input?.input === "bluffo" || (inputSent(v) && ui.sent?.kind === "bluffo"));
    button.setAttribute("aria-label", stack ? t("scan.bluffo_label", { n: stack }) : t("scan.bluffo_call_label"));
    fill(button,
      h("span.bluffo-stack", { "aria-hidden": "true" }, Array.from({ length: Math.max(stack, 0) }, (_, k) => h("i", { style: { "--k": k } }))),
      h("span.bluffo-text", { "aria-hidden": "true" }, h("strong", {}, stack ? t("scan.bluffo") : t("scan.bluffo_none")),
        h("small", {}, stack ? t("scan.bluffo_stack", { n: stack }) : "")),
      h("kbd", { "aria-hidden": "true" }, "B"));
  }
  renderEntry();
}

export function renderEntry() {
  const v = ui.view;
  const box = $("entry");
  if (!v) return;
  const show = ui.seat !== null && v.started && !v.outcome;
  box.hidden = !show;
  if (!show) return;
  const typing = ui.entry.digits;
  box.classList.toggle("typing", Boolean(typing));
  box.classList.toggle("active", canTouch(v));
  fill(box,
    h("span.entry-label", {}, t("scan.entry")),
    h("span.entry-digits", { "aria-live": "assertive" }, typing ? `${typing}_` : "—"),
    h("span.entry-hint", {}, v.options.bluffo ? t("scan.entry_hint") : t("scan.entry_hint_plain")));
}

function layoutKeyOf(v) {
  return `${v.game_number}|${v.layout.map((c) => c.join(".")).join(",")}`;
}

function buildGrid(v) {
  const grid = $("blue-grid");
  fill(grid, v.layout.map((designs, i) => h("button.blue-card", {
    type: "button", dataset: { index: i, designs: designs.join(",") },
    onclick: (event) => touch(i, event.timeStamp || performance.now()),
  }, h("span.card-num", { "aria-hidden": "true" }, i + 1), cardSvg(designs, "blue"),
  h("span.card-mark", { "aria-hidden": "true" }))));
  ui.layoutKey = layoutKeyOf(v);
  fitGrid();
}

function cardLabel(v, i, extra) {
  const designs = v.layout[i];
  const cat = v.category;
  const at = CATS.indexOf(cat);
  const others = CATS.filter((c) => c !== cat).map((c) => t("scan.quarter", { cat: t(`scan.cat_lower.${c}`), words: words(c, designs[CATS.indexOf(c)]) })).join("; ");
  const text = t("scan.blue_card", { n: i + 1, cat: t(`scan.cat.${cat}`), active: words(cat, designs[at]), others });
  return extra.length ? `${text} (${extra.join(", ")})` : text;
}

function renderGrid(v) {
  if (ui.layoutKey !== layoutKeyOf(v)) buildGrid(v);
  const grid = $("blue-grid");
  grid.dataset.cat = v.category;
  grid.classList.toggle("live", canTouch(v));
  grid.classList.toggle("resting", v.phase !== "round");
  const events = currentRound()?.events ?? [];
  const marks = new Map();
  for (const e of events) {
    if (e.type === "touch") (marks.get(e.blue_index) ?? marks.set(e.blue_index, []).get(e.blue_index)).push(e);
  }
  const mineWaiting = v.my_input?.input === "touch" ? v.my_input.blue_index
    : inputSent(v) && ui.sent?.kind === "touch" ? ui.sent.index : null;
  const match = v.phase !== "round" ? v.match : null;
  for (const el of grid.querySelectorAll(".blue-card")) {
    const i = Number(el.dataset.index);
    const touches = marks.get(i) ?? [];
    const won = touches.find((e) => e.verdict === "won");
    const wrong = touches.filter((e) => e.verdict === "wrong");
    const extra = [];
    el.classList.toggle("is-match", match === i);
    el.classList.toggle("is-won", Boolean(won));
    el.classList.toggle("is-wrong", wrong.length > 0);
    el.classList.toggle("is-mine", mineWaiting === i);
    el.setAttribute("aria-disabled", String(!canTouch(v)));
    // the mark's words are drawn by CSS (attr(data-text)): the card's accessible name says them
    const mark = el.querySelector(".card-mark");
    const who = (e) => nameOf(v, e.seat, me());
    if (won) {
      mark.dataset.text = `${i + 1} ✓ ${who(won)}`;
      extra.push(`${who(won)} ✓`);
    } else if (wrong.length) {
      mark.dataset.text = `${i + 1} ✗ ${wrong.map(who).join(", ")}`;
      extra.push(...wrong.map((e) => `${who(e)} ✗`));
    } else if (match === i) {
      mark.dataset.text = `${i + 1} · ${t("scan.blue_card_match")}`;
    } else if (mineWaiting === i) {
      mark.dataset.text = `${i + 1} …`;
    } else {
      delete mark.dataset.text;
    }
    if (match === i) extra.push(t("scan.blue_card_match"));
    if (mineWaiting === i) extra.push(t("scan.blue_card_touched"));
    el.setAttribute("aria-label", cardLabel(v, i, extra));
    if (won || wrong.length) el.style.setProperty("--hue", seatHue((won ?? wrong[0]).seat));
  }
}

/** Size the blue cards so that the whole layout fits the space it has, on any screen. */
export function fitGrid() {
  const wrap = $("blue-wrap");
  const grid = $("blue-grid");
  const n = grid.children.length;
  if (!n) return;
  const style = getComputedStyle(grid);
  const gap = parseFloat(style.columnGap) || 8;
  const label = 16;
  const width = wrap.clientWidth - 4;
  const height = wrap.clientHeight - 4;
  let best = { size: 0, cols: 6 };
  for (let cols = 3; cols <= 12; cols++) {
    const rows = Math.ceil(n / cols);
    const size = Math.min((width - gap * (cols - 1)) / cols, (height - gap * (rows - 1)) / rows - label);
    if (size > best.size + 0.5) best = { size, cols };
  }
  const size = Math.max(44, Math.min(150, Math.floor(best.size)));
  grid.style.setProperty("--cols", best.cols);
  grid.style.setProperty("--card", `${size}px`);
}

function renderSeries(v) {
  const box = $("series");
  box.hidden = v.games < 2;
  if (v.games < 2) return;
  fill(box, h("span.series-title", {}, t("scan.series.label")), h("ol.series-games", {}, v.series.map((c, g) => {
    const result = v.results[g];
    const now = g + 1 === v.game_number && !v.outcome;
    let detail = now ? t("scan.series.now") : "";
    if (result) {
      const top = Math.max(...result.scores);
      detail = result.scores.map((s, seat) => (s === top ? `${nameOf(v, seat, me())} ${s}` : null)).filter(Boolean).join(", ");
    }
    return h(`li.series-game${now ? ".now" : ""}${result ? ".done" : ""}`, {},
      quarterIcon(c), h("span.series-name", {}, t("scan.series.game", { game: g + 1, cat: t(`scan.cat_lower.${c}`) })),
      h("span.series-detail", {}, detail));
  })));
}

function renderPanel(v) {
  const panel = $("center-panel");
  let content = null;
  let kind = "";
  if (!v.started) {
    content = seating.waitingRoom(v);
    kind = "waiting";
  } else if (!v.outcome && ui.clock && !ui.clock.running) {
    content = countdown();
    kind = "countdown";
  } else if (choosing(v)) {
    content = chooser(v);
    kind = "chooser";
  }
  panel.hidden = !content;
  panel.dataset.kind = kind;
  $("board").classList.toggle("has-panel", Boolean(content) && kind !== "chooser");
  const key = `${kind}|${kind === "chooser" ? v.seq : ""}|${kind === "waiting" ? JSON.stringify(v.seat_info) + ui.host + ui.starting?.may_start + ui.starting?.host_here : ""}|${ui.clock?.startsAt ? 1 : 0}`;
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  const focusChoice = kind === "chooser";
  fill(panel, content);
  if (focusChoice) panel.querySelector(`[data-category="${v.category}"]`)?.focus({ preventScroll: true });
}

function countdown() {
  if (!ui.clock?.startsAt) {
    return h("div.panel-card.countdown", {}, h("h2", {}, t("scan.waiting_clock")));
  }
  return h("div.panel-card.countdown", { role: "timer" },
    h("p.countdown-label", {}, t("scan.countdown")),
    h("div.countdown-n", { id: "countdown-n" }, String(Math.max(1, Math.ceil((ui.clock.startsAt - performance.now()) / 1000)))),
    h("p", {}, t("scan.countdown_hint")));
}

function chooser(v) {
  const keys = { shape: "1 · S", pattern: "2 · P", position: "3 · O", colour: "4 · C" };
  return h("div.panel-card.chooser", { role: "group", "aria-labelledby": "choose-title" },
    h("h2", { id: "choose-title" }, t("scan.choose.title")),
    h("p", {}, t("scan.choose.body")),
    h("div.choose-options", {}, CATS.map((c) => h("button.choose-option", {
      type: "button", dataset: { category: c, key: `choose-${c}` }, disabled: !ui.legal.choose.has(c),
      "aria-pressed": String(c === v.next_category), "aria-keyshortcuts": keys[c].replace(" · ", " "),
      onclick: () => choose(c),
    }, quarterIcon(c), h("span.choose-name", {}, t(`scan.cat.${c}`)), h("kbd", {}, keys[c])))),
    h("div.timer", { dataset: { kind: "choice" }, role: "progressbar", "aria-label": t("scan.timer_choice"), "aria-valuemin": "0", "aria-valuemax": "100" },
      h("span.timer-fill")));
}

function renderLog(v) {
  const items = [];
  let game = null;
  for (const rec of ui.rounds.values()) {
    if (v.games > 1 && rec.game !== game) {
      game = rec.game;
      items.push(h("li.log-round.log-game", {}, t("log.game", { game })));
    }
    if (rec.round !== null) items.push(h("li.log-round", {}, t("log.card", { n: rec.round })));
    for (const e of rec.events) {
      if (e.type === "reveal") continue;
      const cls = e.type === "touch" || e.type === "bluffo" ? `log-${e.type}.v-${e.verdict}` : `log-${e.type}`;
      items.push(h(`li.log-item.${cls}`, { style: { "--hue": seatHue(e.seat ?? e.chosen ?? 0) } },
        describeScan(e, v, me(), rec.events, rec.round)));
    }
  }
  if (!items.length) items.push(h("li.log-empty", {}, t("log.empty")));
  fill($("log"), items);
  $("log-scroll").scrollTop = $("log-scroll").scrollHeight;
}

// ---------------------------------------------------------------- the end

export function showEnd(v) {
  const dialog = $("results-dialog");
  const times = myTimes();
  const close = () => dialog.close();
  const seatsBox = finalScores(v, me(), fastOf);
  const rt = ui.seat === null ? null : h("section.rt-summary", { id: "rt-summary" },
    h("h3", {}, t("scan.end.your_rt")),
    times.n ? h("p", {}, h("strong", {}, tn("scan.end.rt_summary", times.n, { median: times.median, best: times.best })),
      times.wrong ? ` · ${tn("scan.end.rt_wrong", times.wrong)}` : "")
      : h("p", {}, t("scan.end.rt_none")));
  const fast = ui.fairPlay.length ? h("section.fair-play", { id: "fair-play", role: "note" },
    h("h3", {}, t("scan.end.fast_heading")),
    ui.fairPlay.map((f) => h("p", {}, t("scan.end.fast_line", {
      name: nameOf(v, f.seat, me()), median: f.median_rt_ms, n: f.inputs, floor: f.floor_ms,
    })))) : null;
  const removed = v.removed?.length ? h("section.removed", {},
    h("h3", {}, t("scan.end.removed")),
    h("div.removed-cards", {}, v.removed.map((designs) => h("div.removed-card", {
      dataset: { designs: designs.join(",") }, role: "img",
      "aria-label": CATS.map((c, i) => t("scan.quarter", { cat: t(`scan.cat.${c}`), words: words(c, designs[i]) })).join("; "),
    }, cardSvg(designs, "blue"))))) : null;
  fill(dialog,
    h("div.dialog-head", {}, h("h2", { id: "results-title" }, winnerLine(v, me()))),
    h("div.final", {}, h("h3", {}, t("scan.end.title")), ranking(v, me())),
    seatsBox, fast, rt, removed,
    h("div.dialog-foot", {},
      h("button.btn.ghost", { type: "button", id: "end-look", onclick: close }, t("scan.end.look")),
      h("a.btn.ghost", { href: "/" }, t("results.lobby")),
      ui.seat !== null ? h("button.btn.primary", { type: "button", id: "play-again", onclick: playAgain }, t("results.play_again")) : null));
  dialog.classList.add("is-final", "scan-end");
  if (!dialog.open) dialog.showModal();
  (dialog.querySelector(".dialog-foot .primary") ?? dialog.querySelector(".dialog-foot button"))?.focus();
}

/** The "unusually fast" flag the server raised for `seat` at a friends' table (fair_play). */
const fastOf = (seat) => ui.fairPlay.find((f) => f.seat === seat && f.flag === "unusually_fast");

function playAgain(event) {
  const v = ui.view;
  const keep = ["category", "dealers_choice", "bluffo", "four_in_a_row"];
  return newTable(event, () => ({
    game: "scan",
    name: v.seat_info[ui.seat].name || player.name,
    seats: otherSeats(v, ui.seat),
    options: Object.fromEntries(keep.map((k) => [k, v.options[k]])),
  }));
}
