// The buttons and dialogs: commands by phase, the scoresheet and "More".

import { $, app, hooks, L, partnership, renderIf, seatName, seats, state } from "./context.js";
import { clear, h } from "./dom.js";
import { LANGUAGES } from "./i18n.js";
import { seatButtons } from "./panels.js";
import { send } from "./send.js";

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

export function renderActions(st) {
  // an empty boneyard (or a block game's, which has none) leaves nothing to draw
  const list = (st ? PHASE_ACTIONS[st.phase] || [] : []).filter((a) => a !== "draw" || st.boneyard !== 0);
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
    setTimeout(hooks.render, 3100);
    return hooks.render();
  }
  if (action === "undo") app.undoArmedUntil = 0;
  return send(action, {});
}


export function renderSheet() {
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

export function openSheet() {
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
    h("datalist", { id: "rulesets" }, ["walnut", "wooden", "outdoor", "straight", "straight-block", "revisited", "puerto-rico"].map((r) => h("option", { value: r }))),
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

export function openMore(focus) {
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
      form("correct", `${L("b_correct")} (${L("tap_to_correct").toLowerCase()})`, [field(L("f_tile_read"), h("input", { name: "tile", required: true, placeholder: "6-4" })),
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
