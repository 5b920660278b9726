// Entry point: theme, routes, start.
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

initTheme();
initSoundToggle();

document.querySelector("[data-skip]")?.addEventListener("click", (e) => {
  e.preventDefault();
  document.getElementById("main")?.focus();
});

startRouter(document.getElementById("main"), [
  { pattern: "/", page: home, title: "Games", nav: "home" },
  { pattern: "/new/:game", page: newgame, title: "New game", nav: "home" },
  { pattern: "/game/:id", page: game, title: "Game" },
  { pattern: "/replay/:id", page: replay, title: "Replay" },
  { pattern: "/race/:id", page: race, title: "Race" },
  { pattern: "/editor/:game", page: editor, title: "Set up a position", nav: "home" },
  { pattern: "/howto/:game", page: howto, title: "How to play", nav: "home" },
  { pattern: "/analysis/:game", page: analysis, title: "Analysis" },
  { pattern: "/import", page: importPage, title: "Import a record", nav: "import" },
  { pattern: "/me/:code", page: me, title: "Your games" },
  { pattern: "*", page: notFound, title: "Not found" },
]);
