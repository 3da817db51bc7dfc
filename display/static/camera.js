// The Camera page: what the table's camera sees (its latest snapshot, live), its status
// with each warning in words and what to do, Calibrate, a new picture, and enrolling the
// players' own set. Two live streams feed it: the table's view (`/events`: the language,
// the game's set, whether the table is online) and the camera's (`/camera/events`).

import { WARNING_CODES } from "./camera_words.js";
import { $, app, clock, L, query, renderIf, staleReasons } from "./context.js";
import { clear, h, icon } from "./dom.js";
import { LANGUAGES } from "./i18n.js";
import { send } from "./send.js";

const SETS = ["double-six", "double-nine", "double-twelve"];
const cam = {
  feed: null, // the camera's status and the latest snapshot's number
  shown: 0, // the snapshot shown
  calibrating: false,
  calibration: null, // the reply to the last Calibrate
  enrolling: false,
  enrolment: null, // the reply to the last Read the set (or the mat)
  set: null, // the set chosen for enrolment
  paper: "a4", // the mat's paper
  halves: null, // the enrolled set's halves, from the last reply that enrolled it
};
const PAPERS = ["a4", "letter", "a3"];

// ---- the live streams -------------------------------------------------------------------

function listen(path, event, take) {
  const source = new EventSource(path);
  source.addEventListener(event, (e) => {
    take(JSON.parse(e.data));
    app.linkUp = true;
    render();
  });
  source.onerror = () => {
    app.linkUp = false;
    render();
    if (source.readyState === EventSource.CLOSED) setTimeout(() => listen(path, event, take), 2000);
  };
}

// ---- rendering ----------------------------------------------------------------------------

function render() {
  const wanted = query.get("lang");
  app.lang = LANGUAGES.includes(wanted) ? wanted : app.view ? app.view.language : "en";
  document.documentElement.lang = app.lang;
  // what matters here: the page's link, the broker, the table online (not a game's state)
  const stale = staleReasons().filter((r) => r === "server_lost" || r.startsWith("broker") || r === "controller_offline");
  document.body.className = `camera-page ${stale.length ? "stale" : "live"}`;
  document.title = `${L("cam_title")}${app.view ? ` · ${app.view.table}` : ""}`;
  const status = cam.feed && cam.feed.status;
  renderBar(stale);
  renderIf($("banners"), JSON.stringify([app.lang, stale]), () => clear($("banners"),
    stale.map((r) => h("div", { class: `banner banner-${r}`, "data-reason": r }, icon("offline"), L(`stale_${r}`)))));
  renderPicture();
  const key = (part) => JSON.stringify([app.lang, part]);
  renderIf($("cam-state"), key(status && [status.state, status.warnings.length]), () => drawState(status));
  renderIf($("cam-facts"), key(status), () => drawFacts(status));
  // the table's language decides whether the page adds what to do in its own: the
  // camera's status can come before the table's view
  renderIf($("cam-warnings"), key([status && status.warnings, app.view && app.view.language]), () => drawWarnings(status));
  renderIf($("cam-actions"), key([cam.calibrating, cam.calibration]), drawActions);
  renderIf($("enrol"), key([status && status.profile, cam.enrolling, cam.enrolment, cam.set, cam.paper, app.view && app.view.set]), drawEnrol);
}

function renderBar(stale) {
  const live = stale.length === 0;
  renderIf($("bar"), JSON.stringify([app.lang, live, app.view && app.view.table]), () => clear($("bar"),
    h("div", { class: "game-info" },
      h("a", { id: "back", class: "btn back", href: `/${location.search}` }, `← ${L("cam_back")}`),
      h("span", { class: "table-id" }, app.view ? app.view.table : ""),
      h("span", {}, L("cam_title"))),
    h("div", { id: "link", class: live ? "link-live" : "link-stale" },
      icon(live ? "ok" : "offline"), live ? L("live") : L("offline"))));
}

function renderPicture() {
  const picture = cam.feed && cam.feed.picture;
  const img = $("picture");
  img.hidden = !picture;
  $("picture-none").hidden = Boolean(picture);
  clear($("picture-none"), L("cam_no_picture"));
  if (!picture) return clear($("picture-caption"));
  if (picture.n !== cam.shown) {
    cam.shown = picture.n;
    img.src = `/camera/snapshot.jpg?n=${picture.n}`;
  }
  img.alt = L("cam_picture_at", { time: clock(picture.received) });
  clear($("picture-caption"), L("cam_picture_at", { time: clock(picture.received) }));
}

const STATE_ICON = { ok: "ok", uncalibrated: "warning", moving: "wait", offline: "offline" };

function drawState(status) {
  if (!status) return clear($("cam-state"), h("div", { class: "cam-state state-none" }, L("cam_no_status")));
  const state = status.state;
  const warned = status.warnings.length > 0;
  const fine = state === "ok" && !warned;
  const todo = state === "ok" && warned ? L("cam_do_warned") : L(`cam_do_${state}`);
  return clear($("cam-state"),
    h("div", { class: `cam-state state-${state}${fine ? " fine" : ""}`, "data-state": state },
      icon(fine ? "ok" : STATE_ICON[state] === "ok" ? "warning" : STATE_ICON[state] || "warning", "state-icon"),
      h("div", {},
        h("div", { class: "state-title" }, L(`cam_state_${state}`)),
        h("div", { class: "state-do" }, todo))));
}

function drawFacts(status) {
  if (!status) return clear($("cam-facts"));
  const cal = status.calibration;
  const lines = [];
  if (status.frame) {
    const ms = status.read_ms && status.read_ms.p50 !== null ? status.read_ms.p50 : "–";
    lines.push(h("div", { id: "cam-numbers" }, L("cam_facts", { w: status.frame.width, h: status.frame.height, fps: status.fps, ms })));
  }
  lines.push(h("div", { class: "markers" }, h("span", {}, L("cam_markers")),
    [0, 1, 2, 3].map((n) => {
      const seen = cal.markers_seen.includes(n);
      return h("span", { class: `marker-chip ${seen ? "seen" : "missing"}`, "data-marker": n, title: L("cam_marker", { n }) },
        icon(seen ? "ok" : "no"), n);
    })));
  lines.push(h("div", { id: "cam-calibration" }, cal.method === "none" ? L("cam_calibrated_never")
    : L("cam_calibrated", { method: L(`cam_method_${cal.method}`), px: cal.error_px ?? "–", time: clock(cal.at) || "–" })));
  const reading = status.reading;
  lines.push(h("div", { id: "cam-reading" }, reading
    ? L("cam_reading", { time: clock(reading.at), tiles: reading.tiles, unsure: reading.unsure })
    : L("cam_reading_none")));
  return clear($("cam-facts"), lines);
}

function drawWarnings(status) {
  if (!status) return clear($("cam-warnings"));
  if (!status.warnings.length) return clear($("cam-warnings"), h("div", { class: "all-good" }, icon("ok"), L("cam_all_good")));
  return clear($("cam-warnings"),
    status.warnings.map((w) => {
      const known = WARNING_CODES.includes(w.code);
      // the table's sentence says what it measured and what to do, in the table's
      // language; in another, the page says what to do in its own
      const own = known && app.view && app.view.language !== app.lang;
      return h("div", { class: "cam-warning", role: "alert", "data-code": w.code },
        icon("warning", "warning-icon"),
        h("div", {},
          h("div", { class: "warning-title" }, known ? L(`warn_${w.code}`) : w.code),
          h("div", { class: "warning-message" }, w.message),
          own ? h("div", { class: "warning-fix" }, L(`fix_${w.code}`)) : null));
    }));
}

function drawActions() {
  const reply = cam.calibration;
  let told = null;
  if (cam.calibrating) told = h("div", { class: "told wait" }, icon("wait"), L("cam_calibrating"));
  else if (reply && reply.ok) {
    const d = reply.detail || {};
    told = h("div", { class: "told ok" }, icon("ok"),
      L("cam_calibrated_now", { seen: (d.markers_seen || []).join(", "), px: d.error_px ?? "–" }));
  } else if (reply) {
    const seen = reply.detail && reply.detail.markers_seen;
    told = h("div", { class: "told no" }, icon("no"), h("div", {},
      L("cam_calibrate_failed", { error: reply.error || "" }),
      seen ? h("div", {}, L("cam_markers_seen", { seen: seen.join(", ") || "–" })) : null));
  }
  return clear($("cam-actions"),
    h("div", { class: "buttons" },
      h("button", { class: "btn act-calibrate", "data-action": "calibrate", disabled: cam.calibrating, onclick: calibrate }, L("b_calibrate")),
      h("button", { class: "btn", "data-action": "snapshot", onclick: () => send("snapshot", {}) }, L("b_snapshot"))),
    h("div", { id: "calibrate-result" }, told));
}

async function calibrate() {
  cam.calibrating = true;
  render();
  const reply = await send("calibrate", {});
  cam.calibrating = false;
  cam.calibration = reply;
  render();
  $("calibrate-result").scrollIntoView({ block: "nearest" });
}

// ---- enrolling the players' own set ----------------------------------------------------

function setName(name) {
  return L(`set_${String(name).replace(/-/g, "_")}`);
}

function chosenSet() {
  return cam.set || (app.view && app.view.set && app.view.set.name) || "double-six";
}

function drawEnrol() {
  const profile = cam.feed && cam.feed.status && cam.feed.status.profile;
  const select = h("select", { id: "enrol-set", name: "set", onchange: (e) => { cam.set = e.target.value; render(); } },
    SETS.map((s) => h("option", { value: s, selected: s === chosenSet() }, setName(s))));
  const paper = h("select", { id: "mat-paper", name: "paper", onchange: (e) => { cam.paper = e.target.value; render(); } },
    PAPERS.map((p) => h("option", { value: p, selected: p === cam.paper }, L(`paper_${p}`))));
  const pdf = `/camera/mat.pdf?set=${encodeURIComponent(chosenSet())}&paper=${encodeURIComponent(cam.paper)}`;
  return clear($("enrol"),
    h("h2", {}, L("enrol_title")),
    h("div", { id: "enrol-profile" }, profile
      ? L("enrol_profile", { set: setName(profile.set), time: clock(profile.at) }) : L("enrol_none")),
    profile && profile.model ? drawModel(profile.model) : null,
    h("div", { class: "buttons" }, h("label", { class: "field" }, h("span", {}, L("enrol_set")), select)),
    h("h3", {}, L("mat_title")),
    h("ol", { class: "enrol-steps" },
      h("li", {}, L("mat_step_print"), " ",
        h("label", { class: "field" }, h("span", {}, L("mat_paper")), paper), " ",
        h("a", { id: "mat-pdf", class: "btn", href: pdf, download: "" }, L("b_mat_pdf"))),
      h("li", {}, L("mat_step_lay")),
      h("li", {}, L("mat_step_show"))),
    h("div", { class: "buttons" },
      h("button", { class: "btn act-enrol-mat", "data-action": "enrol-mat", disabled: cam.enrolling, onclick: () => enrol(true) }, L("b_enrol_mat"))),
    h("h3", {}, L("loose_title")),
    h("ol", { class: "enrol-steps" }, h("li", {}, L("enrol_step"))),
    h("div", { class: "buttons" },
      h("button", { class: "btn act-enrol", "data-action": "enrol", disabled: cam.enrolling, onclick: () => enrol(false) }, L("b_enrol"))),
    h("div", { id: "enrol-result" }, enrolResult()));
}

// what the table learned of the set: colours, sizes, its halves
function drawModel(model) {
  const swatch = (colour, label) => h("span", { class: "swatch-item" },
    h("span", { class: "swatch", style: `background:${colour}` }), label);
  const pips = Object.entries(model.pips || {}).map(([n, c]) => swatch(c, n));
  const facts = [
    [L("model_face"), swatch(model.face, "")],
    [L("model_pips"), h("span", { class: "swatches" }, pips)],
    [L("model_divider"), model.divider ? swatch(model.divider, "") : "–"],
    [L("model_tile"), model.tile_mm ? L("model_mm", { l: model.tile_mm[0], w: model.tile_mm[1] }) : "–"],
    [L("model_pip"), model.pip_mm ? L("model_pip_size", { d: model.pip_mm, round: Math.round((model.pip_round || 0) * 100) }) : "–"],
    [L("model_halves"), L("model_halves_n", { n: model.halves, corrected: model.corrected })],
  ];
  const halves = cam.halves
    ? h("img", { id: "model-halves", alt: L("model_halves_alt"), src: `data:image/png;base64,${cam.halves.png}` })
    : h("div", { class: "model-halves-later" }, L("model_halves_later"));
  return h("div", { id: "enrol-model" },
    h("dl", { class: "model-facts" }, facts.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])),
    halves);
}

async function enrol(mat) {
  cam.enrolling = true;
  cam.enrolment = null;
  render();
  const reply = await send("enrol", mat ? { set: chosenSet(), mat: true } : { set: chosenSet() });
  cam.enrolling = false;
  cam.enrolment = reply;
  if (reply && reply.ok && reply.detail && reply.detail.halves) cam.halves = reply.detail.halves;
  render();
  $("enrol-result").scrollIntoView({ block: "nearest" });
}

// `expected` and `read` may be counts or the tiles themselves
function count(value) {
  return Array.isArray(value) ? value.length : value;
}

function chip(text) {
  return h("span", { class: "domino-chip" }, text);
}

function enrolResult() {
  if (cam.enrolling) return h("div", { class: "told wait" }, icon("wait"), L("enrol_reading"));
  const reply = cam.enrolment;
  if (!reply) return null;
  const d = reply.detail || null;
  if (reply.ok) return h("div", { class: "told ok" }, icon("ok"), L("enrol_done", { n: d ? count(d.expected) : "" }));
  const lists = d ? [
    ["missing", L("enrol_missing"), (d.missing || []).map(chip)],
    ["misread", L("enrol_misread"), (d.misread || []).map((m) => chip(L("enrol_read_as", { tile: m.tile, as: m.as })))],
    ["extra", L("enrol_extra"), (d.extra || []).map(chip)],
  ].filter(([, , chips]) => chips.length) : [];
  return h("div", { class: "told no" }, icon("no"), h("div", {},
    h("div", { class: "enrol-error" }, L("enrol_failed", { error: reply.error || "" })),
    d ? h("div", { class: "enrol-count" }, L("enrol_read", { read: count(d.read), expected: count(d.expected) })) : null,
    lists.map(([name, title, chips]) => h("div", { class: `enrol-list enrol-${name}` }, h("h3", {}, title), chips)),
    d && d.mat && d.mat.slots && d.mat.slots.length
      ? h("ul", { class: "enrol-slots" }, d.mat.slots.map((slot) => h("li", { "data-tile": slot.tile }, slot.message)))
      : null,
    lists.length ? h("div", { class: "enrol-again" }, L("enrol_again")) : null));
}

// ---- start --------------------------------------------------------------------------------

listen("/events", "view", (view) => { app.view = view; });
listen("/camera/events", "camera", (feed) => { cam.feed = feed; });
render();
