// Small helpers to build HTML and SVG elements without innerHTML (text is never parsed).

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

// Icons drawn here (no icon font): each is a 24x24 SVG, `aria-hidden` (text says it).
const ICONS = {
  illegal: () => [
    s("polygon", { points: "7,1 17,1 23,7 23,17 17,23 7,23 1,17 1,7", class: "ic-fill" }),
    s("rect", { x: 5, y: 10, width: 14, height: 4, class: "ic-cut" }),
  ],
  warning: () => [
    s("polygon", { points: "12,1 23,22 1,22", class: "ic-fill" }),
    s("rect", { x: 10.5, y: 8, width: 3, height: 8, class: "ic-cut" }),
    s("rect", { x: 10.5, y: 17.5, width: 3, height: 3, class: "ic-cut" }),
  ],
  fault: () => [
    s("circle", { cx: 12, cy: 12, r: 11, class: "ic-fill" }),
    s("path", { d: "M7 7 L17 17 M17 7 L7 17", class: "ic-stroke" }),
  ],
  turn: () => [s("polygon", { points: "3,2 22,12 3,22", class: "ic-fill" })],
  offline: () => [
    s("circle", { cx: 12, cy: 12, r: 10, class: "ic-ring" }),
    s("path", { d: "M5 19 L19 5", class: "ic-stroke-dark" }),
  ],
  trophy: () => [
    s("path", { d: "M6 2h12v6a6 6 0 0 1-12 0z M10 14h4v4h3v4H7v-4h3z", class: "ic-fill" }),
  ],
  domino: () => [
    s("rect", { x: 6, y: 1, width: 12, height: 22, rx: 2.5, class: "ic-ring" }),
    s("path", { d: "M7 12 H17", class: "ic-stroke-dark" }),
    s("circle", { cx: 12, cy: 6.5, r: 1.8, class: "ic-fill" }),
    s("circle", { cx: 12, cy: 17.5, r: 1.8, class: "ic-fill" }),
  ],
  ok: () => [s("path", { d: "M3 13 L9 19 L21 5", class: "ic-stroke-dark" })],
  camera: () => [
    s("path", { d: "M2 7h5l2-3h6l2 3h5v13H2z", class: "ic-fill" }),
    s("circle", { cx: 12, cy: 13, r: 4.2, class: "ic-cut" }),
  ],
  no: () => [s("path", { d: "M5 5 L19 19 M19 5 L5 19", class: "ic-stroke-dark" })],
  sun: () => [
    s("circle", { cx: 12, cy: 12, r: 5, class: "ic-fill" }),
    s("path", { d: "M12 1v4M12 19v4M1 12h4M19 12h4M4.2 4.2l2.8 2.8M17 17l2.8 2.8M4.2 19.8 7 17M17 7l2.8-2.8", class: "ic-stroke-dark" }),
  ],
  dark: () => [s("path", { d: "M15 2a10 10 0 1 0 7 15A8 8 0 0 1 15 2z", class: "ic-fill" })],
  auto: () => [
    s("circle", { cx: 12, cy: 12, r: 10, class: "ic-ring" }),
    s("path", { d: "M12 2a10 10 0 0 1 0 20z", class: "ic-fill" }),
  ],
  wait: () => [
    s("circle", { cx: 12, cy: 12, r: 10, class: "ic-ring" }),
    s("path", { d: "M12 6 V12 L16 15", class: "ic-stroke-dark" }),
  ],
};

export function icon(name, cls = "") {
  return s(
    "svg",
    { viewBox: "0 0 24 24", class: `icon icon-${name} ${cls}`, "aria-hidden": "true" },
    (ICONS[name] || ICONS.warning)(),
  );
}

export function clear(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}
