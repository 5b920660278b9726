// #/new/<game> for a puzzle (a one-player game): a new puzzle by the game's options (the difficulty first: the
// description's presets and its `difficulty` option), the puzzle of the day (GET /api/puzzles/<game>/daily), a
// puzzle by its id; then POST /api/puzzles and on to the game page. A game that declares a race also offers a race
// room (POST /api/races): you are its host, and the race page has the link to send.
import { h, icon, replace } from "../dom.js";
import { api, raceSeats } from "../api.js";
import { navigate } from "../router.js";
import { showError } from "../messages.js";
import { hasFeature, optionDefaults, startPuzzle } from "../session.js";
import { newGameHowto, optionField, presetButton, validate } from "./newgame.js";

const PREVIEW_DELAY_MS = 150;

export function buildPuzzlePage(page, entry, mod) {
  const values = optionDefaults(entry);
  const inputs = {};
  const difficulty = mod.client?.difficulty || null; // the option that picks a puzzle's optimal length
  const options = entry.options || [];
  const first = options.filter((o) => o.name === difficulty);
  const fields = [...first, ...options.filter((o) => o.name !== difficulty)]
    .map((opt) => optionField(opt, values, inputs, () => refresh()));

  const presetBox = h("div", { class: "presets", role: "group", "aria-label": "Difficulty" },
    mod.presets.map((preset) => presetButton(preset, values, inputs, refresh)));

  const preview = h("div", { class: "preview-board" });
  const previewText = h("p", { class: "preview-text" });
  const formError = h("p", { class: "form-error", role: "alert", hidden: true });
  const submit = h("button", { type: "submit", class: "btn primary big", "data-testid": "new-game-submit" }, icon("play"), "New puzzle");
  const form = h("form", { class: "panel form", novalidate: true },
    h("div", { class: "form-grid" },
      h("div", { class: "form-main" },
        h("fieldset", {},
          h("legend", {}, "A new puzzle"),
          h("p", { class: "hint-text" }, "Pick how many moves its shortest solution takes, or any length; the puzzle is drawn at random."),
          mod.presets.length ? presetBox : null,
          h("div", { class: "option-fields" }, fields))),
      h("aside", { class: "form-preview", "aria-label": "An example" }, preview, previewText)),
    formError,
    h("div", { class: "form-actions" }, h("a", { class: "btn ghost", href: "#/" }, "Cancel"), submit));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const problem = validate(entry, values);
    formError.hidden = !problem;
    formError.textContent = problem || "";
    if (problem) return;
    await busy(submit, () => startPuzzle(entry, { options: { ...values } }), (err) => {
      formError.hidden = false;
      formError.textContent = err.message;
    });
  });

  const daily = dailyPanel(entry, mod);
  const byId = idPanel(entry, mod, values);
  const race = hasFeature(entry, "race") ? racePanel(entry, mod, values) : null;

  page.append(
    h("a", { class: "back", href: "#/" }, icon("prev"), "Games"),
    h("h1", {}, `New puzzle: ${entry.title}`),
    h("p", { class: "lead" }, entry.description, " ", newGameHowto(entry)),
    form,
    h("div", { class: "puzzle-choices" }, daily, byId),
    race);

  let previewSeq = 0;
  let previewTimer = null;
  function refresh() {
    presetBox.querySelectorAll(".chip").forEach((b) => {
      const on = Object.entries(b._preset.options).every(([k, v]) => String(values[k]) === String(v));
      b.setAttribute("aria-pressed", String(on));
    });
    if (validate(entry, values) !== null) return;
    clearTimeout(previewTimer);
    const seq = ++previewSeq;
    const chosen = { ...values };
    previewTimer = setTimeout(async () => {
      try {
        const start = await api.position(entry.name, chosen);
        if (seq !== previewSeq) return;
        mod.render(preview, start.board, { compact: true, label: `An example puzzle: ${mod.describeOptions(chosen)}` });
        previewText.textContent = `An example: ${mod.describeOptions(chosen)}`;
      } catch (err) {
        if (seq === previewSeq) previewText.textContent = err.message;
      }
    }, PREVIEW_DELAY_MS);
  }
  refresh();
}

/** Run `work` with `button` disabled (and saying so); `failed(err)` after the message. */
async function busy(button, work, failed) {
  const label = [...button.childNodes];
  button.disabled = true;
  button.textContent = "Starting…";
  try {
    await work();
  } catch (err) {
    showError(err);
    failed?.(err);
    button.disabled = false;
    replace(button, label);
  }
}

function dailyPanel(entry, mod) {
  const picture = h("div", { class: "preview-board daily-board" });
  const text = h("p", { class: "muted small", "data-testid": "daily-date" }, "Loading…");
  const play = h("button", { type: "button", class: "btn primary", "data-testid": "daily-play", disabled: true },
    icon("play"), "Play today's puzzle");
  play.addEventListener("click", () => busy(play, () => startPuzzle(entry, { daily: true })));
  api.daily(entry.name).then((day) => {
    mod.render(picture, day.board, { compact: true, label: `The puzzle of ${day.date}` });
    const id = mod.puzzleId?.(day.board) || day.position;
    replace(text, `${day.date} (UTC) · the same puzzle for everyone today`, id ? h("code", { class: "daily-id" }, id) : null);
    play.disabled = false;
  }).catch((err) => { text.textContent = `No puzzle of the day: ${err.message}`; });
  return h("section", { class: "panel puzzle-choice", "aria-labelledby": "daily-title" },
    h("h2", { id: "daily-title" }, "Puzzle of the day"),
    h("div", { class: "choice-body" }, picture, h("div", {}, text, play)));
}

function idPanel(entry, mod, values) {
  const input = h("input", {
    type: "text", id: "puzzle-id-input", "data-testid": "puzzle-id-input", spellcheck: "false", autocomplete: "off",
    placeholder: "a puzzle id", "aria-describedby": "puzzle-id-check",
  });
  const check = h("p", { class: "muted small", id: "puzzle-id-check", "data-testid": "puzzle-id-check" },
    "Paste the id a friend shared (the game page shows each puzzle's).");
  const picture = h("div", { class: "preview-board id-board", hidden: true });
  // "Play it" only for an id the server has read as a puzzle: disabled while an id is checked or not one
  const play = h("button", { type: "submit", class: "btn", "data-testid": "puzzle-id-play", disabled: true }, icon("play"), "Play it");
  let seq = 0;
  let timer = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    const text = input.value.trim();
    const mine = ++seq;
    play.disabled = true;
    delete check.dataset.valid;
    if (!text) {
      picture.hidden = true;
      check.textContent = "Paste the id a friend shared (the game page shows each puzzle's).";
      return;
    }
    check.textContent = "Checking the id…";
    timer = setTimeout(async () => {
      try {
        const found = await api.position(entry.name, { ...values }, text);
        if (mine !== seq) return;
        mod.render(picture, found.board, { compact: true, label: "The puzzle of this id" });
        picture.hidden = false;
        check.textContent = "A puzzle: play it.";
        check.dataset.valid = "true";
        play.disabled = false;
      } catch (err) {
        if (mine !== seq) return;
        picture.hidden = true;
        check.textContent = err.message;
        check.dataset.valid = "false";
      }
    }, PREVIEW_DELAY_MS);
  });
  const form = h("form", { class: "id-form", novalidate: true },
    h("label", { for: "puzzle-id-input" }, "Puzzle id"),
    h("div", { class: "link-row" }, input, play), check);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text && !play.disabled) busy(play, () => startPuzzle(entry, { options: { ...values }, puzzle: text }));
  });
  return h("section", { class: "panel puzzle-choice", "aria-labelledby": "id-title" },
    h("h2", { id: "id-title" }, "A puzzle by its id"),
    h("div", { class: "choice-body stack" }, form, picture));
}

/** The race room's timers offered on the form (seconds; the room's settings, docs/server.md): the bids' only in a
 * race of bids. */
const RACE_TIMERS = [
  { key: "round_seconds", label: "Round", help: "seconds to find a path" },
  { key: "bid_seconds", label: "Bidding", help: "seconds from the first bid", bids: true },
  { key: "demo_seconds", label: "Demonstration", help: "seconds to show it" },
];

function racePanel(entry, mod, values) {
  const race = mod.client?.race || {};
  const rules = race.words || [];
  const timers = RACE_TIMERS.filter((t) => Number.isInteger(race[t.key]) && (!t.bids || race.claim === "at_most"));
  const settingInputs = {};
  const settingsBox = timers.length ? h("fieldset", { class: "race-settings" },
    h("legend", {}, "Timers (seconds)"),
    timers.map((t) => {
      const input = h("input", {
        type: "number", min: "5", max: t.key === "round_seconds" ? "3600" : "600", step: "1", value: String(race[t.key]),
        id: `race-setting-${t.key}`, "data-testid": `race-setting-${t.key}`, title: t.help,
      });
      settingInputs[t.key] = input;
      return h("label", { for: `race-setting-${t.key}` }, t.label, input);
    })) : null;
  const name = h("input", {
    type: "text", id: "race-name", "data-testid": "race-name", maxlength: "24", autocomplete: "nickname",
    placeholder: "your name",
  });
  const create = h("button", { type: "submit", class: "btn primary", "data-testid": "race-create" }, icon("user"), "Create a race room");
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const form = h("form", { class: "race-form", novalidate: true },
    h("label", { for: "race-name" }, "Your name"),
    h("div", { class: "link-row" }, name, create), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const who = name.value.trim();
    error.hidden = !!who;
    error.textContent = who ? "" : "Enter your name: the others see it.";
    if (!who) return;
    const problem = validate(entry, values);
    if (problem) {
      error.hidden = false;
      error.textContent = problem;
      return;
    }
    const settings = {};
    for (const [key, input] of Object.entries(settingInputs)) {
      const n = Number(input.value);
      if (!Number.isInteger(n) || n < Number(input.min) || n > Number(input.max)) {
        error.hidden = false;
        error.textContent = `The ${key.replace("_seconds", "")} timer is a whole number of seconds from ${input.min} to ${input.max}.`;
        return;
      }
      if (n !== race[key]) settings[key] = n;
    }
    await busy(create, async () => {
      const made = await api.createRace(entry.name, { ...values }, who, settings);
      raceSeats.set(made.id, made.seat, made.token, who);
      navigate(`/race/${encodeURIComponent(made.id)}`);
    });
  });
  return h("section", { class: "panel race-choice", "aria-labelledby": "race-title" },
    h("h2", { id: "race-title" }, "Race with friends"),
    h("p", { class: "muted" }, "Everyone plays the same puzzles, round after round, with the options above. "
      + "Create the room, send its link, and start when everyone is in."),
    rules.length ? h("ul", { class: "race-rules" }, rules.map((line) => h("li", {}, line))) : null,
    settingsBox,
    form);
}
