// The evaluation bar beside the analysis board: the winning chance of the position shown, as the engine's deepest
// line reads it (a finished position: its result). With two players the first seat's share fills it from the
// bottom in its colour, the other's the rest; with more, the side to move's chance against its strongest rival.
import { h } from "../../dom.js";
import { seatColour } from "../../players.js";
import { percent } from "./scores.js";
import { t } from "../../i18n.js";

export function createBar() {
  const fill = h("span", { class: "eval-bar-fill" });
  const label = h("span", { class: "eval-bar-label" });
  const el = h("div", {
    class: "eval-bar", "data-testid": "eval-bar", role: "meter", "aria-valuemin": "0", "aria-valuemax": "100",
    "aria-label": t("analysis.bar.label"), "data-state": "waiting",
  }, fill, label);
  return { el, fill, label };
}

/** Show `drawn` ({seat, chance} or null: not known yet) on `bar`; `names` are the seats' names. */
export function showBar(bar, drawn, names) {
  const two = names.length === 2;
  if (!drawn) {
    bar.el.dataset.state = "waiting";
    bar.el.removeAttribute("aria-valuenow");
    bar.el.removeAttribute("aria-valuetext");
    delete bar.el.dataset.chance;
    bar.el.title = t("analysis.bar.waiting");
    bar.fill.style.setProperty("--share", "50%");
    bar.label.textContent = "";
    return;
  }
  const { seat, chance } = drawn;
  const share = Math.max(0, Math.min(1, chance));
  bar.el.dataset.state = "shown";
  bar.el.dataset.seat = String(seat);
  bar.el.dataset.chance = share.toFixed(4);
  bar.el.style.setProperty("--c-low", seatColour(seat));
  bar.el.style.setProperty("--c-high", two ? seatColour(1 - seat) : "var(--surface-2)");
  bar.fill.style.setProperty("--share", `${(share * 100).toFixed(1)}%`);
  const ahead = !two || share >= 0.5 ? seat : 1 - seat;
  const shown = ahead === seat ? share : 1 - share;
  const words = two ? t("analysis.score.named", { name: names[ahead], score: percent(shown) })
    : t("analysis.bar.against", { name: names[seat], score: percent(share) });
  bar.el.setAttribute("aria-valuenow", String(Math.round(share * 100)));
  bar.el.setAttribute("aria-valuetext", words);
  bar.el.title = t("analysis.bar.title", { words });
  bar.label.textContent = String(Math.round(shown * 100));
  bar.label.dataset.end = ahead === seat ? "low" : "high";
}
