// Every text the web client shows comes from the project's one translation catalog (the gettext
// files in src/batak/i18n/locale), which the server exports at /api/texts as
// {langs, names, texts: {key: {lang: text}}}. A language added to the catalog appears here too.
// Turkish game words (koz, ihale, pas, löve, batak, eşli) are used in every language.

async function load() {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch("/api/texts");
      if (response.ok) return await response.json();
    } catch (e) {
      if (attempt >= 20) throw e;
    }
    await new Promise((done) => setTimeout(done, Math.min(5000, 250 * 2 ** attempt)));
  }
}

const DATA = await load();

export const TEXT = DATA.texts;
export const LANGS = DATA.langs;
// Each language's own name ("English", "Türkçe"), for the language switch.
export const NAMES = DATA.names;

export function initialLang() {
  // a link that names its language (?lang=en, as the server's pages take it) comes first
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && LANGS.includes(asked.toLowerCase())) return asked.toLowerCase();
  const saved = localStorage.getItem("batak.lang");
  if (saved && LANGS.includes(saved)) return saved;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages
    : [navigator.language || "en"];
  for (const tag of wanted) {
    const code = tag.toLowerCase().split("-")[0];
    if (LANGS.includes(code)) return code;
  }
  return LANGS[0];
}

let current = LANGS[0];

export function setLang(lang) {
  current = LANGS.includes(lang) ? lang : LANGS[0];
  localStorage.setItem("batak.lang", current);
  document.documentElement.lang = current;
}

export function lang() {
  return current;
}

// The language the switch button offers: the next one of the catalog.
export function nextLang() {
  return LANGS[(LANGS.indexOf(current) + 1) % LANGS.length];
}

// t("bid", {n: 7}) → "Bid 7"; unknown keys show themselves (a test checks there are none).
export function t(key, params = {}) {
  const entry = TEXT[key];
  if (!entry) return key;
  let s = entry[current] ?? entry[LANGS[0]];
  for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

// A text given by the server in every language ({en, tr, …}).
export function pick(both) {
  if (both == null) return "";
  if (typeof both === "string") return both;
  return both[current] ?? both[LANGS[0]] ?? "";
}
