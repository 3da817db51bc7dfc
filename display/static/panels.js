// The parts of the page drawn from the view: alerts, score cards, layout, results.

import { $, app, hooks, L, partnership, renderIf, seatName, seats, teamName } from "./context.js";
import { clear, h, icon } from "./dom.js";
import { alertText, CODE } from "./i18n.js";
import { layoutSvg } from "./layout.js";
import { send } from "./send.js";
import { tallySvg } from "./tally.js";

export function renderAlerts() {
  const alerts = app.view ? app.view.alerts : [];
  const key = JSON.stringify([app.lang, alerts, seats().map((x) => x.name)]);
  renderIf($("alerts"), key, () => drawAlerts(alerts));
}

function drawAlerts(alerts) {
  // the two latest in full; older ones still stand, told in one line each
  const compact = (i) => i < alerts.length - 2;
  clear(
    $("alerts"),
    alerts.map((a, i) =>
      h("div", { class: `alert sev-${a.severity}${compact(i) ? " compact" : ""}`, role: "alert", "data-code": a.code, "data-id": a.id },
        icon(a.severity in { illegal: 1, warning: 1, fault: 1 } ? a.severity : "warning", "alert-icon"),
        h("div", { class: "alert-body" },
          h("div", { class: "alert-title" }, L(`sev_${a.severity}`), a.seat != null ? ` · ${seatName(a.seat)}` : "", a.tile ? ` · ${a.tile}` : ""),
          h("div", { class: "alert-message" }, a.message),
          alertText(app.lang, a.code) && alertText(app.lang, a.code) !== a.message
            ? h("div", { class: "alert-help" }, alertText(app.lang, a.code)) : null,
          a.code === CODE.LEAD_UNKNOWN ? seatButtons("lead") : null)),
    ),
  );
}

export function seatButtons(action, before = () => {}) {
  const press = (seat) => () => {
    before();
    send(action, { seat });
  };
  return h("div", { class: "seat-buttons" },
    seats().map((x) => h("button", { class: "btn", "data-action": action, "data-seat": x.seat, onclick: press(x.seat) }, x.name || L("seat_n", { n: x.seat + 1 }))));
}

function scoreBlock(score, stale) {
  return h("div", { class: "score-row" },
    h("div", { class: "score-line" },
      h("span", { class: "score" }, score),
      stale.length ? h("span", { class: "last-known", title: L("last_known") },
        icon("wait"), h("span", { class: "lk-text" }, L("last_known"))) : null),
    tallySvg(score));
}

function turnFlag() {
  return h("div", { class: "turn-flag" }, icon("turn"), L("turn"));
}

export function renderScores(st, stale) {
  const box = $("scores");
  if (!st) return clear(box);
  const turn = st.phase === "play" || st.phase === "lead" ? st.turn : null;
  box.dataset.count = partnership() ? st.teams.length : st.seats.length;
  if (partnership()) {
    return clear(box, st.teams.map((team) => {
      const onTurn = team.seats.includes(turn);
      return h("article", { class: `card team${onTurn ? " turn" : ""}`, "data-team": team.team },
        h("div", { class: "members" }, team.seats.map((seat, i) => [
          i ? h("span", { class: "amp" }, "&") : null,
          h("span", { class: `member${seat === turn ? " turn" : ""}`, "data-seat": seat },
            seat === turn ? icon("turn") : null, seatName(seat))])),
        scoreBlock(team.score, stale),
        h("div", { class: "card-foot" }, h("span", { class: "team-label" }, L("team", { n: team.team + 1 })),
          onTurn ? turnFlag() : null));
    }));
  }
  return clear(box, st.seats.map((x) =>
    h("article", { class: `card seat${x.seat === turn ? " turn" : ""}`, "data-seat": x.seat },
      h("div", { class: "name" }, x.name || L("seat_n", { n: x.seat + 1 })),
      scoreBlock(x.score, stale),
      h("div", { class: "card-foot" },
        x.tiles_left !== null && x.tiles_left !== undefined
          ? h("span", { class: "meta tiles-left", title: L("tiles_left", { n: x.tiles_left }), "aria-label": L("tiles_left", { n: x.tiles_left }) }, icon("domino"), x.tiles_left)
          : h("span", { class: "meta" }),
        x.seat === turn ? turnFlag() : null))));
}

function phaseText(st) {
  if (st.phase === "play" && st.turn !== null) return L("phase_play", { name: seatName(st.turn) });
  if (st.phase === "lead" && st.turn !== null) return L("phase_lead_seat", { name: seatName(st.turn) });
  if (st.phase === "play") return L("phase_play_any");
  return L(`phase_${st.phase}`);
}

export function renderBoard(st) {
  if (!st) {
    clear($("phase"));
    clear($("layout-wrap"));
    return clear($("board-info"));
  }
  clear($("phase"),
    st.last_hand && st.phase !== "over" ? h("span", { id: "last-hand", class: "last-hand" }, icon("wait"), L("last_hand")) : null,
    st.turn !== null && (st.phase === "play" || st.phase === "lead") ? icon("turn") : null, phaseText(st));
  const lastPlay = app.view.last_play;
  const words = { spinner: L("spinner"), no_tiles: L("no_tiles") };
  const wrap = $("layout-wrap");
  const box = { width: wrap.clientWidth, height: wrap.clientHeight };
  const { svg, unplaced } = layoutSvg(st, lastPlay, words, app.view.alerts, box);
  clear($("layout-wrap"), svg);
  const info = [h("span", { id: "ends-total", class: "chip" }, L("ends", { n: st.layout.ends_total }))];
  if (lastPlay) {
    info.push(h("span", { id: "last-play", class: "chip" },
      lastPlay.seat !== null && lastPlay.seat !== undefined
        ? L("last_play", { name: seatName(lastPlay.seat), tile: lastPlay.tile })
        : L("last_play_nobody", { tile: lastPlay.tile }),
      lastPlay.points > 0 ? h("b", {}, ` ${L("scored", { n: lastPlay.points })}`) : null));
    for (const word of Array.isArray(lastPlay.announce) ? lastPlay.announce : []) {
      info.push(h("span", { class: "chip announce" }, L(`announce_${word}`) === `announce_${word}` ? word.replace(/_/g, " ") : L(`announce_${word}`)));
    }
  }
  const ev = app.view.last_event;
  if (ev && ["pass", "draw", "lead", "undo"].includes(ev.kind) && (!lastPlay || lastPlay.seq === undefined || ev.seq > lastPlay.seq)) {
    const name = ev.seat !== null && ev.seat !== undefined ? seatName(ev.seat) : "?";
    info.push(h("span", { id: "last-event", class: "chip" }, L(`ev_${ev.kind}`, { name, n: ev.count ?? 1 })));
    if (ev.kind === "undo" && ev.draws > 0) info.push(undoDraws(ev.draws));
  } else if (ev && ev.kind === "hand" && ev.result === "redealt" && !lastPlay) {
    // `redeal`: the hand abandoned unscored and dealt again; the scores are the state's
    info.push(h("span", { id: "last-event", class: "chip", "data-result": "redealt" }, L("ev_redealt", { n: ev.hand })));
  }
  if (unplaced.length) info.push(h("span", { class: "chip" }, L("unplaced", { tiles: unplaced.join(" ") })));
  clear($("board-info"), info);
}

// an undo that took back tiles drawn after the play: the players put them back
function undoDraws(n) {
  return h("span", { id: "undo-draws", class: "chip undo-draws", role: "status", "data-draws": n },
    icon("domino"), n === 1 ? L("ev_undo_draws_1") : L("ev_undo_draws", { n }));
}

function resultKey(st) {
  return `${st.game_id}/${st.hand}/${st.phase}`;
}

export function renderResult(st) {
  const box = $("result");
  const over = app.view && app.view.game_over;
  const hand = app.view && app.view.hand_result;
  const shown = Boolean(st && (over || hand) && app.hiddenResult !== resultKey(st));
  box.hidden = !shown;
  $("board").classList.toggle("with-result", shown); // in the layout's place
  if (!shown) return clear(box);
  const hide = h("button", { class: "btn hide", onclick: () => { app.hiddenResult = resultKey(st); hooks.render(); } }, L("hide"));
  if (over) return clear(box, hide, gameOverPanel(over, st));
  return clear(box, hide, handPanel(hand));
}

function handPanel(hand) {
  const who = hand.winner !== null && hand.winner !== undefined ? seatName(hand.winner) : null;
  const title = hand.result === "domino" ? L("result_domino", { name: who ?? "?" })
    : who ? L("result_blocked", { name: who }) : L("result_blocked_nobody");
  const pips = Array.isArray(hand.pips) ? hand.pips : [];
  return h("div", { class: "panel hand-panel", "data-hand": hand.hand },
    h("div", { class: "panel-kicker" }, L("hand", { n: hand.hand })),
    h("div", { class: "panel-title" }, title),
    h("div", { class: "panel-points" }, L("result_points", { n: hand.points }),
      hand.team !== null && hand.team !== undefined && partnership()
        ? h("span", { class: "panel-team" }, ` ${L("for_team", { name: teamName(hand.team) })}`) : null),
    pips.length ? h("table", { class: "pips" },
      h("tr", {}, h("th", {}, ""), h("th", {}, L("pips"))),
      pips.map((p, seat) => h("tr", { "data-seat": seat, class: seat === hand.winner ? "winner" : "" },
        h("td", {}, seatName(seat)), h("td", {}, p === null ? "?" : p)))) : null);
}

function gameOverPanel(over, st) {
  let title = L("game_over");
  if (over.team !== null && over.team !== undefined) title = L("game_over_team", { name: teamName(over.team) });
  else if (over.winner !== null && over.winner !== undefined) title = L("game_over_winner", { name: seatName(over.winner) });
  const rows = partnership()
    ? st.teams.map((x) => [teamName(x.team), x.score, over.team === x.team])
    : st.seats.map((x) => [seatName(x.seat), x.score, over.team == null && over.winner === x.seat]);
  return h("div", { class: "panel over-panel" },
    icon("trophy", "trophy"),
    h("div", { class: "panel-title", id: "game-over-title" }, title),
    over.reason === "time" ? h("div", { class: "panel-kicker", id: "game-over-reason" }, L("over_time")) : null,
    h("table", { class: "final" }, h("caption", {}, L("final_scores")),
      rows.map(([name, score, won]) => h("tr", { class: won ? "winner" : "" }, h("td", {}, name), h("td", {}, score)))),
    "tournament" in st ? confirmBox(st) : null);
}

// A tournament's game: each player confirms the result here; the result then says who.
function confirmBox(st) {
  const confirmed = Array.isArray(st.confirmed_by) ? st.confirmed_by : [];
  return h("div", { class: "confirm-result", id: "confirm-result" },
    h("div", { class: "confirm-title" }, L("confirm_title")),
    h("div", { class: "seat-buttons" }, seats().map((x) => confirmed.includes(x.seat)
      ? h("span", { class: "confirmed", "data-seat": x.seat }, icon("ok"), L("confirmed_seat", { name: seatName(x.seat) }))
      : h("button", { class: "btn", "data-action": "confirm", "data-seat": x.seat,
        onclick: () => send("confirm", { seat: x.seat }, "b_confirm_result") }, seatName(x.seat)))));
}
