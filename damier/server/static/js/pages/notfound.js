import { h } from "../dom.js";

export function mount(root) {
  root.append(h("div", { class: "page narrow" },
    h("div", { class: "panel empty-state" },
      h("h1", {}, "Nothing here"),
      h("p", {}, "This address does not lead to a page of the arcade."),
      h("a", { class: "btn primary", href: "#/" }, "See the games"))));
}
