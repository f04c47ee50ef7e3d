// What the page holds between messages: one shared object, so that every module reads and sets the same
// values (an imported binding cannot be assigned to).

/**
 * @typedef {Record<string, any>} View   a seat's view of the game, as the server sends it
 * @typedef {{type: string, view: View, table: Record<string, any>, renderer: string, events: any[],
 *   event_start?: number, you?: number | null, piece_noun?: [string, string], grace_left?: number | null,
 *   event_actions?: (number | null)[], claim_bound?: number,
 *   hand_end?: any, clock?: any}} StateMessage
 */

export const state = {
  /** @type {any} the games, presets and bots the server offers */
  catalogue: null,
  /** @type {WebSocket | null} */
  ws: null,
  /** @type {string | null} */
  tableId: null,
  /** @type {number | null} my seat, or null when watching */
  me: null,
  /** @type {StateMessage | null} the last state message */
  last: null,
  /** @type {any[]} every event of the game so far, as this seat may see them */
  logEvents: [],
  /** @type {string[]} selected pieces in my hand */
  selected: [],
  retry: 0,
  /** @type {string | null} my seat's token: it proves the seat when the page asks for a hint */
  myToken: null,
  /** @type {number | null} the action count the hint shown (or asked for) belongs to */
  hintAt: null,
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  lobbyTimer: undefined,
  /** @type {number | null} when (performance.now()) the open Muggins! grace period ends, by the server's clock */
  graceEnd: null,
  /** @type {any[]} for each event of logEvents, the index of the action that logged it (null: before any) */
  eventActions: [],
  /** the board width the dominoes layout was last planned for */
  drawnWidth: 0,
  /** @type {((move: string, claim: number | null) => void) | null} where moves go instead of the server (the tutorial) */
  offline: null,
};
