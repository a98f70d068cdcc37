// The scoreboard's line about the tablet's ears: whether a tablet listens at this table, what it
// lacks (no speech model), and the last strike it heard («удар?» until the detector confirms it).
"use strict";
(function () {
  const T = JSON.parse(document.getElementById("texts").textContent);
  const fill = (s, map) => s.replace(/\{(\w+)\}/g, (m, k) => (k in map ? map[k] : m));
  const el = document.createElement("div");
  el.id = "listening"; el.className = "listening"; el.hidden = true;
  el.style.cssText = "position:fixed;right:0.6em;bottom:0.4em;font-size:14px;opacity:0.8";
  document.body.appendChild(el);
  let on = false, problem = null, strike = "", recording = false, source = null;
  function show() {
    el.hidden = !on && !recording;
    el.textContent = (on ? (source === "listen" ? T.listen_board_listen : T.listen_board_on) + (problem ? " \u00b7 " + T.listen_board_no_model : "") + (strike ? " \u00b7 " + strike : "") : "")
      + (recording ? (on ? " \u00b7 " : "") + "\u25cf " + T.listen_board_recording : "");  // the players see it is recorded
    document.body.dataset.listening = on ? "on" : "off";
    document.body.dataset.recording = recording ? "on" : "off";
  }
  function fromState(s) { const l = s.listening || {}; on = !!l.on; source = l.source; problem = l.problem; recording = !!l.recording; if (!on) strike = ""; show(); }
  fromState(JSON.parse(document.getElementById("initial").textContent));
  const es = new EventSource("/api/events");
  es.addEventListener("state", (e) => fromState(JSON.parse(e.data)));
  es.addEventListener("strike", (e) => {
    const m = JSON.parse(e.data);
    strike = m.taken_back ? "" : fill(m.provisional ? T.listen_strike_maybe : T.listen_strike, { t: m.t.toFixed(2) });
    show();
  });
})();
