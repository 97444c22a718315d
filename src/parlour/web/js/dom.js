// A tiny DOM builder: h("button.primary", {onclick, "aria-label": …}, "text", child, …).

/** Build an element. `tag` may carry classes ("div.card.n7"); attrs: on* are listeners,
 * `dataset` and `style` objects are merged, `hidden`/`disabled` booleans, the rest attributes. */
export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, v);
    } else if (key === "class") el.className += (el.className ? " " : "") + value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** `document.getElementById`. */
export const $ = (id) => document.getElementById(id);

/** Whether the person asked for less motion. */
export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** A short message at the bottom of the screen. */
export function toast(text, kind = "info") {
  const box = $("toast");
  if (!box) return;
  const item = h(`div.toast.toast-${kind}`, { role: kind === "error" ? "alert" : "status" }, text);
  box.append(item);
  setTimeout(() => item.classList.add("toast-out"), 3800);
  setTimeout(() => item.remove(), 4400);
}
