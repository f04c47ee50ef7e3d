// The clock of a ranked table: each person's time for this move and bank, counting down on the page for
// the seats the game waits for. It starts from the server's figures in each state message (the same for
// every seat and spectator: who is waited for and how long each took are public).

import { state } from "./state.js";
import { $, el } from "./util.js";
import { seatName } from "./names.js";

/** @type {any} the state message the countdown started from */
let from = null;
let fromAt = 0;
/** @type {ReturnType<typeof setInterval> | undefined} */
let tick;

/** Seconds as the clock shows them: "7.5 s" under ten seconds, else "1:05". @param {number} s @returns {string} */
export function clockText(s) {
  if (s < 10) return `${Math.max(0, s).toFixed(1)} s`;
  const whole = Math.floor(s);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

export function renderClock() {
  const box = $("clock"), m = state.last, c = m && m.clock;
  clearInterval(tick);
  const over = !m || m.view.over || ["finished", "abandoned", "resigned"].includes(m.table.status);
  if (!c || over) { box.hidden = true; box.replaceChildren(); return; }
  if (from !== m) { from = m; fromAt = performance.now(); }
  box.hidden = false;
  const draw = () => {
    const gone = (performance.now() - fromAt) / 1000;
    const seats = [];
    (c.seats || []).forEach((/** @type {any} */ s, /** @type {number} */ i) => {
      if (!s) return;  // a bot: no clock
      const running = typeof s.left === "number";
      const left = running ? Math.max(0, s.left - gone) : 0;
      const bank = running ? Math.min(s.bank, left) : s.bank;
      const parts = running ? `${clockText(Math.max(0, left - s.bank))} + bank ${clockText(bank)}` : `bank ${clockText(bank)}`;
      const out = s.timeouts ? `, ${s.timeouts} of ${c.limit} moves made by the clock` : "";
      seats.push(el("span", { class: "clock-seat" + (running ? " running" : "") + (i === state.me ? " mine" : ""),
        "data-seat": String(i), "data-left": running ? left.toFixed(1) : null, "data-timeouts": String(s.timeouts) },
      `${seatName(i)}: ${parts}${out}`));
    });
    box.replaceChildren(el("span", { class: "clock-title" }, `Clock (${c.move} s a move, ${c.bank} s bank):`), ...seats);
  };
  draw();
  if ((c.running || []).length) tick = setInterval(draw, 250);
}
