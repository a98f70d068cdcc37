// The pad's ears, in the audio thread: the microphone (any rate, any channels) → 16 kHz mono
// s16le, posted to the page in frames of 20 ms (320 samples) as ArrayBuffers.
// Resampling is a windowed-sinc low-pass (Hann window, cut-off 0.92 × 8 kHz) evaluated at each
// output sample's position in the input; its kernels are cached by fractional phase (1/256),
// so a 48 kHz input (ratio 3: one phase) costs one small dot product a sample.
"use strict";
const OUT_RATE = 16000;
const FRAME = 320;  // 20 ms at 16 kHz
const PHASES = 256;

class Resample16k extends AudioWorkletProcessor {
  constructor() {
    super();
    this.ratio = sampleRate / OUT_RATE;
    this.fc = Math.min(1, OUT_RATE / sampleRate) * 0.92;  // cut-off, in cycles per input sample × 2
    this.H = Math.ceil(8 / this.fc);  // taps on each side
    this.kernels = new Map();
    this.buf = new Float32Array(0);
    this.base = 0;  // the input index of buf[0]
    this.n = 0;     // the next output sample
    this.out = new Int16Array(FRAME);
    this.fill = 0;
    this.port.onmessage = (e) => { if (e.data === "stop") this.stopped = true; };
  }

  kernel(frac) {
    const key = Math.round(frac * PHASES);
    let k = this.kernels.get(key);
    if (k) return k;
    const H = this.H, fc = this.fc, f = key / PHASES;
    k = new Float32Array(2 * H);
    let sum = 0;
    for (let j = 0; j < 2 * H; j++) {  // taps at input offsets -H+1 … H from floor(p)
      const t = f - (j - H + 1);
      const x = Math.PI * fc * t;
      const sinc = Math.abs(x) < 1e-9 ? 1 : Math.sin(x) / x;
      const w = Math.abs(t) >= H ? 0 : 0.5 + 0.5 * Math.cos(Math.PI * t / H);
      k[j] = fc * sinc * w; sum += k[j];
    }
    for (let j = 0; j < 2 * H; j++) k[j] /= sum;  // unity gain at DC
    this.kernels.set(key, k);
    return k;
  }

  process(inputs) {
    if (this.stopped) return false;
    const input = inputs[0];
    if (!input || !input.length || !input[0]) return true;
    const len = input[0].length, nch = input.length;
    const grown = new Float32Array(this.buf.length + len);
    grown.set(this.buf);
    for (let c = 0; c < nch; c++) {
      const ch = input[c];
      for (let i = 0; i < len; i++) grown[this.buf.length + i] += ch[i] / nch;
    }
    this.buf = grown;
    const H = this.H, end = this.base + this.buf.length;
    for (;;) {
      const p = this.n * this.ratio, i0 = Math.floor(p);
      if (i0 + H >= end) break;
      const k = this.kernel(p - i0);
      let acc = 0;
      const start = i0 - H + 1 - this.base;
      for (let j = 0; j < 2 * H; j++) {
        const idx = start + j;
        if (idx >= 0) acc += this.buf[idx] * k[j];
      }
      this.n++;
      const s = Math.max(-1, Math.min(1, acc));
      this.out[this.fill++] = s < 0 ? Math.round(s * 32768) : Math.round(s * 32767);
      if (this.fill === FRAME) {
        const frame = this.out.slice().buffer;
        this.port.postMessage(frame, [frame]);
        this.fill = 0;
      }
    }
    const keepFrom = Math.floor(this.n * this.ratio) - H - this.base;  // what the next samples still need
    if (keepFrom > 0) { this.buf = this.buf.slice(keepFrom); this.base += keepFrom; }
    return true;
  }
}

registerProcessor("resample-16k", Resample16k);
