// Sounds made in the page with Web Audio, no files: a soft card sound when a card is played, a
// brighter two notes when a trick is won, and a gentle chime when it becomes your turn. Off
// until the player turns them on with the table's Sound button; the choice is remembered in
// this browser. The audio starts only from that click, as browsers require.

import { tableEvents } from "/static/events.js";
import { t } from "/static/i18n.js";

const KEY = "callbreak:sound";
let context = null;

export function soundOn() {
  return window.localStorage.getItem(KEY) === "on";
}

function audio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) context = new Context();
  if (context.state === "suspended") context.resume();
  return context;
}

// A browser lets a page make sound only after the player has touched it: after a reload with the
// sounds on, the first tap or key press anywhere wakes the audio up.
function wake() {
  if (soundOn()) audio();
}
for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, wake, { once: true, capture: true });

// A note: a sine or triangle tone that swells and dies away, ``at`` seconds from now.
function note(ctx, frequency, at, length, volume, type = "sine") {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

// A card laid on the felt: a short burst of filtered noise.
function swish(ctx, at) {
  const length = 0.09;
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  gain.gain.value = 0.35;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(ctx.currentTime + at);
}

const SOUNDS = {
  card: (ctx) => swish(ctx, 0),
  trick: (ctx) => { note(ctx, 660, 0.25, 0.18, 0.08); note(ctx, 880, 0.36, 0.28, 0.08); },
  turn: (ctx) => { note(ctx, 523, 0, 0.35, 0.06, "triangle"); note(ctx, 784, 0.12, 0.45, 0.05, "triangle"); },
};

export function playSound(name) {
  if (!soundOn()) return;
  const ctx = audio();
  if (ctx) SOUNDS[name](ctx);
}

/** The sounds a new state calls for, against the one shown before it (none on a first look). */
export function soundCues(before, after) {
  const events = soundOn() && tableEvents(before, after);
  if (!events) return;
  if (events.played.length) playSound("card");
  if (events.won !== null) playSound("trick");
  if (events.yourTurn) playSound("turn");
}

// A speaker drawn in SVG (an emoji is missing from many fonts): with waves when on, crossed out when off.
function speaker(on) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "speaker");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(NS, "path");
  path.setAttribute("d", "M3 9h4l5-4v14l-5-4H3z" + (on ? " M15.5 8.5a5 5 0 0 1 0 7 M18 6a8.5 8.5 0 0 1 0 12" : " M16 9l6 6 M22 9l-6 6"));
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", "currentColor");
  path.setAttribute("stroke-width", "2");
  path.setAttribute("stroke-linejoin", "round");
  path.setAttribute("stroke-linecap", "round");
  svg.append(path);
  return svg;
}

/** The table's Sound button: a toggle, pressed when the sounds are on. */
export function soundToggle() {
  const button = document.createElement("button");
  button.type = "button";
  button.id = "sound-toggle";
  button.className = "sound-toggle";
  const show = () => {
    const on = soundOn();
    button.setAttribute("aria-pressed", String(on));
    const icon = speaker(on);
    const words = document.createElement("span");
    words.className = "sound-words";
    words.textContent = ` ${t("Sound")}`;  // its name stays; aria-pressed says whether it is on
    button.replaceChildren(icon, words);
    button.title = on ? t("Sounds are on: turn them off") : t("Sounds are off: turn them on");
  };
  button.addEventListener("click", () => {
    window.localStorage.setItem(KEY, soundOn() ? "off" : "on");
    show();
    if (soundOn()) playSound("card");  // a sample, and the click that lets the page make sound
  });
  show();
  return button;
}
