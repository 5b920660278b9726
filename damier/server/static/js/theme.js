// Light and dark themes: CSS variables switched by <html data-theme>. The default follows the system
// (prefers-color-scheme); the toggle's choice is kept in localStorage ("damier.theme").
import { t } from "./i18n.js";

const KEY = "damier.theme";
const media = matchMedia("(prefers-color-scheme: dark)");

function stored() {
  try {
    const saved = localStorage.getItem(KEY);
    return saved === "light" || saved === "dark" ? saved : null;
  } catch {
    return null;
  }
}

export function currentTheme() {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

export function setTheme(theme, remember = true) {
  document.documentElement.dataset.theme = theme;
  if (remember) {
    try { localStorage.setItem(KEY, theme); } catch { /* nothing kept */ }
  }
  const button = document.getElementById("theme-toggle");
  if (button) {
    const label = theme === "dark" ? t("theme.switch_to_light") : t("theme.switch_to_dark");
    button.setAttribute("aria-label", label);
    button.title = label;
    button.setAttribute("aria-pressed", String(theme === "dark"));
  }
}

export function initTheme() {
  setTheme(stored() || (media.matches ? "dark" : "light"), false);
  media.addEventListener("change", (e) => {
    if (!stored()) setTheme(e.matches ? "dark" : "light", false);
  });
  document.getElementById("theme-toggle")?.addEventListener("click", () => {
    setTheme(currentTheme() === "dark" ? "light" : "dark");
  });
}
