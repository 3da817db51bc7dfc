// The director's desk: one EventSource on /director/events; every button posts a desk
// command to /director/command and shows the reply.

import { $, el, clockText, endsAt, roundLine, follow } from "/static/common.js";

let view = null;
const DONE = new Set(["reported", "entered", "forfeit"]);

async function send(command) {
  const response = await fetch("/director/command", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(command),
  });
  const reply = response.ok ? await response.json() : { ok: false, error: `HTTP ${response.status}` };
  const box = $("message");
  box.className = reply.ok ? "good" : "bad";
  box.textContent = reply.ok ? `${command.action}: done` : `${command.action}: ${reply.error}`;
  return reply;
}

function scoreForm(table, partnered) {
  const inputs = partnered
    ? [0, 1].map((t) => el("input", { type: "number", min: 0, required: true, placeholder: `team ${t}`, "data-team": t }))
    : table.seats.map((s) => el("input", { type: "number", min: 0, required: true, placeholder: s.name, "data-seat": s.seat }));
  return el("form", {
    class: "enter",
    onsubmit: (ev) => {
      ev.preventDefault();
      const values = inputs.map((i) => Number(i.value));
      const key = partnered ? "team_scores" : "scores";
      send({ action: "result", table: table.table, round: view.round.round, [key]: values });
    },
  }, inputs, el("button", { type: "submit" }, "Enter result"));
}

function forfeitForm(table) {
  const who = el("select", {}, table.seats.map((s) => el("option", { value: s.player }, s.name)));
  const reason = el("input", { class: "reason", placeholder: "reason", required: true });
  return el("form", {
    class: "forfeit",
    onsubmit: (ev) => {
      ev.preventDefault();
      send({ action: "forfeit", round: view.round.round, player: who.value, reason: reason.value });
    },
  }, who, reason, el("button", { type: "submit" }, "Forfeit"));
}

function voidForm(table) {
  const reason = el("input", { class: "reason", placeholder: "reason", required: true });
  return el("form", {
    class: "void",
    onsubmit: (ev) => {
      ev.preventDefault();
      send({ action: "void", table: table.table, game_id: table.game_id, reason: reason.value });
    },
  }, reason, el("button", { type: "submit" }, "Void"));
}

function tableCard(table, partnered, open) {
  const late = open && !DONE.has(table.status);
  const seats = table.seats.map((s) =>
    el("li", {}, s.name, el("span", { class: "muted" }, ` ${s.player}${s.team === null ? "" : " · team " + s.team}`)));
  const score = table.scores ? el("div", { class: "muted" }, `scores ${Object.values(table.scores).join(" – ")}`) : null;
  const names = (table.confirmed_by || []).map((n) => (table.seats.find((s) => s.seat === n) || { name: `seat ${n}` }).name);
  const confirmed = names.length ? el("div", { class: "confirmed" }, `confirmed by ${names.join(", ")}`) : null;
  const card = el("div", { class: `tablecard${late ? " late" : ""}`, "data-table": table.table },
    el("h3", {}, table.table, el("span", { class: `badge ${table.status}` }, table.status.replace("_", " "))),
    el("ol", { start: 0 }, seats), score, confirmed,
    table.error ? el("div", { class: "bad" }, table.error) : null,
    table.game_id ? el("div", { class: "muted" }, table.game_id) : null);
  if (DONE.has(table.status)) card.append(voidForm(table));
  else card.append(scoreForm(table, partnered), forfeitForm(table));
  return card;
}

function drawRound() {
  const r = view.round;
  $("start").disabled = !view.can_start;
  $("close").disabled = !view.can_close;
  $("unreported").textContent = r && r.unreported.length ? `not reported: ${r.unreported.join(", ")}` : "";
  const partnered = r && r.tables.some((t) => t.seats.some((s) => s.team !== null));
  $("tables").replaceChildren(...(r ? r.tables.map((t) => tableCard(t, partnered, view.can_close)) : []));
  $("byes").textContent = r && r.byes.length ? `byes: ${r.byes.join(", ")}` : "";
  if (r) {
    $("exports").querySelector(".pdf")?.remove();
    $("exports").append(el("a", { class: "pdf", href: `/director/export/scoresheets-r${r.round}.pdf` }, `score sheets, round ${r.round} (PDF)`));
  }
}

function drawRoster() {
  $("roster").replaceChildren(...view.roster.map((p) => {
    const here = el("input", { type: "checkbox", checked: p.checked_in, "aria-label": `${p.name} is here` });
    here.addEventListener("change", () => send({ action: "check_in", player: p.id, present: here.checked }));
    const out = p.active
      ? el("button", { onclick: () => send({ action: "withdraw", player: p.id }) }, "Withdraw")
      : el("span", { class: "muted" }, "withdrawn");
    return el("tr", { "data-player": p.id }, el("td", {}, p.id), el("td", {}, p.name + (p.pair ? ` (${p.pair})` : "")),
      el("td", {}, here), el("td", {}, p.at ? `${p.at.table}/${p.at.seat}` : ""), el("td", {}, out));
  }));
}

function drawStandings() {
  $("standings").replaceChildren(...view.standings.entries.map((e) =>
    el("tr", {}, el("td", { class: "num" }, e.rank), el("td", {}, e.name), el("td", { class: "num" }, e.games),
      el("td", { class: "num" }, e.wins), el("td", { class: "num" }, e.margin), el("td", { class: "num" }, e.points))));
}

// every game of the event: opened here (its record, asked of its table) or on the
// table's own screen; how many notes its result has
function drawGames() {
  $("games").replaceChildren(...(view.games || []).map((g) => {
    const open = `/director/game?table=${encodeURIComponent(g.table)}&game=${encodeURIComponent(g.game_id)}`;
    const screen = `${g.screen.replace(/\/?$/, "/")}history?game=${encodeURIComponent(g.game_id)}`;
    const scores = g.scores ? ` · ${Object.values(g.scores).join(" – ")}` : "";
    return el("li", { "data-game": g.game_id, "data-table": g.table },
      `round ${g.round} · ${g.table} · `, el("span", { class: `badge ${g.status}` }, g.status.replace("_", " ")),
      ` ${g.names.join(", ")}${scores} `,
      el("a", { class: "open-game", href: open }, "open"), " · ",
      el("a", { class: "on-screen", href: screen, target: "_blank" }, "on the table's screen"),
      g.notes.length ? el("span", { class: "note-count" }, ` · ${g.notes.length} note${g.notes.length > 1 ? "s" : ""}: ${g.notes[g.notes.length - 1].text}`) : null);
  }));
}

function drawJournal() {
  $("journal").replaceChildren(...view.journal.map((r) =>
    el("li", {}, `${r.n} ${r.ts.slice(11, 19)} ${r.kind} ${JSON.stringify(r.data).slice(0, 160)}`)));
}

function draw(next) {
  view = next;
  $("name").textContent = view.event.name;
  $("round").textContent = roundLine(view);
  $("link").textContent = view.connected && view.synced ? "live" : "broker lost";
  drawRound();
  drawRoster();
  drawStandings();
  drawGames();
  drawJournal();
  drawClock();
}

$("start").addEventListener("click", () => send({ action: "start_round" }));
$("close").addEventListener("click", () => {
  const missing = view?.round?.unreported ?? [];
  if (missing.length && !confirm(`Close the round without ${missing.join(", ")}? They are recorded as not played.`)) return;
  send({ action: "close_round" });
});
$("add").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const command = { action: "add_player", player: $("add-id").value, name: $("add-name").value };
  if ($("add-pair").value) command.pair = $("add-pair").value;
  send(command);
});
function drawClock() {
  const text = clockText(endsAt(view));
  $("clock").textContent = text === "time" ? "time: last hand" : text;
  $("clock").classList.toggle("over", text === "time");
}

setInterval(drawClock, 500);
follow("/director/events", "director", draw);
