// The pad's «Слушать» switch: the tablet's microphone → 16 kHz s16le frames → WS /api/listen.
// The browser's echo cancellation, noise suppression and gain control are off (they eat the
// strike's transient). An AudioWorklet (listen-worklet.js) resamples; the socket carries the PIN
// in its first message. The state line says what is true: «слушаю», «нет микрофона», «связь с
// сервером потеряна — переподключаюсь», «модель речи не найдена». The microphone is given only
// to a secure page: over plain HTTP from another name, the pad gives the https address instead.
"use strict";
(function () {
  const T = JSON.parse(document.getElementById("texts").textContent);
  const $ = (id) => document.getElementById(id);
  const fill = (s, map) => s.replace(/\{(\w+)\}/g, (m, k) => (k in map ? map[k] : m));
  const box = $("listen"), sw = $("listen-switch"), line = $("listen-line"), heard = $("listen-heard");
  const cal = $("listen-calibrate"), rec = $("listen-record");
  let calibrating = false, recording = false;
  if (!box) return;
  const log = { strikes: [], words: [], errors: [], ready: 0 };  // what the server said (shown, and read by tests)
  window.pyramidListen = log;
  let want = false, ws = null, ctx = null, media = null, node = null, retry = 0, timer = null, takeOver = false;

  function status(kind, text) {
    line.textContent = text; line.className = "line " + (kind === "on" ? "ok" : kind === "off" ? "" : "error");
    document.body.dataset.listen = kind;
  }

  if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    // Plain HTTP from another machine: no microphone. Say where it is, not a broken switch.
    sw.hidden = true;
    const url = "https://" + location.host + "/pad";
    status("https", fill(T.listen_https_only, { url }));
    return;
  }

  async function startAudio() {
    try {
      media = await navigator.mediaDevices.getUserMedia({ audio: {
        echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 1 } });
    } catch (err) {
      status("nomic", T.listen_no_mic + " (" + (err && err.name ? err.name : String(err)) + ")");
      return false;
    }
    ctx = new AudioContext();
    await ctx.audioWorklet.addModule(box.dataset.worklet);
    const src = ctx.createMediaStreamSource(media);
    node = new AudioWorkletNode(ctx, "resample-16k", { numberOfInputs: 1, numberOfOutputs: 1, outputChannelCount: [1] });
    const mute = ctx.createGain(); mute.gain.value = 0;  // pulled by the graph, heard by nobody
    src.connect(node); node.connect(mute); mute.connect(ctx.destination);
    node.port.onmessage = (e) => { log.frames = (log.frames || 0) + 1; if (ws && ws.readyState === 1 && log.ready) { ws.send(e.data); log.sent = (log.sent || 0) + 1; } };
    if (ctx.state === "suspended") await ctx.resume();
    return true;
  }

  function stopAudio() {
    if (node) { node.port.postMessage("stop"); node.disconnect(); node = null; }
    if (ctx) { ctx.close(); ctx = null; }
    if (media) { media.getTracks().forEach((t) => t.stop()); media = null; }
  }

  // This tab's id: a reconnect after the Wi-Fi dropped takes back its own place at the table
  // (the server may not have seen the old socket go), where another tablet must ask to take over.
  function tabletId() {
    let id = sessionStorage.getItem("listen-tablet");
    if (!id) {
      id = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now());
      sessionStorage.setItem("listen-tablet", id);
    }
    return id;
  }

  function connect() {
    clearTimeout(timer);
    const pin = sessionStorage.getItem("pin") || "";
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/listen";
    log.ready = 0;
    ws = new WebSocket(url);
    ws.binaryType = "arraybuffer";
    let fatal = false;
    ws.onopen = () => {
      const hello = { pin, rate: 16000, format: "s16le", tablet: tabletId() };
      if (takeOver) hello.take_over = true;
      takeOver = false;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e) => {
      let m; try { m = JSON.parse(e.data); } catch (err) { return; }
      if (m.type === "ready") {
        log.ready = 1; retry = 0;
        if (m.problem) status("nomodel", T.listen_on + " \u2014 " + m.problem); else status("on", T.listen_on);
        cal.hidden = false; calibrating = false; cal.textContent = T.listen_calibrate;
        rec.hidden = false; showRecording(!!m.recording);
        if (m.hint) heard.textContent = m.hint;
      } else if (m.type === "strike") {
        log.strikes.push(m);
        if (!m.taken_back) heard.textContent = fill(m.provisional ? T.listen_strike_maybe : T.listen_strike, { t: m.t.toFixed(2) });
        else heard.textContent = fill(T.listen_strike_gone, { t: m.t.toFixed(2) });
      } else if (m.type === "calibrating") {
        calibrating = true; cal.textContent = T.listen_calibrate_done; heard.textContent = m.message;
      } else if (m.type === "calibrated") {
        calibrating = false; cal.textContent = T.listen_calibrate; heard.textContent = m.message;
        log.calibrated = m;
      } else if (m.type === "recording" || m.type === "recorded") {
        showRecording(m.on); heard.textContent = m.message;
        if (m.type === "recorded") log.recorded = m;
      } else if (m.type === "level") {
        log.level = m; heard.textContent = m.message;
      } else if (m.type === "words") {
        log.words.push(m);
        heard.textContent = m.words.map((w) => w.word).join(" ");
      } else if (m.type === "error") {
        log.errors.push(m);
        if (m.code === "busy") {
          fatal = true;
          if (confirm(T.listen_take_over)) { takeOver = true; timer = setTimeout(connect, 100); fatal = false; }
          else { want = false; sw.classList.remove("on"); stopAudio(); status("off", m.message); }
        } else if (m.code === "rate") {
          status("lost", m.message);  // the tablet fell behind and sent a burst: start again
        } else {
          fatal = true; want = false; sw.classList.remove("on"); stopAudio(); status("error", m.message);
        }
      }
    };
    ws.onclose = () => {
      ws = null; cal.hidden = true; calibrating = false; rec.hidden = true;
      if (!want || fatal) return;
      status("lost", T.listen_lost);
      retry = Math.min(retry + 1, 5);
      timer = setTimeout(connect, 500 * retry);
    };
  }

  async function turnOn() {
    want = true; sw.classList.add("on"); status("starting", T.listen_starting);
    connect();
    if (!(await startAudio())) { want = false; sw.classList.remove("on"); if (ws) ws.close(); return; }
  }

  function turnOff() {
    want = false; sw.classList.remove("on"); clearTimeout(timer);
    if (ws && ws.readyState === 1) ws.send('{"type":"stop"}');
    if (ws) ws.close();
    stopAudio(); status("off", ""); heard.textContent = "";
  }

  sw.addEventListener("click", () => { if (want) turnOff(); else turnOn(); });
  // «Калибровка: сделайте 5 ударов»: the server keeps the audio in memory until «Готово», fits the
  // table's profile and saves it only if every strike asked for was heard.
  cal.addEventListener("click", () => {
    if (!ws || ws.readyState !== 1) return;
    ws.send(JSON.stringify(calibrating ? { type: "calibrate_end" } : { type: "calibrate", count: 5 }));
  });
  // «Запись»: only on the marker's request is the stream kept, as a WAV beside the match store
  // with the ids of the strokes entered meanwhile; «Остановить запись» ends it.
  function showRecording(on) {
    recording = on; rec.classList.toggle("on", on);
    rec.textContent = on ? T.listen_record_stop : T.listen_record;
    document.body.dataset.recording = on ? "on" : "off";
  }
  rec.addEventListener("click", () => {
    if (!ws || ws.readyState !== 1) return;
    ws.send(JSON.stringify({ type: recording ? "record_end" : "record" }));
  });
  status("off", "");
})();
