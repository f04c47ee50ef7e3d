// The server: its JSON API, and the table's WebSocket (state messages in, moves out).

import { state } from "./state.js";
import { $ } from "./util.js";
import { render, showTable } from "./table.js";
import { resetAnalysis } from "./analysis.js";
import { capture, announceChanges } from "./motion.js";

/** @param {string} path @param {any} [body] a JSON body: the request is a POST @returns {Promise<any>} */
export async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) throw new Error((data && data.error) || r.statusText || `request failed (${r.status})`);
  return data;
}
/** @param {string | null} id */
export function tokenKey(id) { return "muggins-seat-" + id; }
// Asked for by my seat alone, when it is my turn at a table with hints: the server answers this request
// only, so nobody else learns anything of it.
export function authHeaders() { return state.myToken ? { Authorization: "Bearer " + state.myToken } : {}; }
/** @param {string} path @returns {Promise<any>} */
export async function getJSON(path) {
  const r = await fetch(path, { headers: authHeaders() });
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) throw new Error((data && data.error) || r.statusText || `request failed (${r.status})`);
  return data;
}
/** @param {string | null} token my seat's token, or null to watch */
export function connect(token) {
  $("join").hidden = true; $("play").hidden = false;
  state.myToken = token; state.hintAt = null;
  resetAnalysis();
  state.logEvents = []; state.last = null; state.selected = []; $("log").replaceChildren();
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // the token goes in the first message, never in the address (addresses are written in logs)
  const sock = new WebSocket(`${proto}//${location.host}/ws/${state.tableId}`);
  state.ws = sock;
  sock.onopen = () => {
    sock.send(JSON.stringify({ type: "hello", token }));
    $("conn").textContent = "connected"; state.retry = 0;
  };
  sock.onmessage = (m) => onMessage(JSON.parse(m.data));
  sock.onclose = () => {
    if (state.ws !== sock) return;
    $("conn").textContent = "reconnecting…";
    state.retry = Math.min(state.retry + 1, 6);
    setTimeout(() => { if (state.ws === sock) connect(token); }, 300 * state.retry);
  };
}
/** @param {string} move @param {number | null} [claim] @returns {boolean} whether it was sent */
export function send(move, claim) {
  $("play-err").textContent = "";
  // "at": the number of actions applied so far, as the page last saw it (the index the state and ack use)
  /** @type {Record<string, any>} */
  const msg = { type: "act", move, at: state.last ? state.last.table.actions : 0 };
  if (claim !== undefined && claim !== null) msg.claim = claim;
  if (state.offline) { state.offline(move, claim === undefined ? null : claim); state.selected = []; return true; }
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) { $("play-err").textContent = "Not connected; trying again…"; return false; }
  state.ws.send(JSON.stringify(msg));
  state.selected = [];
  return true;
}
function onMessage(m) {
  if (m.type === "error") {
    $("play-err").textContent = m.message;
    if (m.fatal) { localStorage.removeItem(tokenKey(state.tableId)); state.ws.onclose = null; state.ws = null; showTable(state.tableId); }
    return;
  }
  if (m.type === "moved" || m.type === "left") {  // this page's seat went elsewhere: it watches now
    localStorage.removeItem(tokenKey(state.tableId)); state.myToken = null; state.me = null;
    $("seat-msg").textContent = m.message;
    return;
  }
  if (m.type !== "state") return;
  if (m.table.status === "resigned") m.view = { ...m.view, legal: [], to_act: [], waiting_for: [] };
  if (m.event_start === 0) { state.logEvents = []; state.eventActions = []; }
  state.logEvents.push(...m.events);
  state.eventActions.push(...(m.event_actions || m.events.map(() => null)));
  state.graceEnd = typeof m.grace_left === "number" && m.grace_left > 0 ? performance.now() + 1000 * m.grace_left : null;
  const before = state.last;
  if (m.you !== undefined) state.me = m.you;
  state.last = m;
  state.selected = state.selected.filter((x) => (m.view.my_hand || []).includes(x));
  const moved = capture();
  render();
  announceChanges(before, m, moved);
}
