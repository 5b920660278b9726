// #/import : paste a game record (JSON) or choose its file, POST /api/records, then watch it in the replay viewer.
import { h, icon } from "../dom.js";
import { api } from "../api.js";
import { navigate } from "../router.js";
import { showError } from "../messages.js";

const MAX_BYTES = 64 * 1024; // the server's body limit

export function mount(root) {
  const text = h("textarea", {
    id: "record-text", class: "record-text", rows: 12, spellcheck: "false", "data-testid": "import-text",
    placeholder: '{"format": "damier.record", "game": "…", "options": {…}, "moves": ["…", …], …}',
  });
  const file = h("input", { type: "file", id: "record-file", accept: ".json,application/json", "data-testid": "import-file", class: "visually-hidden" });
  const fileName = h("span", { class: "muted small" }, "no file chosen");
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const submit = h("button", { type: "submit", class: "btn primary big", "data-testid": "import-submit" }, icon("film"), "Open the replay");

  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    fileName.textContent = f.name;
    if (f.size > MAX_BYTES) {
      fail(`${f.name} is ${Math.round(f.size / 1024)} KiB; a record is at most 64 KiB.`);
      return;
    }
    text.value = await f.text();
    error.hidden = true;
  });

  const form = h("form", { class: "panel form" },
    h("div", { class: "field" },
      h("label", { for: "record-text" }, "Record"),
      text,
      h("small", { class: "field-help" }, "A record saved by damier: “Download record” on a game page, or ",
        h("code", {}, "damier play --save"), " on the command line.")),
    h("div", { class: "file-row" },
      h("label", { for: "record-file", class: "btn" }, icon("upload"), "Choose a file…"),
      fileName),
    error,
    h("div", { class: "form-actions" }, h("a", { class: "btn ghost", href: "#/" }, "Cancel"), submit));

  function fail(message) {
    error.textContent = message;
    error.hidden = false;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const raw = text.value.trim();
    if (!raw) return fail("Paste a record or choose its file.");
    let record;
    try {
      record = JSON.parse(raw);
    } catch (err) {
      return fail(`This is not JSON: ${err.message}`);
    }
    if (!record || typeof record !== "object" || Array.isArray(record)) return fail("A record is a JSON object.");
    error.hidden = true;
    submit.disabled = true;
    try {
      const answer = await api.importRecord(record);
      navigate(`/replay/${encodeURIComponent(answer.id)}`);
    } catch (err) {
      fail(err.message);
      showError(err);
      submit.disabled = false;
    }
  });

  root.append(h("div", { class: "page narrow import-page" },
    h("a", { class: "back", href: "#/" }, icon("prev"), "Games"),
    h("h1", {}, "Import a record"),
    h("p", { class: "lead" }, "Paste a game record or choose its file: the game is checked move by move and opens in the replay viewer."),
    form, file));
}
