// Correcting a misread tile by touch: tapping a tile of the layout opens a picker of what
// each half really shows; Send posts `correct` (the tile as read, as it really is), the
// table judges the layout again, and every display shows the change from the new state.

import "./camera_words.js";
import { $, app, L, state } from "./context.js";
import { clear, h } from "./dom.js";
import { send, toast } from "./send.js";

const CORRECTABLE = ["lead", "play"]; // the phases in which the table takes `correct`

export function installCorrect() {
  $("layout-wrap").addEventListener("click", (e) => {
    const tile = e.target.closest ? e.target.closest("g.tile[data-tile]") : null;
    if (!tile) return;
    const st = state();
    if (!st || !CORRECTABLE.includes(st.phase)) return toast("no", L("correct_not_now"));
    openCorrect(tile.dataset.tile);
  });
}

// the highest number the game's set has (the view's set, else what the layout shows)
function maxPip(st) {
  if (app.view.set && app.view.set.max_pip) return app.view.set.max_pip;
  const shown = (st.layout.tiles || []).flatMap((t) => String(t.tile).split("-").map(Number));
  return Math.max(6, ...shown);
}

function written(a, b) {
  return `${Math.max(a, b)}-${Math.min(a, b)}`;
}

export function openCorrect(read) {
  const st = state();
  const halves = read.split("-").map(Number);
  const chosen = [...halves];
  const dialog = $("correct");
  const numbers = Array.from({ length: maxPip(st) + 1 }, (_, n) => n);
  const draw = () => {
    const fixed = written(...chosen);
    const changed = fixed !== written(...halves);
    clear(dialog,
      h("h2", { id: "correct-title" }, L("correct_title", { tile: read })),
      h("p", {}, L("correct_text", { tile: read })),
      h("div", { class: "correct-preview", "aria-live": "polite" },
        chosen.map((n, i) => h("span", { class: n !== halves[i] ? "half changed" : "half" }, n))),
      halves.map((shown, i) => h("fieldset", { class: "pick-half", "data-half": i },
        h("legend", {}, L("correct_half", { n: shown })),
        numbers.map((n) => h("button", {
          type: "button", class: n === chosen[i] ? "btn pick chosen" : "btn pick",
          "data-pip": n, "aria-pressed": n === chosen[i] ? "true" : "false",
          onclick: () => { chosen[i] = n; draw(); },
        }, n)))),
      h("div", { class: "correct-buttons" },
        h("button", { class: "btn", type: "button", "data-correct": "cancel", onclick: () => dialog.close() }, L("correct_cancel")),
        h("button", {
          class: "btn send-correct", type: "button", "data-correct": "send", disabled: !changed,
          onclick: () => { dialog.close(); send("correct", { tile: read, as: fixed }); },
        }, changed ? L("correct_send", { tile: fixed }) : L("correct_same"))));
  };
  dialog.setAttribute("aria-labelledby", "correct-title");
  draw();
  dialog.showModal();
}
