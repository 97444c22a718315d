// The "Learn to play" coach panel, shared by the lessons (learn-scout.js, learn-rt.js): what just
// happened, what to do now, and at the end a button to a real game. It sits over the table (in
// the results dialog while that is open, since a modal dialog makes the rest of the page inert).

import { h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import "./i18n-learn.js";
import { createTable, player } from "./net.js";

/** The lesson this page plays (`?learn=<game>`), or null. */
export const lessonOf = () => new URLSearchParams(location.search).get("learn");

const narrow = matchMedia("(max-width: 640px)");

/** A coach: `update({ said, ask, step, ended })` shows it; `realGame` is the setup of the real
 * game the end offers. On a phone it sits under the top bar, or with `above` (a selector) just
 * above that element ("bottom": at the bottom) — where it hides least of what the lesson is about. */
export function createCoach(realGame, { above = null } = {}) {
  let panel = null;
  let told = null;

  async function start(event) {
    const button = event.currentTarget;
    const label = button.textContent;
    button.disabled = true;
    button.textContent = t("learn.starting");
    try {
      const id = await createTable({ ...realGame, name: player.name || t("learn.guest") });
      location.assign(`/t/${encodeURIComponent(id)}`);
    } catch (error) {
      button.disabled = false;
      button.textContent = label;
      panel.querySelector("#coach-said").textContent = t("learn.error", { message: errorText(error.code) });
    }
  }

  function toggle() {
    const closed = panel.classList.toggle("collapsed");
    const button = panel.querySelector("#coach-toggle");
    button.setAttribute("aria-expanded", String(!closed));
    button.textContent = t(closed ? "learn.show_coach" : "learn.hide");
  }

  function build() {
    panel = h("aside.coach", { id: "coach", "aria-labelledby": "coach-title", dataset: { step: "" } },
      h("div.coach-head", {},
        h("h2", { id: "coach-title" }, t("learn.coach")),
        h("span.coach-actions", {},
          // whoever has seen enough (or strayed from the lesson's path) goes on to a real game
          h("button.btn.small.ghost", { type: "button", id: "coach-skip", onclick: start }, t("learn.skip")),
          h("button.btn.small.ghost", { type: "button", id: "coach-toggle", "aria-expanded": "true",
            "aria-controls": "coach-body", onclick: toggle }, t("learn.hide")))),
      h("div.coach-body", { id: "coach-body" },
        // it scrolls when long: focusable, so that a keyboard can scroll it too
        h("div.coach-said", { id: "coach-said", role: "log", "aria-live": "polite", tabindex: "0", "aria-labelledby": "coach-title" }),
        h("p.coach-ask", { id: "coach-ask", "aria-live": "polite" }),
        h("div.coach-foot", { id: "coach-foot", hidden: true },
          h("button.btn.primary", { type: "button", id: "coach-real-game", onclick: start }, t("learn.real_game")),
          h("a.btn.ghost", { href: "/" }, t("learn.back")))));
    document.body.append(panel);
    document.body.classList.add("learning");
    // the results dialog opens and closes between messages: keep the coach where it can be used
    new MutationObserver(place).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["open"] });
    addEventListener("resize", place);
  }

  function place() {
    const dialog = document.querySelector("#results-dialog[open]");
    const home = dialog ?? document.body;
    if (panel.parentElement !== home) {
      if (dialog) dialog.prepend(panel);
      else home.append(panel);
    }
    panel.classList.toggle("in-dialog", Boolean(dialog));
    const docked = above && narrow.matches && !dialog;
    const anchor = docked && above !== "bottom" ? document.querySelector(above) : null;
    panel.style.top = docked ? "auto" : "";
    panel.style.bottom = !docked ? "" : anchor ? `${Math.max(8, innerHeight - anchor.getBoundingClientRect().top + 6)}px` : "8px";
    // docked at the bottom: the page gets room to scroll its last row out from under the coach
    document.body.style.paddingBottom = docked && !anchor ? `${panel.offsetHeight + 16}px` : "";
  }

  /** Show what happened (`said`, a list of sentences), what to do (`ask`), the step's name. */
  function update({ said, ask, step, ended }) {
    if (!panel) build();
    const box = panel.querySelector("#coach-said");
    const text = said.join("\n");
    if (told !== text) {
      told = text;
      box.replaceChildren(...said.map((line) => h("p", {}, line)));
    }
    const asked = panel.querySelector("#coach-ask");
    if (asked.textContent !== ask) asked.textContent = ask;
    panel.dataset.step = step;
    panel.querySelector("#coach-foot").hidden = !ended;
    place();
  }

  return { update };
}
