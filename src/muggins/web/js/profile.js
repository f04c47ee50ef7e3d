// Players' profiles (/players/NAME) and the leaderboards (/leaderboard/GAME): ratings with "?" while
// provisional, the rating history as a chart drawn here in SVG, the games played and won, the recent games
// with their replay, and the muggins figures.

import { $, el, svg } from "./util.js";
import { api } from "./api.js";
import { currentAccount } from "./account.js";
import { accountSettings } from "./settings.js";

/** The rating families: one per game, titled as the catalogue titles it (filled by {@link families}).
 * @type {Record<string, string>} */
const FAMILIES = {};

/** The families, read once from the catalogue of games. @returns {Promise<Record<string, string>>} */
export async function families() {
  if (!Object.keys(FAMILIES).length) {
    const c = await api("/api/games");
    for (const g of c.games) FAMILIES[g.name] = g.title || g.name;
  }
  return FAMILIES;
}
/** @type {Record<string, string>} */
const KINDS = { person: "player", bot: "bot", house: "house bot" };

function showPlayers() {
  $("lobby").hidden = true; $("table").hidden = true; $("learn").hidden = true; $("players").hidden = false;
}

/** A rating as shown: "1532?" while provisional. @param {{rating: number, provisional: boolean}} r */
export function ratingText(r) { return `${r.rating}${r.provisional ? "?" : ""}`; }

/** @param {string} name */
function playerLink(name) { return el("a", { href: `/players/${encodeURIComponent(name)}`, class: "player-link" }, name); }

/** The rating history of one family as a line chart (game by game, from the rating it started with), with
 * its lowest and highest ratings written on the axis. @param {string} family @param {number} start
 * @param {any[]} points @returns {Element} */
function chart(family, start, points) {
  const W = 320, H = 120, PAD = 34;
  const ratings = [start, ...points.map((p) => p.rating)];
  const lo = Math.min(...ratings), hi = Math.max(...ratings), span = Math.max(1, hi - lo);
  const x = (/** @type {number} */ i) => PAD + (ratings.length > 1 ? (i * (W - PAD - 8)) / (ratings.length - 1) : 0);
  const y = (/** @type {number} */ r) => 8 + ((hi - r) * (H - 24)) / span;
  const label = `${FAMILIES[family]}: rating ${ratings.join(", ")}, game by game`;
  const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": label,
    "data-family": family, "data-points": String(points.length) });
  box.append(svg("line", { x1: PAD, y1: 8, x2: PAD, y2: H - 16, stroke: "#888" }),
    svg("line", { x1: PAD, y1: H - 16, x2: W - 4, y2: H - 16, stroke: "#888" }));
  for (const [r, yy] of [[hi, y(hi) + 4], [lo, y(lo)]]) {
    const t = svg("text", { x: 2, y: yy, "font-size": 11, fill: "#222" });
    t.textContent = String(r);
    box.append(t);
  }
  box.append(svg("polyline", { points: ratings.map((r, i) => `${x(i)},${y(r)}`).join(" "), fill: "none",
    stroke: "#2f5d3a", "stroke-width": 2 }));
  ratings.forEach((r, i) => box.append(svg("circle", { cx: x(i), cy: y(r), r: 3, fill: i ? "#2f5d3a" : "#888" })));
  return box;
}

/** @param {string[]} head @param {(Node|string)[][]} rows @param {string} id @param {string} caption */
function table(head, rows, id, caption) {
  return el("table", { id, class: "figures" }, el("caption", {}, caption),
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => el("td", {}, c))))));
}

/** @param {string} name */
export async function showProfile(name) {
  showPlayers();
  await families();
  const box = $("players");
  box.replaceChildren(el("h2", {}, name), el("p", { class: "help" }, "Loading…"));
  let p;
  try { p = await api(`/api/players/${encodeURIComponent(name)}`); } catch (e) {
    box.replaceChildren(el("h2", {}, name), el("p", { class: "err", role: "alert" }, /** @type {Error} */ (e).message));
    return;
  }
  document.title = `${p.name} — Muggins`;
  const kind = p.kind === "house" ? " (house bot)" : p.kind === "bot" ? " (bot)" : "";
  const ratings = table(["Game", "Rating", "Deviation", "Rated games"],
    Object.keys(FAMILIES).map((f) => [FAMILIES[f], ratingText(p.ratings[f]), `± ${p.ratings[f].deviation}`,
      String(p.ratings[f].games)]), "profile-ratings", "Ratings (? while provisional)");
  const charts = Object.keys(FAMILIES).filter((f) => (p.history[f] || []).length)
    .map((f) => el("figure", { class: "chart" }, el("figcaption", {}, `${FAMILIES[f]} rating`), chart(f, p.starts[f], p.history[f])));
  const played = table(["Game", "Played", "Won"], Object.entries(p.games).map(([g, n]) =>
    [FAMILIES[g] || g, String(/** @type {any} */ (n).played), String(/** @type {any} */ (n).won)]), "profile-games", "Games");
  const m = p.muggins;
  const acc = m.counting_accuracy === null ? "—" : `${Math.round(m.counting_accuracy * 100)}%`;
  const figures = el("dl", { id: "profile-muggins", class: "muggins-figures" },
    ...[["Muggins! calls", `${m.calls} (${m.right} right, ${m.false} false)`], ["Points stolen", String(m.stolen)],
      ["Points missed", String(m.missed)], ["Counting accuracy", acc], ["Games counted", String(m.games)]]
      .flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
  const recent = el("ul", { id: "profile-recent" }, ...p.recent.map((/** @type {any} */ g) => el("li", { "data-table": g.id },
    `${FAMILIES[g.game] || g.game}${g.rated ? " (rated)" : ""}: ${g.result}`, scoresOf(g),
    ` with ${g.players.filter((/** @type {string} */ _n, /** @type {number} */ i) => i !== g.seat).join(", ")} `, el("a", { href: g.replay }, "Replay"),
    g.analysis ? el("a", { href: `/t/${g.id}` }, "Analysis") : "")));
  box.replaceChildren(el("h2", {}, p.name + kind), ratings, ...charts, played,
    el("h3", {}, "Muggins figures"), figures, el("h3", {}, "Recent games"),
    p.recent.length ? recent : el("p", {}, "No games yet."),
    el("p", {}, el("a", { href: "/leaderboard" }, "Leaderboards")));
  const me = await currentAccount();  // my own profile: my password, my bots, my account's deletion
  if (me && me.username === p.name && p.kind === "person") box.append(await accountSettings(p.name, box));
}

/** The final scores of a recent game, each after its player's name (the server keeps one a seat: partners
 * show their side's); "" when the game kept none.
 * @param {any} g @returns {string} */
export function scoresOf(g) {
  if (!Array.isArray(g.scores) || g.scores.length !== g.players.length) return "";
  return ` (${g.scores.map((/** @type {number} */ s, /** @type {number} */ i) => `${g.players[i]} ${s}`).join(", ")})`;
}

/** @param {string} game */
export async function showLeaderboard(game) {
  showPlayers();
  const titles = await families();  // also when the page is opened at a game's board: titles and tabs
  game = game || Object.keys(titles)[0];
  const box = $("players");
  const tabs = el("nav", { class: "board-tabs", "aria-label": "Leaderboards" }, ...Object.keys(FAMILIES).map((f) =>
    el("a", { href: `/leaderboard/${f}`, "aria-current": f === game ? "page" : null }, FAMILIES[f])));
  box.replaceChildren(el("h2", {}, "Leaderboard"), tabs, el("p", { class: "help" }, "Loading…"));
  let b;
  try { b = await api(`/api/leaderboard/${encodeURIComponent(game)}`); } catch (e) {
    box.replaceChildren(el("h2", {}, "Leaderboard"), tabs, el("p", { class: "err", role: "alert" }, /** @type {Error} */ (e).message));
    return;
  }
  document.title = `${FAMILIES[b.game]} leaderboard — Muggins`;
  const rows = b.players.map((/** @type {any} */ p) => [String(p.rank), playerLink(p.name),
    ratingText(p), `± ${p.deviation}`, String(p.games), KINDS[p.kind] || p.kind]);
  box.replaceChildren(el("h2", {}, `${FAMILIES[b.game]} leaderboard`), tabs,
    rows.length ? table(["#", "Player", "Rating", "Deviation", "Games", "Kind"], rows, "leaderboard", `Rated players with at least ${b.min_games} games (? while provisional)`)
      : el("p", { id: "leaderboard-empty" }, `Nobody has played ${b.min_games} rated games yet.`));
}
