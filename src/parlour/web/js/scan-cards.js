// SCAN cards drawn in the browser: the server's sprite of the 92 quarter designs is inlined
// once, and each card is a small SVG with four <use> in its fixed quarters (see
// parlour.art.scan.card_svg for the same geometry and colours).

import { t } from "./i18n.js";

export const CATS = ["shape", "pattern", "position", "colour"];

const NS = "http://www.w3.org/2000/svg";
const BACKS = { tan: ["#D8BD8A", "#A88A58"], blue: ["#2F64A6", "#1E4677"] };
const MARGIN = 9;
const GAP = 6;
const QUARTER = 88;

let spriteBox = null;

/** Fetch the design sprite (colour-blind letters when `colourBlind`) and put it in the page,
 * replacing the one there: every card drawn with <use> follows at once. */
export async function loadSprite(colourBlind) {
  const response = await fetch(`/scan/designs.svg${colourBlind ? "?colour_blind=1" : ""}`);
  if (!response.ok) throw new Error(`designs: ${response.status}`);
  const text = await response.text();
  if (!spriteBox) {
    spriteBox = document.createElement("div");
    spriteBox.id = "scan-sprite";
    spriteBox.setAttribute("aria-hidden", "true");
    spriteBox.style.cssText = "position:absolute;width:0;height:0;overflow:hidden";
    document.body.prepend(spriteBox);
  }
  // Parsed apart and imported without its style attribute: the page's CSP allows no inline styles.
  const clean = text.replace(/^(<svg[^>]*?)\s+style="[^"]*"/, "$1");
  const root = new DOMParser().parseFromString(clean, "image/svg+xml").documentElement;
  if (root.nodeName !== "svg") throw new Error("designs: not an SVG");
  spriteBox.replaceChildren(document.importNode(root, true));
  spriteBox.dataset.colourBlind = colourBlind ? "1" : "0";
}

/** The words of a design in the page's language ("flat top, straight sides, 1 lobe"), from the
 * features the sprite gives each design (data-f; its English title otherwise). */
export function words(cat, id) {
  const symbol = document.getElementById(`${cat}-${id}`);
  const f = symbol?.getAttribute("data-f")?.split(" ");
  if (!f) return symbol?.querySelector("title")?.textContent ?? `${cat} ${id}`;
  if (cat === "shape") {
    return t("scan.design.shape", { top: t(`scan.design.top.${f[0]}`), sides: t(`scan.design.sides.${f[1]}`),
      lobes: t("scan.design.lobes", { n: Number(f[2]) }) });
  }
  if (cat === "pattern") {
    return t("scan.design.pattern", { lines: t(`scan.design.lines.${f[0]}`),
      spacing: t(`scan.design.spacing.${f[1]}`), overlay: t(`scan.design.overlay.${f[2]}`) });
  }
  if (cat === "position") return t("scan.design.position", { row: Number(f[0]) + 1, column: Number(f[1]) + 1 });
  const [top, middle, bottom] = f.map((c) => t(`scan.design.colour.${c}`));
  return t("scan.design.stripes", { top, middle, bottom });
}

function el(name, attrs) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The position of a quarter of the card (0 shape, 1 pattern, 2 position, 3 colour). */
function corner(i) {
  return [MARGIN + (i % 2) * (QUARTER + GAP), MARGIN + Math.floor(i / 2) * (QUARTER + GAP)];
}

/** One card as an inline SVG (decorative: the element around it carries the label).
 * `designs` are four design ids in card order; `back` is "tan" or "blue". */
export function cardSvg(designs, back) {
  const [fill, edge] = BACKS[back];
  const svg = el("svg", { viewBox: "0 0 200 200", class: `scan-svg scan-${back}`, "aria-hidden": "true", focusable: "false" });
  svg.append(el("rect", { x: 1, y: 1, width: 198, height: 198, rx: 15, fill, stroke: edge, "stroke-width": 2 }));
  CATS.forEach((cat, i) => {
    const [x, y] = corner(i);
    const g = el("g", { class: `q q-${cat}` });
    g.append(el("use", { href: `#${cat}-${designs[i]}`, x, y, width: QUARTER, height: QUARTER }));
    svg.append(g);
  });
  // One outline per quarter: the page's CSS shows the active category's ([data-cat] above).
  CATS.forEach((cat, i) => {
    const [x, y] = corner(i);
    svg.append(el("rect", { class: `q-ring ring-${cat}`, x: x - 2.5, y: y - 2.5, width: QUARTER + 5, height: QUARTER + 5, rx: 11, fill: "none" }));
  });
  return svg;
}

/** A small icon of a card with one quarter lit (for the category picker and labels). */
export function quarterIcon(cat) {
  const svg = el("svg", { viewBox: "0 0 20 20", class: "quarter-icon", "aria-hidden": "true", focusable: "false" });
  CATS.forEach((c, i) => {
    svg.append(el("rect", {
      x: 1 + (i % 2) * 10, y: 1 + Math.floor(i / 2) * 10, width: 8, height: 8, rx: 1.5,
      class: c === cat ? "qi-on" : "qi-off",
    }));
  });
  return svg;
}
