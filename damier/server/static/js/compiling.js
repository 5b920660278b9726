// The home page's note while a fresh server compiles the games' kernels (docs/server.md, "A fast first start"):
// GET /api/health says how far it is; the note says so, and goes once every game is ready.
import { h, icon } from "./dom.js";
import { api } from "./api.js";
import { t } from "./i18n.js";

const POLL_MS = 2000;

/** A note that shows while the server compiles, updated every POLL_MS until it is done or the note leaves the page. */
export function compilingNote() {
  const text = h("span", {});
  const note = h("p", { class: "compiling-note", role: "status", hidden: true, "data-testid": "compiling-note" },
    icon("cpu"), text);
  let shown = false;
  const look = async () => {
    if (shown && !note.isConnected) return; // the page was left
    let kernels = null;
    try {
      kernels = (await api.health()).kernels;
    } catch {
      kernels = null; // the server cannot be reached: the pages say so themselves
    }
    if (!kernels || kernels.ready) {
      note.hidden = true;
      return;
    }
    text.textContent = t("common.compiling", { done: kernels.done, total: kernels.total });
    note.hidden = false;
    shown = true;
    setTimeout(look, POLL_MS);
  };
  look();
  return note;
}
