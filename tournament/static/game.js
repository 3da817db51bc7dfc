// One game of the event told again for the director: asked of its table (its record of
// every event and the frame each was read from), with the notes on its result.

import { $, el } from "/static/common.js";

const query = new URLSearchParams(location.search);
const table = query.get("table");
const gameId = query.get("game");
let game = null;
let shown = null; // the seq whose frame is shown

function names() {
  return (game && game.seats ? game.seats.map((s) => s.name) : []);
}

function who(seat) {
  return Number.isInteger(seat) ? names()[seat] || `seat ${seat}` : "?";
}

// the plays a later `lead` names (a lead the table could not see): the leader's, then
// each next seat clockwise; seq -> seat
function attributed(events) {
  const seats = names().length || 1;
  const out = new Map();
  let unnamed = [];
  let hand = null;
  for (const e of events) {
    if (e.type === "game") continue;
    if (Number.isInteger(e.hand) && e.hand !== hand) { hand = e.hand; unnamed = []; }
    if (e.type === "play" && !Number.isInteger(e.seat)) unnamed.push(e.seq);
    if (e.type === "lead" && Number.isInteger(e.seat)) {
      unnamed.forEach((seq, k) => out.set(seq, (e.seat + k) % seats));
      unnamed = [];
    }
  }
  return out;
}

function line(e, named) {
  switch (e.type) {
    case "play": {
      const name = Number.isInteger(e.seat) || !named.has(e.seq) ? who(e.seat) : `${who(named.get(e.seq))} (told later)`;
      return `${name} played ${e.tile}${e.points ? ` +${e.points} (score ${e.score})` : ""}`;
    }
    case "pass": return `${who(e.seat)} passed`;
    case "draw": return `${who(e.seat)} drew ${e.count ?? 1}`;
    case "lead": return `${who(e.seat)} led the hand`;
    case "undo": return `play #${e.undone} taken back${e.points ? `, ${e.points} points off` : ""}`;
    case "alert": return `${e.resolved ? "cleared: " : `${e.severity}: `}${e.message || e.code}`;
    case "hand": return `hand ${e.hand}: ${e.result}${Number.isInteger(e.winner) ? `, ${who(e.winner)} wins ${e.points}` : ""}; scores ${(e.scores || []).join("-")}`;
    case "game": return e.event === "started" ? `game started: ${e.rules}` : `game over; scores ${(e.scores || []).join("-")}`;
    default: return e.type;
  }
}

function frameUrl(seq) {
  return `/director/frame/${encodeURIComponent(table)}/${encodeURIComponent(gameId)}/${seq}`;
}

function show(seq) {
  shown = seq;
  const framed = game.record.frames.includes(seq);
  $("frame").hidden = !framed;
  if (framed) {
    $("frame").src = frameUrl(seq);
    $("frame").alt = `the table at #${seq}`;
  }
  $("frame-caption").textContent = framed ? `#${seq}` : `#${seq}: no frame kept for this event`;
  document.querySelectorAll("#events li").forEach((li) => li.classList.toggle("current", Number(li.dataset.seq) === seq));
}

function drawNotes() {
  $("notes").replaceChildren(...game.notes.map((n) => el("li", {}, el("span", { class: "muted" }, `${n.at.slice(0, 16).replace("T", " ")} `), n.text)));
  if (!game.notes.length) $("notes").append(el("li", { class: "muted" }, "none yet"));
}

function draw() {
  $("title").textContent = `${game.table} · round ${game.round} · ${game.game_id}`;
  $("facts").textContent = `${game.status} · ${names().join(", ")}`;
  if (game.screen) {
    $("screen").href = `${game.screen.replace(/\/?$/, "/")}history?game=${encodeURIComponent(gameId)}`;
    $("screen").hidden = false;
  }
  drawNotes();
  $("record-error").hidden = !game.error;
  $("record-error").textContent = game.error ? `The table did not give its record: ${game.error}` : "";
  const events = game.record ? game.record.events : [];
  const framed = new Set(game.record ? game.record.frames : []);
  const named = attributed(events);
  $("events").replaceChildren(...events.map((e) =>
    el("li", { "data-seq": e.seq, class: `ev ev-${e.type}${e.type === "alert" && !e.resolved ? ` ${e.severity}` : ""}` },
      el("button", { type: "button", onclick: () => show(e.seq) },
        el("span", { class: "muted" }, `#${e.seq} ${(e.ts || "").slice(11, 19)} `), line(e, named), framed.has(e.seq) ? " ▣" : ""))));
}

async function load() {
  const response = await fetch(`/director/api/game/${encodeURIComponent(table)}/${encodeURIComponent(gameId)}`);
  const body = await response.json();
  if (!response.ok) {
    $("title").textContent = body.error || `HTTP ${response.status}`;
    return;
  }
  game = body;
  draw();
}

$("note").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const text = $("note-text").value.trim();
  const response = await fetch("/director/command", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ action: "note", table, game_id: gameId, text }),
  });
  const reply = response.ok ? await response.json() : { ok: false, error: `HTTP ${response.status}` };
  $("message").className = reply.ok ? "good" : "bad";
  $("message").textContent = reply.ok ? "note added" : `note: ${reply.error}`;
  if (reply.ok) {
    $("note-text").value = "";
    await load();
  }
});
document.querySelectorAll("[data-say]").forEach((b) => b.addEventListener("click", () => {
  $("note-text").value = b.dataset.say;
  $("note-text").focus();
}));
document.addEventListener("keydown", (e) => {
  if (!game || !game.record || document.activeElement === $("note-text")) return;
  const seqs = game.record.events.map((x) => x.seq);
  const at = seqs.indexOf(shown);
  if (e.key === "ArrowDown" || e.key === "ArrowRight") show(seqs[Math.min(seqs.length - 1, at + 1)]);
  else if (e.key === "ArrowUp" || e.key === "ArrowLeft") show(seqs[Math.max(0, at - 1)]);
  else return;
  e.preventDefault();
});
load();
