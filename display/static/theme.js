// The page's look (docs/design/display.md, "Themes"): `sun` (black on white and yellow, for a
// table in daylight), `dark`, or `auto` (sun from the display's day_starts to day_ends by
// this screen's clock). A classic script in <head>, after /look.js, so that the page is
// drawn in its theme from the first frame. The choice comes from `?theme=` in the
// address, else the one made on this screen (kept in localStorage), else the display's.
(function () {
  const look = window.DISPLAY_LOOK || { theme: "auto", day_starts: "07:00", day_ends: "19:00" };
  const KEY = "domino-display-theme";
  const MODES = ["auto", "sun", "dark"];

  function kept() {
    try {
      return localStorage.getItem(KEY);
    } catch {
      return null; // storage refused (a private window): the display's choice
    }
  }

  function mode() {
    const asked = new URLSearchParams(location.search).get("theme");
    if (MODES.includes(asked)) return asked;
    const mine = kept();
    if (MODES.includes(mine)) return mine;
    return MODES.includes(look.theme) ? look.theme : "auto";
  }

  function minutes(hhmm) {
    const [h, m] = String(hhmm).split(":").map(Number);
    return h * 60 + m;
  }

  // daytime by this screen's clock; a day that ends after midnight wraps round
  function isDay(now) {
    const t = now.getHours() * 60 + now.getMinutes();
    const from = minutes(look.day_starts);
    const until = minutes(look.day_ends);
    return from <= until ? t >= from && t < until : t >= from || t < until;
  }

  function apply() {
    const m = mode();
    const theme = m === "auto" ? (isDay(new Date()) ? "sun" : "dark") : m;
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.dataset.themeMode = m;
    return theme;
  }

  // a choice made on this screen: kept for it, and the address's ?theme= no longer holds
  function choose(m) {
    try {
      localStorage.setItem(KEY, m);
    } catch {
      // not kept: it holds until the page is reloaded
    }
    const url = new URL(location.href);
    if (url.searchParams.has("theme")) {
      url.searchParams.delete("theme");
      history.replaceState(null, "", url);
    }
    if (!MODES.includes(kept())) look.theme = m;
    return apply();
  }

  function next() {
    return choose(MODES[(MODES.indexOf(mode()) + 1) % MODES.length]);
  }

  apply();
  setInterval(apply, 30000); // auto: the sun comes up while the page is open
  window.displayTheme = { mode, apply, choose, next };
})();
