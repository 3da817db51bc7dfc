// Sending a command to the display server and telling the player what came of it.

import { $, app, L } from "./context.js";
import { clear, h, icon } from "./dom.js";

// The toast sits just above the buttons on a phone, and over the layout's felt (above its
// "Ends" and last-play line) on a wide screen: never over a score card or a button.
function placeToast(box) {
  if (window.matchMedia("(max-width: 600px)").matches) {
    box.style.left = box.style.maxWidth = "";
    box.style.bottom = `${$("actions").offsetHeight + 8}px`;
    return;
  }
  const board = $("board").getBoundingClientRect();
  const info = $("board-info").getBoundingClientRect();
  box.style.bottom = `${Math.max(window.innerHeight - info.top + 6, 8)}px`;
  box.style.left = `${board.left + board.width / 2}px`;
  box.style.maxWidth = `${Math.max(board.width - 16, 200)}px`;
}

export function toast(kind, text) {
  clearTimeout(app.toastTimer);
  const box = $("toast");
  clear(box, icon(kind), h("span", { id: "toast-text" }, text));
  box.dataset.kind = kind;
  box.hidden = false;
  placeToast(box);
  if (kind !== "wait") app.toastTimer = setTimeout(() => { $("toast").hidden = true; }, kind === "ok" ? 5000 : 10000);
}

export function newId() {
  return `page-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export async function send(action, fields) {
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
  // the reply is told in the page's language now: a new game may have changed it
  const told = L(`b_${action}`);
  let error = reply.error;
  if (reply.display_error === "timeout") error = L("no_answer");
  if (reply.display_error === "broker") error = L("stale_broker_lost");
  if (reply.display_error === "unreachable") error = L("unreachable");
  toast(reply.ok ? "ok" : "no", reply.ok ? L("done", { action: told }) : L("refused", { action: told, error }));
  return reply;
}
