// Tiny DOM builders: h() for HTML elements, svg() for SVG elements.
//   h("button", {class: "btn", onclick: f, "data-testid": "x"}, "Label", child, [more, children])
// Attributes: "class", "style" (string or object), "on<event>" (listener), booleans (true sets, false/null skips),
// "dataset" (object), anything else via setAttribute. Children: nodes, strings, numbers, arrays, null (skipped).

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, v);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "value" && "value" in el) {
      el.value = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

/** Replace every child of `el` by `children`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** An inline SVG icon from a small built-in set (no icon font, no file). */
const ICONS = {
  undo: "M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11",
  hint: "M9 18h6M10 21h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2V16h5v-.1c0-.8.4-1.5 1-2A6 6 0 0 0 12 3z",
  flag: "M5 21V4M5 4h11l-2 4 2 4H5",
  repeat: "M17 2l4 4-4 4M3 11V9a3 3 0 0 1 3-3h15M7 22l-4-4 4-4M21 13v2a3 3 0 0 1-3 3H3",
  download: "M12 3v12M7 10l5 5 5-5M4 20h16",
  play: "M7 4.5v15l12-7.5z",
  pause: "M7 4h3.5v16H7zM13.5 4H17v16h-3.5z",
  first: "M6 5v14M18 5 9 12l9 7z",
  last: "M18 5v14M6 5l9 7-9 7z",
  prev: "M15 5 8 12l7 7",
  next: "M9 5l7 7-7 7",
  copy: "M9 9h11v11H9zM5 15H4V4h11v1",
  eye: "M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12zM12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z",
  film: "M4 4h16v16H4zM4 9h16M4 15h16M9 4v16",
  plus: "M12 5v14M5 12h14",
  upload: "M12 21V9M7 14l5-5 5 5M4 4h16",
  cpu: "M7 7h10v10H7zM10 2v3M14 2v3M10 19v3M14 19v3M2 10h3M2 14h3M19 10h3M19 14h3",
  user: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0",
  x: "M6 6l12 12M18 6 6 18",
  "turn-cw": "M19.5 12a7.5 7.5 0 1 1-2.6-5.7M19 3.5v4.5h-4.5",
  "turn-ccw": "M4.5 12a7.5 7.5 0 1 0 2.6-5.7M5 3.5v4.5h4.5",
  clock: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7v5l3.5 2",
};

export function icon(name, extra = "") {
  return svg("svg", { class: `icon ${extra}`.trim(), viewBox: "0 0 24 24", "aria-hidden": "true" },
    svg("path", { d: ICONS[name] || "" }));
}

/** Wait `ms` milliseconds; resolves early when `signal` aborts. */
export function wait(ms, signal) {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

export function prefersReducedMotion() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}
