// The walnut leaflet's "houses" tally (mirrors display/tally.py: keep them in step).
//
// A house holds 50: a long diagonal (5), a crossing long diagonal (5, a big X = 10),
// then the four corners clockwise from the top-left, each an O (10). A corner holding
// only 5 shows one short stroke (half of its X). A remainder of 1-4 (not a multiple of
// 5) is that many dots after the last house; the page prints the number beside it.

import { s } from "./dom.js";

export const HOUSE = 50;

export function tally(score) {
  if (!(score > 0)) return { houses: [], dots: 0 };
  const houses = [];
  for (let i = 0; i < Math.floor(score / HOUSE); i++) {
    houses.push({ long: 2, circles: 4, shorts: 0 });
  }
  const rest = score % HOUSE;
  const fives = Math.floor(rest / 5);
  if (fives > 0) {
    const long = Math.min(fives, 2);
    const cornerFives = fives - long;
    houses.push({ long, circles: Math.floor(cornerFives / 2), shorts: cornerFives % 2 });
  }
  return { houses, dots: score % 5 };
}

const SIZE = 44; // one house, in SVG units
const GAP = 10;
// corners clockwise from the top-left: centre of the O, and the short stroke across it
const CORNERS = [
  { cx: 6, cy: 6, stroke: [2, 10, 10, 2] },
  { cx: 38, cy: 6, stroke: [34, 2, 42, 10] },
  { cx: 38, cy: 38, stroke: [34, 42, 42, 34] },
  { cx: 6, cy: 38, stroke: [2, 34, 10, 42] },
];
const LONG = [
  [11, 11, 33, 33],
  [33, 11, 11, 33],
];

function line([x1, y1, x2, y2], cls) {
  return s("line", { x1, y1, x2, y2, class: cls });
}

function house(spec, index) {
  const g = s("g", { class: "tally-house", transform: `translate(${index * (SIZE + GAP)} 0)` });
  g.append(s("rect", { x: 0.5, y: 0.5, width: SIZE - 1, height: SIZE - 1, class: "tally-frame" }));
  LONG.slice(0, spec.long).forEach((xy) => g.append(line(xy, "tally-long")));
  CORNERS.slice(0, spec.circles).forEach((c) =>
    g.append(s("circle", { cx: c.cx, cy: c.cy, r: 5, class: "tally-o" })),
  );
  if (spec.shorts) g.append(line(CORNERS[spec.circles].stroke, "tally-short"));
  return g;
}

// An <svg> drawing `score` as houses; `data-score` and class names let tests count.
export function tallySvg(score) {
  const { houses, dots } = tally(score);
  const width = Math.max(houses.length * (SIZE + GAP) + (dots ? 16 : 0) - GAP, SIZE);
  const svg = s("svg", {
    class: "tally",
    viewBox: `-3 -3 ${width + 6} ${SIZE + 6}`,
    "data-score": score,
    role: "img",
    "aria-label": `${score}`,
  });
  houses.forEach((spec, i) => svg.append(house(spec, i)));
  const x0 = houses.length * (SIZE + GAP) - (houses.length ? GAP : 0) + 8;
  for (let i = 0; i < dots; i++) {
    svg.append(s("circle", { cx: x0 + (i % 2) * 8, cy: 30 - Math.floor(i / 2) * 10 + 8, r: 3, class: "tally-dot" }));
  }
  return svg;
}
