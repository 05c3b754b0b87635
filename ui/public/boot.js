// Runs before the app's bundle is even fetched: applies the saved language and
// theme, so a cold first launch is never a blank window and says "Starting…"
// in that language (index.html's CSS shows the line whose language matches
// <html lang>; this script runs in the head, before the line exists). A plain file of the page's own origin (no inline script: the
// desktop shell's content security policy allows only 'self').
(function () {
  var root = document.documentElement;
  var store = null;
  try {
    store = window.localStorage;
  } catch (e) {
    store = null;
  }
  var pick = function (key) {
    try {
      return store ? store.getItem(key) : null;
    } catch (e) {
      return null;
    }
  };
  var lang = pick("labwright.lang");
  if (lang !== "en" && lang !== "zh") {
    var langs = navigator.languages || [navigator.language || "en"];
    lang = "en";
    for (var i = 0; i < langs.length; i++) {
      var l = String(langs[i]).toLowerCase();
      if (l.indexOf("zh") === 0) { lang = "zh"; break; }
      if (l.indexOf("en") === 0) break;
    }
  }
  root.lang = lang === "zh" ? "zh-CN" : "en";
  var theme = pick("labwright.theme");
  if (theme !== "light" && theme !== "dark") {
    theme = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  root.setAttribute("data-theme", theme);
})();
