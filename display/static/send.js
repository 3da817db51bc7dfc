// Sending a command to the display server and telling the player what came of it.

import { $, app, L } from "./context.js";
import { clear, h, icon } from "./dom.js";

export function toast(kind, text) {
  clearTimeout(app.toastTimer);
  clear($("toast"), icon(kind), h("span", { id: "toast-text" }, text));
  $("toast").dataset.kind = kind;
  $("toast").hidden = false;
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
  let error = reply.error;
  if (reply.display_error === "timeout") error = L("no_answer");
  if (reply.display_error === "broker") error = L("stale_broker_lost");
  if (reply.display_error === "unreachable") error = L("unreachable");
  toast(reply.ok ? "ok" : "no", reply.ok ? L("done", { action: label }) : L("refused", { action: label, error }));
  return reply;
}
