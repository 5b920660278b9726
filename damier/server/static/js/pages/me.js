// #/me/<code> : a one-time link made on another device ("Play them on another device"): this browser takes that
// identity (POST /api/me/take sets its cookie), and so lists the same games; the link then works no more.
import { h, replace } from "../dom.js";
import { api } from "../api.js";

export async function mount(root, { params }) {
  const box = h("div", { class: "panel empty-state", "data-testid": "take-link" }, h("p", {}, "Taking your games…"));
  root.append(h("div", { class: "page narrow" }, box));
  try {
    const taken = await api.takeLink(params.code);
    const count = taken.games + taken.races;
    replace(box,
      h("h1", {}, "Your games are here"),
      h("p", {}, count ? `This browser now plays your ${count === 1 ? "game" : `${count} games`} under way, as the other device does.`
        : "This browser now plays your games, as the other device does (none is under way now)."),
      h("a", { class: "btn primary", href: "#/", "data-testid": "take-done" }, "See your games"));
  } catch (err) {
    replace(box,
      h("h1", {}, "This link cannot be used"),
      h("p", { "data-testid": "take-error" }, err.message),
      h("a", { class: "btn", href: "#/" }, "See the games"));
  }
}
