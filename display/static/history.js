// The History page: the games the table kept, and one game told again event by event.
// Everything comes from the table's record, asked through the display server (the
// `history` and `frame` commands): each event a line (who, what tile, the points, an
// alert in words), the layout drawn as the events up to it built it (the page folds
// them: the table never computes it), and the frame the event was read from beside it.
// Step with the arrows, the keys or a swipe; jump to a hand or an alert.

import "./history_words.js";
import { $, app, clock, L, query } from "./context.js";
import { clear, h, icon } from "./dom.js";
import { alertText, LANGUAGES } from "./i18n.js";
import { layoutSvg } from "./layout.js";

const hist = {
  games: null, // the games kept (the list)
  game: null, // the game told: the reply's detail
  steps: [], // per event: { event, hand, tiles, alerts, line }
  at: 0, // the event shown
  error: null,
};

// ---- asking the display server ---------------------------------------------------------

async function getJson(url) {
  const response = await fetch(url, { cache: "no-store" });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
  return body;
}

function address(params) {
  const url = new URL(location.href);
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  return `${url.pathname}${url.search}`;
}

function frameUrl(gameId, seq) {
  return `/history/frame/${encodeURIComponent(gameId)}/${seq}`;
}

// ---- words -------------------------------------------------------------------------------

function seatName(seat) {
  const names = (hist.game && hist.game.names) || [];
  if (!Number.isInteger(seat)) return L("h_nobody");
  return names[seat] || L("seat_n", { n: seat + 1 });
}

function teamName(team, winner) {
  if (Number.isInteger(winner)) return seatName(winner);
  return L("team", { n: (team ?? 0) + 1 });
}

// `named`: for a play the table could not attribute when it was made, the seat a later
// `lead` event names for it and that event's seq
function lineOf(e, named) {
  const who = Number.isInteger(e.seat) || !named ? seatName(e.seat) : L("h_told_at", { name: seatName(named.seat), seq: named.seq });
  switch (e.type) {
    case "play":
      return e.points ? L("h_ev_play_points", { name: who, tile: e.tile, points: e.points }) : L("h_ev_play", { name: who, tile: e.tile });
    case "pass":
      return L("h_ev_pass", { name: who });
    case "draw":
      return L("h_ev_draw", { name: who, n: e.count ?? 1 });
    case "lead":
      return L("h_ev_lead", { name: who });
    case "undo":
      return e.points ? L("h_ev_undo_points", { seq: e.undone, points: e.points }) : L("h_ev_undo", { seq: e.undone });
    case "alert": {
      const said = alertWords(e);
      return e.resolved ? L("h_ev_cleared", { message: said }) : said;
    }
    case "hand": {
      const scores = L("h_scores", { scores: (e.scores || []).join("-") });
      if (e.result === "redealt") return `${L("h_ev_hand_redealt")} · ${scores}`;
      if (e.result === "blocked" && !Number.isInteger(e.winner) && !Number.isInteger(e.team)) return `${L("h_ev_hand_blocked_nobody")} · ${scores}`;
      const key = e.result === "domino" ? "h_ev_hand_domino" : "h_ev_hand_blocked";
      return `${L(key, { name: teamName(e.team, e.winner), points: e.points })} · ${scores}`;
    }
    case "game": {
      if (e.event === "started") return L("h_ev_game_started", { rules: e.rules || "" });
      const scores = L("h_scores", { scores: (e.scores || []).join("-") });
      if (Number.isInteger(e.winner)) return `${L("h_ev_game_over", { name: seatName(e.winner) })} · ${scores}`;
      if (Number.isInteger(e.team)) return `${L("h_ev_game_over_team", { name: teamName(e.team, null) })} · ${scores}`;
      return `${L("h_ev_game_over_nobody")} · ${scores}`;
    }
    default:
      return `${e.type}`;
  }
}

// an alert as the table said it; in another language than the table's, the display's own
// words for its code (and the tile it names)
function alertWords(e) {
  const own = app.view && app.view.language && app.view.language !== app.lang ? alertText(app.lang, e.code) : "";
  if (!own) return e.message || e.code;
  return e.tile ? `${own} (${e.tile})` : own;
}

// ---- the game folded: the layout and the alerts standing after each event ---------------

// The plays the table could not attribute when they were made (a lead it could not see),
// named by the `lead` event that came after them: the leader's play, then each next seat
// clockwise (the spec: "earlier plays are attributed"). seq -> { seat, seq of the lead }.
function attributed(events) {
  const seats = ((hist.game && hist.game.names) || []).length || 1;
  const out = new Map();
  let unnamed = [];
  let hand = null;
  for (const e of events) {
    if (e.type === "game") continue;
    if (Number.isInteger(e.hand) && e.hand !== hand) { hand = e.hand; unnamed = []; }
    if (e.type === "play" && !Number.isInteger(e.seat)) unnamed.push(e.seq);
    if (e.type === "lead" && Number.isInteger(e.seat)) {
      unnamed.forEach((seq, k) => out.set(seq, { seat: (e.seat + k) % seats, seq: e.seq }));
      unnamed = [];
    }
  }
  return out;
}

function fold(events) {
  const steps = [];
  let hand = 0;
  let tiles = [];
  let plays = new Map(); // seq -> the tile it laid
  const alerts = new Map(); // id -> the alert standing
  const named = attributed(events);
  for (const e of events) {
    if (Number.isInteger(e.hand) && e.type !== "game" && e.hand !== hand) {
      hand = e.hand;
      tiles = [];
      plays = new Map();
    }
    if (e.type === "play") {
      const placed = { tile: e.tile, seat: e.seat, xa: e.xa, ya: e.ya, xb: e.xb, yb: e.yb };
      tiles = [...tiles, placed];
      plays.set(e.seq, placed);
    } else if (e.type === "undo") {
      const gone = plays.get(e.undone);
      tiles = tiles.filter((t) => t !== gone);
    } else if (e.type === "alert") {
      if (e.resolved) alerts.delete(e.id);
      else alerts.set(e.id, e);
    }
    steps.push({ event: e, hand, tiles, alerts: [...alerts.values()], line: lineOf(e, named.get(e.seq)) });
  }
  return steps;
}

// ---- rendering ---------------------------------------------------------------------------

function render() {
  const wanted = query.get("lang");
  app.lang = LANGUAGES.includes(wanted) ? wanted : app.view && app.view.language ? app.view.language : "en";
  document.documentElement.lang = app.lang;
  const table = app.view ? app.view.table : "";
  document.title = `${L("h_title")}${table ? ` · ${table}` : ""}`;
  renderBar(table);
  $("games").hidden = !hist.games || Boolean(hist.game);
  $("game").hidden = !hist.game;
  clear($("history-message"), hist.error ? h("div", { class: "h-error" }, icon("no"), hist.error) : hist.games || hist.game ? null : L("h_loading"));
  if (hist.game) renderGame();
  else if (hist.games) renderGames();
}

function renderBar(table) {
  const own = { lang: query.get("lang"), theme: query.get("theme") };
  const keep = Object.entries(own).filter(([, v]) => v).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  const mode = window.displayTheme.mode();
  clear($("bar"),
    h("div", { class: "game-info" },
      h("a", { id: "back", class: "btn back", href: `/${keep ? `?${keep}` : ""}` }, `← ${L("h_back")}`),
      table ? h("span", { class: "table-id" }, table) : null,
      h("span", { class: hist.game ? "page-title in-game" : "page-title" }, L("h_title")),
      hist.game ? h("a", { id: "all-games", href: `/history${keep ? `?${keep}` : ""}` }, L("h_all")) : null),
    h("button", {
      id: "theme", class: "theme-switch", type: "button", "data-mode": mode,
      title: L("theme_is", { mode: L(`theme_${mode}`) }), "aria-label": L("theme_is", { mode: L(`theme_${mode}`) }),
      onclick: () => { window.displayTheme.next(); render(); },
    }, icon(mode), h("span", { class: "theme-word" }, L(`theme_${mode}`))));
}

function renderGames() {
  const games = hist.games || [];
  clear($("games"),
    h("h1", { id: "games-title" }, L("h_games")),
    games.length ? h("p", { class: "h-hint" }, L("h_hint")) : null,
    games.length === 0 ? h("p", { class: "h-none" }, L("h_none")) : h("ol", { class: "game-list" },
      games.map((g) => h("li", {},
        h("a", { class: "game-card", href: address({ game: g.game_id, seq: null }), "data-game": g.game_id },
          h("span", { class: "g-when" }, g.started ? `${new Date(g.started).toLocaleDateString(app.lang)} ${clock(g.started, false)}` : g.game_id),
          h("span", { class: "g-rules" }, g.rules || ""),
          h("span", { class: "g-state" }, g.ended ? L("h_ended", { time: clock(g.ended, false) }) : L("h_in_play")),
          h("span", { class: "g-players" }, (g.names || []).map((n, i) => `${n} ${(g.scores || [])[i] ?? ""}`).join(" · ")),
          h("span", { class: "g-facts" }, `${g.hands === 1 ? L("h_hands_1") : L("h_hands", { n: g.hands })} · ${L("h_frames", { n: g.frames ?? 0 })}`))))));
}

function renderGame() {
  const step = hist.steps[hist.at];
  if (!step) return;
  renderHead();
  renderLayout(step);
  renderNow(step);
  renderFrame(step);
  renderStepper();
  renderEvents();
}

function renderHead() {
  const g = hist.game;
  const hands = [];
  hist.steps.forEach((s, i) => { if (s.hand && !hands.some((x) => x.hand === s.hand)) hands.push({ hand: s.hand, at: i }); });
  const raised = hist.steps.map((s, i) => ({ e: s.event, i })).filter(({ e }) => e.type === "alert" && !e.resolved);
  const current = hist.steps[hist.at].hand;
  const key = JSON.stringify([app.lang, g.game_id, current, hist.at]);
  if ($("game-head").dataset.key === key) return;
  $("game-head").dataset.key = key;
  clear($("game-head"),
    h("div", { class: "g-title" },
      h("span", { class: "g-when" }, g.started ? `${new Date(g.started).toLocaleDateString(app.lang)} ${clock(g.started, false)}` : g.game_id),
      h("span", {}, g.rules || ""),
      h("span", { class: "g-players" }, (g.names || []).join(" · "))),
    h("nav", { class: "jumps", "aria-label": L("h_title") },
      hands.map(({ hand, at }) => h("button", {
        class: `chip-btn hand-chip${hand === current ? " current" : ""}`, type: "button", "data-hand": hand,
        "aria-pressed": hand === current ? "true" : "false", onclick: () => go(at),
      }, L("h_hand", { n: hand }))),
      raised.length ? h("span", { class: "jump-label" }, icon("warning"), L("h_alerts")) : null,
      raised.map(({ e, i }) => h("button", {
        class: `chip-btn alert-chip sev-${e.severity}${i === hist.at ? " current" : ""}`, type: "button",
        "data-seq": e.seq, "data-code": e.code, title: e.message || e.code, onclick: () => go(i),
      }, icon(e.severity === "illegal" ? "illegal" : e.severity === "fault" ? "fault" : "warning"), `#${e.seq}`))));
}

function renderLayout(step) {
  const wrap = $("layout-wrap");
  const box = wrap.getBoundingClientRect();
  const g = hist.game;
  const e = step.event;
  const surface = g.surface || (app.view && app.view.state && app.view.state.surface) || { width_mm: 900, height_mm: 600 };
  const last = e.type === "play" ? e : null;
  const { svg, unplaced } = layoutSvg(
    { layout: { tiles: step.tiles, spinner: null, open_ends: [] }, surface },
    last, { spinner: L("spinner"), no_tiles: L("no_tiles") }, step.alerts, box,
  );
  svg.setAttribute("aria-label", step.tiles.map((t) => t.tile).join(" ") || L("no_tiles"));
  clear(wrap, svg, unplaced.length ? h("div", { class: "unplaced" }, L("unplaced", { tiles: unplaced.join(" ") })) : null);
}

function severityIcon(e) {
  if (e.type !== "alert" || e.resolved) return null;
  return icon(e.severity === "illegal" ? "illegal" : e.severity === "fault" ? "fault" : "warning", "now-icon");
}

function renderNow(step) {
  const e = step.event;
  clear($("event-now"),
    h("div", { class: `now now-${e.type}${e.type === "alert" && !e.resolved ? ` sev-${e.severity}` : ""}`, "data-seq": e.seq },
      severityIcon(e),
      h("span", { class: "now-seq" }, `#${e.seq}`),
      h("span", { class: "now-time" }, clock(e.ts)),
      h("span", { class: "now-line" }, step.line)));
}

function renderFrame(step) {
  const e = step.event;
  const framed = (hist.game.frames || []).includes(e.seq);
  const img = $("frame");
  const link = $("frame-link");
  link.hidden = !framed;
  $("frame-none").hidden = framed;
  clear($("frame-none"), framed ? null : L("h_no_frame"));
  if (!framed) {
    clear($("frame-caption"));
    return;
  }
  const url = frameUrl(hist.game.game_id, e.seq);
  if (img.dataset.url !== url) {
    img.dataset.url = url;
    img.src = url;
    $("frame-box").classList.add("loading");
  }
  img.alt = L("h_frame_of", { seq: e.seq, line: step.line });
  link.href = url;
  link.title = L("h_open");
  clear($("frame-caption"), `#${e.seq} · ${clock(e.ts)}`);
  // the next framed event's picture, asked now: the next step shows it at once
  const next = hist.steps.slice(hist.at + 1).find((s) => hist.game.frames.includes(s.event.seq));
  if (next) new Image().src = frameUrl(hist.game.game_id, next.event.seq);
}

function renderStepper() {
  const n = hist.steps.length;
  const key = JSON.stringify([app.lang, hist.at, n]);
  if ($("stepper").dataset.key === key) return;
  $("stepper").dataset.key = key;
  clear($("stepper"),
    h("button", { id: "prev", class: "btn step", type: "button", "aria-label": L("h_prev"), title: L("h_prev"), disabled: hist.at === 0, onclick: () => go(hist.at - 1) }, "◀"),
    h("span", { id: "step-at" }, L("h_step", { at: hist.at + 1, n })),
    h("button", { id: "next", class: "btn step", type: "button", "aria-label": L("h_next"), title: L("h_next"), disabled: hist.at >= n - 1, onclick: () => go(hist.at + 1) }, "▶"));
}

function renderEvents() {
  const list = $("events");
  const key = JSON.stringify([app.lang, hist.game.game_id, hist.steps.length]);
  if (list.dataset.key !== key) {
    list.dataset.key = key;
    clear(list, hist.steps.map((s, i) => {
      const e = s.event;
      const cls = ["ev", `ev-${e.type}`, e.type === "alert" && !e.resolved ? `sev-${e.severity}` : ""].join(" ");
      return h("li", { class: cls, "data-seq": e.seq },
        h("button", { type: "button", class: "ev-btn", onclick: () => go(i) },
          h("span", { class: "ev-seq" }, `#${e.seq}`),
          severityIcon(e),
          h("span", { class: "ev-line" }, s.line)));
    }));
  }
  list.querySelectorAll("li").forEach((li, i) => {
    const here = i === hist.at;
    li.classList.toggle("current", here);
    if (here) li.firstChild.setAttribute("aria-current", "step");
    else li.firstChild.removeAttribute("aria-current");
  });
  keepInView(list, list.children[hist.at]);
}

// the list scrolls (the table's screen) to show the event shown; on a phone the page
// itself scrolls, and stepping must not move it
function keepInView(list, item) {
  if (!item || list.scrollHeight <= list.clientHeight) return;
  const top = item.offsetTop; // the list is the items' offset parent (history.css)
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + item.offsetHeight - list.clientHeight;
}

// ---- stepping ----------------------------------------------------------------------------

function go(at) {
  if (!hist.game) return;
  hist.at = Math.max(0, Math.min(hist.steps.length - 1, at));
  const seq = hist.steps[hist.at].event.seq;
  history.replaceState(null, "", address({ game: hist.game.game_id, seq }));
  render();
}

document.addEventListener("keydown", (e) => {
  if (!hist.game || e.altKey || e.ctrlKey || e.metaKey) return;
  const moves = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, PageUp: -10, PageDown: 10 };
  if (e.key in moves) go(hist.at + moves[e.key]);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(hist.steps.length - 1);
  else return;
  e.preventDefault();
});

// a swipe on the layout or the frame: to the left the next event, to the right the one before
function swipeable(el) {
  let from = null;
  el.addEventListener("pointerdown", (e) => { from = { x: e.clientX, y: e.clientY }; });
  el.addEventListener("pointerup", (e) => {
    if (!from) return;
    const dx = e.clientX - from.x;
    const dy = e.clientY - from.y;
    from = null;
    if (Math.abs(dx) > 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) go(hist.at + (dx < 0 ? 1 : -1));
  });
  el.addEventListener("pointercancel", () => { from = null; });
}

// ---- start -------------------------------------------------------------------------------

async function openGame(gameId, seq) {
  const game = await getJson(`/history/api/game/${encodeURIComponent(gameId)}`);
  hist.game = game;
  hist.games = game.games || null;
  hist.steps = fold(game.events || []);
  const at = seq ? hist.steps.findIndex((s) => s.event.seq === seq) : -1;
  hist.at = at >= 0 ? at : 0;
}

async function start() {
  try {
    app.view = await getJson("/api/view");
  } catch {
    app.view = null; // the page still works: the table's language is not known
  }
  render();
  try {
    const wanted = query.get("game");
    if (wanted) await openGame(wanted, Number(query.get("seq")) || null);
    else hist.games = (await getJson("/history/api/games")).games || [];
  } catch (err) {
    hist.error = L("h_failed", { error: err.message });
  }
  render();
}

$("frame").addEventListener("load", () => $("frame-box").classList.remove("loading"));
$("frame").addEventListener("error", () => {
  $("frame-box").classList.remove("loading");
  if (!$("frame").dataset.url) return;
  clear($("frame-caption"), L("h_frame_failed", { error: "" }));
});
swipeable($("layout-box"));
swipeable($("frame-box"));
window.addEventListener("resize", () => { if (hist.game) render(); });
start();
