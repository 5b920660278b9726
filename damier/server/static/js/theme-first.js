// Set the theme before the first paint (no flash): a classic script the page loads first, blocking (the
// Content-Security-Policy allows no inline script); theme.js owns the toggle.
(function () {
  var t = null;
  try { t = localStorage.getItem("damier.theme"); } catch (e) {}
  if (t !== "light" && t !== "dark") t = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  document.documentElement.dataset.theme = t;
})();
