// The boards of the games, by the renderer name the server gives each game's page ("domino-layout",
// "card-pile", "pegboard"). A game whose renderer is not registered gets the generic view.

import { $, el } from "./util.js";

/** @typedef {{board: HTMLElement, hands: HTMLElement, myhand: HTMLElement, explain: HTMLElement}} BoardParts */
/** @typedef {(view: import("./state.js").View, parts?: BoardParts) => void} Board */

/** Where a board draws: the table's own parts, or new ones added to ``box`` (a worked example).
 * @param {HTMLElement} [box] @returns {BoardParts} */
export function boardParts(box) {
  if (!box) return { board: $("board"), hands: $("hands"), myhand: $("myhand"), explain: $("explain") };
  const part = (/** @type {string} */ cls) => box.appendChild(el("div", { class: cls }));
  return { board: part("board"), hands: part("hands"), myhand: part("myhand"), explain: part("explain") };
}

/** @type {Record<string, Board>} */
const BOARDS = {};

/** @param {string} name @param {Board} draw */
export function registerBoard(name, draw) { BOARDS[name] = draw; }

/** @param {string} name @returns {Board | undefined} */
export function boardFor(name) { return Object.prototype.hasOwnProperty.call(BOARDS, name) ? BOARDS[name] : undefined; }
