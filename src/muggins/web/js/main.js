// The page's entry: the address says what to show (the lobby at /, a table at /t/ID), and the boards of
// the games register themselves by their renderer names when their modules load.

import { state } from "./state.js";
import { $ } from "./util.js";
import { api } from "./api.js";
import { showLobby } from "./lobby.js";
import { showTable, render } from "./table.js";
import { boardWidth } from "./domino-board.js";
import "./card-table.js";
import { analyse } from "./analysis.js";
import { renderLog, describeAt } from "./log.js";
import { showReplay, leaveReplay } from "./replay.js";
import { showRules, showTutorial, showDrills } from "./learn.js";
import { setupSwitch, fxLog } from "./fx.js";
import { setupAccount, reclaimSeat } from "./account.js";
import { showProfile, showLeaderboard } from "./profile.js";
import { showDaily, showDailyResults, dailyNote } from "./daily.js";

const accountReady = setupAccount();
export function route() {
  if (state.ws) { const old = state.ws; state.ws = null; old.onclose = null; old.close(); }
  leaveReplay();
  state.offline = null; $("tutor").hidden = true; $("learn").hidden = true; $("players").hidden = true;
  $("daily-results").hidden = true;
  dailyNote(null);
  const page = { "/rules": showRules, "/tutorial": showTutorial, "/drills": showDrills }[location.pathname];
  if (page) { page(); return; }
  const who = location.pathname.match(/^\/(players|leaderboard)(?:\/([^/]+))?$/);
  if (who && who[1] === "players") { showProfile(decodeURIComponent(who[2] || "")); return; }
  if (who) { showLeaderboard(decodeURIComponent(who[2] || "")); return; }
  const daily = location.pathname.match(/^\/daily\/([\w-]+)\/([\w-]+)$/);
  if (daily) { showDailyResults(daily[1], daily[2]); return; }
  const m = location.pathname.match(/^\/t\/([\w-]+)/);
  if (m && /\/replay$/.test(location.pathname)) showReplay(m[1]);
  else if (m) {
    if (!state.catalogue) api("/api/games").then((c) => { state.catalogue = c; }).catch(() => {});
    accountReady.then(() => reclaimSeat(m[1])).then(() => showTable(m[1]))  // a seat of the account comes back
      .then(() => dailyNote(m[1]));
  } else { showLobby(); showDaily(); }
}
// the layout is planned for the board's width: drawn again when that width changes (not the height)
/** @type {ReturnType<typeof setTimeout> | undefined} */
let resizeTimer;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { if (state.last && !$("play").hidden && boardWidth() !== state.drawnWidth) render(); }, 150);
});
window.addEventListener("popstate", route);
// Enter or Space on a piece, a place on the table or a card (drawn as pictures, each with role="button")
// does what a click does
document.addEventListener("keydown", (ev) => {
  const t = /** @type {Element} */ (ev.target);
  if ((ev.key !== "Enter" && ev.key !== " ") || !(t instanceof Element) || t.getAttribute("role") !== "button" || t instanceof HTMLButtonElement) return;
  ev.preventDefault();
  t.dispatchEvent(new MouseEvent("click", { bubbles: true }));
});
setupSwitch();
$("analyse-btn").addEventListener("click", analyse);
// For tests and for a look from the console: the page's state and its drawing functions.
Object.assign(window, { muggins: { state, render, renderLog, describeAt, fxLog } });
route();
