// The marker's pad: the outcome by buttons, sent as the outcome JSON of rules/outcome.py (its
// short form, with "route_ok", for a human scorer). The PIN comes from the QR code's URL
// (#pin=…) or is asked.
"use strict";
(function () {
  const T = JSON.parse(document.getElementById("texts").textContent);
  const POCKETS = JSON.parse(document.getElementById("pockets").textContent);
  const $ = (id) => document.getElementById(id);
  const fill = (s, map) => s.replace(/\{(\w+)\}/g, (m, k) => (k in map ? map[k] : m));
  let state = JSON.parse(document.getElementById("initial").textContent);
  let pin = null, pickBall = null, route = null;
  const events = [], fouls = new Set(), flags = new Set();

  // -- the PIN ---------------------------------------------------------------------------
  const m = /(?:^|[#&])pin=([^&]+)/.exec(location.hash);
  if (m) { pin = decodeURIComponent(m[1]); sessionStorage.setItem("pin", pin); history.replaceState(null, "", location.pathname); }
  else pin = sessionStorage.getItem("pin");
  // Asking hides the pad and keeps it as it was: the typed call and the outcome are there after the PIN.
  function askPin(why) {
    $("main").hidden = true; $("pin-form").hidden = false;
    $("pin-error").textContent = why || ""; $("pin-input").focus();
  }
  $("pin-form").addEventListener("submit", async (e) => {
    e.preventDefault(); pin = $("pin-input").value.trim();
    const r = await post("/api/pin", {}, true);
    if (r.ok) { sessionStorage.setItem("pin", pin); $("pin-form").hidden = true; $("main").hidden = false; }
  });

  async function post(path, body, quiet) {
    let r;
    try {
      r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", "Authorization": "Bearer " + (pin || "") }, body: JSON.stringify(body) });
    } catch (err) { say(T.offline, true); return { ok: false, data: {} }; }
    let data = {};
    try { data = await r.json(); } catch (err) { /* an empty answer */ }
    if (r.status === 401) { sessionStorage.removeItem("pin"); askPin(pin ? data.error || T.pin_wrong : ""); return { ok: false, data, status: 401 }; }
    if (r.status === 429) {  // this device gave too many wrong PINs: held back for a while
      if (!$("pin-form").hidden) $("pin-error").textContent = data.error; else say(data.error, true);
      return { ok: false, data, status: 429 };
    }
    if (!r.ok && !quiet) say(data.error || String(r.status), true);
    return { ok: r.ok, data, status: r.status };
  }
  function say(text, bad) { const e = $("message"); e.textContent = text; e.className = "line " + (bad ? "error" : "ok"); }

  // -- what is shown -----------------------------------------------------------------------
  function render() {
    const s = state, p = s.players;
    $("score").textContent = p[0] + " " + String(s.scores[p[0]]).replace("-", "\u2212") + " : " + String(s.scores[p[1]]).replace("-", "\u2212") + " " + p[1] + " \u00b7 " +
      T.to_play + ": " + s.to_play + (s.from_hand ? " (" + T.from_hand + ")" : "");
    const c = s.standing_call, typed = $("call-input").value.trim();
    if (callError) { $("call-line").textContent = callError; $("call-line").className = "line bad"; }
    else if (c && typed && typed !== c.text) { $("call-line").textContent = ""; $("call-line").className = "line"; }  // a new call is typed: the old line is stale
    else {
      $("call-line").textContent = c ? c.line + (c.heard_line ? " (" + c.heard_line + ")" : "") : "";
      $("call-line").className = "line " + (c ? (c.status === "accepted" ? "ok" : c.status === "refused" ? "bad" : "") : "");
    }
    const alert = s.pin_alert;  // someone gave wrong PINs until held back
    $("pin-alert").hidden = !alert; $("pin-alert").textContent = alert ? alert.line : "";
    const balls = $("balls"); balls.replaceChildren();
    ["cue"].concat(s.on_table).forEach((b) => {
      const btn = document.createElement("button");
      btn.type = "button"; btn.textContent = b === "cue" ? T.cue : String(b); btn.dataset.ball = b;
      if (b === "cue") btn.className = "cue";
      if (pickBall === b) btn.classList.add("on");
      btn.addEventListener("click", () => { pickBall = (pickBall === b ? null : b); render(); });
      balls.appendChild(btn);
    });
    $("pocket-pick").hidden = pickBall === null;
    if (pickBall !== null) $("pocket-title").textContent = fill(T.pocket_for, { ball: pickBall === "cue" ? T.cue : pickBall });
    const ul = $("events"); ul.replaceChildren();
    events.forEach((ev, i) => {
      const li = document.createElement("li");
      const who = ev.ball === "cue" ? T.cue : T.ball_word + " " + ev.ball;
      li.textContent = who + " \u2192 " + (ev.type === "pocket" ? T.pockets[ev.key] : T.off_table);
      const x = document.createElement("button"); x.type = "button"; x.textContent = "\u00d7";
      x.addEventListener("click", () => { events.splice(i, 1); render(); });
      li.appendChild(x); ul.appendChild(li);
    });
    $("route-ok").classList.toggle("on", route === true);
    $("route-miss").classList.toggle("on", route === false);
    document.querySelectorAll("[data-foul]").forEach((b) => b.classList.toggle("on", fouls.has(b.dataset.foul)));
    document.querySelectorAll("[data-flag]").forEach((b) => b.classList.toggle("on", flags.has(b.dataset.flag)));
    $("undo").disabled = !s.can_undo; $("redo").disabled = !s.can_redo;
    document.body.dataset.seq = s.seq;
  }

  document.querySelectorAll("[data-pocket]").forEach((b) => b.addEventListener("click", () => {
    if (pickBall === null) return;
    const key = b.dataset.pocket, ball = pickBall === "cue" ? "cue" : Number(pickBall);
    events.push(key === "off" ? { type: "off_table", ball } : { type: "pocket", ball, key });
    pickBall = null; render();
  }));
  document.querySelectorAll("[data-foul]").forEach((b) => b.addEventListener("click", () => {
    const f = b.dataset.foul; fouls.has(f) ? fouls.delete(f) : fouls.add(f); render();
  }));
  document.querySelectorAll("[data-flag]").forEach((b) => b.addEventListener("click", () => {
    const f = b.dataset.flag; flags.has(f) ? flags.delete(f) : flags.add(f); render();
  }));
  $("route-ok").addEventListener("click", () => { route = route === true ? null : true; render(); });
  $("route-miss").addEventListener("click", () => { route = route === false ? null : false; render(); });

  function clearOutcome() { events.length = 0; fouls.clear(); flags.clear(); route = null; pickBall = null; render(); }
  $("clear").addEventListener("click", () => { clearOutcome(); say("", false); });

  // -- the call ------------------------------------------------------------------------------
  // Its refusal is said beside the field, and cleared once a new call is typed; what is typed
  // outlives a reload of the page (asked for the PIN again, say) until the stroke takes it.
  let callError = "";
  const draft = sessionStorage.getItem("call-draft");
  if (draft && !$("call-input").value) $("call-input").value = draft;
  $("call-input").addEventListener("input", () => {
    sessionStorage.setItem("call-draft", $("call-input").value);
    callError = "";
    if ($("message").className.includes("error")) say("", false);
    render();
  });
  function callTaken(r) {
    callError = r.ok || r.status === 401 || r.status === 429 ? "" : (r.data.error || "");
    if (r.ok) say("", false);
    render();
  }
  $("take-call").addEventListener("click", async () => {
    const text = $("call-input").value.trim();
    callTaken(await post("/api/call", { call: text || null }, true));
  });
  $("no-call").addEventListener("click", async () => {
    $("call-input").value = ""; sessionStorage.removeItem("call-draft");
    callTaken(await post("/api/call", { call: null }, true));
  });

  // -- the stroke ----------------------------------------------------------------------------
  function outcome() {
    const c = state.standing_call, typed = $("call-input").value.trim();
    const called = c && c.status === "accepted" && (!typed || typed === c.text);
    const evs = events.map((ev) => ev.type === "pocket" ? { type: "pocket", ball: ev.ball, pocket: POCKETS[ev.key] } : { type: "off_table", ball: ev.ball });
    if (route === true && called && !evs.length && c.call) {  // «по заказу» alone: the called ball into the called pocket
      const ball = c.call.ball != null ? c.call.ball : (state.on_table.length === 1 ? state.on_table[0] : null);
      if (ball != null) evs.push({ type: "pocket", ball, pocket: c.call.pocket });
    }
    const out = { events: evs, fouls: Array.from(fouls) };
    if (route !== null || evs.length || fouls.size) out.route_ok = route === true;  // the short form; never by default alone
    flags.forEach((f) => { out[f] = true; });
    return out;
  }
  // A stroke is recorded only from an explicit choice: «по заказу», «мимо», what fell or a foul.
  // An empty pad is no outcome (as `play` refuses an empty line): a default never becomes a stroke.
  const nothingEntered = () => route === null && !events.length && !fouls.size;
  $("record").addEventListener("click", async () => {
    const c = state.standing_call, typed = $("call-input").value.trim();
    const accepted = (c && c.status === "accepted") || (typed && !c);
    if (accepted && route === null) { say(T.choose_route, true); return; }
    if (nothingEntered()) { say(fill(T.no_outcome, { ok: T.as_called, miss: T.not_as_called }), true); return; }
    const body = { outcome: outcome() };
    if (typed) body.call = typed;
    const r = await post("/api/strokes", body);
    if (r.ok) { $("call-input").value = ""; sessionStorage.removeItem("call-draft"); clearOutcome(); say(fill(T.recorded, { seq: r.data.seq }) + " \u2014 " + r.data.message, false); }
  });
  $("undo").addEventListener("click", async () => { const r = await post("/api/undo", {}); if (r.ok && r.data.seq == null) say(T.nothing_to_undo, true); });
  $("redo").addEventListener("click", async () => { const r = await post("/api/redo", {}); if (r.ok && r.data.seq == null) say(T.nothing_to_redo, true); });
  $("new-game").addEventListener("click", async () => { if (confirm(T.new_game_confirm)) { const r = await post("/api/new", {}); if (r.ok) clearOutcome(); } });

  // -- a new PIN, from the marker who knows the current one (someone was guessing it, say) ----------
  $("change-pin").addEventListener("click", async () => {
    const next = prompt(T.pin_new_ask);
    if (next === null) return;
    if (!/^[0-9A-Za-z_-]{4,64}$/.test(next.trim())) { say(T.pin_form, true); return; }
    const r = await post("/api/pin/change", { pin: next.trim() });
    if (r.ok) { pin = next.trim(); sessionStorage.setItem("pin", pin); say(T.pin_changed, false); }
  });

  // -- a false strike (Q14): the strike that made the heard call late is taken back -----------
  function renderTakeBack() {
    const c = state.standing_call, last = state.last_verdict;
    $("take-back").hidden = !(c && c.can_take_back);
    // the last stroke's marks (Q13: strike not heard; Q14: a strike taken back), as the record keeps them
    const marks = last && last.strike_marks && last.strike_marks.length ? last.strike_marks : [];
    $("strike-note").textContent = marks.length ? fill(T.stroke_marks, { seq: last.seq, marks: marks.join("; ") }) : "";
  }
  $("take-back").addEventListener("click", async () => {
    const c = state.standing_call;
    const r = await post("/api/strike/take-back", c && c.strike != null ? { strike: c.strike } : {});
    if (r.ok) say(T.taken_back_done, false);
  });

  render(); renderTakeBack();
  if (state.notices && state.notices.length) say(state.notices.join("; "), true);
  if (!pin) askPin("");
  else post("/api/pin", {}, true);  // a wrong PIN in the URL is found now, not at the first stroke
  const es = new EventSource("/api/events");
  es.addEventListener("state", (e) => { state = JSON.parse(e.data); render(); renderTakeBack(); });
})();
