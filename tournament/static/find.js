// A player finds their table and seat by name (any part of it, accents and case ignored).

import { $, el, clockText, endsAt, roundLine, follow } from "/static/common.js";

let view = null;
const fold = (s) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();

function places(query) {
  const r = view?.round;
  if (!r || !query) return [];
  const out = [];
  for (const t of r.tables) {
    for (const s of t.seats) {
      if (fold(s.name).includes(query)) out.push({ table: t, seat: s });
    }
  }
  return out;
}

function card({ table, seat }) {
  const partners = table.seats.filter((o) => o !== seat && o.team !== null && o.team === seat.team);
  const opponents = table.seats.filter((o) => o !== seat && (o.team === null || o.team !== seat.team));
  return el("div", { class: "where" },
    el("div", {}, seat.name),
    el("div", { class: "big" }, `Table ${table.table} · seat ${seat.seat}`),
    partners.length ? el("div", {}, `Partner: ${partners.map((p) => p.name).join(", ")}`) : null,
    el("div", {}, `Against: ${opponents.map((p) => p.name).join(", ")}`));
}

function byes(query) {
  const r = view?.round;
  if (!r || !query) return [];
  return view.standings.entries.filter((e) => r.byes.includes(e.player) && fold(e.name).includes(query))
    .map((e) => el("div", { class: "where" }, el("div", {}, e.name), el("div", { class: "big" }, "Sitting out this round")));
}

function draw() {
  if (!view) return;
  $("name").textContent = view.event.name;
  $("round").textContent = roundLine(view);
  const query = fold($("who").value);
  const found = [...places(query).map(card), ...byes(query)];
  if (!found.length && query) found.push(el("p", { class: "muted" }, view.round ? "No one of that name in this round." : "The round has not been seated yet."));
  $("found").replaceChildren(...found);
  $("clock").textContent = clockText(endsAt(view));
}

$("who").addEventListener("input", draw);
setInterval(() => { $("clock").textContent = clockText(endsAt(view)); }, 500);
follow("/events", "board", (next) => { view = next; draw(); });
