// The page's words in the reader's language: English, Nepali, Hindi or Bengali. Every string a
// person reads is an English message id marked t("...") (plurals tn("one", "other", n)), which
// Babel extracts into the "web" catalog (src/callbreak/i18n/locale/<lang>/LC_MESSAGES/web.po);
// the server hands the page that catalog as JSON. The language is the one chosen in the top
// bar's menu (kept in localStorage and in a `lang` cookie, so the server speaks it too), else the
// browser's; numbers are written with the language's own digits.

export const LANGUAGES = { en: "English", ne: "नेपाली", hi: "हिन्दी", bn: "বাংলা" };
const KEY = "callbreak:lang";

function pick() {
  const chosen = window.localStorage.getItem(KEY);
  if (chosen && chosen in LANGUAGES) return chosen;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

export const lang = pick();
let messages = {};
// The digits named outright: each language's own (CLDR's default), whatever the browser's data;
// a browser without a language's data (Chromium has no Nepali) writes as its nearest one does
// (Nepali groups digits as Hindi does), in the language's digits still.
const NUMERALS = { en: "latn", ne: "deva", hi: "latn", bn: "beng" };
const NEAREST = { ne: "hi" };
const known = Intl.NumberFormat.supportedLocalesOf([lang]).length ? lang : NEAREST[lang] || "en";
/** The locale for numbers and dates: the language (or its nearest) with its digits. */
export const locale = `${known}-u-nu-${NUMERALS[lang]}`;
const plural = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(locale);
const tenthsFormat = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

// The catalog is loaded as this module is (a top-level await), so every module that imports it
// renders in the reader's language from its first paint; the cookie tells the server the choice.
document.documentElement.lang = lang;
document.cookie = `lang=${lang}; path=/; max-age=31536000; samesite=lax`;
if (lang !== "en") {
  try {
    const r = await fetch(`/api/i18n/${lang}`);
    if (r.ok) messages = await r.json();
  } catch {
    // No catalog (the server unreachable): the page still works, in English.
  }
}

/** Chooses a language for this browser and reloads the page in it. */
export function chooseLanguage(code) {
  window.localStorage.setItem(KEY, code);
  document.cookie = `lang=${code}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
}

/** ``text``'s {name} placeholders filled from ``args``; numbers among them in the language's digits. */
export function format(text, args) {
  return text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name) => {
    if (!(name in args)) return whole;
    const v = args[name];
    return typeof v === "number" ? num(v) : String(v);
  });
}

/** ``message`` in the reader's language, its {placeholders} filled from ``args``. */
export function t(message, args = {}) {
  return format(messages[message] || message, args);
}

// What the rules say at the table (a deal thrown in, how a hand ended) comes from the server as
// {template, params}: an English message id of the "games" catalog (loaded with the page's) and
// its values, seats counted from 1. A list of seats is said "seat 1, seat 3".
const SEAT = "seat {seat}";

/** The rules' ``words`` in the reader's language; ``english`` where the server sent none. */
export function said(words, english = "") {
  if (!words) return english;
  const args = {};
  for (const [name, value] of Object.entries(words.params || {})) {
    args[name] = Array.isArray(value) ? value.map((seat) => format(messages[SEAT] || SEAT, { seat })).join(", ") : value;
  }
  return t(words.template, args);
}

/** The singular or plural form for ``n`` (as the language counts), {n} filled in too. */
export function tn(one, other, n, args = {}) {
  const forms = messages[one] ? messages[one].split("\x00") : [one, other];
  // Nepali, Hindi and Bengali catalogs have two forms (one, other), as English.
  const form = forms.length === 1 ? forms[0] : plural.select(n) === "one" ? forms[0] : forms[forms.length - 1];
  return format(form, { n, ...args });
}

/** A number as the language writes it (Nepali in Devanagari, Bengali in Bengali digits). */
export function num(n) {
  return numbers.format(n);
}

/** Call Break's points kept in tenths: 31 -> "3.1", 30 -> "3", in the language's digits. */
export function tenths(value) {
  return value % 10 ? tenthsFormat.format(value / 10) : numbers.format(value / 10);
}

/** ``n`` with exactly ``places`` decimals (a review's 0.25 points lost), in the language's digits. */
export function fixed(n, places) {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: places, maximumFractionDigits: places }).format(n);
}

// A bot's level by name, in the reader's language (English keeps the names the bots are
// registered by; a level the page does not know stays as sent).
export function botLevel(spec) {
  const level = String(spec).split(":")[0].toLowerCase();
  const words = { beginner: t("beginner"), expert: t("expert"), greedy: t("greedy"), heuristic: t("heuristic"),
    "heuristic-overcall": t("heuristic-overcall"), "heuristic-undercall": t("heuristic-undercall"),
    ismcts: t("ismcts"), neural: t("neural"), "openspiel-ismcts": t("openspiel-ismcts"),
    random: t("random"), search: t("search"), remote: t("remote") };
  return words[level] || spec;
}

// A seat's name as shown: a person's as they typed it; a bot's ("Expert bot 3", as the server
// names them) in the reader's language.
export function personName(name) {
  const m = /^([A-Za-z][\w-]*) bot(?: (\d+))?$/.exec(String(name));
  if (lang === "en" || !m || botLevel(m[1]) === m[1]) return name;
  return m[2] ? t("{level} bot {number}", { level: botLevel(m[1]), number: Number(m[2]) }) : t("{level} bot", { level: botLevel(m[1]) });
}
