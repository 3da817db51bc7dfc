// The standings page: one EventSource on /events, each `board` event redraws it.

const $ = (id) => document.getElementById(id);

function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = String(text);
  if (cls) td.className = cls;
  return td;
}

function drawEntries(entries) {
  const body = $("entries");
  body.replaceChildren(
    ...entries.map((e) => {
      const tr = document.createElement("tr");
      if (e.rank === 1) tr.className = "first";
      tr.append(
        cell(e.rank, "num"),
        cell(e.name),
        cell(e.games, "num"),
        cell(e.wins, "num"),
        cell(e.margin > 0 ? `+${e.margin}` : e.margin, "num"),
        cell(e.points, "num"),
      );
      return tr;
    }),
  );
  $("empty").hidden = entries.length > 0;
}

function drawTables(tables) {
  $("tables").replaceChildren(
    ...tables.map((t) => {
      const li = document.createElement("li");
      li.className = t.status;
      const name = document.createElement("span");
      name.textContent = `${t.table} · ${t.status}`;
      const game = document.createElement("span");
      game.className = "game";
      game.textContent = t.game_id ? `hand ${t.hand ?? "?"}` : "";
      game.title = t.game_id ?? "";
      li.append(name, game);
      return li;
    }),
  );
}

function draw(view) {
  const live = view.connected && view.synced;
  document.body.classList.toggle("stale", !live);
  $("link").textContent = live ? "live" : view.connected ? "catching up…" : "broker lost";
  const s = view.standings;
  if (!s) return;
  drawEntries(s.entries);
  drawTables(s.tables);
  $("updated").textContent = `update ${s.seq} · ${s.ts}`;
}

function connect() {
  const source = new EventSource("/events");
  source.addEventListener("board", (ev) => draw(JSON.parse(ev.data)));
  source.onerror = () => {
    document.body.classList.add("stale");
    $("link").textContent = "desk lost";
  };
}

connect();
