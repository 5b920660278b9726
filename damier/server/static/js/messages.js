// The non-blocking message area (bottom of the page, aria-live): server errors and short notices.
import { h, icon } from "./dom.js";
import { t } from "./i18n.js";

function area() {
  return document.querySelector(".messages");
}

/** Show `text`; kind is "error", "info" or "success"; `links`, [{text, href}] shown under it (the games a refusal
 * names, say). Returns a function that removes the message. */
export function showMessage(text, kind = "error", timeout = kind === "error" ? 7000 : 3500, links = []) {
  const box = area();
  if (!box) return () => {};
  // the same text twice in a row: refresh the first rather than stacking copies
  for (const old of box.children) if (old.dataset.text === text) old.remove();
  const close = () => { item.classList.add("leaving"); setTimeout(() => item.remove(), 200); };
  const item = h("div", { class: `message ${kind}`, role: kind === "error" ? "alert" : "status", "data-text": text },
    h("span", { class: "message-text" }, text,
      links.length ? h("span", { class: "message-links" }, links.map((link) =>
        h("a", { href: link.href, "data-testid": "message-link", onclick: close }, link.text))) : null),
    h("button", { type: "button", class: "message-close", "aria-label": t("common.dismiss"), onclick: close },
      icon("x")));
  box.append(item);
  while (box.children.length > 4) box.firstElementChild.remove();
  if (timeout) setTimeout(close, timeout);
  return close;
}

/** Show an error (an ApiError or anything thrown) as a message. */
export function showError(err) {
  const text = err && err.message ? err.message : String(err);
  // a refusal that names games (the limit of games against the computer): a link to each, to resume or end it
  const games = Array.isArray(err?.body?.games) ? err.body.games : [];
  const links = games.map((g) => ({ text: `${g.title} ${g.id}`, href: `#/game/${encodeURIComponent(g.id)}` }));
  showMessage(text, "error", links.length ? 15000 : 7000, links);
}
