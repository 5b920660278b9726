// The client's words in the player's language (docs/web-client.md, "Languages").
//
// The catalogues are plain JSON (damier/server/static/i18n/<lang>.json for the shared client, each game's in its
// own folder, damier/games/<game>/messages/<lang>.json); the server sends one language's, merged, with English
// wherever a key is missing (GET /api/i18n/<lang>). Messages are ICU-style: named placeholders "{name}", plurals
// "{count, plural, one {# move} other {# moves}}" (categories from the browser's Intl.PluralRules, "=N" for an exact
// number, "#" the number) and choices "{side, select, red {...} other {...}}". A game's keys carry its name as
// a prefix ("khet.piece.pyramid"): a board module reads them through gameT("khet"); the shared client names no game.
//
// This module loads the catalogue before any module that imports it runs (a top-level await), so that pages may
// translate at load time. The language is the player's choice (localStorage "damier.lang"), else the browser's
// first language the arcade speaks, else English; changing it reloads the page.

const KEY = "damier.lang";

function chosen() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}

// the player's choice, else the browser's languages in its order: the server answers in the first it speaks
function preferred() {
  const list = chosen() || (navigator.languages || [navigator.language]).join(",");
  return /^[A-Za-z0-9,_-]{1,200}$/.test(list) ? list : "en";
}

let current = "en";
let messages = {};
let offered = { en: "English" };
const parsed = new Map(); // key -> parsed message

/** The language the page is shown in ("en", "es" or "fr"). */
export function language() {
  return current;
}

/** The languages the arcade speaks: {code: its name in itself}. */
export function languages() {
  return offered;
}

/** Remember `lang` and show the page in it (a reload: every page and board draws again in the new words). */
export function setLanguage(lang) {
  const code = Object.hasOwn(offered, lang) ? lang : "en";
  try { localStorage.setItem(KEY, code); } catch { /* not kept: this page only */ }
  if (code !== current) location.reload();
}

async function load(lang) {
  try {
    const response = await fetch(`/api/i18n/${encodeURIComponent(lang)}`, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(String(response.status));
    const data = await response.json();
    current = data.lang || "en";
    messages = data.messages || {};
    offered = data.languages || offered;
  } catch {
    // the server cannot be reached: the English words shipped with the page, or the keys themselves
    try {
      messages = await (await fetch("/static/i18n/en.json")).json();
    } catch {
      messages = {};
    }
    current = "en";
  }
  document.documentElement.lang = current;
}

await load(preferred());

// ---- formatting (the ICU MessageFormat subset the catalogues use; damier/core/messages.py reads the same) ----

/** Parse `text` into parts: strings, {arg}, {arg, type: "plural"|"select", options: {key: parts}}. */
export function parseMessage(text) {
  let i = 0;
  function literal(inPlural, stop) {
    let out = "";
    while (i < text.length) {
      const c = text[i];
      if (c === "'") {
        const next = text[i + 1];
        if (next === "'") { out += "'"; i += 2; continue; }
        if (next === "{" || next === "}" || (inPlural && next === "#")) {
          const end = text.indexOf("'", i + 1);
          if (end < 0) { out += text.slice(i + 1); i = text.length; break; }
          out += text.slice(i + 1, end).replace(/''/g, "'");
          i = end + 1;
          continue;
        }
        out += c; i += 1; continue;
      }
      if (c === "{" || c === "}" || (inPlural && c === "#") || (stop && c === stop)) break;
      out += c; i += 1;
    }
    return out;
  }
  function parts(inPlural) {
    const list = [];
    while (i < text.length && text[i] !== "}") {
      const s = literal(inPlural);
      if (s) list.push(s);
      if (i >= text.length || text[i] === "}") break;
      if (text[i] === "#") { list.push({ pound: true }); i += 1; continue; }
      i += 1; // "{"
      list.push(argument());
    }
    return list;
  }
  function word() {
    while (text[i] === " ") i += 1;
    const start = i;
    while (i < text.length && !" ,{}".includes(text[i])) i += 1;
    const w = text.slice(start, i);
    while (text[i] === " ") i += 1;
    return w;
  }
  function argument() {
    const name = word();
    if (text[i] === "}") { i += 1; return { arg: name }; }
    if (text[i] !== ",") throw new SyntaxError(`bad placeholder {${name} in "${text}"`);
    i += 1;
    const type = word();
    if (type !== "plural" && type !== "select") throw new SyntaxError(`unknown type ${type} in "${text}"`);
    if (text[i] !== ",") throw new SyntaxError(`a ${type} needs options in "${text}"`);
    i += 1;
    const options = {};
    for (;;) {
      const key = word();
      if (!key) break;
      if (text[i] !== "{") throw new SyntaxError(`option ${key} needs {...} in "${text}"`);
      i += 1;
      options[key] = parts(type === "plural");
      if (text[i] !== "}") throw new SyntaxError(`unclosed option ${key} in "${text}"`);
      i += 1;
    }
    if (text[i] !== "}") throw new SyntaxError(`unclosed ${type} in "${text}"`);
    i += 1;
    if (!options.other) throw new SyntaxError(`a ${type} needs an "other" option in "${text}"`);
    return { arg: name, type, options };
  }
  const result = parts(false);
  if (i < text.length) throw new SyntaxError(`unbalanced braces in "${text}"`);
  return result;
}

const pluralRules = new Map();
function category(n, lang) {
  if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
  return pluralRules.get(lang).select(n);
}

const numberFormats = new Map();

/** A number as the language writes it (1,234 in English, 1234 and 12.345 in Spanish, 1 234 in French). */
export function formatNumber(n, lang = current) {
  if (typeof n !== "number" || !Number.isFinite(n)) return String(n);
  if (!numberFormats.has(lang)) numberFormats.set(lang, new Intl.NumberFormat(lang, { maximumFractionDigits: 20 }));
  return numberFormats.get(lang).format(n);
}

// an option of a plural or a choice: its own keys only ("constructor" is no option of any message)
const option = (options, key) => (Object.hasOwn(options, key) ? options[key] : undefined);

const AND = { en: " and ", es: " y ", fr: " et " };

// a placeholder's value in words: a seat ({seat: i} or {seats: [i, j]}) by its name in `seats`, a message of its
// own ({code, params}) said first, a number as the language writes it
function value(v, lang, seats, words) {
  if (v && typeof v === "object") {
    const table = words || messages;
    if (Array.isArray(v.list)) return v.list.map(String).join(AND[lang] || AND.en); // players' own names
    if ("title" in v) return Object.hasOwn(table, `${v.game}.info.title`) ? table[`${v.game}.info.title`] : String(v.title);
    if ("seat" in v || "seats" in v) {
      // the page's names for the seats, else the game's in this language (its catalogue), else the English sent
      const list = "seat" in v ? [v.seat] : v.seats || [];
      const names = "name" in v ? [v.name] : v.names || [];
      return list.map((i, k) => {
        if (Number.isInteger(i) && i >= 0 && i < seats.length) return seats[i];
        const key = `${v.game}.client.seats.${i}`;
        if (v.game && Object.hasOwn(words || messages, key)) return (words || messages)[key];
        return names[k] !== undefined ? String(names[k]) : String(i);
      }).join(AND[lang] || AND.en);
    }
    if (typeof v.code === "string") {
      const text = option(words || messages, v.code);
      return text === undefined ? v.code : render(parseMessage(text), v.params || {}, lang, undefined, seats, words);
    }
  }
  return formatNumber(v, lang);
}

function render(list, params, lang, number, seats = [], words = null) {
  let out = "";
  for (const part of list) {
    if (typeof part === "string") { out += part; continue; }
    if (part.pound) { out += formatNumber(number, lang); continue; }
    const v = params[part.arg];
    if (!part.type) {
      out += v === undefined || v === null ? `{${part.arg}}` : value(v, lang, seats, words);
      continue;
    }
    if (part.type === "plural") {
      const n = Number(v);
      const chosen = option(part.options, `=${n}`) || option(part.options, category(n, lang)) || part.options.other;
      out += render(chosen, params, lang, n, seats, words);
    } else {
      out += render(option(part.options, String(v)) || part.options.other, params, lang, number, seats, words);
    }
  }
  return out;
}

/** `pattern` with `params` filled in, as `lang` writes numbers and plurals; a seat parameter named from `seats`, a
 * message in a parameter looked up in `words` (the page's catalogue by default). */
export function formatMessage(pattern, params = {}, lang = current, seats = [], words = null) {
  return render(parseMessage(pattern), params, lang, undefined, seats, words);
}

/** Whether the catalogue has `key`. */
export function has(key) {
  return Object.hasOwn(messages, key);
}

/** The message `key` in the page's language with `params` filled in (the key itself, and a warning, if no
 * catalogue has it: the suite's catalogue test keeps that from happening). */
export function t(key, params = {}, seats = []) {
  let list = parsed.get(key);
  if (!list) {
    if (!has(key)) {
      console.warn(`damier: no message ${key}`);
      return key;
    }
    list = parseMessage(messages[key]);
    parsed.set(key, list);
  }
  return render(list, params, current, undefined, seats);
}

/** The words of an answer that carries them in the page's language: a refusal or a socket's error
 * ({error, code, params}), a game's result ({reason, code, params}), a hint ({text, code, params}); the catalogue's message for its code (its
 * seats named from `seats`, the game's names for them in this language), else its English as sent. */
export function said(answer, seats = []) {
  if (!answer || typeof answer !== "object") return "";
  if (typeof answer.code === "string" && has(answer.code)) return t(answer.code, answer.params || {}, seats);
  for (const field of ["error", "reason", "text"]) if (typeof answer[field] === "string") return answer[field];
  return "";
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** Why a game ended (its result, {winner, reason, code?, params?}), in the page's language, without who won (the
 * headline says it, `winner` its name): the part of a coded "X wins: why" that says why; a result the catalogue has
 * no code for, its English with "X wins:" cut. Capitalised. */
export function resultReason(result, seats = [], winner = null) {
  if (!result) return "";
  const params = result.params || {};
  if (typeof result.code === "string" && has(result.code)) {
    const why = (result.code === "outcome.wins" || result.code === "outcome.wins_because") && params.what;
    return capital(why ? value(params.what, current, seats, null) : t(result.code, params, seats));
  }
  let reason = String(result.reason || "").trim();
  if (winner && reason.toLowerCase().startsWith(`${winner} wins:`.toLowerCase())) reason = reason.slice(winner.length + 6).trim();
  if (winner && reason.toLowerCase().endsWith(`: ${winner} wins`.toLowerCase())) reason = reason.slice(0, -(winner.length + 7)).trim();
  return capital(reason);
}

/** Whether a result is a draw: nobody won and every player scored the same, in a game that counted (not aborted,
 * nor ended unfinished); a result without its returns, by its English words. */
export function isDraw(result) {
  if (!result || Number.isInteger(result.winner)) return false;
  if (!Array.isArray(result.returns)) return /draw/i.test(String(result.reason || ""));
  return !["aborted", "unfinished"].includes(result.termination) && result.returns.every((r) => r === result.returns[0]);
}

/** A board module's translator: its own keys without its prefix (gameT("khet")("piece.pyramid")). */
export function gameT(game) {
  return (key, params) => t(`${game}.${key}`, params);
}

/** Fill in the page's fixed words (index.html): [data-i18n] (text), [data-i18n-label] (aria-label) and
 * [data-i18n-title] (title) name their keys. */
export function localize(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}
