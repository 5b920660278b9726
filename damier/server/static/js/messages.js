// The non-blocking message area (bottom of the page, aria-live): server errors and short notices.
import { h, icon } from "./dom.js";

function area() {
  return document.querySelector(".messages");
}

/** Show `text`; kind is "error", "info" or "success". Returns a function that removes the message. */
export function showMessage(text, kind = "error", timeout = kind === "error" ? 7000 : 3500) {
  const box = area();
  if (!box) return () => {};
  // the same text twice in a row: refresh the first rather than stacking copies
  for (const old of box.children) if (old.dataset.text === text) old.remove();
  const close = () => { item.classList.add("leaving"); setTimeout(() => item.remove(), 200); };
  const item = h("div", { class: `message ${kind}`, role: kind === "error" ? "alert" : "status", "data-text": text },
    h("span", { class: "message-text" }, text),
    h("button", { type: "button", class: "message-close", "aria-label": "Dismiss", onclick: close }, icon("x")));
  box.append(item);
  while (box.children.length > 4) box.firstElementChild.remove();
  if (timeout) setTimeout(close, timeout);
  return close;
}

/** Show an error (an ApiError or anything thrown) as a message. */
export function showError(err) {
  const text = err && err.message ? err.message : String(err);
  showMessage(text, "error");
}
