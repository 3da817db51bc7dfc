// Sending a command to the display server and telling the player what came of it.

import { $, app, L } from "./context.js";
import { clear, h, icon } from "./dom.js";

// The toast sits just above the buttons on a phone, and over the layout's felt (above its
// "Ends" and last-play line) on a wide screen: never over a score card or a button.
function placeToast(box) {
  if (!$("board")) { // a page without the layout and its buttons (the Camera page): at the top
    box.style.left = box.style.maxWidth = "";
    box.style.bottom = "auto";
    box.style.top = "8px";
    return;
  }
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

// The command PIN, when the display asks for one: asked at the first press, kept in
// memory only (a reload asks again), forgotten when the display says it is wrong.
function askPin(action) {
  const dialog = $("pin");
  const input = h("input", {
    id: "pin-input", name: "pin", type: "password", inputmode: "numeric",
    autocomplete: "off", required: true, minlength: 4, maxlength: 64,
    "aria-describedby": "pin-text",
  });
  const form = h("form", { method: "dialog" },
    h("h2", { id: "pin-title" }, L("pin_title")),
    h("p", { id: "pin-text" }, L("pin_text", { action: L(`b_${action}`) })),
    h("label", { class: "field", for: "pin-input" }, h("span", {}, L("pin_label")), input),
    h("div", { class: "pin-buttons" },
      h("button", { class: "btn", type: "button", "data-pin": "cancel", value: "cancel" }, L("pin_cancel")),
      h("button", { class: "btn", type: "submit", "data-pin": "ok", value: "ok" }, L("pin_ok"))));
  clear(dialog, form);
  dialog.setAttribute("aria-labelledby", "pin-title");
  return new Promise((resolve) => {
    let answer = null;
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      answer = input.value.trim();
      dialog.close();
    });
    form.querySelector('[data-pin="cancel"]').addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => resolve(answer || null), { once: true });
    dialog.showModal();
    input.focus();
  });
}

async function post(body) {
  const headers = { "Content-Type": "application/json" };
  if (app.pin) headers["X-Display-Pin"] = app.pin;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const response = await fetch("/api/cmd", { method: "POST", headers, body });
      return await response.json();
    } catch (err) {
      if (attempt === 1) return { ok: false, display_error: "unreachable" };
    }
  }
  return { ok: false, display_error: "unreachable" };
}

// `labelKey`: the button's words for this command, when they are not `b_<action>`
export async function send(action, fields, labelKey = `b_${action}`) {
  const label = L(labelKey);
  const body = JSON.stringify({ id: newId(), action, ...fields });
  if (app.pinNeeded && !app.pin) {
    app.pin = await askPin(action);
    if (!app.pin) return toast("no", L("pin_cancelled", { action: label }));
  }
  toast("wait", L("sending", { action: label }));
  let reply = await post(body);
  if (reply.display_error === "pin_needed") {
    // the display has a PIN: ask for it once, then send the same command again
    app.pinNeeded = true;
    app.pin = await askPin(action);
    if (!app.pin) return toast("no", L("pin_cancelled", { action: label }));
    toast("wait", L("sending", { action: label }));
    reply = await post(body);
  }
  // the reply is told in the page's language now: a new game may have changed it
  const told = L(labelKey);
  let error = reply.error;
  if (reply.display_error === "timeout") error = L("no_answer");
  if (reply.display_error === "broker") error = L("stale_broker_lost");
  if (reply.display_error === "unreachable") error = L("unreachable");
  if (reply.display_error === "pin_wrong" || reply.display_error === "pin_needed") {
    app.pin = null;
    error = L("pin_wrong");
  }
  if (reply.display_error === "pin_locked") error = L("pin_locked", { n: reply.retry_after });
  toast(reply.ok ? "ok" : "no", reply.ok ? L("done", { action: told }) : L("refused", { action: told, error }));
  return reply;
}
