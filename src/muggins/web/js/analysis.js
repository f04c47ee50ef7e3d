// The analysis of a finished game: asked for with the Analyse button, shown as a table of each seat's
// losses, the turning moments and the score race.

import { state } from "./state.js";
import { $, el, prettyCards } from "./util.js";
import { authHeaders } from "./api.js";

export function resetAnalysis() {
  $("analysis").replaceChildren();
  $("analysis-state").textContent = "";
  $("analyse-btn").disabled = false;
  $("analyse-btn").hidden = false;
}
export async function analyse() {
  const id = state.tableId;
  $("analyse-btn").disabled = true;
  $("analysis-state").textContent = "Analysing… (every decision is played out over sampled hands)";
  try {
    let a;
    for (;;) {  // a running analysis answers 202 with how far it is: shown until it is done
      const r = await fetch(`/api/tables/${id}/analysis?wait=0`, { headers: authHeaders() });
      let data = null;
      try { data = await r.json(); } catch (e) { data = null; }
      if (!r.ok) throw new Error((data && data.error) || r.statusText || `request failed (${r.status})`);
      if (state.tableId !== id) return;
      if (r.status !== 202) { a = data; break; }
      $("analysis-state").textContent = data.total
        ? `Analysing… ${data.done} of ${data.total} actions replayed` : "Analysing… (waiting for its turn)";
      await new Promise((ok) => setTimeout(ok, 400));
    }
    $("analysis-state").textContent = "";
    $("analyse-btn").hidden = true;
    $("analysis").replaceChildren(...analysisView(a));
  } catch (e) {
    if (state.tableId !== id) return;
    $("analysis-state").textContent = "The analysis failed: " + e.message;
    $("analyse-btn").disabled = false;
  }
}
function fixed(x) { return x === null || x === undefined ? "-" : Number(x).toFixed(1); }
function analysisView(a) {
  const name = (s) => a.players[s] + (s === state.me ? " (you)" : "");
  const head = ["Player", "Decisions", "Accurate", "Lost to choices", "to counting", "to muggins calls",
    "to false calls", "Total lost", "Misses not called"];
  const rows = a.seats.map((s) => el("tr", { class: "seat-row" },
    el("th", {}, name(s.seat)), el("td", {}, String(s.decisions)),
    el("td", {}, s.accuracy === null ? "-" : Math.round(100 * s.accuracy) + "%"),
    el("td", {}, fixed(s.choices)), el("td", {}, String(s.counting)), el("td", {}, String(s.muggins)),
    el("td", {}, String(s.false_calls)), el("td", {}, fixed(s.total)),
    el("td", {}, `${s.missed_call_points} in ${s.missed_calls}`)));
  const table = el("table", { class: "analysis-seats" },
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))), el("tbody", {}, ...rows));
  const moments = a.moments.length
    ? el("ol", { class: "moments" }, ...a.moments.map((m) => el("li", {},
      el("b", {}, el("a", { href: `#move-${m.action + 1}`, class: "move-ref", "data-n": m.action + 1 }, `Move ${m.action + 1}`),
        `, ${name(m.seat)}: `), `${fixed(m.points)} lost — ${prettyCards(m.text)}`)))
    : el("p", {}, "No point was lost anywhere the analysis could see.");
  return [
    el("h3", {}, "Analysis"),
    el("p", { class: "help" }, `${a.game} / ${a.preset}: ${a.actions} moves (numbered as in the log), ${a.decisions.length} decisions, `
      + `each played out over ${a.samples} sampled deals. A loss of a point or two on one move may be noise; `
      + "the larger losses and the totals are what to read."),
    table,
    el("h3", {}, "Turning moments"), moments,
    el("img", { id: "analysis-plot", src: a.plot, alt: "The score race and the points lost at each decision" }),
  ];
}
