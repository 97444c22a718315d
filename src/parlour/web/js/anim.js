// Move animations: cards fly from a player to the table and back, so people can follow.

import { reducedMotion } from "./dom.js";

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** Animate `elements` (already in place) as if they came from `from` (an element). */
export function flyIn(elements, from, ms) {
  if (!ms || reducedMotion() || !from) return;
  const start = centre(from.getBoundingClientRect());
  elements.forEach((el, i) => {
    const end = centre(el.getBoundingClientRect());
    el.animate(
      [
        { transform: `translate(${start.x - end.x}px, ${start.y - end.y}px) scale(0.45) rotate(-8deg)`, opacity: 0.2 },
        { transform: "none", opacity: 1 },
      ],
      { duration: ms, delay: i * Math.min(60, ms / 6), easing: "cubic-bezier(.2,.75,.25,1)", fill: "backwards" },
    );
  });
}

/** Fly a copy of `cardEl` from `fromRect` (a DOMRect) to `to` (an element), then remove it. */
export function flyOut(cardEl, fromRect, to, ms) {
  if (!ms || reducedMotion() || !to || !fromRect) return;
  const ghost = cardEl.cloneNode(true);
  ghost.classList.add("card-ghost");
  Object.assign(ghost.style, {
    position: "fixed", left: `${fromRect.left}px`, top: `${fromRect.top}px`,
    width: `${fromRect.width}px`, height: `${fromRect.height}px`, margin: "0", zIndex: "50",
  });
  document.body.append(ghost);
  const a = centre(fromRect);
  const b = centre(to.getBoundingClientRect());
  const run = ghost.animate(
    [
      { transform: "none", opacity: 1 },
      { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(0.5) rotate(6deg)`, opacity: 0.15 },
    ],
    { duration: ms, easing: "cubic-bezier(.45,0,.25,1)" },
  );
  run.onfinish = () => ghost.remove();
  run.oncancel = () => ghost.remove();
}

/** Briefly highlight `el` (the seat that just moved). */
export function pulse(el) {
  if (!el) return;
  el.classList.remove("pulse");
  void el.offsetWidth;
  el.classList.add("pulse");
}
