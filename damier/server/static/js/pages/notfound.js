import { h } from "../dom.js";
import { t } from "../i18n.js";

export function mount(root) {
  root.append(h("div", { class: "page narrow" },
    h("div", { class: "panel empty-state" },
      h("h1", {}, t("notfound.title")),
      h("p", {}, t("notfound.text")),
      h("a", { class: "btn primary", href: "#/" }, t("home.see_games")))));
}
