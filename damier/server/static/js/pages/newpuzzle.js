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
import { t } from "../i18n.js";

const PREVIEW_DELAY_MS = 150;

export function buildPuzzlePage(page, entry, mod) {
  const values = optionDefaults(entry);
  const inputs = {};
  const difficulty = mod.client?.difficulty || null; // the option that picks a puzzle's optimal length
  const options = entry.options || [];
  const first = options.filter((o) => o.name === difficulty);
  const fields = [...first, ...options.filter((o) => o.name !== difficulty)]
    .map((opt) => optionField(opt, values, inputs, () => refresh()));

  const presetBox = h("div", { class: "presets", role: "group", "aria-label": t("newpuzzle.difficulty") },
    mod.presets.map((preset) => presetButton(preset, values, inputs, refresh)));

  const preview = h("div", { class: "preview-board" });
  const previewText = h("p", { class: "preview-text" });
  const formError = h("p", { class: "form-error", role: "alert", hidden: true });
  const submit = h("button", { type: "submit", class: "btn primary big", "data-testid": "new-game-submit" }, icon("play"), t("newpuzzle.new_puzzle"));
  const form = h("form", { class: "panel form", novalidate: true },
    h("div", { class: "form-grid" },
      h("div", { class: "form-main" },
        h("fieldset", {},
          h("legend", {}, t("newpuzzle.legend")),
          h("p", { class: "hint-text" }, t("newpuzzle.help")),
          mod.presets.length ? presetBox : null,
          h("div", { class: "option-fields" }, fields))),
      h("aside", { class: "form-preview", "aria-label": t("newpuzzle.example") }, preview, previewText)),
    formError,
    h("div", { class: "form-actions" }, h("a", { class: "btn ghost", href: "#/" }, t("newgame.cancel")), submit));
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
    h("a", { class: "back", href: "#/" }, icon("prev"), t("newgame.back")),
    h("h1", {}, t("newpuzzle.heading", { title: entry.title })),
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
        const words = mod.describeOptions(chosen);
        mod.render(preview, start.board, { compact: true, label: t("newpuzzle.example_label", { options: words }) });
        previewText.textContent = t("newpuzzle.example_text", { options: words });
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
  button.textContent = t("newgame.starting");
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
  const text = h("p", { class: "muted small", "data-testid": "daily-date" }, t("newpuzzle.loading"));
  const play = h("button", { type: "button", class: "btn primary", "data-testid": "daily-play", disabled: true },
    icon("play"), t("newpuzzle.daily.play"));
  play.addEventListener("click", () => busy(play, () => startPuzzle(entry, { daily: true })));
  api.daily(entry.name).then((day) => {
    mod.render(picture, day.board, { compact: true, label: t("newpuzzle.daily.label", { date: day.date }) });
    const id = mod.puzzleId?.(day.board) || day.position;
    replace(text, t("newpuzzle.daily.date", { date: day.date }), id ? h("code", { class: "daily-id" }, id) : null);
    play.disabled = false;
  }).catch((err) => { text.textContent = t("newpuzzle.daily.none", { error: err.message }); });
  return h("section", { class: "panel puzzle-choice", "aria-labelledby": "daily-title" },
    h("h2", { id: "daily-title" }, t("newpuzzle.daily.title")),
    h("div", { class: "choice-body" }, picture, h("div", {}, text, play)));
}

function idPanel(entry, mod, values) {
  const input = h("input", {
    type: "text", id: "puzzle-id-input", "data-testid": "puzzle-id-input", spellcheck: "false", autocomplete: "off",
    placeholder: t("newpuzzle.id.placeholder"), "aria-describedby": "puzzle-id-check",
  });
  const check = h("p", { class: "muted small", id: "puzzle-id-check", "data-testid": "puzzle-id-check" },
    t("newpuzzle.id.help"));
  const picture = h("div", { class: "preview-board id-board", hidden: true });
  // "Play it" only for an id the server has read as a puzzle: disabled while an id is checked or not one
  const play = h("button", { type: "submit", class: "btn", "data-testid": "puzzle-id-play", disabled: true }, icon("play"), t("newpuzzle.id.play"));
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
      check.textContent = t("newpuzzle.id.help");
      return;
    }
    check.textContent = t("newpuzzle.id.checking");
    timer = setTimeout(async () => {
      try {
        const found = await api.position(entry.name, { ...values }, text);
        if (mine !== seq) return;
        mod.render(picture, found.board, { compact: true, label: t("newpuzzle.id.board_label") });
        picture.hidden = false;
        check.textContent = t("newpuzzle.id.valid");
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
    h("label", { for: "puzzle-id-input" }, t("newpuzzle.id.label")),
    h("div", { class: "link-row" }, input, play), check);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text && !play.disabled) busy(play, () => startPuzzle(entry, { options: { ...values }, puzzle: text }));
  });
  return h("section", { class: "panel puzzle-choice", "aria-labelledby": "id-title" },
    h("h2", { id: "id-title" }, t("newpuzzle.id.title")),
    h("div", { class: "choice-body stack" }, form, picture));
}

/** The race room's timers offered on the form (seconds; the room's settings, docs/server.md): the bids' only in a
 * race of bids. */
const RACE_TIMERS = [
  { key: "round_seconds", label: t("newpuzzle.race.round"), help: t("newpuzzle.race.round_help") },
  { key: "bid_seconds", label: t("newpuzzle.race.bidding"), help: t("newpuzzle.race.bidding_help"), bids: true },
  { key: "demo_seconds", label: t("newpuzzle.race.demo"), help: t("newpuzzle.race.demo_help") },
];

function racePanel(entry, mod, values) {
  const race = mod.client?.race || {};
  const rules = race.words || [];
  const timers = RACE_TIMERS.filter((timer) => Number.isInteger(race[timer.key])
    && (!timer.bids || race.claim === "at_most"));
  const settingInputs = {};
  const settingsBox = timers.length ? h("fieldset", { class: "race-settings" },
    h("legend", {}, t("newpuzzle.race.timers")),
    timers.map((timer) => {
      const input = h("input", {
        type: "number", min: "5", max: timer.key === "round_seconds" ? "3600" : "600", step: "1",
        value: String(race[timer.key]),
        id: `race-setting-${timer.key}`, "data-testid": `race-setting-${timer.key}`, title: timer.help,
      });
      settingInputs[timer.key] = input;
      return h("label", { for: `race-setting-${timer.key}` }, timer.label, input);
    })) : null;
  const name = h("input", {
    type: "text", id: "race-name", "data-testid": "race-name", maxlength: "24", autocomplete: "nickname",
    placeholder: t("newpuzzle.race.name_placeholder"),
  });
  const create = h("button", { type: "submit", class: "btn primary", "data-testid": "race-create" }, icon("user"), t("newpuzzle.race.create"));
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const form = h("form", { class: "race-form", novalidate: true },
    h("label", { for: "race-name" }, t("newpuzzle.race.name_label")),
    h("div", { class: "link-row" }, name, create), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const who = name.value.trim();
    error.hidden = !!who;
    error.textContent = who ? "" : t("newpuzzle.race.name_missing");
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
        error.textContent = t("newpuzzle.race.timer_problem",
          { timer: key.replace("_seconds", ""), min: input.min, max: input.max });
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
    h("h2", { id: "race-title" }, t("newpuzzle.race.title")),
    h("p", { class: "muted" }, t("newpuzzle.race.intro")),
    rules.length ? h("ul", { class: "race-rules" }, rules.map((line) => h("li", {}, line))) : null,
    settingsBox,
    form);
}
