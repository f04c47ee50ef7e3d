"""The whole table for one viewer as rich renderables: header with scores, the game's own panel, the
latest events, the hand and the numbered moves; and the end of a hand as everybody may see it. Everything
is sized to fit a terminal of 80 columns and 24 rows, the prompt line included."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from muggins.core.protocol import Action, GameState
from muggins.core.rules import get_game
from muggins.tui.renderer import renderer_for
from muggins.tui.text import ROWS, WIDTH, HandEnd, fit_body, rows_of, scores_text, seat_name, wrap_words

EVENT_LINES = 5
# what a player most needs to read, then the moves, then the routine (draws, passes, gos)
IMPORTANT = frozenset({"score", "muggins", "claim", "over_claim", "void", "missed", "hand_end", "round_end",
                       "game_end", "show", "his_heels", "tie_break"})
ROUTINE = frozenset({"draw", "pass", "knock", "go", "discard", "reset", "pile_end", "starter"})
# the events that open a new hand: not part of the hand that ended
NEW_HAND = frozenset({"hand_start", "round_start", "deal", "dealt", "lot", "cut", "cut_for_deal", "pile_start"})


_name = seat_name
_rows = rows_of
_fit_body = fit_body


def describe(e: dict[str, Any], names: list[str]) -> str | None:
    """One event as a sentence, or None for bookkeeping events a player need not read."""
    who = _name(names, e.get("seat"))
    k = e["kind"]
    if k == "play":
        where = f" on {e['on']}" if e.get("on") else ""
        part = f" ({e['part']})" if e.get("part") and e.get("part") != "half" else ""
        piece = e.get("tile") or e.get("card") or ""
        total = f", total {e['total']}" if "total" in e else f", count {e['count']}" if "card" in e \
            and "count" in e else ""
        return f"{who} played {piece}{where}{part}{total}"
    if k == "discard":
        return f"{who} laid away to the crib"
    if k == "claim":
        return f"{who} announced {e['points']}" + (" (late)" if e.get("late") else "")
    if k == "over_claim":
        true = f" (it made {e['true']})" if isinstance(e.get("true"), int) else ""
        text = e.get("message") or (f"announced {e.get('points')}, more than the play made: the claim is void")
        return f"{who} {text}{true}"
    if k == "score":
        return f"{who} scored {e['points']:+d} ({e['reason']})"
    if k == "muggins":
        target = _name(names, e.get("on"))
        if e.get("outcome") == "false_call":
            return f"{who} called Muggins! on {target} - a false call"
        return f"{who} called Muggins! on {target}: {e.get('outcome')} {e.get('points')}"
    if k == "missed":
        return f"{who} let {e['points']} point(s) go unclaimed"
    if k == "draw":
        drawn = e.get("tile") or e.get("card")
        return f"{who} drew {drawn}" if drawn else f"{who} drew"
    if k in ("pass", "knock", "go"):
        return f"{who} {'said go' if k == 'go' else k + 'ed'}"
    if k == "hand_end":
        return f"Hand {e.get('hand', '')} ends ({e.get('reason', '')})"
    if k == "round_end":
        return f"Round {e.get('round', '')} ends"
    if k == "hand_start":
        lead = e.get("leader")
        leads = "" if not isinstance(lead, int) else f" {names[lead]} lead" + ("" if names[lead] == "You" else "s")
        return f"--- Hand {e.get('hand')} ---" + leads
    if k == "show":
        pts = f": {e['points']}" if "points" in e else ""
        return f"{who} showed {'the crib' if e.get('what') == 'crib' else 'a hand'} {' '.join(e.get('cards', []))}{pts}"
    if k == "his_heels":
        return f"{who} turned a jack: his heels"
    if k == "tie_break":
        return "A tie at the target: play goes on"
    if k == "game_end":
        won = e.get("winners") or []
        return "Game over. Won by " + ", ".join(names[w] for w in won if 0 <= w < len(names))
    if k == "void":
        return f"{who}: {e['points']} point(s) void - {e.get('why', '')}"
    return None


def _priority(kind: str) -> int:
    return 2 if kind in IMPORTANT else 0 if kind in ROUTINE else 1


def log_lines(st: GameState, viewer: int | None, names: list[str], start: int = 0,
              skip: frozenset[str] = frozenset(), ascii_only: bool = False) -> list[tuple[int, str]]:
    """The readable events from ``start`` as ``viewer`` may see them, each with its priority (2: scores,
    calls, claims, hand ends; 1: moves; 0: draws, passes and the like), pieces named as the table names
    them. A run of draws by one seat is one line, so that a long draw never pushes what came before it
    off the list."""
    out: list[tuple[int, str]] = []
    run: tuple[object, list[str]] | None = None  # (seat, drawn pieces) of the draws being gathered

    def flush() -> None:
        nonlocal run
        if run is not None:
            seat, drawn = run
            who = _name(names, seat)
            shown = [d for d in drawn if d]
            if len(drawn) == 1:
                out.append((0, f"{who} drew {shown[0]}" if shown else f"{who} drew"))
            elif len(shown) == len(drawn):
                out.append((0, f"{who} drew {', '.join(shown)}"))
            else:
                out.append((0, f"{who} drew {get_game(st.game).pieces(len(drawn))}"))
            run = None

    renderer = renderer_for(st.game)
    for e in st.events_for(viewer, start):
        k = e["kind"]
        if k in skip:
            continue
        if k == "draw":
            piece = str(e.get("tile") or e.get("card") or "")
            if run is not None and run[0] == e.get("seat"):
                run[1].append(piece)
            else:
                flush()
                run = (e.get("seat"), [piece])
            continue
        text = describe(e, names) or renderer.other_event(e, names)
        if text:
            flush()
            out.append((_priority(k), text))
    flush()
    return [(p, renderer.text(text, ascii_only)) for p, text in out]


def recent_events(st: GameState, viewer: int | None, names: list[str], count: int = EVENT_LINES,
                  ascii_only: bool = False) -> list[str]:
    """At most ``count`` of the latest events as ``viewer`` may see them: among the last ``2 * count``
    lines the important ones (scores, calls, claims, hand ends) are kept before moves, and moves before
    draws and passes; they are shown in the order they happened."""
    if count <= 0:
        return []
    lines = log_lines(st, viewer, names, max(0, len(st.log) - 40 * count), ascii_only=ascii_only)[-2 * count:]
    keep = sorted(range(len(lines)), key=lambda i: (-lines[i][0], -i))[:count]
    return [lines[i][1] for i in sorted(keep)]


def _scores(v: dict[str, Any], names: list[str]) -> str:
    parts = []
    for s, sc in enumerate(v["scores"]):
        held = f" ({v['hand_sizes'][s]} held)" if "hand_sizes" in v else ""
        mark = ">" if v.get("turn") == s else " "
        parts.append(f"{mark}{names[s]} {sc}{held}")
    parts.append(f"  target {v['target']}")
    lines = [""]
    for part in parts:
        if lines[-1] and len(lines[-1]) + 2 + len(part) > WIDTH:
            lines.append(part)
        else:
            lines[-1] = f"{lines[-1]}  {part}" if lines[-1] else part
    return "\n".join(lines)


def my_hand(v: dict[str, Any], ascii_only: bool) -> list[str]:
    """The viewer's hand as lines: tiles drawn like the table's, cards with their suits."""
    if "my_hand" not in v:
        return []
    words = renderer_for(v["game"]).hand_words(v, ascii_only)
    return wrap_words(words or ["-"], WIDTH - 1, "Your hand:", " " * 11)


def move_list(moves: list[str], width: int) -> list[str]:
    """Numbered moves wrapped to ``width``."""
    lines: list[str] = []
    cur = ""
    for i, m in enumerate(moves, 1):
        item = f"{i}) {m}"
        if cur and len(cur) + 2 + len(item) > width:
            lines.append(cur)
            cur = item
        else:
            cur = f"{cur}  {item}" if cur else item
    if cur:
        lines.append(cur)
    return lines


def _panel(body: list[str], title: str, ascii_only: bool) -> Panel:
    return Panel(Text("\n".join(body)), title=title, width=WIDTH, box=box.ASCII if ascii_only else box.ROUNDED)


def _in_message(event: str, message: str) -> bool:
    """An event line the message already says (an over-claim, a call): shown once, in the message."""
    return bool(message) and event.split(" (it made ")[0] in message


def _message(message: str) -> Text:
    return Text(message, style="bold red" if message.startswith("Not allowed") else "bold green")


def render_table(st: GameState, viewer: int | None, names: list[str], *, hints: bool = False,
                 ascii_only: bool = False, moves: list[str] | None = None, message: str = "",
                 title: str = "", open_hands: bool = False) -> RenderableType:
    """The table for ``viewer`` (None: a spectator). ``moves`` are listed numbered under the hand.
    ``open_hands`` shows every seat's hand (watching a record, where nothing is secret any more).
    With the prompt line under it the whole never takes more than 24 rows: the event list gives way
    first (down to none), then the drawing of a big layout shows only the rows around the play."""
    v = st.view(viewer).to_json()
    inner = WIDTH - 4
    renderer = renderer_for(st.game)
    header = _scores(v, names)
    hand = my_hand(v, ascii_only) if viewer is not None else []
    listed = move_list([renderer.text(m, ascii_only) for m in moves or []], WIDTH - 1)
    message = renderer.text(message, ascii_only)
    seats: list[str] = []
    if open_hands:
        for seat in range(st.num_players):
            held = my_hand(st.view(seat).to_json(), ascii_only)
            line = " ".join(x.strip() for x in held).replace("Your hand:", f"{names[seat]}:", 1)
            seats.append(line if len(line) < WIDTH else line[: WIDTH - 4] + "...")
    others = (_rows(header.splitlines()) + 2 + len(seats) + _rows(hand) + _rows(listed)
              + (_rows(message.splitlines()) if message else 0) + 1)
    room = ROWS - others
    body = renderer.body(st, v, names, inner, room, ascii_only, hints)
    head = title or f"{v['game']} / {v['preset']}"
    events = [e for e in recent_events(st, viewer, names, min(EVENT_LINES, room - _rows(body, inner)),
                                       ascii_only) if not _in_message(e, message)]
    parts: list[RenderableType] = [Text(header, style="bold cyan"), _panel(body, head, ascii_only)]
    if events:
        parts.append(Text("\n".join(events), style="dim"))
    parts.extend(Text(line, style="yellow") for line in seats)
    if hand:
        parts.append(Text("\n".join(hand), style="yellow"))
    if listed:
        parts.append(Text("\n".join(listed)))
    if message:
        parts.append(_message(message))
    return Group(*parts)


# -------------------------------------------------------------------------------- end of a hand ----
def hand_number(st: GameState) -> int:
    """The number of the hand (dominoes, cribbage) or round (card Muggins) being played."""
    n = getattr(st, "hand_no", None)
    if not isinstance(n, int):
        n = getattr(st, "round_no", 0)
    return n if isinstance(n, int) else 0


def make_hand_end(st: GameState, before: GameState, seat: int, action: Action, start: int,
                  names: list[str], ascii_only: bool) -> HandEnd:
    """The end of the hand that ``action`` (made by ``seat`` on ``before``) closed; ``start`` is where
    that action's events begin in the log."""
    return renderer_for(st.game).hand_end(st, before, seat, action, start, hand_number(before), names,
                                          ascii_only)


def hand_end_events(st: GameState, end: HandEnd, names: list[str], ascii_only: bool = False) -> list[str]:
    """What happened from the hand's last action on (the play, the claims, the bonus or the awards, and
    any call on the last play), nothing of the next deal."""
    return [text for _, text in log_lines(st, None, names, end.start, skip=NEW_HAND, ascii_only=ascii_only)]


def render_hand_end(st: GameState, end: HandEnd, names: list[str], *, ascii_only: bool = False,
                    message: str = "") -> RenderableType:
    """The table as the hand left it, for everybody at once: nothing on it is secret. Within 24 rows
    with the prompt: the events first give way to the drawing, then the drawing is cut."""
    inner = WIDTH - 4
    header = f"{end.word} {end.number} is over.  Scores: {scores_text(st.scores(), names)}"
    message = renderer_for(st.game).text(message, ascii_only)
    events = [e for e in hand_end_events(st, end, names, ascii_only) if not _in_message(e, message)]
    room = ROWS - 1 - _rows([header]) - (_rows(message.splitlines()) if message else 0) - 2
    lines = end.lines
    drawing: list[str] = []
    if end.layout is not None:
        renderer = renderer_for(st.game)
        full = renderer.drawing(end.layout, inner, ascii_only)
        spare = room - _rows(lines, inner) - min(_rows(events), 4)
        drawing = full if len(full) <= spare else renderer.drawing(end.layout, inner, ascii_only, max(3, spare))
    body = _fit_body(drawing + lines, inner, room - 1)
    left = room - _rows(body, inner)
    while events and _rows(events) > left:
        events = events[1:]
    parts: list[RenderableType] = [Text(header, style="bold cyan"),
                                   _panel(body, f"{st.game} / {st.rules.preset}", ascii_only)]
    if events:
        parts.append(Text("\n".join(events)))
    if message:
        parts.append(_message(message))
    return Group(*parts)


__all__ = ["ROWS", "WIDTH", "HandEnd", "describe", "hand_number", "make_hand_end", "render_hand_end",
           "render_table", "scores_text"]
