// #/new/<game>[?options=<json>&seed=<n>] : the game's options (built from the catalog, or given), presets, the
// board's seed for a game with a seeded setup (empty: a new board), one row per seat (human or computer and its
// level), then POST /api/games and on to the game; a game between two people may be offered in the lobby instead
// (POST /api/seeks, then the home page).
import { h, icon, replace } from "../dom.js";
import { api } from "../api.js";
import { boardModule } from "../games/index.js";
import { showError } from "../messages.js";
import { navigate } from "../router.js";
import { seatColour } from "../players.js";
import { startGame, seatCount, defaultLevel, optionDefaults, levelsOf, isPuzzleGame, hasFeature } from "../session.js";
import { buildPuzzlePage } from "./newpuzzle.js";
import { t } from "../i18n.js";

export async function mount(root, { params, query }) {
  const page = h("div", { class: `page narrow new-game game-${params.game}` });
  root.append(page);
  const entry = await loadEntry(page, params.game);
  if (!entry) return;
  const mod = await boardModule(entry);
  if (isPuzzleGame(entry)) {
    document.title = t("newgame.title_puzzle", { title: entry.title });
    buildPuzzlePage(page, entry, mod);
    return;
  }
  document.title = t("newgame.title", { title: entry.title });
  buildForm(page, entry, mod, query);
}

/** The catalog entry of game ``name``; when it cannot be loaded or there is no such game, ``page`` shows why
 * (with a way back) and the result is null. */
export async function loadEntry(page, name) {
  let entry;
  try {
    entry = await api.catalogEntry(name);
  } catch (err) {
    page.append(h("div", { class: "panel empty-state" }, h("p", {}, err.message),
      h("a", { class: "btn", href: "#/" }, t("newgame.back_to_games"))));
    return null;
  }
  if (!entry) {
    page.append(h("div", { class: "panel empty-state" },
      h("h1", {}, t("newgame.unknown")), h("p", {}, t("newgame.unknown_text", { name })),
      h("a", { class: "btn primary", href: "#/" }, t("newgame.see_games"))));
    return null;
  }
  return entry;
}

function buildForm(page, entry, mod, query = new URLSearchParams()) {
  const values = optionDefaults(entry);
  const levels = levelsOf(entry);
  const seatChoices = []; // [{kind, level}] kept across seat-count changes
  const inputs = {};

  const preview = h("div", { class: "preview-board" });
  const previewText = h("p", { class: "preview-text" });
  const seatsBox = h("div", { class: "seat-rows" });
  // between people, hints only when every player agrees to a casual game with hints (joining is agreeing)
  const hintsBox = h("input", { type: "checkbox", id: "casual-hints", "data-testid": "casual-hints" });
  const hintsRow = h("div", { class: "field field-check", hidden: true },
    h("label", { for: "casual-hints" }, t("newgame.hints.label")), hintsBox,
    h("small", { class: "field-help" }, t("newgame.hints.help")));
  // two people: the game may be offered in the lobby instead, where anyone joins it (lichess's seeks)
  const lobbyBox = h("input", { type: "checkbox", id: "in-lobby", "data-testid": "in-lobby" });
  const lobbyRow = h("div", { class: "field field-check", hidden: true },
    h("label", { for: "in-lobby" }, t("newgame.lobby.label")), lobbyBox,
    h("small", { class: "field-help" }, t("newgame.lobby.help")));
  lobbyBox.addEventListener("change", () => refresh());
  const clock = clockField(entry);
  const seed = entry.seeded_setup ? seedField(query.get("seed"), () => refresh()) : null;
  const presetBox = mod.presets?.length ? h("div", { class: "presets", role: "group", "aria-label": t("newgame.presets_label") }) : null;
  const submit = h("button", { type: "submit", class: "btn primary big", "data-testid": "new-game-submit" }, t("newgame.start"));
  const formError = h("p", { class: "form-error", role: "alert", hidden: true });

  const editorLink = mod.palette ? h("a", { class: "btn", "data-testid": "setup-editor-link" }, icon("plus"), t("newgame.setup_editor")) : null;
  const optionFields = (entry.options || []).map((opt) => optionField(opt, values, inputs, () => refresh()));
  giveOptions(entry, query, values, inputs);

  if (presetBox) {
    for (const preset of mod.presets) presetBox.append(presetButton(preset, values, inputs, refresh));
  }

  const form = h("form", { class: "panel form", novalidate: true },
    h("div", { class: "form-grid" },
      h("div", { class: "form-main" },
        h("fieldset", {},
          h("legend", {}, t("newgame.options")),
          presetBox,
          h("div", { class: "option-fields" }, optionFields, seed?.field)),
        h("fieldset", {},
          h("legend", {}, t("newgame.seats")),
          h("p", { class: "hint-text" }, t("newgame.seats_help")),
          seatsBox,
          lobbyRow,
          hintsRow),
        clock.fieldset),
      h("aside", { class: "form-preview", "aria-label": t("newgame.preview") }, preview, previewText)),
    formError,
    h("div", { class: "form-actions" },
      h("a", { class: "btn ghost", href: "#/" }, t("newgame.cancel")),
      editorLink,
      submit));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const problem = validate(entry, values) || seed?.problem() || clock.problem();
    formError.hidden = !problem;
    formError.textContent = problem || "";
    if (problem) return;
    submit.disabled = true;
    submit.textContent = t("newgame.starting");
    try {
      const n = seatCount(entry, values);
      if (!lobbyRow.hidden && lobbyBox.checked) {
        await api.offerSeek({ game: entry.name, options: { ...values }, clock: clock.value() || null, side: "first" });
        navigate("/"); // the home page's lobby shows the seek, and opens the game when someone joins
        return;
      }
      const seatsSpec = seatChoices.slice(0, n).map((s) => (s.kind === "computer" ? { kind: "computer", level: s.level } : { kind: "human" }));
      const casual = !hintsRow.hidden && hintsBox.checked;
      const extra = casual ? { hints: true } : {};
      const control = clock.value();
      if (control) extra.clock = control;
      if (seed?.value() != null) extra.seed = seed.value();
      await startGame(entry, { ...values }, seatsSpec, null, extra);
    } catch (err) {
      showError(err);
      formError.hidden = false;
      formError.textContent = err.message;
      submit.disabled = false;
      submit.textContent = !lobbyRow.hidden && lobbyBox.checked ? t("newgame.offer_lobby") : t("newgame.start");
    }
  });

  page.append(
    h("a", { class: "back", href: "#/" }, icon("prev"), t("newgame.back")),
    h("h1", {}, t("newgame.heading", { title: entry.title })),
    h("p", { class: "lead" }, entry.description, " ", newGameHowto(entry)),
    form);

  function refresh() {
    // the position editor starts with the options chosen here
    if (editorLink) editorLink.href = `#/editor/${encodeURIComponent(entry.name)}?options=${encodeURIComponent(JSON.stringify(values))}`;
    // presets
    presetBox?.querySelectorAll(".chip").forEach((b) => {
      const on = Object.entries(b._preset.options).every(([k, v]) => String(values[k]) === String(v));
      b.setAttribute("aria-pressed", String(on));
    });
    // seats
    const n = Math.max(1, Math.min(16, seatCount(entry, values)));
    const names = mod.seatNames(n);
    while (seatChoices.length < n) {
      seatChoices.push(seatChoices.length === 0 ? { kind: "human", level: defaultLevel(entry) } : { kind: "computer", level: defaultLevel(entry) });
    }
    const people = () => seatChoices.slice(0, n).filter((s) => s.kind === "human").length;
    const showHints = () => {
      lobbyRow.hidden = n !== 2 || people() !== 2;
      const inLobby = !lobbyRow.hidden && lobbyBox.checked;
      hintsRow.hidden = people() < 2 || inLobby; // a seek is a game without hints
      submit.textContent = inLobby ? t("newgame.offer_lobby") : t("newgame.start");
    };
    replace(seatsBox, Array.from({ length: n },
      (_, i) => seatRow(i, names[i] || t("newgame.player", { n: i + 1 }), seatChoices[i], levels, showHints)));
    showHints();
    // preview: the start the server makes of these options (and of the seed given)
    if (validate(entry, values) === null && !seed?.problem()) showPreview({ ...values }, seed?.value() ?? null);
  }

  let previewSeq = 0;
  let previewTimer = null;
  function showPreview(options, board) {
    clearTimeout(previewTimer);
    const seq = ++previewSeq;
    previewTimer = setTimeout(async () => {
      try {
        const start = await api.position(entry.name, options, null, null, board);
        if (seq !== previewSeq) return;
        const words = mod.describeOptions(options);
        mod.render(preview, start.board, { compact: true, label: t("newgame.preview_label", { options: words }) });
        previewText.textContent = board !== null ? t("newgame.preview_board", { options: words, board: String(board) })
          : seed ? t("newgame.preview_example", { options: words }) : words;
      } catch (err) {
        if (seq === previewSeq) previewText.textContent = err.message;
      }
    }, PREVIEW_DELAY_MS);
  }
  refresh();
}

const PREVIEW_DELAY_MS = 120;

/** The options of the address (`?options=<json>`: a board to play again, a position editor's) set in the form:
 * those the catalog knows, each into `values` and its input. */
function giveOptions(entry, query, values, inputs) {
  let given = {};
  try { given = JSON.parse(query.get("options") || "{}") || {}; } catch { given = {}; }
  for (const opt of entry.options || []) {
    if (!(opt.name in given) || !inputs[opt.name]) continue;
    values[opt.name] = given[opt.name];
    if (opt.type === "bool") inputs[opt.name].checked = !!given[opt.name];
    else inputs[opt.name].value = String(given[opt.name]);
  }
}

/** The board's seed of a game with a seeded setup (the catalog's `seeded_setup`): empty, a new board for each game;
 * a number (the one a game page shows beside its options) plays that board. `value()`: null or the number;
 * `problem()`: what is wrong with the entry, in words, or null (the server checks it again). */
export function seedField(initial, changed) {
  const input = h("input", {
    id: "opt-seed", name: "seed", type: "text", inputmode: "numeric", autocomplete: "off", spellcheck: "false",
    placeholder: t("newgame.seed.placeholder"), value: initial || "", "data-testid": "option-seed",
  });
  input.addEventListener("input", () => changed());
  const text = () => input.value.trim();
  const problem = () => {
    const entered = text();
    if (!entered || (/^\d+$/.test(entered) && Number.isSafeInteger(Number(entered)))) return null;
    return t("newgame.seed.problem", { max: String(Number.MAX_SAFE_INTEGER) });
  };
  const value = () => (text() && !problem() ? Number(text()) : null);
  const field = h("div", { class: "field" },
    h("label", { for: "opt-seed" }, t("newgame.seed.label")),
    input,
    h("small", { class: "field-help" }, t("newgame.seed.help")));
  return { field, value, problem };
}

/** The input for option `opt` of the catalog (its value kept in `values[opt.name]`). */
/** A preset's chip: choosing it sets its options (``preset.options``) in the form, then ``changed()``. */
export function presetButton(preset, values, inputs, changed) {
  const button = h("button", {
    type: "button", class: "chip", "data-testid": `preset-${preset.id || preset.label}`,
    "aria-pressed": "false", title: preset.note || null,
    onclick: () => {
      for (const [k, v] of Object.entries(preset.options)) {
        values[k] = v;
        if (inputs[k]) inputs[k].value = v;
      }
      changed();
    },
  }, preset.label, preset.note ? h("small", {}, preset.note) : null);
  button._preset = preset;
  return button;
}

export function optionField(opt, values, inputs, changed) {
  const id = `opt-${opt.name}`;
  let input;
  const common = { id, name: opt.name, "data-testid": `option-${opt.name}` };
  if (Array.isArray(opt.choices)) {
    input = h("select", common, opt.choices.map((c) => h("option", { value: String(c), selected: c === opt.default }, String(c))));
  } else if (opt.type === "bool") {
    input = h("input", { ...common, type: "checkbox", checked: !!opt.default });
  } else if (opt.type === "int") {
    input = h("input", { ...common, type: "number", inputmode: "numeric", step: "1", min: opt.min ?? null, max: opt.max ?? null, value: opt.default });
  } else {
    input = h("input", { ...common, type: "text", value: opt.default ?? "" });
  }
  inputs[opt.name] = input;
  input.addEventListener(opt.type === "bool" || opt.choices ? "change" : "input", () => {
    if (opt.type === "bool") values[opt.name] = input.checked;
    else if (opt.type === "int" && !opt.choices) values[opt.name] = input.value === "" ? "" : Number(input.value);
    else values[opt.name] = opt.choices ? opt.choices.find((c) => String(c) === input.value) : input.value;
    changed();
  });
  const range = opt.type === "int" && opt.min !== undefined && opt.max !== undefined ? `${opt.min}–${opt.max}` : "";
  return h("div", { class: `field${opt.type === "bool" ? " field-check" : ""}` },
    h("label", { for: id }, labelOf(opt.name), range ? h("span", { class: "range" }, range) : null),
    input,
    opt.help ? h("small", { class: "field-help" }, opt.help) : null);
}

const LABELS = { cols: "Columns" };

export function labelOf(name) {
  if (LABELS[name]) return LABELS[name];
  return name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, " ");
}

/** A computer level's name in words: the usual three in the page's language, any other as its name. */
function levelLabel(level) {
  if (level === "easy") return t("newgame.level.easy");
  if (level === "medium") return t("newgame.level.medium");
  if (level === "hard") return t("newgame.level.hard");
  return labelOf(level);
}

/** What is wrong with the option `values` of catalog `entry` (in words), or null. */
export function validate(entry, values) {
  for (const opt of entry.options || []) {
    const v = values[opt.name];
    if (opt.type === "int" && !opt.choices) {
      const label = labelOf(opt.name);
      if (v === "" || !Number.isInteger(v)) return t("newgame.option.whole", { label });
      if (opt.min !== undefined && v < opt.min) return t("newgame.option.min", { label, min: String(opt.min) });
      if (opt.max !== undefined && v > opt.max) return t("newgame.option.max", { label, max: String(opt.max) });
    }
  }
  return null;
}

/** The form's time control: no clock (the default), one of the presets the catalog offers (`entry.clocks`:
 * [minutes, increment] pairs), or a custom one. `value()`: null or {minutes, increment}; `problem()`: what is wrong
 * with a custom entry, in words, or null (the server checks it again). */
export function clockField(entry) {
  const presets = entry.clocks || [];
  // the bounds of a custom clock, as the server states them (`entry.clock_limits`)
  const [minLow, minHigh] = entry.clock_limits?.minutes || [0, Infinity];
  const [incLow, incHigh] = entry.clock_limits?.increment || [0, Infinity];
  let chosen = null; // null: no clock; [m, i]; or "custom"
  const minutes = h("input", { id: "clock-minutes", type: "number", inputmode: "decimal", min: String(minLow), max: String(minHigh),
    step: "any", value: "5", "data-testid": "clock-minutes" });
  const increment = h("input", { id: "clock-increment", type: "number", inputmode: "numeric", min: String(incLow), max: String(incHigh),
    step: "1", value: "0", "data-testid": "clock-increment" });
  const custom = h("div", { class: "clock-custom", hidden: true },
    h("div", { class: "field" }, h("label", { for: "clock-minutes" }, t("newgame.clock.minutes")), minutes),
    h("div", { class: "field" }, h("label", { for: "clock-increment" }, t("newgame.clock.increment")), increment));
  const chips = h("div", { class: "presets clock-presets", role: "group", "aria-label": t("newgame.clock.control") });
  const choose = (choice) => {
    chosen = choice;
    for (const chip of chips.children) chip.setAttribute("aria-pressed", String(chip._choice === choice));
    custom.hidden = choice !== "custom";
  };
  const chip = (label, choice, testid) => {
    const button = h("button", { type: "button", class: "chip", "data-testid": testid, "aria-pressed": "false",
      onclick: () => choose(choice) }, label);
    button._choice = choice;
    return button;
  };
  chips.append(chip(t("newgame.clock.none"), null, "clock-none"));
  for (const pair of presets) chips.append(chip(`${pair[0]}+${pair[1]}`, pair, `clock-${pair[0]}+${pair[1]}`));
  chips.append(chip(t("newgame.clock.custom"), "custom", "clock-custom"));
  choose(null);
  const fieldset = presets.length ? h("fieldset", { class: "clock-fieldset" },
    h("legend", {}, t("newgame.clock.legend")),
    h("p", { class: "hint-text" }, t("newgame.clock.help")),
    chips, custom) : null;
  const value = () => {
    if (chosen === null || !presets.length) return null;
    if (chosen === "custom") return { minutes: Number(minutes.value), increment: Number(increment.value) };
    return { minutes: chosen[0], increment: chosen[1] };
  };
  const problem = () => {
    if (chosen !== "custom") return null;
    const m = Number(minutes.value);
    const i = Number(increment.value);
    if (minutes.value === "" || !(m >= minLow && m <= minHigh)) {
      return t("newgame.clock.minutes_problem", { low: minLow, high: minHigh });
    }
    if (increment.value === "" || !Number.isInteger(i) || i < incLow || i > incHigh) {
      return t("newgame.clock.increment_problem", { low: incLow, high: incHigh });
    }
    return null;
  };
  return { fieldset, value, problem };
}

/** One seat of the form: person or computer, and the computer's level (`choice` is updated in place). */
export function seatRow(i, name, choice, levels, changed = () => {}) {
  const kind = h("select", { id: `seat-${i}-kind`, "data-testid": `seat-${i}-kind`, "aria-label": t("newgame.seat.who", { name }) },
    h("option", { value: "human", selected: choice.kind === "human" }, t("newgame.seat.person")),
    h("option", { value: "computer", selected: choice.kind === "computer" }, t("newgame.seat.computer")));
  const level = h("select", {
    id: `seat-${i}-level`, "data-testid": `seat-${i}-level`, "aria-label": t("newgame.seat.level_label", { name }),
    disabled: choice.kind !== "computer",
  }, levels.map((l) => h("option", { value: l, selected: l === choice.level }, levelLabel(l))));
  const row = h("div", { class: `seat-row${choice.kind === "computer" ? " is-computer" : ""}`, "data-seat": i },
    h("span", { class: "seat-label" },
      h("span", { class: "swatch", style: { "--c": seatColour(i) } }),
      h("span", { class: "seat-name" }, name),
      i === 0 ? h("small", {}, t("newgame.seat.moves_first")) : null),
    h("span", { class: "seat-kind-icon", "aria-hidden": "true" }, icon(choice.kind === "computer" ? "cpu" : "user")),
    kind, level);
  kind.addEventListener("change", () => {
    choice.kind = kind.value;
    level.disabled = choice.kind !== "computer";
    row.classList.toggle("is-computer", choice.kind === "computer");
    replace(row.querySelector(".seat-kind-icon"), icon(choice.kind === "computer" ? "cpu" : "user"));
    changed();
  });
  level.addEventListener("change", () => { choice.level = level.value; });
  return row;
}

/** The link to the How to play page of catalog `entry` (after its description), for a game that declares one. */
export function newGameHowto(entry) {
  if (!hasFeature(entry, "howto")) return null;
  return h("a", { href: `#/howto/${encodeURIComponent(entry.name)}`, "data-testid": "howto-link" }, t("newgame.howto"));
}
