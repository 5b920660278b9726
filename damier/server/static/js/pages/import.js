// #/import : paste a game record (JSON) or choose its file, POST /api/records, then watch it in the replay viewer.
import { h, icon } from "../dom.js";
import { api } from "../api.js";
import { navigate } from "../router.js";
import { showError } from "../messages.js";
import { t } from "../i18n.js";

const MAX_BYTES = 64 * 1024; // the server's body limit

export function mount(root) {
  const text = h("textarea", {
    id: "record-text", class: "record-text", rows: 12, spellcheck: "false", "data-testid": "import-text",
    placeholder: '{"format": "damier.record", "game": "…", "options": {…}, "moves": ["…", …], …}',
  });
  const file = h("input", { type: "file", id: "record-file", accept: ".json,application/json", "data-testid": "import-file", class: "visually-hidden" });
  const fileName = h("span", { class: "muted small" }, t("import.no_file"));
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const submit = h("button", { type: "submit", class: "btn primary big", "data-testid": "import-submit" }, icon("film"), t("import.submit"));

  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    fileName.textContent = f.name;
    if (f.size > MAX_BYTES) {
      fail(t("import.too_big", { name: f.name, size: String(Math.round(f.size / 1024)) }));
      return;
    }
    text.value = await f.text();
    error.hidden = true;
  });

  // the help's words before and after the command (an element, put in their place)
  const help = t("import.record_help", { command: "\u0000" }).split("\u0000");
  const form = h("form", { class: "panel form" },
    h("div", { class: "field" },
      h("label", { for: "record-text" }, t("import.record")),
      text,
      h("small", { class: "field-help" }, help[0], h("code", {}, "damier play --save"), help[1])),
    h("div", { class: "file-row" },
      h("label", { for: "record-file", class: "btn" }, icon("upload"), t("import.choose_file")),
      fileName),
    error,
    h("div", { class: "form-actions" }, h("a", { class: "btn ghost", href: "#/" }, t("import.cancel")), submit));

  function fail(message) {
    error.textContent = message;
    error.hidden = false;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const raw = text.value.trim();
    if (!raw) return fail(t("import.empty"));
    let record;
    try {
      record = JSON.parse(raw);
    } catch (err) {
      return fail(t("import.not_json", { error: err.message }));
    }
    if (!record || typeof record !== "object" || Array.isArray(record)) return fail(t("import.not_object"));
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
    h("a", { class: "back", href: "#/" }, icon("prev"), t("import.games")),
    h("h1", {}, t("import.title")),
    h("p", { class: "lead" }, t("import.lead")),
    form, file));
}
