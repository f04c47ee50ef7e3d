"""Every kind of event the three games log is written in words on the page: whole bot games of each game
(as seat 0 sees them) and the rarer events (a knock, his heels, an over-claim, a forfeit, a tie break) are
drawn in the page's log, which must hold no card codes, no snake_case, nothing undefined, and a heading
row for each hand."""

from __future__ import annotations

from typing import Any

from muggins.bots.registry import make_bot
from muggins.core.rules import get_game
from muggins.sim.driver import play_game
from tests.server.browser_helpers import RAW_CARD, browser, needs_chromium, new_page, server

__all__ = ["browser", "server"]  # fixtures
pytestmark = needs_chromium

CASES = [("dominoes", "muggins", 2, {"target": 100}), ("dominoes", "muggins-spinner", 3, {"target": 100}),
         ("dominoes", "fives-and-threes", 2, {}), ("dominoes", "five-up", 2, {}),
         ("card-muggins", "muggins", 3, {"target": 100}), ("cribbage", "cribbage-muggins", 2, {"target": 61}),
         ("cribbage", "four-hand", 4, {"target": 61}), ("cribbage", "three-hand", 3, {"target": 61})]

# events the bot games above may not produce, in the shapes the engines log them
RARE = [
    {"kind": "knock", "seat": 1, "ends": [3, 5], "partner": True},
    {"kind": "his_heels", "seat": 1, "card": "JH"},
    {"kind": "score", "seat": 1, "side": 1, "points": 2, "reason": "his heels"},
    {"kind": "play", "seat": 0, "card": "5H", "count": 15},
    {"kind": "claim", "seat": 0, "points": 9},
    {"kind": "over_claim", "seat": 0, "points": 9, "true": 2, "what": "play",
     "message": "announced 9, more than the play is worth: the claim is void and scores nothing"},
    {"kind": "over_claim", "seat": 1, "points": 7},
    {"kind": "muggins", "seat": 1, "on": 0, "outcome": "forfeit", "points": 0, "named": None, "missed": 2},
    {"kind": "muggins", "seat": 0, "on": 1, "outcome": "steal_and_deduct", "points": 4, "named": None, "missed": 4},
    {"kind": "score", "seat": 1, "side": 1, "points": -4, "reason": "mugged"},
    {"kind": "muggins", "seat": 1, "on": 0, "outcome": "false_call", "points": 0, "named": 3, "missed": 0},
    {"kind": "score", "seat": 1, "side": 1, "points": -10, "reason": "false call"},
    {"kind": "score", "seat": 0, "side": 0, "points": 3, "reason": "false call"},
    {"kind": "score", "seat": 1, "side": 1, "points": 5, "reason": "over-claim penalty"},
    {"kind": "claim", "seat": 1, "points": 5, "late": True},
    {"kind": "round_end", "round": 2, "scores": [40, 52]},
    {"kind": "tie_break", "hands": 2},
    {"kind": "tie_break", "seats": [0, 1]},
    {"kind": "void", "seat": 0, "side": 0, "points": 10, "reason": "play", "why": "it would pass the target"},
    {"kind": "hand_end", "hand": 3, "reason": "blocked", "hands": [["6-6"], ["5-4", "1-0"]], "pips": [12, 10]},
    {"kind": "score", "seat": 1, "side": 1, "points": 0, "reason": "blocked"},
    {"kind": "score", "side": 0, "points": -15, "reason": "own pips"},
    {"kind": "draw", "seat": 1, "why": "go"},
    {"kind": "draw", "seat": 0, "card": "TD", "why": "go"},
    {"kind": "go", "seat": 1, "count": 31, "takes": "last card"},
    {"kind": "game_end", "winners": [0], "scores": [121, 80], "winner_side": 0,
     "losers": [{"side": 1, "score": 80, "result": "skunk", "game_points": 2}], "game_points": 2},
]

RENDER_JS = """([events, players, sides]) => {
  const s = muggins.state;
  s.me = 0;
  const seats = Array.from({length: players}, (_, i) => ({name: i === 0 ? 'Ann' : 'North ' + i, open: false}));
  const scores = sides ? [0, 0] : seats.map(() => 0);
  s.last = {...s.last, table: {...s.last.table, seats}, view: {...s.last.view, players, sides, scores}};
  s.logEvents = events;
  muggins.renderLog();
  const lines = [...document.querySelectorAll('#log li')].map((e) => e.textContent);
  const each = events.map((e) => muggins.describeAt([e], 0)[0].map((r) => r.text).join(' / '));
  return {lines, each, headings: document.querySelectorAll('#log li.heading').length};
}"""


def bot_game_events(game: str, preset: str, players: int, options: dict[str, Any]) -> list[dict[str, Any]]:
    spec = get_game(game)
    final: list[Any] = []
    play_game(spec, spec.rules(preset, options), players, [make_bot("beginner", i) for i in range(players)], 11,
              on_state=final.append)
    st = final[-1]
    assert st.is_over()
    return list(st.events_for(0))


def assert_clean(lines: list[str], what: str) -> None:
    text = "\n".join(lines)
    assert not RAW_CARD.search(text), (what, RAW_CARD.search(text))
    for bad in ("_", "undefined", "null", "NaN", "[object", "  "):
        assert bad not in text, (what, bad, [x for x in lines if bad in x][:3])


def test_every_event_of_every_game_reads_as_a_sentence(server: tuple[str, Any], browser: Any) -> None:
    base, _app = server
    ctx, page, errors = new_page(browser)
    page.goto(base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.click("#create-btn")
    page.click("#watch")
    page.wait_for_function("() => muggins.state.last !== null")
    kinds: set[str] = set()
    for game, preset, players, options in CASES:
        events = bot_game_events(game, preset, players, options)
        kinds |= {e["kind"] for e in events}
        sides = [0, 1, 0, 1] if players == 4 and game == "cribbage" else None
        out = page.evaluate(RENDER_JS, [events, players, sides])
        what = f"{game} {preset}"
        assert_clean(out["lines"], what)
        assert out["headings"] >= 2, what  # a heading per hand (or round) and one for the game's end
        assert out["lines"][-1].startswith("Game over"), (what, out["lines"][-3:])
        for e, line in zip(events, out["each"], strict=True):
            assert_clean([line], f"{what}: {e}")
            assert not line.endswith(f": {e['kind']}"), (what, e)  # not the fallback for unknown kinds
        if game == "dominoes":
            assert any(x.startswith("Hand over: ") and "pips left: " in x for x in out["lines"]), what
    out = page.evaluate(RENDER_JS, [RARE, 2, None])
    assert_clean(out["lines"] + out["each"], "rare events")
    kinds |= {e["kind"] for e in RARE}
    expected = {"lot", "hand_start", "dealt", "play", "claim", "score", "draw", "muggins", "missed", "pass", "knock",
                "hand_end", "game_end", "void", "tie_break", "over_claim", "cut_for_deal", "round_start", "pile_end",
                "pile_start", "go", "round_end", "cut", "deal", "discard", "starter", "his_heels", "reset",
                "show_start", "show", "explain"}
    assert expected <= kinds, expected - kinds
    each = dict(zip([repr(e) for e in RARE], out["each"], strict=True))
    texts = list(each.values())
    assert "North 1 knocked (open ends 3, 5)" in texts
    assert any("more than the play is worth" in t for t in texts)
    assert any("false call" in t for t in texts) and any("forfeits" in t or "forfeit" in t for t in texts)
    assert any(t.startswith("Hand over: blocked") and "pips left: You 12, North 1 10 (-15 for you)" in t
               for t in out["lines"])
    assert not errors, errors
    ctx.close()

