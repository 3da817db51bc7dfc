// What the table's AWTRIX clock and WLED strip show, drawn from the very payloads the
// table sent them (spec/mqtt.md, "Outputs for devices that are not ours"): a 32 x 8 matrix
// writing the custom app's coloured fragments in a 3 x 5 font (in capitals, scrolling
// when wider than the matrix, as AWTRIX does), a notification over it for its `duration`,
// and the strip's LEDs round the table, each in its segment's colour.

const W = 32, H = 8;
const STEP_MS = 90; // one column of scrolling
const $ = (id) => document.getElementById(id);

// A 3 x 5 font: each glyph five rows of bits, its width the longest row.
const FONT = {
  A: ["010", "101", "111", "101", "101"], B: ["110", "101", "110", "101", "110"],
  C: ["011", "100", "100", "100", "011"], D: ["110", "101", "101", "101", "110"],
  E: ["111", "100", "110", "100", "111"], F: ["111", "100", "110", "100", "100"],
  G: ["011", "100", "101", "101", "011"], H: ["101", "101", "111", "101", "101"],
  I: ["111", "010", "010", "010", "111"], J: ["001", "001", "001", "101", "010"],
  K: ["101", "101", "110", "101", "101"], L: ["100", "100", "100", "100", "111"],
  M: ["101", "111", "111", "101", "101"], N: ["110", "101", "101", "101", "101"],
  O: ["010", "101", "101", "101", "010"], P: ["110", "101", "110", "100", "100"],
  Q: ["010", "101", "101", "111", "011"], R: ["110", "101", "110", "101", "101"],
  S: ["011", "100", "010", "001", "110"], T: ["111", "010", "010", "010", "010"],
  U: ["101", "101", "101", "101", "111"], V: ["101", "101", "101", "101", "010"],
  W: ["101", "101", "111", "111", "101"], X: ["101", "101", "010", "101", "101"],
  Y: ["101", "101", "010", "010", "010"], Z: ["111", "001", "010", "100", "111"],
  0: ["111", "101", "101", "101", "111"], 1: ["010", "110", "010", "010", "111"],
  2: ["110", "001", "010", "100", "111"], 3: ["110", "001", "010", "001", "110"],
  4: ["101", "101", "111", "001", "001"], 5: ["111", "100", "110", "001", "110"],
  6: ["011", "100", "111", "101", "111"], 7: ["111", "001", "010", "010", "010"],
  8: ["111", "101", "111", "101", "111"], 9: ["111", "101", "111", "001", "110"],
  " ": ["00", "00", "00", "00", "00"], "+": ["000", "010", "111", "010", "000"],
  "-": ["000", "000", "111", "000", "000"], ":": ["0", "1", "0", "1", "0"],
  ".": ["0", "0", "0", "0", "1"], ",": ["0", "0", "0", "1", "1"], "!": ["1", "1", "1", "0", "1"],
  "?": ["110", "001", "010", "000", "010"], "'": ["1", "1", "0", "0", "0"],
  "/": ["001", "001", "010", "100", "100"],
};

function glyph(ch) {
  const plain = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toUpperCase();
  return FONT[plain] || FONT["?"];
}

// The columns a text of coloured fragments lights: [[colour or null per row], ...]
function columns(fragments) {
  const cols = [];
  for (const { t, c } of fragments) {
    for (const ch of String(t)) {
      const g = glyph(ch);
      for (let x = 0; x < g[0].length; x++) cols.push(g.map((row) => (row[x] === "1" ? `#${c}` : null)));
      cols.push([null, null, null, null, null]); // a column between letters
    }
  }
  return cols;
}

function fragmentsOf(app) {
  if (!app) return [];
  if (Array.isArray(app.text)) return app.text.filter((f) => f && typeof f.t === "string");
  if (typeof app.text === "string") return [{ t: app.text, c: app.color || "FFFFFF" }];
  return [];
}

// shownNote: the number of the last notification shown (-1 until the first view: the
// notifications sent before the page opened are past, not shown again)
const state = { view: null, shownNote: -1, note: null, noteUntil: 0, offset: 0 };

function drawMatrix() {
  const canvas = $("matrix");
  const ctx = canvas.getContext("2d");
  const size = canvas.width / W;
  ctx.fillStyle = "#000";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const noting = state.note && Date.now() < state.noteUntil;
  const fragments = noting
    ? [{ t: state.note.text, c: state.note.color || "FFFFFF" }]
    : fragmentsOf(state.view && state.view.app);
  const cols = columns(fragments);
  const scrolls = cols.length > W;
  const start = scrolls ? W - (state.offset % (cols.length + W)) : Math.floor((W - cols.length) / 2);
  for (let x = 0; x < W; x++) {
    const col = cols[x - start];
    for (let y = 0; y < H; y++) {
      const lit = col && y >= 1 && y <= 5 ? col[y - 1] : null;
      ctx.fillStyle = lit || "#1b1b1b";
      ctx.beginPath();
      ctx.arc((x + 0.5) * size, (y + 0.5) * size, size * 0.38, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  const words = fragments.map((f) => f.t).join("");
  canvas.setAttribute("aria-label", words || "nothing");
  canvas.dataset.text = words;
  canvas.dataset.showing = noting ? "note" : fragments.length ? "app" : "none";
}

// The strip's LEDs round the table, clockwise on screen from the bottom right (seat 0
// sits at the bottom, as on the display): LED i's place on the rectangle's edge.
function ledPlaces(count, w, h, inset) {
  const x0 = inset, y0 = inset, x1 = w - inset, y1 = h - inset;
  const sides = [
    [[x1, y1], [x0, y1]], [[x0, y1], [x0, y0]], [[x0, y0], [x1, y0]], [[x1, y0], [x1, y1]],
  ];
  const lengths = sides.map(([a, b]) => Math.hypot(b[0] - a[0], b[1] - a[1]));
  const total = lengths.reduce((a, b) => a + b, 0);
  const places = [];
  for (let i = 0; i < count; i++) {
    let d = ((i + 0.5) / count) * total;
    let k = 0;
    while (d > lengths[k] && k < 3) d -= lengths[k++];
    const [[ax, ay], [bx, by]] = sides[k];
    const f = d / lengths[k];
    places.push([ax + (bx - ax) * f, ay + (by - ay) * f]);
  }
  return places;
}

function ledColours(strip) {
  const segs = strip && Array.isArray(strip.seg) ? strip.seg : [];
  const count = Math.max(0, ...segs.map((s) => Number(s.stop) || 0));
  const colours = Array(count).fill(null);
  if (!strip || strip.on === false) return colours;
  for (const s of segs) {
    const col = Array.isArray(s.col) && Array.isArray(s.col[0]) ? s.col[0] : [255, 255, 255];
    for (let i = s.start; i < s.stop; i++) colours[i] = s.on === false ? null : `rgb(${col.slice(0, 3).join(",")})`;
  }
  return colours;
}

function drawStrip() {
  const canvas = $("strip");
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#000";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = "#3b2a1a"; // the table
  ctx.fillRect(40, 40, canvas.width - 80, canvas.height - 80);
  const colours = ledColours(state.view && state.view.strip);
  const places = ledPlaces(colours.length, canvas.width, canvas.height, 22);
  const r = Math.max(3, Math.min(9, (2 * (canvas.width + canvas.height)) / Math.max(colours.length, 1) / 3));
  colours.forEach((colour, i) => {
    ctx.fillStyle = colour || "#222";
    ctx.beginPath();
    ctx.arc(places[i][0], places[i][1], r, 0, 2 * Math.PI);
    ctx.fill();
  });
  const lit = colours.map((c) => c || "off");
  canvas.dataset.leds = JSON.stringify(lit);
  const segs = state.view && state.view.strip && Array.isArray(state.view.strip.seg) ? state.view.strip.seg : [];
  $("strip-text").textContent = segs.length
    ? segs.map((s) => `seat ${s.id + 1}: ${s.on ? `rgb(${(s.col && s.col[0] || []).join(", ")})` : "off"}`).join(" · ")
    : "The strip has been sent nothing yet.";
}

function render() {
  const view = state.view;
  if (!view) return;
  $("awtrix-box").hidden = !view.awtrix;
  $("wled-box").hidden = !view.wled;
  $("none").hidden = Boolean(view.awtrix || view.wled);
  if (view.awtrix) $("awtrix-topic").textContent = `${view.awtrix.prefix}/custom/${view.awtrix.app}`;
  if (view.wled) $("wled-topic").textContent = `${view.wled.topic}/api`;
  const notes = view.notes || [];
  if (state.shownNote < 0) state.shownNote = Math.max(0, ...notes.map((e) => e.n)); // not replayed
  for (const entry of notes) {
    if (entry.n > state.shownNote) {
      state.shownNote = entry.n;
      state.note = entry.note;
      state.noteUntil = Date.now() + 1000 * (Number(entry.note.duration) || 5);
      state.offset = 0;
      $("note-text").textContent = `Last notification: ${entry.note.text}`;
    }
  }
  $("matrix-text").textContent = view.app ? `App: ${fragmentsOf(view.app).map((f) => f.t).join("")}` : "No app.";
  drawMatrix();
  drawStrip();
}

function connect() {
  const source = new EventSource("/outputs/events");
  source.addEventListener("outputs", (e) => {
    state.view = JSON.parse(e.data);
    $("link").textContent = "Live";
    $("link").className = "live";
    render();
  });
  source.onerror = () => {
    $("link").textContent = "Offline";
    $("link").className = "stale";
  };
}

setInterval(() => {
  state.offset += 1;
  if (state.view) drawMatrix();
}, STEP_MS);
connect();
