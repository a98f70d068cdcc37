// The teaching page: a typed call read and drawn as one types (debounced); drills checked by the
// server's grading. Read-only: nothing here sends the PIN or changes the match.
(() => {
  "use strict";
  const T = JSON.parse(document.getElementById("texts").textContent);
  const start = JSON.parse(document.getElementById("drill-start").textContent);
  const $ = (id) => document.getElementById(id);
  const DEBOUNCE_MS = 250;

  async function getJSON(path, params) {
    const r = await fetch(path + "?" + new URLSearchParams(params), { headers: { Accept: "application/json" } });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.error || T.offline);
    return data;
  }

  // An SVG from the server shown through <img>: a picture, never a script in the page.
  function showSvg(img, svg, ok, alt) {
    if (img.dataset.url) URL.revokeObjectURL(img.dataset.url);
    img.alt = alt || "";
    const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
    img.dataset.url = url; img.dataset.ok = String(ok); img.src = url; img.hidden = false;
  }

  function fillList(ul, lines) {
    ul.replaceChildren(...(lines || []).map((s) => { const li = document.createElement("li"); li.textContent = s; return li; }));
  }

  // -- a typed call ---------------------------------------------------------------------------
  let timer = null, asked = 0;
  async function readCall() {
    const text = $("learn-input").value, mine = ++asked;
    if (!text.trim()) { $("learn-out").hidden = true; $("learn-diagram").hidden = true; $("learn-status").textContent = ""; return; }
    $("learn-status").textContent = T.waiting;
    try {
      const d = await getJSON("/api/learn", { call: text });
      if (mine !== asked) return;  // the learner typed on: an older answer must not win
      $("learn-status").textContent = d.ok ? T.accepted : T.refused;
      $("learn-status").className = "status " + (d.ok ? "ok" : "bad");
      $("learn-canonical").textContent = d.canonical ? "\u00ab" + d.canonical + "\u00bb" : "\u2014";
      $("learn-fix").textContent = d.fix || "";
      // an accepted call: its right phrasing above says it all; a refused one: how to say it
      $("learn-fix").hidden = $("learn-fix-title").hidden = d.ok || !d.fix;
      fillList($("learn-reading"), d.reading);
      fillList($("learn-notes"), d.notes);
      $("learn-out").hidden = false;
      showSvg($("learn-diagram"), d.svg, d.ok, d.ok ? d.canonical : (d.reading || [])[0]);
      document.body.dataset.learned = String(asked);
    } catch (e) {
      if (mine !== asked) return;
      $("learn-status").textContent = e.message; $("learn-status").className = "status bad";
    }
  }
  $("learn-input").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(readCall, DEBOUNCE_MS); });

  // -- drills ---------------------------------------------------------------------------------
  const drill = { seed: start.seed, level: start.level, n: start.n };
  let current = null;
  $("drill-level").value = String(drill.level);
  const where = () => ({ seed: drill.seed, level: drill.level, n: drill.n });

  function result(text, cls) { $("drill-result").textContent = text; $("drill-result").className = "result " + (cls || ""); }

  async function loadDrill() {
    result("", ""); $("drill-help").hidden = true; $("drill-input").value = "";
    try {
      current = await getJSON("/api/drill", where());
    } catch (e) { result(e.message, "bad"); return; }
    fillList($("drill-prompt"), current.prompt);
    showSvg($("drill-diagram"), current.svg, true, current.description);
    document.body.dataset.drill = drill.seed + ":" + drill.level + ":" + drill.n;
  }

  $("drill-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const answer = $("drill-input").value;
    if (!answer.trim()) return;
    try {
      const g = await getJSON("/api/drill/check", { ...where(), answer });
      if (g.correct) {
        result([T.right, ...g.notes].join(" "), "ok");
      } else {
        const ul = document.createElement("ul");
        fillList(ul, [...g.differences.map((d) => d.message), ...g.notes]);
        result(T.wrong, "bad"); $("drill-result").appendChild(ul);
      }
    } catch (e) { result(e.message, "bad"); }
  });
  $("drill-hint").addEventListener("click", () => {
    if (!current) return;
    $("drill-help").textContent = current.hint; $("drill-help").hidden = false;
  });
  $("drill-answer").addEventListener("click", () => {
    if (!current) return;
    $("drill-help").textContent = T.answer_is.replace("{call}", current.answer); $("drill-help").hidden = false;
  });
  $("drill-next").addEventListener("click", () => {
    if (drill.n >= start.max_n) { drill.seed += 1; drill.n = 1; } else { drill.n += 1; }
    loadDrill();
  });
  $("drill-level").addEventListener("change", () => { drill.level = Number($("drill-level").value); drill.n = 1; loadDrill(); });
  loadDrill();
})();
