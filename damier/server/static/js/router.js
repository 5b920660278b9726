// A hash router: "#/game/abc?seat=1" -> {path: "/game/abc", params: {id: "abc"}, query: URLSearchParams}.
// Each page module exports mount(root, {params, query}) returning an optional cleanup function (or a promise
// of one); the router calls it before mounting the next page.

let routes = [];
let root = null;
let cleanup = null;
let mountToken = 0;
let lastPath = null;

export function parseHash(hash = location.hash) {
  const raw = hash.replace(/^#/, "") || "/";
  const [path, search = ""] = raw.split("?");
  return { path: path || "/", query: new URLSearchParams(search) };
}

/** routes: [{pattern: "/game/:id", page: module, title: "..."}] */
export function startRouter(element, table) {
  root = element;
  routes = table.map((r) => ({ ...r, regex: compile(r.pattern), keys: keys(r.pattern) }));
  addEventListener("hashchange", render);
  render();
}

export function navigate(path, { replace = false } = {}) {
  const hash = `#${path}`;
  if (replace) {
    history.replaceState(null, "", hash);
    render();
  } else if (location.hash === hash) {
    render();
  } else {
    location.hash = hash;
  }
}

/** Change the address bar without remounting the page (e.g. dropping a token from the URL). */
export function replaceAddress(path) {
  history.replaceState(null, "", `#${path}`);
}

function compile(pattern) {
  if (pattern === "*") return /(?!)/; // the fallback route, chosen when nothing else matches
  const body = pattern.replace(/\//g, "\\/").replace(/:(\w+)/g, "([^/]+)");
  return new RegExp(`^${body}\\/?$`);
}

function keys(pattern) {
  return [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]);
}

async function render() {
  const { path, query } = parseHash();
  const token = ++mountToken;
  if (cleanup) {
    try { cleanup(); } catch (err) { console.error(err); }
    cleanup = null;
  }
  let match = null;
  let params = {};
  for (const route of routes) {
    const m = path.match(route.regex);
    if (m) {
      match = route;
      route.keys.forEach((k, i) => { params[k] = decodeURIComponent(m[i + 1]); });
      break;
    }
  }
  root.replaceChildren();
  if (path !== lastPath) window.scrollTo(0, 0); // a new page starts at its top (hash changes keep the scroll)
  lastPath = path;
  document.querySelectorAll("[data-nav]").forEach((a) => {
    a.classList.toggle("active", match !== null && a.dataset.nav === match.nav);
  });
  if (!match) {
    match = routes.find((r) => r.pattern === "*");
    params = {};
  }
  document.title = match.title ? `${match.title} · damier` : "damier";
  const result = await match.page.mount(root, { params, query, path });
  if (token !== mountToken) {
    // the user navigated away while this page was loading
    if (typeof result === "function") result();
    return;
  }
  cleanup = typeof result === "function" ? result : null;
}
