// Entry point: the page's words, theme, routes, start.
import { language, languages, localize, setLanguage, t } from "./i18n.js";
import { startRouter } from "./router.js";
import { initTheme } from "./theme.js";
import { initSoundToggle } from "./sounds.js";
import * as home from "./pages/home.js";
import * as newgame from "./pages/newgame.js";
import * as game from "./pages/game.js";
import * as replay from "./pages/replay.js";
import * as importPage from "./pages/import.js";
import * as editor from "./pages/editor.js";
import * as race from "./pages/race.js";
import * as howto from "./pages/howto.js";
import * as analysis from "./pages/analysis.js";
import * as me from "./pages/me.js";
import * as notFound from "./pages/notfound.js";

localize();
initTheme();
initSoundToggle();
initLanguagePicker();

/** The header's language picker: each language in its own words, the page's selected; a choice reloads the page. */
function initLanguagePicker() {
  const picker = document.getElementById("lang-picker");
  if (!picker) return;
  picker.replaceChildren(...Object.entries(languages()).map(([code, name]) => new Option(name, code)));
  picker.value = language();
  const code = document.getElementById("lang-code");
  if (code) code.textContent = language();
  picker.addEventListener("change", () => setLanguage(picker.value));
}

document.querySelector("[data-skip]")?.addEventListener("click", (e) => {
  e.preventDefault();
  document.getElementById("main")?.focus();
});

startRouter(document.getElementById("main"), [
  { pattern: "/", page: home, title: t("route.games"), nav: "home" },
  { pattern: "/new/:game", page: newgame, title: t("route.new_game"), nav: "home" },
  { pattern: "/game/:id", page: game, title: t("route.game") },
  { pattern: "/replay/:id", page: replay, title: t("route.replay") },
  { pattern: "/race/:id", page: race, title: t("route.race") },
  { pattern: "/editor/:game", page: editor, title: t("route.editor"), nav: "home" },
  { pattern: "/howto/:game", page: howto, title: t("route.howto"), nav: "home" },
  { pattern: "/analysis/:game", page: analysis, title: t("route.analysis") },
  { pattern: "/import", page: importPage, title: t("route.import"), nav: "import" },
  { pattern: "/me/:code", page: me, title: t("route.me") },
  { pattern: "*", page: notFound, title: t("route.not_found") },
]);
