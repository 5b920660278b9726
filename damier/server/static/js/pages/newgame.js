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

export async function mount(root, { params, query }) {
  const page = h("div", { class: `page narrow new-game game-${params.game}` });
  root.append(page);
  const entry = await loadEntry(page, params.game);
  if (!entry) return;
  const mod = await boardModule(entry);
  if (isPuzzleGame(entry)) {
    document.title = `New puzzle: ${entry.title} · damier`;
    buildPuzzlePage(page, entry, mod);
    return;
  }
  document.title = `New game: ${entry.title} · damier`;
  buildForm(page, entry, mod, query);
}

/** The catalog entry of game ``name``; when it cannot be loaded or there is no such game, ``page`` shows why
 * (with a way back) and the result is null. */
export async function loadEntry(page, name) {
  let entry;
  try {
    entry = await api.catalogEntry(name);
  } catch (err) {
    page.append(h("div", { class: "panel empty-state" }, h("p", {}, err.message), h("a", { class: "btn", href: "#/" }, "Back to the games")));
    return null;
  }
  if (!entry) {
    page.append(h("div", { class: "panel empty-state" },
      h("h1", {}, "Unknown game"), h("p", {}, `There is no game called “${name}”.`),
      h("a", { class: "btn primary", href: "#/" }, "See the games")));
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
    h("label", { for: "casual-hints" }, "Casual game, hints on"), hintsBox,
    h("small", { class: "field-help" }, "Any player may ask the computer for a move; joining the game is agreeing to it."));
  // two people: the game may be offered in the lobby instead, where anyone joins it (lichess's seeks)
  const lobbyBox = h("input", { type: "checkbox", id: "in-lobby", "data-testid": "in-lobby" });
  const lobbyRow = h("div", { class: "field field-check", hidden: true },
    h("label", { for: "in-lobby" }, "Offer it in the lobby"), lobbyBox,
    h("small", { class: "field-help" }, "Anyone on the arcade may join it from the home page (you play the first "
      + "seat); it stays while your home page is open."));
  lobbyBox.addEventListener("change", () => refresh());
  const clock = clockField(entry);
  const seed = entry.seeded_setup ? seedField(query.get("seed"), () => refresh()) : null;
  const presetBox = mod.presets?.length ? h("div", { class: "presets", role: "group", "aria-label": "Board presets" }) : null;
  const submit = h("button", { type: "submit", class: "btn primary big", "data-testid": "new-game-submit" }, "Start game");
  const formError = h("p", { class: "form-error", role: "alert", hidden: true });

  const editorLink = mod.palette ? h("a", { class: "btn", "data-testid": "setup-editor-link" }, icon("plus"), "Set up a position…") : null;
  const optionFields = (entry.options || []).map((opt) => optionField(opt, values, inputs, () => refresh()));
  giveOptions(entry, query, values, inputs);

  if (presetBox) {
    for (const preset of mod.presets) presetBox.append(presetButton(preset, values, inputs, refresh));
  }

  const form = h("form", { class: "panel form", novalidate: true },
    h("div", { class: "form-grid" },
      h("div", { class: "form-main" },
        h("fieldset", {},
          h("legend", {}, "Options"),
          presetBox,
          h("div", { class: "option-fields" }, optionFields, seed?.field)),
        h("fieldset", {},
          h("legend", {}, "Seats"),
          h("p", { class: "hint-text" }, "Each seat is a person or the computer. People play on this device, "
            + "or you send them an invitation link from the game page."),
          seatsBox,
          lobbyRow,
          hintsRow),
        clock.fieldset),
      h("aside", { class: "form-preview", "aria-label": "Preview" }, preview, previewText)),
    formError,
    h("div", { class: "form-actions" },
      h("a", { class: "btn ghost", href: "#/" }, "Cancel"),
      editorLink,
      submit));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const problem = validate(entry, values) || seed?.problem() || clock.problem();
    formError.hidden = !problem;
    formError.textContent = problem || "";
    if (problem) return;
    submit.disabled = true;
    submit.textContent = "Starting…";
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
      submit.textContent = !lobbyRow.hidden && lobbyBox.checked ? "Offer in the lobby" : "Start game";
    }
  });

  page.append(
    h("a", { class: "back", href: "#/" }, icon("prev"), "Games"),
    h("h1", {}, `New game: ${entry.title}`),
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
      submit.textContent = inLobby ? "Offer in the lobby" : "Start game";
    };
    replace(seatsBox, Array.from({ length: n }, (_, i) => seatRow(i, names[i] || `Player ${i + 1}`, seatChoices[i], levels, showHints)));
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
        mod.render(preview, start.board, { compact: true, label: `The start of a ${mod.describeOptions(options)} game` });
        const which = board !== null ? ` · board ${board}` : seed ? " · an example: each game draws a new board" : "";
        previewText.textContent = `${mod.describeOptions(options)}${which}`;
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
    placeholder: "a new board", value: initial || "", "data-testid": "option-seed",
  });
  input.addEventListener("input", () => changed());
  const text = () => input.value.trim();
  const problem = () => {
    const t = text();
    if (!t || (/^\d+$/.test(t) && Number.isSafeInteger(Number(t)))) return null;
    return `Board: a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, or empty for a new board.`;
  };
  const value = () => (text() && !problem() ? Number(text()) : null);
  const field = h("div", { class: "field" },
    h("label", { for: "opt-seed" }, "Board"),
    input,
    h("small", { class: "field-help" }, "Empty: a new board for each game. A board's number (a game page shows it "
      + "beside the options) plays that board again."));
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

/** What is wrong with the option `values` of catalog `entry` (in words), or null. */
export function validate(entry, values) {
  for (const opt of entry.options || []) {
    const v = values[opt.name];
    if (opt.type === "int" && !opt.choices) {
      if (v === "" || !Number.isInteger(v)) return `${labelOf(opt.name)}: enter a whole number.`;
      if (opt.min !== undefined && v < opt.min) return `${labelOf(opt.name)}: at least ${opt.min}.`;
      if (opt.max !== undefined && v > opt.max) return `${labelOf(opt.name)}: at most ${opt.max}.`;
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
    h("div", { class: "field" }, h("label", { for: "clock-minutes" }, "Minutes each"), minutes),
    h("div", { class: "field" }, h("label", { for: "clock-increment" }, "Increment (seconds)"), increment));
  const chips = h("div", { class: "presets clock-presets", role: "group", "aria-label": "Time control" });
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
  chips.append(chip("No clock", null, "clock-none"));
  for (const pair of presets) chips.append(chip(`${pair[0]}+${pair[1]}`, pair, `clock-${pair[0]}+${pair[1]}`));
  chips.append(chip("Custom", "custom", "clock-custom"));
  choose(null);
  const fieldset = presets.length ? h("fieldset", { class: "clock-fieldset" },
    h("legend", {}, "Clock"),
    h("p", { class: "hint-text" }, "Minutes for each player, plus seconds added after each move. "
      + "A player whose time runs out loses."),
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
    if (minutes.value === "" || !(m >= minLow && m <= minHigh)) return `Clock: minutes from ${minLow} to ${minHigh}.`;
    if (increment.value === "" || !Number.isInteger(i) || i < incLow || i > incHigh) return `Clock: an increment of ${incLow} to ${incHigh} whole seconds.`;
    return null;
  };
  return { fieldset, value, problem };
}

/** One seat of the form: person or computer, and the computer's level (`choice` is updated in place). */
export function seatRow(i, name, choice, levels, changed = () => {}) {
  const kind = h("select", { id: `seat-${i}-kind`, "data-testid": `seat-${i}-kind`, "aria-label": `${name}: who plays` },
    h("option", { value: "human", selected: choice.kind === "human" }, "Person"),
    h("option", { value: "computer", selected: choice.kind === "computer" }, "Computer"));
  const level = h("select", {
    id: `seat-${i}-level`, "data-testid": `seat-${i}-level`, "aria-label": `${name}: computer level`,
    disabled: choice.kind !== "computer",
  }, levels.map((l) => h("option", { value: l, selected: l === choice.level }, labelOf(l))));
  const row = h("div", { class: `seat-row${choice.kind === "computer" ? " is-computer" : ""}`, "data-seat": i },
    h("span", { class: "seat-label" },
      h("span", { class: "swatch", style: { "--c": seatColour(i) } }),
      h("span", { class: "seat-name" }, name),
      i === 0 ? h("small", {}, "moves first") : null),
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
  return h("a", { href: `#/howto/${encodeURIComponent(entry.name)}`, "data-testid": "howto-link" }, "How to play");
}
