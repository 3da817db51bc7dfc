// What every part of the page shares: the view, the language, small look-ups.

import { t } from "./i18n.js";

export const query = new URLSearchParams(location.search);
export const app = {
  view: null,
  lang: "en",
  heartbeat: 5,
  lastHeard: 0,
  linkUp: false,
  undoArmedUntil: 0,
  hiddenResult: null,
  toastTimer: null,
  source: null,
  pinNeeded: false, // the display asked for its command PIN
  pin: null, // the PIN given on this page, in memory only
};
export const $ = (id) => document.getElementById(id);
export const L = (key, params) => t(app.lang, key, params);
// set by app.js: parts that change what is shown ask for a new render through it
export const hooks = { render: () => {} };

export function state() {
  return app.view && app.view.state;
}

export function seats() {
  const st = state();
  return st && Array.isArray(st.seats) ? st.seats : [];
}

export function seatName(seat) {
  const found = seats().find((x) => x.seat === seat);
  return found && found.name ? found.name : L("seat_n", { n: seat + 1 });
}

export function teamName(team) {
  const st = state();
  const entry = st && (st.teams || []).find((x) => x.team === team);
  return entry ? entry.seats.map(seatName).join(" & ") : L("team", { n: team + 1 });
}

export function partnership() {
  const st = state();
  return Boolean(st && Array.isArray(st.teams) && st.teams.length > 0);
}

export function clock(iso, seconds = true) {
  if (!iso) return "";
  const shown = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  if (seconds) shown.second = "2-digit";
  return new Date(iso).toLocaleTimeString(app.lang, shown);
}

export function staleReasons() {
  const reasons = app.view ? [...app.view.stale] : ["no_state"];
  if (!app.linkUp) reasons.unshift("server_lost");
  return reasons;
}

// Re-render `el` only when what it shows changed, so that a view arriving mid-tap does
// not replace the button under the player's finger.
export function renderIf(el, key, draw) {
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  draw();
}
