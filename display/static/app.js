// The table display page: renders the server's view (pushed by Server-Sent Events) and
// posts the players' commands. Everything shown comes from the view; nothing is polled.

import { clear, h, icon } from "./dom.js";
import { alertText, LANGUAGES, t } from "./i18n.js";
import { layoutSvg } from "./layout.js";
import { tallySvg } from "./tally.js";

const query = new URLSearchParams(location.search);
const app = {
  view: null,
  lang: "en",
  heartbeat: 5,
  lastHeard: 0,
  linkUp: false,
  undoArmedUntil: 0,
  hiddenResult: null,
  toastTimer: null,
  source: null,
};
const $ = (id) => document.getElementById(id);
const L = (key, params) => t(app.lang, key, params);

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

// ---- helpers -----------------------------------------------------------------------------

function state() {
  return app.view && app.view.state;
}

function seats() {
  const st = state();
  return st && Array.isArray(st.seats) ? st.seats : [];
}

function seatName(seat) {
  const found = seats().find((x) => x.seat === seat);
  return found && found.name ? found.name : L("seat_n", { n: seat + 1 });
}

function teamName(team) {
  const st = state();
  const entry = st && (st.teams || []).find((x) => x.team === team);
  return entry ? entry.seats.map(seatName).join(" & ") : L("team", { n: team + 1 });
}

function partnership() {
  const st = state();
  return Boolean(st && Array.isArray(st.teams) && st.teams.length > 0);
}

function clock(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleTimeString(app.lang, { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
}

function staleReasons() {
  const reasons = app.view ? [...app.view.stale] : ["no_state"];
  if (!app.linkUp) reasons.unshift("server_lost");
  return reasons;
}

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
  }
  const live = stale.length === 0;
  clear(
    $("bar"),
    h("div", { class: "game-info" }, parts),
    h("div", { id: "link", class: live ? "link-live" : "link-stale" },
      icon(live ? "ok" : "offline"), live ? L("live") : L("offline")),
  );
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

function renderAlerts() {
  const alerts = app.view ? app.view.alerts : [];
  const key = JSON.stringify([app.lang, alerts, seats().map((x) => x.name)]);
  renderIf($("alerts"), key, () => drawAlerts(alerts));
}

function drawAlerts(alerts) {
  // the two latest in full; older ones still stand, told in one line each
  const compact = (i) => i < alerts.length - 2;
  clear(
    $("alerts"),
    alerts.map((a, i) =>
      h("div", { class: `alert sev-${a.severity}${compact(i) ? " compact" : ""}`, role: "alert", "data-code": a.code, "data-id": a.id },
        icon(a.severity in { illegal: 1, warning: 1, fault: 1 } ? a.severity : "warning", "alert-icon"),
        h("div", { class: "alert-body" },
          h("div", { class: "alert-title" }, L(`sev_${a.severity}`), a.seat != null ? ` · ${seatName(a.seat)}` : "", a.tile ? ` · ${a.tile}` : ""),
          h("div", { class: "alert-message" }, a.message),
          alertText(app.lang, a.code) && alertText(app.lang, a.code) !== a.message
            ? h("div", { class: "alert-help" }, alertText(app.lang, a.code)) : null,
          a.code === "LEAD_UNKNOWN" ? seatButtons("lead") : null)),
    ),
  );
}

// Re-render `el` only when what it shows changed, so that a view arriving mid-tap does
// not replace the button under the player's finger.
function renderIf(el, key, draw) {
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  draw();
}

function seatButtons(action, before = () => {}) {
  const press = (seat) => () => {
    before();
    send(action, { seat });
  };
  return h("div", { class: "seat-buttons" },
    seats().map((x) => h("button", { class: "btn", "data-action": action, "data-seat": x.seat, onclick: press(x.seat) }, x.name || L("seat_n", { n: x.seat + 1 }))));
}

function scoreBlock(score, stale) {
  return h("div", { class: "score-row" },
    h("div", { class: "score-line" },
      h("span", { class: "score" }, score),
      stale.length ? h("span", { class: "last-known", title: L("last_known") },
        icon("wait"), h("span", { class: "lk-text" }, L("last_known"))) : null),
    tallySvg(score));
}

function turnFlag() {
  return h("div", { class: "turn-flag" }, icon("turn"), L("turn"));
}

function renderScores(st, stale) {
  const box = $("scores");
  if (!st) return clear(box);
  const turn = st.phase === "play" || st.phase === "lead" ? st.turn : null;
  box.dataset.count = partnership() ? st.teams.length : st.seats.length;
  if (partnership()) {
    return clear(box, st.teams.map((team) => {
      const onTurn = team.seats.includes(turn);
      return h("article", { class: `card team${onTurn ? " turn" : ""}`, "data-team": team.team },
        h("div", { class: "members" }, team.seats.map((seat, i) => [
          i ? h("span", { class: "amp" }, "&") : null,
          h("span", { class: `member${seat === turn ? " turn" : ""}`, "data-seat": seat },
            seat === turn ? icon("turn") : null, seatName(seat))])),
        scoreBlock(team.score, stale),
        h("div", { class: "card-foot" }, h("span", { class: "team-label" }, L("team", { n: team.team + 1 })),
          onTurn ? turnFlag() : null));
    }));
  }
  return clear(box, st.seats.map((x) =>
    h("article", { class: `card seat${x.seat === turn ? " turn" : ""}`, "data-seat": x.seat },
      h("div", { class: "name" }, x.name || L("seat_n", { n: x.seat + 1 })),
      scoreBlock(x.score, stale),
      h("div", { class: "card-foot" },
        x.tiles_left !== null && x.tiles_left !== undefined
          ? h("span", { class: "meta tiles-left", title: L("tiles_left", { n: x.tiles_left }), "aria-label": L("tiles_left", { n: x.tiles_left }) }, icon("domino"), x.tiles_left)
          : h("span", { class: "meta" }),
        x.seat === turn ? turnFlag() : null))));
}

function phaseText(st) {
  if (st.phase === "play" && st.turn !== null) return L("phase_play", { name: seatName(st.turn) });
  if (st.phase === "lead" && st.turn !== null) return L("phase_lead_seat", { name: seatName(st.turn) });
  if (st.phase === "play") return L("phase_play_any");
  return L(`phase_${st.phase}`);
}

function renderBoard(st) {
  if (!st) {
    clear($("phase"));
    clear($("layout-wrap"));
    return clear($("board-info"));
  }
  clear($("phase"), st.turn !== null && (st.phase === "play" || st.phase === "lead") ? icon("turn") : null, phaseText(st));
  const lastPlay = app.view.last_play;
  const { svg, unplaced } = layoutSvg(st, lastPlay, { spinner: L("spinner"), no_tiles: L("no_tiles") });
  clear($("layout-wrap"), svg);
  const info = [h("span", { id: "ends-total", class: "chip" }, L("ends", { n: st.layout.ends_total }))];
  if (lastPlay) {
    info.push(h("span", { id: "last-play", class: "chip" },
      L("last_play", { name: lastPlay.seat !== null ? seatName(lastPlay.seat) : "?", tile: lastPlay.tile }),
      lastPlay.points > 0 ? h("b", {}, ` ${L("scored", { n: lastPlay.points })}`) : null));
    for (const word of Array.isArray(lastPlay.announce) ? lastPlay.announce : []) {
      info.push(h("span", { class: "chip announce" }, L(`announce_${word}`) === `announce_${word}` ? word.replace(/_/g, " ") : L(`announce_${word}`)));
    }
  }
  const ev = app.view.last_event;
  if (ev && ["pass", "draw", "lead", "undo"].includes(ev.kind) && (!lastPlay || ev.seq > lastPlay.seq)) {
    const name = ev.seat !== null && ev.seat !== undefined ? seatName(ev.seat) : "?";
    info.push(h("span", { id: "last-event", class: "chip" }, L(`ev_${ev.kind}`, { name, n: ev.count ?? 1 })));
  }
  if (unplaced.length) info.push(h("span", { class: "chip" }, L("unplaced", { tiles: unplaced.join(" ") })));
  clear($("board-info"), info);
}

function resultKey(st) {
  return `${st.game_id}/${st.hand}/${st.phase}`;
}

function renderResult(st) {
  const box = $("result");
  const over = app.view && app.view.game_over;
  const hand = app.view && app.view.hand_result;
  if (!st || (!over && !hand) || app.hiddenResult === resultKey(st)) {
    box.hidden = true;
    return clear(box);
  }
  box.hidden = false;
  const hide = h("button", { class: "btn hide", onclick: () => { app.hiddenResult = resultKey(st); render(); } }, L("hide"));
  if (over) return clear(box, hide, gameOverPanel(over, st));
  return clear(box, hide, handPanel(hand));
}

function handPanel(hand) {
  const who = hand.winner !== null && hand.winner !== undefined ? seatName(hand.winner) : null;
  const title = hand.result === "domino" ? L("result_domino", { name: who ?? "?" })
    : who ? L("result_blocked", { name: who }) : L("result_blocked_nobody");
  const pips = Array.isArray(hand.pips) ? hand.pips : [];
  return h("div", { class: "panel hand-panel", "data-hand": hand.hand },
    h("div", { class: "panel-kicker" }, L("hand", { n: hand.hand })),
    h("div", { class: "panel-title" }, title),
    h("div", { class: "panel-points" }, L("result_points", { n: hand.points }),
      hand.team !== null && hand.team !== undefined && partnership()
        ? h("span", { class: "panel-team" }, ` ${L("for_team", { name: teamName(hand.team) })}`) : null),
    pips.length ? h("table", { class: "pips" },
      h("tr", {}, h("th", {}, ""), h("th", {}, L("pips"))),
      pips.map((p, seat) => h("tr", { "data-seat": seat, class: seat === hand.winner ? "winner" : "" },
        h("td", {}, seatName(seat)), h("td", {}, p === null ? "?" : p)))) : null);
}

function gameOverPanel(over, st) {
  let title = L("game_over");
  if (over.team !== null && over.team !== undefined) title = L("game_over_team", { name: teamName(over.team) });
  else if (over.winner !== null && over.winner !== undefined) title = L("game_over_winner", { name: seatName(over.winner) });
  const rows = partnership()
    ? st.teams.map((x) => [teamName(x.team), x.score])
    : st.seats.map((x) => [seatName(x.seat), x.score]);
  return h("div", { class: "panel over-panel" },
    icon("trophy", "trophy"),
    h("div", { class: "panel-title", id: "game-over-title" }, title),
    h("table", { class: "final" }, h("caption", {}, L("final_scores")),
      rows.map(([name, score]) => h("tr", {}, h("td", {}, name), h("td", {}, score)))));
}

// ---- actions -----------------------------------------------------------------------------

// actions that need a second tap
const SURE = ["end_hand", "redeal"];

const PHASE_ACTIONS = {
  idle: ["new_game"],
  lead: ["draw", "undo"],
  play: ["pass", "draw", "undo"],
  counting: ["confirm", "undo"],
  hand_over: ["next_hand"],
  over: ["new_game"],
};

function actionButton(action) {
  const armed = action === "undo" && Date.now() < app.undoArmedUntil;
  return h("button", {
    class: `btn act act-${action}${armed ? " armed" : ""}`,
    "data-action": action,
    onclick: () => press(action),
  }, armed ? L("b_undo_again") : L(`b_${action}`));
}

function renderActions(st) {
  const list = st ? PHASE_ACTIONS[st.phase] || [] : [];
  const key = JSON.stringify([app.lang, list, Date.now() < app.undoArmedUntil]);
  renderIf($("actions"), key, () => clear($("actions"),
    list.map(actionButton),
    h("button", { class: "btn act act-scores", "data-action": "scores", onclick: openSheet }, L("b_scores")),
    h("button", { class: "btn act act-more", "data-action": "more", onclick: () => openMore() }, L("b_more"))));
}

function press(action) {
  if (action === "new_game") return openMore("new-game");
  if (action === "undo" && Date.now() >= app.undoArmedUntil) {
    app.undoArmedUntil = Date.now() + 3000;
    setTimeout(render, 3100);
    return render();
  }
  if (action === "undo") app.undoArmedUntil = 0;
  return send(action, {});
}

function toast(kind, text) {
  clearTimeout(app.toastTimer);
  clear($("toast"), icon(kind), h("span", { id: "toast-text" }, text));
  $("toast").dataset.kind = kind;
  $("toast").hidden = false;
  if (kind !== "wait") app.toastTimer = setTimeout(() => { $("toast").hidden = true; }, kind === "ok" ? 5000 : 10000);
}

function newId() {
  return `page-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

async function send(action, fields) {
  const label = L(`b_${action}`);
  const body = JSON.stringify({ id: newId(), action, ...fields });
  toast("wait", L("sending", { action: label }));
  let reply = null;
  for (let attempt = 0; attempt < 2 && reply === null; attempt++) {
    try {
      const response = await fetch("/api/cmd", { method: "POST", headers: { "Content-Type": "application/json" }, body });
      reply = await response.json();
    } catch (err) {
      if (attempt === 1) reply = { ok: false, display_error: "unreachable" };
    }
  }
  let error = reply.error;
  if (reply.display_error === "timeout") error = L("no_answer");
  if (reply.display_error === "broker") error = L("stale_broker_lost");
  if (reply.display_error === "unreachable") error = L("unreachable");
  toast(reply.ok ? "ok" : "no", reply.ok ? L("done", { action: label }) : L("refused", { action: label, error }));
  return reply;
}

// ---- dialogs -----------------------------------------------------------------------------

function renderSheet() {
  const st = state();
  const history = st && Array.isArray(st.history) ? st.history : [];
  clear($("sheet"),
    h("h2", {}, L("scoresheet")),
    h("table", { class: "sheet" },
      h("tr", {}, h("th", {}, L("sheet_hand")), h("th", {}, L("sheet_result")), h("th", {}, L("sheet_winner")),
        h("th", {}, L("sheet_points")), seats().map((x) => h("th", {}, seatName(x.seat)))),
      history.map((e) => h("tr", { "data-hand": e.hand },
        h("td", {}, e.hand), h("td", {}, L(e.result) || e.result),
        h("td", {}, e.winner !== null && e.winner !== undefined ? seatName(e.winner) : L("nobody")),
        h("td", {}, e.points), (e.scores || []).map((sc) => h("td", {}, sc))))),
    h("button", { class: "btn", onclick: () => $("sheet").close() }, L("close")));
}

function openSheet() {
  renderSheet();
  $("sheet").showModal();
}

function field(label, input) {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

function seatSelect(name) {
  return h("select", { name }, seats().map((x) => h("option", { value: x.seat }, seatName(x.seat))));
}

function form(name, title, fields, build) {
  const el = h("form", { class: "cmd-form", "data-form": name, method: "dialog" },
    h("h3", {}, title), fields, h("button", { class: "btn", type: "submit" }, L("b_send")));
  el.addEventListener("submit", (e) => {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(el).entries());
    const [action, payload] = build(data);
    $("more").close();
    send(action, payload);
  });
  return el;
}

function newGameForm() {
  const st = state();
  const names = seats().map((x) => x.name).join("\n") || "\n\n\n";
  return form("new-game", L("b_new_game"), [
    field(L("f_rules"), h("input", { name: "rules", value: st ? st.rules : "walnut", list: "rulesets", required: true })),
    h("datalist", { id: "rulesets" }, ["walnut", "wooden", "outdoor", "straight", "revisited", "puerto-rico"].map((r) => h("option", { value: r }))),
    field(L("f_names"), h("textarea", { name: "names", rows: 4 }, names)),
    field(L("f_target"), h("input", { name: "target", type: "number", min: 1, value: st && st.target ? st.target : "" })),
    h("label", { class: "check" }, h("input", { name: "partners", type: "checkbox", checked: partnership() }), L("f_partners")),
    field(L("f_language"), h("select", { name: "language" }, LANGUAGES.map((l) => h("option", { value: l, selected: l === app.lang }, l)))),
  ], (d) => {
    const list = d.names.split("\n").map((x) => x.trim()).filter(Boolean);
    const payload = { rules: d.rules.trim(), seats: list.length ? list : 4, language: d.language };
    if (d.target) payload.target = Number(d.target);
    const count = list.length || 4;
    if (d.partners) payload.teams = Array.from({ length: count }, (_, seat) => seat % 2);
    return ["new_game", payload];
  });
}

function openMore(focus) {
  const st = state();
  const simple = (action) => {
    const button = h("button", { class: "btn", "data-action": action }, L(`b_${action}`));
    button.addEventListener("click", () => {
      // ending or abandoning a hand needs a second tap, as undo does
      if (SURE.includes(action) && !button.classList.contains("armed")) {
        button.classList.add("armed");
        button.textContent = L("b_again", { action: L(`b_${action}`) });
        setTimeout(() => { button.classList.remove("armed"); button.textContent = L(`b_${action}`); }, 3000);
        return;
      }
      $("more").close();
      send(action, {});
    });
    return button;
  };
  const row = (action) => h("div", { class: "row" }, h("h3", {}, L(`b_${action}`)), seatButtons(action, () => $("more").close()));
  clear($("more"),
    h("div", { class: "more-head" }, h("h2", {}, L("b_more")), h("button", { class: "btn", onclick: () => $("more").close() }, L("close"))),
    st && seats().length && !["idle", "over"].includes(st.phase) ? [
      h("div", { class: "row simple" }, ["next_hand", "confirm", "end_hand", "redeal"].map(simple)),
      row("lead"), row("out"),
      form("count", L("b_count"), [field(L("f_seat"), seatSelect("seat")),
        field(L("f_pips"), h("input", { name: "pips", type: "number", min: 0 })),
        field(L("f_tiles"), h("input", { name: "tiles" }))],
        (d) => ["count", { seat: Number(d.seat), ...(d.tiles.trim() ? { tiles: d.tiles.trim().split(/[\s,]+/) } : { pips: Number(d.pips || 0) }) }]),
      form("correct", L("b_correct"), [field(L("f_tile_read"), h("input", { name: "tile", required: true, placeholder: "6-4" })),
        field(L("f_tile_as"), h("input", { name: "as", required: true, placeholder: "6-1" }))],
        (d) => ["correct", { tile: d.tile.trim(), as: d.as.trim() }]),
      form("rename", L("b_rename"), [field(L("f_seat"), seatSelect("seat")), field(L("f_name"), h("input", { name: "name", required: true, maxlength: 32 }))],
        (d) => ["rename", { seat: Number(d.seat), name: d.name.trim() }]),
    ] : null,
    newGameForm());
  $("more").showModal();
  const target = focus && $("more").querySelector(`[data-form="${focus}"]`);
  if (target) target.scrollIntoView();
}

render();
connect();
