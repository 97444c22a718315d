// Which language the page speaks, and the picker that changes it. Every page imports this
// (through i18n.js). The choice, in this order (README, "Languages"):
//   1. the language the person picked here before (remembered in localStorage "parlour.lang");
//   2. the browser's first language (navigator.languages[0]), if Parlour speaks it;
//   3. the link's ?lang= (an invite carries the inviter's language);
//   4. any later language of the browser Parlour speaks;
//   5. English.
// The active language is written into the address (?lang=xx), so a copied link carries it, and
// into <html lang>.

/** The languages Parlour speaks, each by its own name. */
export const LANGUAGES = { en: "English", nb: "Norsk bokmål", sv: "Svenska", sq: "Shqip", ro: "Română" };
const STORE = "parlour.lang";

/** The language Parlour speaks for a BCP 47 tag ("sv-FI" → "sv", "no"/"nn" → "nb"), or null. */
export function supported(tag) {
  const base = String(tag ?? "").toLowerCase().split(/[-_]/)[0];
  if (base === "no" || base === "nn") return "nb";
  return base in LANGUAGES ? base : null;
}

function remembered() {
  try {
    return supported(localStorage.getItem(STORE));
  } catch {
    return null;
  }
}

/** The language of this page (see the order above). */
export function chooseLanguage({ stored, browser, link }) {
  if (supported(stored)) return supported(stored);
  if (supported(browser[0])) return supported(browser[0]);
  if (supported(link)) return supported(link);
  for (const tag of browser) if (supported(tag)) return supported(tag);
  return "en";
}

const browserLanguages = typeof navigator === "undefined" ? [] : [...(navigator.languages ?? [navigator.language])];
const search = typeof location === "undefined" ? null : new URLSearchParams(location.search);

/** The active language's code. */
export const LANG = chooseLanguage({ stored: remembered(), browser: browserLanguages, link: search?.get("lang") });

/** `url` (a string, absolute or a path) with this page's language in it: `?lang=xx`. */
export function withLang(url) {
  const u = new URL(url, typeof location === "undefined" ? "http://localhost/" : location.href);
  u.searchParams.set("lang", LANG);
  // "?watch" stays a bare flag
  return u.toString().replace(/([?&]watch)=(?=&|$)/, "$1");
}

if (typeof document !== "undefined") {
  document.documentElement.lang = LANG;
  if (search && search.get("lang") !== LANG) history.replaceState(history.state, "", withLang(location.href));
}

/** Remember `lang` and show this page in it. */
function switchTo(lang) {
  try {
    localStorage.setItem(STORE, lang);
  } catch {
    /* private mode: the address still carries it */
  }
  const u = new URL(location.href);
  u.searchParams.set("lang", lang);
  location.replace(u.toString().replace(/([?&]watch)=(?=&|$)/, "$1"));
}

/** The language picker (a labelled select, each language in its own name) in the top bar's
 * actions; `label` is the word "Language" in the active language. */
export function mountPicker(label) {
  const bar = document.querySelector(".topbar .top-actions");
  if (!bar || document.getElementById("lang-picker")) return;
  const wrap = document.createElement("label");
  wrap.className = "lang-pick";
  const word = document.createElement("span");
  word.className = "sr-only";
  word.textContent = label;
  const select = document.createElement("select");
  select.id = "lang-picker";
  select.title = label;
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === LANG;
    select.append(option);
  }
  select.addEventListener("change", () => switchTo(select.value));
  const code = document.createElement("span");
  code.className = "lang-code";
  code.setAttribute("aria-hidden", "true");
  code.textContent = LANG;
  wrap.append(word, code, select);
  bar.append(wrap);
  // the top bar's height (a phone's bar takes two rows in some languages): what lies below it
  // (the phone's log panel) starts there
  const top = bar.closest(".topbar");
  const measure = () => document.documentElement.style.setProperty("--bar-h", `${top.offsetHeight}px`);
  new ResizeObserver(measure).observe(top);
  measure();
}
