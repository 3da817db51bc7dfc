// The table display page: renders the server's view (pushed by Server-Sent Events) and
// posts the players' commands. Everything shown comes from the view; nothing is polled.

import { renderActions, renderSheet } from "./actions.js";
import { $, app, clock, hooks, L, partnership, query, state, staleReasons } from "./context.js";
import { clear, h, icon } from "./dom.js";
import { LANGUAGES } from "./i18n.js";
import { installCorrect } from "./correct.js";
import "./history_words.js";
import { renderAlerts, renderBoard, renderResult, renderScores } from "./panels.js";

// ---- the live link --------------------------------------------------------------------

function connect() {
  if (app.source) app.source.close();
  const source = new EventSource("/events");
  app.source = source;
  // a ping only keeps a live link alive: after a reconnect, the link is live again
  // with the first view, so an old view is never shown as current in between
  source.addEventListener("ping", (e) => {
    const beat = Number(e.data);
    if (beat > 0) app.heartbeat = beat;
    app.lastHeard = Date.now();
  });
  source.addEventListener("view", (e) => {
    app.view = JSON.parse(e.data);
    app.lastHeard = Date.now();
    app.linkUp = true;
    render();
  });
  source.onerror = () => {
    app.linkUp = false;
    render();
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
  };
}

// a link that went silent (no ping for 2.5 heartbeats) is dead even if the socket looks
// open: say so, and open a new one
setInterval(() => {
  if (Date.now() - app.lastHeard > app.heartbeat * 2500 && app.lastHeard > 0) {
    app.lastHeard = Date.now();
    if (app.linkUp) {
      app.linkUp = false;
      render();
    }
    connect();
  }
}, 1000);

// ---- rendering ---------------------------------------------------------------------------

function render() {
  const view = app.view;
  const wanted = query.get("lang");
  app.lang = LANGUAGES.includes(wanted) ? wanted : view ? view.language : "en";
  document.documentElement.lang = app.lang;
  const st = state();
  const stale = staleReasons();
  document.body.className = [
    stale.length ? "stale" : "live",
    st ? `phase-${st.phase}` : "no-state",
    partnership() ? "partners" : "",
  ].join(" ");
  document.title = `${L("title")}${view ? ` · ${view.table}` : ""}`;
  renderBar(st, stale);
  renderBanners(stale);
  renderAlerts();
  renderScores(st, stale);
  renderBoard(st);
  renderResult(st);
  renderActions(st);
  if ($("sheet").open) renderSheet();
}

function renderBar(st, stale) {
  const parts = [];
  if (app.view) parts.push(h("span", { class: "table-id" }, app.view.table));
  if (st) {
    parts.push(h("span", {}, st.rules));
    if (st.hand) parts.push(h("span", { id: "hand-no" }, L("hand", { n: st.hand })));
    if (st.target) parts.push(h("span", {}, L("to", { n: st.target })));
    if (st.boneyard !== null && st.boneyard !== undefined) parts.push(h("span", {}, L("boneyard", { n: st.boneyard })));
    if (st.tournament) parts.push(h("span", { id: "round" }, L("round_of", { name: st.tournament, n: st.round ?? "?" })));
    if (st.ends_at) parts.push(h("span", { id: "ends-at" }, L("ends_at", { time: clock(st.ends_at, false) })));
  }
  const live = stale.length === 0;
  clear(
    $("bar"),
    h("div", { class: "game-info" }, parts),
    cameraLink(),
    historyLink(),
    themeSwitch(),
    h("div", { id: "link", class: live ? "link-live" : "link-stale" },
      icon(live ? "ok" : "offline"), live ? L("live") : L("offline")),
  );
}

// sun, dark, or auto by the time of day (static/theme.js): this screen's own choice
function themeSwitch() {
  const mode = window.displayTheme.mode();
  const word = L(`theme_${mode}`);
  return h("button", {
    id: "theme", class: "theme-switch", type: "button", "data-mode": mode,
    title: L("theme_is", { mode: word }), "aria-label": L("theme_is", { mode: word }),
    onclick: () => { window.displayTheme.next(); render(); },
  }, icon(mode), h("span", { class: "theme-word" }, word));
}

// the Camera page, on a table that has published a camera status; a warning mark while
// the camera is not fine
function cameraLink() {
  const cam = app.view && app.view.camera;
  if (!cam) return null;
  const fine = cam.state === "ok" && cam.warnings.length === 0;
  return h("a", { id: "camera-link", href: `/camera${location.search}`, class: fine ? "cam-fine" : "cam-warn" },
    icon(fine ? "camera" : "warning"), L("b_camera"));
}

// the History page: the games this table kept, told again
function historyLink() {
  return h("a", { id: "history-link", href: `/history${location.search}`, title: L("b_history"), "aria-label": L("b_history") },
    icon("wait"), h("span", { class: "link-word" }, L("b_history")));
}

function renderBanners(stale) {
  const asOf = app.view && app.view.state_received ? ` (${L("as_of", { time: clock(app.view.state_received) })})` : "";
  clear(
    $("banners"),
    stale.map((reason) =>
      h("div", { class: `banner banner-${reason}`, "data-reason": reason },
        icon(["resync", "no_state", "controller_unknown", "broker_connecting"].includes(reason) ? "wait" : "offline"),
        h("span", {}, L(`stale_${reason}`) + (reason === "no_state" ? "" : asOf))),
    ),
  );
}

hooks.render = render;
installCorrect();
render();
connect();
