// Who is who, in words: the seats' names as this page's reader sees them ("You", "North", "you & South"),
// and who the game waits for.

import { state } from "./state.js";

/** @param {number | null | undefined} i a seat @returns {string} */
export function seatName(i) {
  if (i === null || i === undefined) return "";
  const s = state.last.table.seats[i];
  return i === state.me ? "You" : (s && s.name) || `Seat ${i + 1}`;
}
/** @param {number | null | undefined} i @returns {string} */
export function lowerName(i) { return i === state.me ? "you" : seatName(i); }
/** @param {number | null | undefined} i @returns {boolean} */
export function isMe(i) { return i === state.me && state.me !== null; }
// "You show" / "North shows"
export function says(i, base, third) { return isMe(i) ? `You ${base}` : `${seatName(i)} ${third || base + "s"}`; }
export function poss(i) { return isMe(i) ? "your" : "their"; }
/** @param {number} k a side @returns {number[]} */
export function sideSeats(k) {
  const v = state.last.view;
  if (!v.sides) return [k];
  return v.sides.map((s, i) => (s === k ? i : -1)).filter((i) => i >= 0);
}
/** @param {number} k @returns {string} */
export function sideName(k) {
  const seats = sideSeats(k);
  if (seats.length === 1) return seatName(seats[0]);
  return seats.map(seatName).join(" & ");
}
// who scored: the seat when the event names one, else the side
export function scorerName(e) { return e.seat !== undefined ? seatName(e.seat) : sideName(e.side); }
export function hasMuggins() {
  const t = state.last.table, v = state.last.view;
  for (const k of ["muggins_rule", "has_muggins", "muggins"]) if (typeof t[k] === "boolean") return t[k];
  return v.claims === "manual";
}
/** @param {import("./state.js").View} v @returns {number[]} */
export function waitingFor(v) {
  // who must move: waiting_for when the view has it, else the seat whose turn it is; seats that may only
  // call Muggins! are not waited for
  if (v.over) return [];
  if (Array.isArray(v.waiting_for)) return v.waiting_for;
  if (v.turn !== null && v.turn !== undefined) return [v.turn];
  return (v.to_act || []).filter((s) => s === v.turn);
}
/** @param {import("./state.js").View} v @returns {string[]} */
export function regularMoves(v) { return (v.legal || []).filter((m) => m !== "muggins"); }
