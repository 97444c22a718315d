// Hints at the SCOUT table (issue 11): "Suggest a move" asks the server for Expert's move on
// this seat's turn (tables against computers only) and shows it — the cards selected, the
// Scout's place marked — with its reason; after the game, the end-of-game dialog lists this
// seat's turning points. The server works everything out from this seat's view; the page only
// shows what it is sent.

import { $, fill, h } from "./dom.js";
import { t, tn } from "./i18n.js";
import "./i18n-hint.js";

/** Words for a move the server described (`{key, params}`). */
export const moveText = (words) => t(`hint.move.${words.key}`, words.params);

/** Words for a reason the server gave (`reason`, `params`; counts take their plural form). */
export const reasonText = (reason, params) =>
  typeof params.n === "number" ? tn(`hint.reason.${reason}`, params.n, params) : t(`hint.reason.${reason}`, params);

/** One turning point as a list item; `more`: controls added at its end, e.g. the replay's,
 * which names the player (`playedBy`) instead of saying "you". */
export function pointItem(p, more = null, playedBy = null) {
  const when = playedBy ? t("hint.tp.when_of", { round: p.round, move: p.move }) : t("hint.tp.when", { round: p.round, move: p.move });
  const played = playedBy ? t("hint.tp.played_by", { name: playedBy, move: moveText(p.played) })
    : t("hint.tp.played", { move: moveText(p.played) });
  return h("li.tp-item", {},
    h("div.tp-head", {}, h("span.tp-when", {}, when), h("span.tp-loss", {}, tn("hint.tp.loss", p.loss))),
    h("div.tp-played", {}, played),
    h("div.tp-best", {}, t("hint.tp.best", { move: moveText(p.best) }), " ", reasonText(p.reason, p.params)),
    more);
}

/** The coach of the page's `ui` (scout.js); `render` redraws the table. Once a hint is shown,
 * the control that plays it has the focus. */
export function createCoach(ui, { render }) {
  const coach = { asked: null, again: false, hint: null, points: null, pointsAsked: false, n: 0 };

  /** Whether this page's person may ask for hints: seated, and every other seat a computer. */
  function offered(v) {
    return ui.seat !== null && v.started && !v.outcome
      && v.seat_info.every((s, i) => i === ui.seat || s.kind === "bot");
  }

  function ask() {
    if (coach.asked !== null || !ui.socket) return;
    const ref = `hint-${++coach.n}`;
    if (ui.socket.send("hint", { state_id: ui.view.state_id, ref }) === null) return;
    coach.asked = ref;
    render();
  }

  /** Show a hint for the state on screen: select its cards, or open the Scout it suggests. */
  function onHint(msg) {
    if (msg.ref !== coach.asked) return;
    coach.asked = null;
    if (msg.state_id !== ui.view?.state_id) return render();
    coach.hint = msg;
    const a = msg.action;
    ui.sel = null;
    ui.scout = null;
    ui.ssIntent = false;
    if (a.type === "show") ui.sel = { a: a.start, b: a.start + a.length - 1 };
    else if (a.type === "scout" || a.type === "scout_show") ui.scout = { end: a.end, rotate: a.rotate, ss: a.type === "scout_show" };
    render();
    const target = a.type === "show" ? document.querySelector("[data-key='show']")
      : a.type === "flip" ? document.querySelector(`[data-key='flip-${a.flip}']`)
        : document.querySelector(`[data-key='slot-${a.insert}']`);
    target?.focus();
  }

  /** A new state: a hint for an earlier one no longer holds; one asked for just before the
   * computers' moves (their flip decisions) is asked again for this state. */
  function onState(msg) {
    if (coach.hint && coach.hint.state_id !== msg.state_id) coach.hint = null;
    if (coach.again && msg.actions.length) {
      coach.again = false;
      coach.asked = null;
      queueMicrotask(ask);
    }
  }

  /** An error answering this page's hint: true when handled here (the table moved on: the
   * hint is asked again with the next state), false for the page to show it. */
  function onError(msg) {
    if (msg.ref === undefined || msg.ref !== coach.asked) return false;
    if (msg.code === "stale_state" && ui.actions.length && !coach.again) {
      coach.again = true;
      if (msg.state_id === ui.view?.state_id) onState({ state_id: msg.state_id, actions: ui.actions });
      return true;
    }
    coach.asked = null;
    coach.again = false;
    return false;
  }

  /** Whether the element `kind` ("card", "slot", "flip") at `i` plays the hinted move. */
  function hinted(kind, i) {
    const a = coach.hint?.action;
    if (!a) return false;
    if (kind === "card") return a.type === "show" && i >= a.start && i < a.start + a.length;
    if (kind === "slot") return (a.type === "scout" || a.type === "scout_show") && ui.scout?.end === a.end
      && ui.scout?.rotate === a.rotate && i === a.insert;
    return kind === "flip" && a.type === "flip" && a.flip === i;
  }

  /** The "Suggest a move" button (null where hints are not offered). */
  function button(v) {
    if (!offered(v) || ui.actions.length === 0) return null;
    const thinking = coach.asked !== null;
    return h("button.btn.coach-ask", {
      type: "button", dataset: { key: "hint" }, disabled: thinking || Boolean(ui.pending),
      "aria-busy": thinking ? "true" : null, onclick: ask,
    }, thinking ? t("hint.thinking") : t("hint.ask"));
  }

  /** The hint's line under the hand: Expert's move and why. */
  function renderTip() {
    const box = $("coach-tip");
    if (!box) return;
    const hint = coach.hint;
    box.hidden = !hint;
    if (!hint) return fill(box);
    fill(box, h("strong", {}, t("hint.says", { move: moveText(hint.words) })), " ", reasonText(hint.reason, hint.params));
  }

  /** The end-of-game section: this seat's turning points (asked for once, filled in when they
   * come). */
  function turningPoints() {
    if (ui.seat === null) return null;
    if (!coach.pointsAsked && ui.socket?.send("turning_points") !== null) coach.pointsAsked = true;
    return h("section.turning-points", { id: "turning-points", "aria-labelledby": "tp-title", "aria-live": "polite" },
      h("h3", { id: "tp-title" }, t("hint.tp.title")), pointsBody());
  }

  function pointsBody() {
    const points = coach.points;
    if (points === null) return h("p.muted", {}, t("hint.tp.loading"));
    if (!points.length) return h("p", {}, t("hint.tp.none"));
    return [h("p.tp-intro", {}, t("hint.tp.intro")), h("ol.tp-list", {}, points.map((p) => pointItem(p)))];
  }

  function onPoints(msg) {
    coach.points = msg.points;
    const section = $("turning-points");
    if (section) fill(section, h("h3", { id: "tp-title" }, t("hint.tp.title")), pointsBody());
  }

  return { button, hinted, onError, onHint, onPoints, onState, renderTip, turningPoints };
}
