// The layout drawn to scale from state.layout: tiles, pips, spinner, open ends and
// the last play. One SVG unit is one millimetre of the table; the view is zoomed to the
// played area (uniform scale, so shapes and distances stay true) and shows the
// surface's edge when it is within view.

import { s } from "./dom.js";
import { CODE } from "./i18n.js";

// pip positions on a 3x3 grid (-1..1) for 0-9; larger numbers are written as digits
const G = { tl: [-1, -1], tc: [0, -1], tr: [1, -1], ml: [-1, 0], c: [0, 0], mr: [1, 0], bl: [-1, 1], bc: [0, 1], br: [1, 1] };
const PIPS = [
  [],
  ["c"],
  ["tl", "br"],
  ["tl", "c", "br"],
  ["tl", "tr", "bl", "br"],
  ["tl", "tr", "c", "bl", "br"],
  ["tl", "tr", "ml", "mr", "bl", "br"],
  ["tl", "tr", "ml", "c", "mr", "bl", "br"],
  ["tl", "tc", "tr", "ml", "mr", "bl", "bc", "br"],
  ["tl", "tc", "tr", "ml", "c", "mr", "bl", "bc", "br"],
];

function numbers(tile) {
  return String(tile).split("-").map(Number);
}

function geometry(placed) {
  const { xa, ya, xb, yb } = placed;
  if (![xa, ya, xb, yb].every(Number.isFinite)) return null;
  const d = Math.hypot(xb - xa, yb - ya);
  if (d <= 0) return null;
  return { mx: (xa + xb) / 2, my: (ya + yb) / 2, d, angle: (Math.atan2(yb - ya, xb - xa) * 180) / Math.PI };
}

function half(n, cx, d, angle) {
  if (n > 9) {
    // written upright whatever way the tile lies
    return [s("text", { x: cx, y: 0, class: "pip-number", "font-size": d * 0.5, "dominant-baseline": "central", "text-anchor": "middle", transform: `rotate(${-angle} ${cx} 0)` }, n)];
  }
  const step = d * 0.26;
  return PIPS[n].map((key) =>
    s("circle", { cx: cx + G[key][0] * step, cy: G[key][1] * step, r: d * 0.085, class: "pip" }),
  );
}

function tileGroup(placed, g, marks) {
  const [a, b] = numbers(placed.tile);
  const { d } = g;
  const cls = marks.illegal
    ? "illegal-tile"
    : ["tile", marks.spinner ? "spinner" : "", marks.last ? "last-play" : ""].join(" ");
  return s(
    "g",
    { class: cls, "data-tile": placed.tile, transform: `translate(${g.mx} ${g.my}) rotate(${g.angle})` },
    s("rect", { x: -d, y: -d / 2, width: 2 * d, height: d, rx: d * 0.14, class: "tile-body" }),
    s("line", { x1: 0, y1: -d * 0.38, x2: 0, y2: d * 0.38, class: "tile-divider" }),
    half(a, -d / 2, d, g.angle),
    half(b, d / 2, d, g.angle),
  );
}

function star(x, y, r) {
  const points = [];
  for (let i = 0; i < 8; i++) {
    const rr = i % 2 ? r * 0.45 : r;
    const a = (Math.PI / 4) * i - Math.PI / 2;
    points.push(`${x + rr * Math.cos(a)},${y + rr * Math.sin(a)}`);
  }
  return s("polygon", { points: points.join(" "), class: "spinner-star" });
}

function bounds(items, surface) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y, r] of items) {
    x0 = Math.min(x0, x - r); y0 = Math.min(y0, y - r);
    x1 = Math.max(x1, x + r); y1 = Math.max(y1, y + r);
  }
  if (!Number.isFinite(x0)) return [0, 0, surface.width_mm, surface.height_mm];
  const minW = 220, minH = 150;
  const w = Math.max(x1 - x0, minW), h = Math.max(y1 - y0, minH);
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  return [cx - w / 2, cy - h / 2, w, h];
}

// The view widened to the shape of the box it is drawn in (`box`: its width and height
// in pixels, when known), so that all it shows is inside the viewBox.
function shaped([x, y, w, h], box) {
  if (!box || !(box.width > 0) || !(box.height > 0)) return [x, y, w, h];
  const want = box.width / box.height;
  if (w / h < want) return [x - (h * want - w) / 2, y, h * want, h];
  return [x, y - (w / want - h) / 2, w, w / want];
}

// The surface's dashed edge: the parts of its four sides within `view`, as lines (a
// rectangle larger than the view would lie, invisible, over the rest of the page).
function edges(surface, [x, y, w, h]) {
  const [W, H] = [surface.width_mm, surface.height_mm];
  const clip = (lo, hi, from, to) => [Math.max(lo, from), Math.min(hi, to)];
  const out = [];
  const [ax, bx] = clip(0, W, x, x + w);
  const [ay, by] = clip(0, H, y, y + h);
  for (const yy of [0, H]) {
    if (yy >= y && yy <= y + h && ax < bx) out.push(s("line", { x1: ax, y1: yy, x2: bx, y2: yy, class: "surface" }));
  }
  for (const xx of [0, W]) {
    if (xx >= x && xx <= x + w && ay < by) out.push(s("line", { x1: xx, y1: ay, x2: xx, y2: by, class: "surface" }));
  }
  return out;
}

// An <svg> of the layout; `lastPlay` is the view's last play (or null); `alerts` the
// standing alerts: an illegal tile that lies on the table (its halves known) is drawn
// where it lies, outlined in the illegal colour, and is not part of the layout; `box`
// the size it is drawn at (the view takes its shape).
export function layoutSvg(state, lastPlay, words, alerts = [], box = null) {
  const layout = state.layout || {};
  const surface = state.surface || { width_mm: 600, height_mm: 600 };
  const tiles = Array.isArray(layout.tiles) ? layout.tiles : [];
  const ends = Array.isArray(layout.open_ends) ? layout.open_ends : [];
  const placed = [];
  const unplaced = [];
  for (const t of tiles) {
    const g = geometry(t);
    (g ? placed : unplaced).push({ t, g });
  }
  const wrong = [];
  const unread = []; // UNREADABLE places: where the camera sees something it cannot read
  for (const a of Array.isArray(alerts) ? alerts : []) {
    if (!a || a.resolved) continue;
    if (a.code === CODE.UNREADABLE && Number.isFinite(a.xa) && Number.isFinite(a.ya)) {
      const g = geometry(a);
      unread.push({ a, x: g ? g.mx : a.xa, y: g ? g.my : a.ya });
      continue;
    }
    if (a.severity !== "illegal" || !a.tile) continue;
    const g = geometry(a);
    if (g) wrong.push({ a, g });
  }
  const d0 = placed.length ? placed[0].g.d : wrong.length ? wrong[0].g.d : 25;
  const items = [...placed, ...wrong].map(({ g }) => [g.mx, g.my, g.d * 1.15]);
  unread.forEach(({ x, y }) => items.push([x, y, d0 * 1.2]));
  ends.filter((e) => Number.isFinite(e.x) && Number.isFinite(e.y)).forEach((e) => items.push([e.x, e.y, d0 * 1.2]));
  const [vx, vy, vw, vh] = bounds(items, surface);
  const pad = d0 * 0.8;
  const view = shaped([vx - pad, vy - pad, vw + 2 * pad, vh + 2 * pad], box);
  const svg = s("svg", {
    class: "layout",
    viewBox: view.join(" "),
    preserveAspectRatio: "xMidYMid meet",
    role: "img",
    "aria-label": tiles.map((t) => t.tile).join(" "),
  });
  svg.append(...edges(surface, view));
  const lastTile = lastPlay ? lastPlay.tile : null;
  for (const { t, g } of placed) {
    const marks = { spinner: layout.spinner && t.tile === layout.spinner, last: t.tile === lastTile };
    svg.append(tileGroup(t, g, marks));
  }
  // the spinner's star, over everything, on a corner (no joined tile covers a corner)
  const spin = placed.find(({ t }) => layout.spinner && t.tile === layout.spinner);
  if (spin) {
    const { mx, my, d, angle } = spin.g;
    svg.append(s("g", { class: "spinner-mark", transform: `translate(${mx} ${my}) rotate(${angle})` },
      star(d * 0.9, -d * 0.45, d * 0.3), s("title", {}, words.spinner)));
  }
  for (const e of ends) {
    if (!Number.isFinite(e.x) || !Number.isFinite(e.y)) continue;
    const owner = placed.find(({ t }) => t.tile === e.tile);
    let [ux, uy] = [0, -1];
    if (owner) {
      const len = Math.hypot(e.x - owner.g.mx, e.y - owner.g.my) || 1;
      [ux, uy] = [(e.x - owner.g.mx) / len, (e.y - owner.g.my) / len];
    }
    const lx = e.x + ux * d0 * 0.75, ly = e.y + uy * d0 * 0.75;
    svg.append(
      s("g", { class: "open-end", "data-pip": e.pip, "data-counts": e.counts },
        s("line", { x1: e.x, y1: e.y, x2: lx, y2: ly, class: "open-end-link" }),
        s("circle", { cx: e.x, cy: e.y, r: d0 * 0.12, class: "open-end-dot" }),
        s("circle", { cx: lx, cy: ly, r: d0 * 0.36, class: "open-end-ring" }),
        s("text", { x: lx, y: ly, class: "open-end-pip", "font-size": d0 * 0.46, "text-anchor": "middle", "dominant-baseline": "central" }, e.pip)),
    );
  }
  // an illegal tile over the open end it was laid against: its pips stay readable
  for (const { a, g } of wrong) {
    const group = tileGroup({ tile: a.tile }, g, { illegal: true });
    group.setAttribute("data-code", a.code);
    group.append(s("title", {}, a.message || a.code));
    svg.append(group);
  }
  // an unreadable place: a dashed ring and a question mark over it, the alert's words
  // as its tooltip, until the camera reads it again
  for (const { a, x, y } of unread) {
    svg.append(
      s("g", { class: "unread-spot", "data-code": a.code },
        s("circle", { cx: x, cy: y, r: d0 * 1.1, class: "unread-ring" }),
        s("text", { x, y, "font-size": d0 * 0.9, "text-anchor": "middle", "dominant-baseline": "central", class: "unread-mark" }, "?"),
        s("title", {}, a.message || a.code)),
    );
  }
  if (lastPlay && lastPlay.points > 0) {
    const hit = placed.find(({ t }) => t.tile === lastTile);
    if (hit) {
      const { mx, my, d } = hit.g;
      svg.append(
        s("g", { class: "last-points" },
          s("rect", { x: mx - d * 0.9, y: my - d * 1.75, width: d * 1.8, height: d * 0.9, rx: d * 0.2 }),
          s("text", { x: mx, y: my - d * 1.3, "font-size": d * 0.62, "text-anchor": "middle", "dominant-baseline": "central" }, `+${lastPlay.points}`)),
      );
    }
  }
  if (!tiles.length) {
    svg.append(s("text", { x: vx + vw / 2, y: vy + vh / 2, class: "empty-layout", "text-anchor": "middle", "font-size": vh / 10 }, words.no_tiles));
  }
  return { svg, unplaced: unplaced.map(({ t }) => t.tile) };
}
