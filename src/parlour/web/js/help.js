// The rules in plain words, in a dialog any page can open.

import { $, h, fill } from "./dom.js";
import { helpSections, t } from "./i18n.js";

/** Fill the help dialog (id "help-dialog") and wire every [data-open-help] button to it. */
export function setupHelp() {
  const dialog = $("help-dialog");
  if (!dialog) return;
  const { sections, keys, legend = [] } = helpSections();
  fill(
    dialog,
    h("div.dialog-head", {},
      h("h2", { id: "help-title" }, t("help.title")),
      h("button.icon-btn", { type: "button", "aria-label": t("help.close"), onclick: () => dialog.close() }, "×")),
    h("div.help-body", {},
      sections.map(([title, text]) => h("section", {}, h("h3", {}, title),
        text.split("\n").map((p) => h("p", {}, p)))),
      legend.length ? h("section.help-legend", {}, h("h3", {}, t("help.legend_title")),
        h("ul", {}, legend.map(([cls, sample, key]) => h("li", { dataset: { legend: key } },
          h("span.legend-sample", { "aria-hidden": "true" }, h(`span.${cls}`, {}, sample)), h("span", {}, t(key)))))) : null,
      h("section", {}, h("h3", {}, t("help.keys_title")), h("ul", {}, keys.map((k) => h("li", {}, k))))),
    h("div.dialog-foot", {}, h("button.btn.primary", { type: "button", onclick: () => dialog.close() }, t("help.close"))),
  );
  dialog.setAttribute("aria-labelledby", "help-title");
  for (const button of document.querySelectorAll("[data-open-help]")) {
    button.addEventListener("click", () => dialog.showModal());
  }
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close();
  });
}
