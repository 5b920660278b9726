// #/me/<code> : a one-time link made on another device ("Play them on another device"): this browser takes that
// identity (POST /api/me/take sets its cookie), and so lists the same games; the link then works no more.
import { h, replace } from "../dom.js";
import { api } from "../api.js";
import { t } from "../i18n.js";

export async function mount(root, { params }) {
  const box = h("div", { class: "panel empty-state", "data-testid": "take-link" }, h("p", {}, t("me.taking")));
  root.append(h("div", { class: "page narrow" }, box));
  try {
    const taken = await api.takeLink(params.code);
    const count = taken.games + taken.races;
    replace(box,
      h("h1", {}, t("me.title")),
      h("p", {}, count ? t("me.taken", { count }) : t("me.taken_none")),
      h("a", { class: "btn primary", href: "#/", "data-testid": "take-done" }, t("me.see_yours")));
  } catch (err) {
    replace(box,
      h("h1", {}, t("me.error")),
      h("p", { "data-testid": "take-error" }, err.message),
      h("a", { class: "btn", href: "#/" }, t("home.see_games")));
  }
}
