// Motion and sound: a piece glides from where it was to where it is played, pegs move along the board, a
// chime when it becomes my turn and a call's sound for Muggins!. One switch turns both off (remembered in
// this browser); motion also stays off when the system asks for reduced motion.

import { $ } from "./util.js";

const KEY = "muggins-fx";
const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

/** Whether sound and motion are on (the switch; on unless turned off). */
export function fxOn() { return localStorage.getItem(KEY) !== "off"; }
/** Whether pieces and pegs move: the switch on and no request for reduced motion. */
export function motionOn() { return fxOn() && !(reduced && reduced.matches); }

export function setupSwitch() {
  const box = $("fx");
  box.checked = fxOn();
  box.addEventListener("change", () => {
    localStorage.setItem(KEY, box.checked ? "on" : "off");
    document.documentElement.classList.toggle("no-motion", !motionOn());
  });
  document.documentElement.classList.toggle("no-motion", !motionOn());
}

/** @type {AudioContext | null} */
let audio = null;
/** Tones, each [frequency Hz, start s, length s], generated on the spot (no sound files).
 * @param {[number, number, number][]} tones @param {OscillatorType} [wave] */
function play(tones, wave = "sine") {
  if (!fxOn()) return;
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
    const t0 = audio.currentTime + 0.02;
    for (const [freq, at, len] of tones) {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.18, t0 + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + len + 0.05);
    }
    fxLog.push(wave === "sine" ? "chime" : "muggins");
  } catch (e) { /* no audio here: the page plays on silently */ }
}
/** What was played, for the tests: "chime" or "muggins". @type {string[]} */
export const fxLog = [];
/** Two soft rising notes: it is my turn. */
export function chime() { play([[660, 0, 0.18], [880, 0.12, 0.3]]); }
/** Three bright notes falling: somebody called Muggins!. */
export function mugginsSound() { play([[988, 0, 0.12], [784, 0.1, 0.12], [523, 0.2, 0.35]], "triangle"); }

/** Where elements are on the screen now, by a key: read before the page is drawn again.
 * @param {string} selector @param {(e: Element) => string | null} keyOf @returns {Map<string, DOMRect>} */
export function positions(selector, keyOf) {
  const out = new Map();
  for (const e of document.querySelectorAll(selector)) {
    const k = keyOf(e);
    if (k !== null) out.set(k, e.getBoundingClientRect());
  }
  return out;
}

/** Move ``e`` from the screen box ``from`` to where it is drawn now (it is already there: it is shown
 * travelling the way back to it). @param {Element} e @param {DOMRect | undefined} from */
export function glide(e, from, ms = 420) {
  if (!from || !motionOn() || !(/** @type {any} */ (e).animate)) return;
  const to = e.getBoundingClientRect();
  let dx = from.left + from.width / 2 - (to.left + to.width / 2);
  let dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  if (e instanceof SVGGraphicsElement) {  // an SVG shape moves in its own units
    const m = e.getScreenCTM();
    if (m && m.a) { dx /= m.a; dy /= m.d; }
  }
  e.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }], { duration: ms, easing: "ease-out" });
}
