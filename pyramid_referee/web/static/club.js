// The club board: renders /api/club/state; the server pushes each change (server-sent events).
"use strict";
(function () {
  const T = JSON.parse(document.getElementById("texts").textContent);
  const $ = (id) => document.getElementById(id);
  const fill = (s, map) => s.replace(/\{(\w+)\}/g, (m, k) => (k in map ? map[k] : m));
  function el(tag, text, cls) { const e = document.createElement(tag); if (text != null) e.textContent = text; if (cls) e.className = cls; return e; }

  function card(t) {
    const c = el("section", null, "table-card");
    c.dataset.table = t.id;
    const head = el("div", null, "card-head");
    head.appendChild(el("span", t.name, "table-name"));
    if (t.sync.stale) c.classList.add("stale");  // the board cannot reach the club server: an old score, greyed
    const sync = el("span", t.sync.line, "sync " + (t.sync.stale ? "stale" : t.sync.online ? (t.sync.queued ? "queued" : "online") : "offline"));
    head.appendChild(sync);
    c.appendChild(head);
    if (!t.players.length) { c.appendChild(el("div", T.no_match, "no-match")); return c; }
    const ps = el("div", null, "card-players");
    t.players.forEach((p) => {
      const box = el("div", null, "card-player" + (!t.result_line && t.to_play === p ? " turn-on" : ""));
      box.appendChild(el("div", p, "pname"));
      box.appendChild(el("div", String(t.scores[p]).replace("-", "\u2212"), "pscore")  /* the typographic minus, as everywhere people read a score */);
      box.appendChild(el("div", t.needs[p] > 0 ? fill(T.needs, { n: t.needs[p], target: t.target })
        : fill(T.reached, { target: t.target }), "pneeds"));
      ps.appendChild(box);
    });
    c.appendChild(ps);
    if (t.to_wins > 1) {
      const score = t.players[0] + " " + t.wins[t.players[0]] + " : " + t.wins[t.players[1]] + " " + t.players[1];
      c.appendChild(el("div", fill(T.match_wins, { wins: t.to_wins, score: score }), "match-line"));
    }
    if (t.result_line) c.appendChild(el("div", t.result_line, "result-line"));
    c.appendChild(el("div", t.last_verdict ? t.last_verdict.line : T.no_verdict_yet, "verdict-line"));
    if (t.undone_line) c.appendChild(el("div", t.undone_line, "undone-line"));
    return c;
  }

  function list(id, items) {
    const ul = $(id); ul.replaceChildren();
    if (!items.length) ul.appendChild(el("li", T.none_yet, "none"));
    items.forEach((x) => ul.appendChild(el("li", (x.time ? x.time + " " : "") + x.line)));
  }

  function render(b) {
    $("server-line").textContent = b.server.line;
    $("server-line").className = "server " + (b.server.online ? "online" : "offline");
    const tables = $("tables"); tables.replaceChildren();
    if (!b.tables.length && b.server.online) tables.appendChild(el("div", T.no_tables, "no-tables"));
    b.tables.forEach((t) => tables.appendChild(card(t)));
    document.body.classList.toggle("many", b.tables.length > 4);  // the tables get more of the screen
    // a word longer than its box (a long surname) is set smaller, down to 60 %, rather than cut
    document.querySelectorAll(".pname").forEach((e) => {
      const over = e.scrollWidth / e.clientWidth;
      if (over > 1) e.style.fontSize = (parseFloat(getComputedStyle(e).fontSize) / Math.min(over * 1.02, 1 / 0.6)) + "px";
    });
    list("games", b.day.games);
    list("matches", b.day.matches);
    const body = $("stats").querySelector("tbody"); body.replaceChildren();
    b.players.forEach((p) => {
      const tr = el("tr");
      [p.name, p.games, p.won, p.points_per_game, p.penalties, p.calls_accepted, p.calls_refused]
        .forEach((v) => tr.appendChild(el("td", String(v))));
      body.appendChild(tr);
    });
    // the best players that fit: a row cut in half helps no one
    const box = $("stats").parentElement.getBoundingClientRect();
    while (body.lastChild && body.lastChild.getBoundingClientRect().bottom > box.bottom) body.lastChild.remove();
    window.clubState = b; window.clubRendered = performance.now();
    document.body.dataset.version = b.version;
  }

  // The page lost this board's own server: every card is what was last received, and says when.
  const hm = (d) => String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
  let receivedAt = new Date();
  function lost() {
    $("offline").hidden = false;
    document.querySelectorAll(".table-card").forEach((c) => {
      c.classList.add("stale");
      const s = c.querySelector(".sync");
      if (s && !s.classList.contains("stale")) { s.className = "sync stale"; s.textContent = fill(T.data_as_of, { time: hm(receivedAt) }); }
    });
  }

  render(JSON.parse(document.getElementById("initial").textContent));
  const es = new EventSource("/api/club/events");
  es.addEventListener("state", (e) => { $("offline").hidden = true; receivedAt = new Date(); render(JSON.parse(e.data)); });
  es.onerror = lost;
})();
