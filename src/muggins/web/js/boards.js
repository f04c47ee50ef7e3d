// The boards of the games, by the renderer name the server gives each game's page ("domino-layout",
// "card-pile", "pegboard"). A game whose renderer is not registered gets the generic view.

/** @typedef {(view: import("./state.js").View) => void} Board */

/** @type {Record<string, Board>} */
const BOARDS = {};

/** @param {string} name @param {Board} draw */
export function registerBoard(name, draw) { BOARDS[name] = draw; }

/** @param {string} name @returns {Board | undefined} */
export function boardFor(name) { return Object.prototype.hasOwnProperty.call(BOARDS, name) ? BOARDS[name] : undefined; }
