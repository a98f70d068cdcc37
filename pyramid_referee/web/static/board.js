// The scoreboard: renders the API's state; the server pushes each change (server-sent events).
"use strict";
(function () {
  const T = JSON.parse(document.getElementById("texts").textContent);
  const $ = (id) => document.getElementById(id);
  const fill = (s, map) => s.replace(/\{(\w+)\}/g, (m, k) => (k in map ? map[k] : m));
  function el(tag, text, cls) { const e = document.createElement(tag); if (text != null) e.textContent = text; if (cls) e.className = cls; return e; }
  const num = (n) => String(n).replace("-", "\u2212");  // a negative score with the typographic minus, as everywhere people read one
  function pen(rec, paid) { const p = []; if (rec) p.push("+" + rec); if (paid) p.push("\u2212" + paid); return p.join(" "); }

  // The verdict's sentence ends with its clause codes; the chips under it name them with their titles.
  function withoutCodes(v) {
    const tail = " (" + v.clauses.map((x) => x.id).join(", ") + ").";
    return v.clauses.length && v.message.endsWith(tail) ? v.message.slice(0, -tail.length) + "." : v.message;
  }

  function render(s) {
    $("match-title").textContent = T.match + " " + s.match;
    $("match-line").textContent = s.match_line || "";
    const club = $("club-line");  // serve --club: where the table's replication stands
    club.hidden = !s.club; club.textContent = s.club ? s.club.line : "";
    club.classList.toggle("offline", !!s.club && s.club.online === false);
    const over = !!s.game_result;
    s.players.forEach((name, i) => {
      const box = $("p" + i);
      box.querySelector(".name").textContent = name;
      box.querySelector("[data-score]").textContent = num(s.scores[name]);
      // past the target (73 of 71) the line says what is true: the score reached, and the win
      const won = !!s.game_result && s.game_result.winner === name;
      box.querySelector(".needs").textContent = s.needs[name] > 0
        ? fill(T.needs, { n: s.needs[name], target: s.target })
        : fill(won ? T.won_game : T.reached, { score: num(s.scores[name]), target: s.target });
      const p = pen(s.received[name], s.paid[name]);
      box.querySelector(".detail").textContent = T.from_balls + " " + s.from_balls[name] + " \u00b7 " +
        (p ? T.penalties + " " + p : T.no_penalties);
      const turn = !over && !s.decided && s.to_play === name;
      box.classList.toggle("turn-on", turn);
      box.querySelector(".turn").textContent = turn ? "\u25b6 " + T.to_play + (s.from_hand ? ", " + T.from_hand : "") : "";
    });
    $("result").hidden = !s.game_over_line; $("result").textContent = s.game_over_line || "";
    const c = s.standing_call, call = $("call");
    call.hidden = !c && over;  // a game just over: no «no call yet» line, its room goes to the lists
    call.classList.toggle("ok", !!c && c.status === "accepted");
    call.classList.toggle("bad", !!c && c.status === "refused");
    $("call-line").textContent = c ? c.line + (c.text && c.status === "accepted" && c.canonical !== c.text ? " (\u00ab" + c.text + "\u00bb)" : "") +
      (c.heard_line ? " \u00b7 " + c.heard_line : "") : T.no_call_yet;
    const v = s.last_verdict;
    $("verdict-line").textContent = v ? "#" + v.seq + " " + v.striker + ": " + withoutCodes(v) : T.no_verdict_yet;
    const cl = $("clauses"); cl.replaceChildren();
    if (v) v.clauses.forEach((x) => cl.appendChild(el("li", x.id + (x.title ? " \u2014 " + x.title : ""))));
    if (s.next_game_note) cl.appendChild(el("li", s.next_game_note));
    const balls = $("balls"); balls.replaceChildren();
    s.board_on_table.forEach((b) => balls.appendChild(el("span", String(b))));
    const h = $("history"); h.replaceChildren();
    s.history.slice(-12).reverse().forEach((x) => {  // newest first
      const li = el("li", "#" + x.seq + " " + x.striker + ": " + (x.call_text || "\u2014") + " \u2192 " + (x.summary || x.message));
      li.value = x.seq; h.appendChild(li);
    });
    const g = $("games"); g.replaceChildren();
    s.games.slice().reverse()  // a next game with no stroke yet is the note under the verdict, not a line here
      .filter((x, i, all) => x.started !== false || all.length === 1)
      .forEach((x) => { const li = el("li", x.board_line || x.line); li.value = x.number; g.appendChild(li); });
    const img = $("diagram");
    if (img) {
      const accepted = c && c.status === "accepted" && c.text;
      img.hidden = !accepted;
      if (accepted) img.src = "/api/diagram.svg?call=" + encodeURIComponent(c.text);
    }
    fitLists();
    shownAt = new Date();
    window.boardState = s; window.boardRendered = performance.now();
    document.body.dataset.seq = s.seq;
  }

  // The lists keep what fits whole, newest first: a line that would run off the bottom is left out
  // (the oldest), never shown in part.
  function fitLists() {
    ["history", "games"].forEach((id) => {
      const list = $(id), bottom = list.getBoundingClientRect().bottom + 0.5;
      [...list.children].forEach((li) => { li.hidden = false; });
      [...list.children].forEach((li, i) => { if (i > 0 && li.getBoundingClientRect().bottom > bottom) li.hidden = true; });
      [...list.children].forEach((li, i, all) => { if (i > 0 && all[i - 1].hidden) li.hidden = true; });
    });
  }
  let shownAt = new Date();
  // the lists' boxes change when the lines above them wrap anew (the route picture loaded, a longer verdict)
  if (window.ResizeObserver) { const ro = new ResizeObserver(() => fitLists()); ro.observe($("history")); ro.observe($("games")); }
  else window.addEventListener("resize", fitLists);

  // A lost connection makes the board look stale: the scores dim, and the message says since when.
  function stale(on) {
    document.body.classList.toggle("stale", on);
    $("offline").hidden = !on;
    if (on) {
      const time = shownAt.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
      $("offline").textContent = T.offline + " " + fill(T.shown_at, { time });
    }
  }

  render(JSON.parse(document.getElementById("initial").textContent));
  function listen() {
    const es = new EventSource("/api/events");
    es.addEventListener("state", (e) => { stale(false); render(JSON.parse(e.data)); });
    es.onerror = () => { stale(true); };
  }
  listen();
})();
