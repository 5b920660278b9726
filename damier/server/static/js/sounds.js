// Sounds, off by default (the choice is remembered in this browser): synthesised in the page with the Web Audio
// API, no sound file. A move, a capture, an explosion, a zap, a step, a win, a clock running low; which event of a game
// makes which sound is the game's client description's `sounds` ({event type: sound name}), so the page knows no
// game. window.__damierSounds lists the sounds played (for the tests).
import { t } from "./i18n.js";

const KEY = "damier.sound";
let context = null;

export function soundOn() {
  try { return localStorage.getItem(KEY) === "on"; } catch { return false; }
}

export function setSound(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* private browsing: for this page only */ }
  if (on) audio(); // a click allows the audio to start
}

function audio() {
  if (!context) {
    const Ctor = window.AudioContext || window.webkitAudioContext;
    if (!Ctor) return null;
    context = new Ctor();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** A tone gliding from `from` to `to` Hz over `seconds`, shaped by `wave`. */
function tone(ctx, { from, to = from, seconds = 0.12, wave = "sine", gain = 0.15, delay = 0 }) {
  const start = ctx.currentTime + delay;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = wave;
  osc.frequency.setValueAtTime(from, start);
  osc.frequency.exponentialRampToValueAtTime(Math.max(1, to), start + seconds);
  amp.gain.setValueAtTime(gain, start);
  amp.gain.exponentialRampToValueAtTime(0.001, start + seconds);
  osc.connect(amp).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + seconds + 0.02);
}

/** A burst of filtered noise (an explosion). */
function noise(ctx, { seconds = 0.35, gain = 0.3, frequency = 900 }) {
  const length = Math.floor(ctx.sampleRate * seconds);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 2;
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const amp = ctx.createGain();
  source.buffer = buffer;
  filter.type = "lowpass";
  filter.frequency.value = frequency;
  amp.gain.value = gain;
  source.connect(filter).connect(amp).connect(ctx.destination);
  source.start();
}

const SOUNDS = {
  move: (ctx) => tone(ctx, { from: 520, to: 420, seconds: 0.07, wave: "triangle" }),
  capture: (ctx) => { tone(ctx, { from: 300, to: 180, seconds: 0.14, wave: "square", gain: 0.08 }); },
  explosion: (ctx) => noise(ctx, {}),
  zap: (ctx) => tone(ctx, { from: 1800, to: 300, seconds: 0.25, wave: "sawtooth", gain: 0.06 }),
  step: (ctx) => tone(ctx, { from: 220, seconds: 0.05, wave: "square", gain: 0.04 }),
  // a player's own clock runs low: two short high beeps
  lowtime: (ctx) => [0, 0.16].forEach((delay) => tone(ctx, { from: 1320, seconds: 0.09, delay, wave: "square", gain: 0.06 })),
  win: (ctx) => [523, 659, 784].forEach((f, i) => tone(ctx, { from: f, seconds: 0.18, delay: i * 0.12, wave: "triangle" })),
};

/** Play `name` if sounds are on (and the name is one of ours). */
export function play(name) {
  if (!soundOn() || !SOUNDS[name]) return;
  (window.__damierSounds ||= []).push(name);
  const ctx = audio();
  if (!ctx) return;
  try { SOUNDS[name](ctx); } catch { /* audio refused: silence */ }
}

/** The sounds of a move: its events' (by the description's `sounds`), a capture's when it took something, else
 * a plain move's; each sound once. */
export function playMove(move, events, described = {}) {
  const names = new Set();
  for (const event of events || []) if (described[event.type]) names.add(described[event.type]);
  if (move?.mark?.includes("x")) names.add("capture");
  if (!names.size || ![...names].some((n) => n !== "win")) names.add("move");
  for (const name of names) play(name);
}

/** The header's sound button: off by default, the choice remembered. */
export function initSoundToggle() {
  const button = document.getElementById("sound-toggle");
  if (!button) return;
  const show = () => {
    const on = soundOn();
    button.setAttribute("aria-pressed", String(on));
    button.setAttribute("aria-label", on ? t("sound.turn_off") : t("sound.turn_on"));
    button.title = on ? t("sound.title_on") : t("sound.title_off");
  };
  button.addEventListener("click", () => { setSound(!soundOn()); show(); });
  show();
}
