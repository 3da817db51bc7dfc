// Shared by the event's pages: the clock and small DOM helpers.

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// "12:34" left until `endsAt` (a spec ts), "time" once it passed, "" without a clock.
export function clockText(endsAt, now = Date.now()) {
  if (!endsAt) return "";
  const left = Math.round((Date.parse(endsAt) - now) / 1000);
  if (left <= 0) return "time";
  const m = Math.floor(left / 60), s = left % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

// The running round's `ends_at` (null once it is closed, or without a clock).
export function endsAt(view) {
  const r = view?.round;
  return r && r.state !== "closed" ? r.ends_at : null;
}

export function roundLine(view) {
  const r = view.round, e = view.event;
  if (!r) return `${e.rounds} rounds · not started`;
  return `round ${r.round} of ${e.rounds} · ${r.state}`;
}

export function follow(url, event, draw) {
  const source = new EventSource(url);
  source.addEventListener(event, (ev) => {
    const view = JSON.parse(ev.data);
    document.body.classList.toggle("stale", !(view.connected && view.synced));
    draw(view);
  });
  source.onerror = () => document.body.classList.add("stale");
  return source;
}
