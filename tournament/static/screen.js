// The big screen: standings, the round's seating and the clock, one after another.
// `?panel=seating` holds one panel; `?cycle=N` shows each for N seconds (default 10).

import { $, el, clockText, endsAt, roundLine, follow } from "/static/common.js";

const params = new URLSearchParams(location.search);
const CYCLE_S = Number(params.get("cycle") || 10);
const PANELS = ["standings", "seating", "clock"];
let view = null;
let shown = PANELS.indexOf(params.get("panel") || "standings");

function drawStandings() {
  const entries = view.standings.entries.slice(0, 12);
  $("entries").replaceChildren(...entries.map((e) =>
    el("tr", { class: e.rank === 1 ? "first" : "" }, el("td", { class: "num" }, e.rank), el("td", {}, e.name),
      el("td", { class: "num" }, e.games), el("td", { class: "num" }, e.wins),
      el("td", { class: "num" }, e.margin > 0 ? `+${e.margin}` : e.margin), el("td", { class: "num" }, e.points))));
}

function drawSeating() {
  const r = view.round;
  const next = !r || r.state === "closed";
  $("seating-title").textContent = next ? `Round ${(r?.round ?? 0) + 1}: seating soon` : `Round ${r.round}: seating`;
  $("seating").replaceChildren(...(next ? [] : r.tables.map((t) =>
    el("div", { class: "tablecard" }, el("h3", {}, `Table ${t.table}`),
      el("ol", { start: 0 }, t.seats.map((s) => el("li", {}, s.name + (s.team === null ? "" : ` · team ${s.team}`))))))));
  $("screen-byes").textContent = !next && r.byes.length ? `Sitting out: ${r.byes.map(name).join(", ")}` : "";
}

function name(id) {
  return view.standings.entries.find((e) => e.player === id)?.name ?? id;
}

function drawClock() {
  const text = clockText(endsAt(view));
  for (const id of ["clock", "bigclock"]) {
    $(id).textContent = text === "time" ? "Time: last hand" : text;
    $(id).classList.toggle("over", text === "time");
  }
  $("clock-title").textContent = view?.round?.ends_at ? `Round ${view.round.round}: time left` : "No clock this round";
}

function show() {
  PANELS.forEach((p, n) => { $(`panel-${p}`).hidden = n !== shown; });
  $("dots").textContent = PANELS.map((p, n) => (n === shown ? "●" : "○")).join(" ");
}

function draw(next) {
  view = next;
  $("name").textContent = view.event.name;
  $("round").textContent = roundLine(view);
  $("link").textContent = view.connected && view.synced ? "" : "reconnecting…";
  drawStandings();
  drawSeating();
  drawClock();
}

show();
if (!params.get("panel")) setInterval(() => { shown = (shown + 1) % PANELS.length; show(); }, CYCLE_S * 1000);
setInterval(() => view && drawClock(), 500);
follow("/events", "board", draw);
