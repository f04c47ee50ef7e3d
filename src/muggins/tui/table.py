"""The whole table for one viewer as rich renderables: header with scores, the game's own panel, the
latest events, the hand and the numbered moves; and the end of a hand as everybody may see it. Everything
is sized to fit a terminal of 80 columns and 24 rows, the prompt line included."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from muggins.core.errors import MugginsError
from muggins.core.protocol import Action, GameState
from muggins.tui.render_cards import card, card_muggins_lines, cards, cribbage_lines, peg_track, possessive
from muggins.tui.render_dominoes import ASCII, UNICODE, draw_layout, horizontal

WIDTH = 80
ROWS = 24
EVENT_LINES = 5
# what a player most needs to read, then the moves, then the routine (draws, passes, gos)
IMPORTANT = frozenset({"score", "muggins", "claim", "over_claim", "void", "missed", "hand_end", "round_end",
                       "game_end", "show", "his_heels", "tie_break"})
ROUTINE = frozenset({"draw", "pass", "knock", "go", "discard", "reset", "pile_end", "starter"})
# the events that open a new hand: not part of the hand that ended
NEW_HAND = frozenset({"hand_start", "round_start", "deal", "dealt", "lot", "cut", "cut_for_deal", "pile_start"})


def scores_text(scores: list[int], names: list[str]) -> str:
    """``"You 30, North 61"``."""
    return ", ".join(f"{names[s]} {sc}" for s, sc in enumerate(scores))


def _name(names: list[str], s: object) -> str:
    return names[s] if isinstance(s, int) and 0 <= s < len(names) else "Someone"


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
              skip: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """The readable events from ``start`` as ``viewer`` may see them, each with its priority (2: scores,
    calls, claims, hand ends; 1: moves; 0: draws, passes and the like). A run of draws by one seat is
    one line, so that a long draw never pushes what came before it off the list."""
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
                out.append((0, f"{who} drew {len(drawn)}" + (" tiles" if st.game == "dominoes" else " cards")))
            run = None

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
        text = describe(e, names)
        if text:
            flush()
            out.append((_priority(k), text))
    flush()
    return out


def recent_events(st: GameState, viewer: int | None, names: list[str], count: int = EVENT_LINES) -> list[str]:
    """At most ``count`` of the latest events as ``viewer`` may see them: among the last ``2 * count``
    lines the important ones (scores, calls, claims, hand ends) are kept before moves, and moves before
    draws and passes; they are shown in the order they happened."""
    if count <= 0:
        return []
    lines = log_lines(st, viewer, names, max(0, len(st.log) - 40 * count))[-2 * count:]
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


def open_ends_text(v: dict[str, Any]) -> str:
    """The value of every free place of the layout, a place on a double written as the double
    (``5-5 3 1``): the count is theirs to add up unless hints are on."""
    values = []
    for e in v.get("open_ends", []):
        on = str(e.get("on") or "")
        a, _, b = on.partition("-")
        values.append(f"{e['value']}-{e['value']}" if a and a == b else str(e["value"]))
    return " ".join(values) or "-"


def domino_lines(v: dict[str, Any], width: int, ascii_only: bool, count: int | None,
                 max_rows: int | None = None) -> list[str]:
    """The drawing, then the hand number, the boneyard and the values of the open ends; the count of the
    ends only when given (``--hints``, or a game that scores by itself): in a manual claim game counting
    is the player's job. With ``max_rows`` the drawing is cut to fit (see :func:`draw_layout`)."""
    extra = f"Hand {v['hand']}   Boneyard: {v['boneyard']}   Open ends: {open_ends_text(v)}"
    if count is not None:
        extra += f"   Count: {count}"
    info = wrap_words(extra.split(" "), width)
    room = None if max_rows is None else max(1, max_rows - len(info))
    focus = [str(e["on"]) for e in v.get("open_ends", []) if e.get("on")]
    lines = draw_layout(v["layout"], width, ascii_only, room, focus) or ["(no tile set yet)"]
    return lines + info


def wrap_words(words: list[str], width: int, first: str = "", indent: str = "") -> list[str]:
    """Words joined by spaces into lines no wider than ``width`` (a long hand takes two lines)."""
    lines = [first]
    for w in words:
        if len(lines[-1]) + 1 + len(w) > width and lines[-1].strip():
            lines.append(indent + w)
        else:
            lines[-1] = f"{lines[-1]} {w}" if lines[-1].strip() else lines[-1] + w
    return lines


def piece_words(game: str, pieces: list[str], ascii_only: bool) -> list[str]:
    """Tiles drawn like the table's (``[5│3]``), cards with their suits (``10♥``)."""
    if game == "dominoes":
        g = ASCII if ascii_only else UNICODE
        return [horizontal(t.partition("-")[0], t.partition("-")[2], g) for t in pieces]
    return [card(c, ascii_only) for c in pieces]


def my_hand(v: dict[str, Any], ascii_only: bool) -> list[str]:
    """The viewer's hand as lines: tiles drawn like the table's, cards with their suits."""
    if "my_hand" not in v:
        return []
    words = piece_words(v["game"], v["my_hand"], ascii_only)
    kept = v.get("my_kept")
    if v["game"] != "dominoes" and kept and kept != v["my_hand"]:
        words += ["  kept:"] + [card(c, ascii_only) for c in kept]
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


def _rows(lines: list[str], width: int = WIDTH) -> int:
    """Terminal rows taken by ``lines`` printed ``width`` wide."""
    return sum(max(1, -(-len(line) // width)) for line in lines)


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
    header = _scores(v, names)
    hand = my_hand(v, ascii_only) if viewer is not None else []
    listed = move_list(moves or [], WIDTH - 1)
    seats: list[str] = []
    if open_hands:
        for seat in range(st.num_players):
            held = my_hand(st.view(seat).to_json(), ascii_only)
            line = " ".join(x.strip() for x in held).replace("Your hand:", f"{names[seat]}:", 1)
            seats.append(line if len(line) < WIDTH else line[: WIDTH - 4] + "...")
    others = (_rows(header.splitlines()) + 2 + len(seats) + _rows(hand) + _rows(listed)
              + (_rows(message.splitlines()) if message else 0) + 1)
    room = ROWS - others
    if v["game"] == "dominoes":
        shown = hints or v.get("claims") == "auto"
        count = getattr(st, "count", None) if shown else None
        body = domino_lines(v, inner, ascii_only, count if isinstance(count, int) else None, room)
    elif v["game"] == "cribbage":
        body = _fit_body(cribbage_lines(v, ascii_only, names), inner, room)
    else:
        body = _fit_body(card_muggins_lines(v, ascii_only, names), inner, room)
    head = title or f"{v['game']} / {v['preset']}"
    events = [e for e in recent_events(st, viewer, names, min(EVENT_LINES, room - _rows(body, inner)))
              if not _in_message(e, message)]
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


def _fit_body(body: list[str], width: int, rows: int) -> list[str]:
    """``body`` cut to its first lines that fill ``rows`` terminal rows (at least one line)."""
    out: list[str] = []
    for line in body:
        if out and _rows([*out, line], width) > rows:
            break
        out.append(line)
    return out


# -------------------------------------------------------------------------------- end of a hand ----
@dataclass
class HandEnd:
    """A hand (a round) that has just ended, as everybody may see it: its number, the table as the last
    action left it (the final layout of dominoes, and the lines under it: what each seat still held; the
    last piles; the shows) and where the events of that last action start in the log."""

    number: int
    word: str
    lines: list[str]
    start: int
    layout: list[dict[str, Any]] | None = None


def hand_number(st: GameState) -> int:
    """The number of the hand (dominoes, cribbage) or round (card Muggins) being played."""
    n = getattr(st, "hand_no", None)
    if not isinstance(n, int):
        n = getattr(st, "round_no", 0)
    return n if isinstance(n, int) else 0


def final_layout(st: GameState, before: GameState, seat: int, action: Action) -> list[dict[str, Any]]:
    """The domino layout as the hand's last action left it. The state has already dealt the next hand,
    so the last play is made again on a copy of the position before it, with one more tile in the
    player's hand so that the hand does not end there; a hand blocked by a pass ended on the layout
    before it."""
    if st.is_over():
        return list(st.view(None)["layout"])
    layout: list[dict[str, Any]] = before.view(None)["layout"]
    if action.kind != "play":
        return layout
    copy = before.clone()
    hands = getattr(copy, "hands", None)
    if not isinstance(hands, list) or not 0 <= seat < len(hands):
        return layout
    held = hands[seat]
    spare = next((t for h in hands for t in h if t not in held), None)
    if spare is None:
        spare = next(iter(getattr(copy, "boneyard", []) or []), None)
    if spare is None:
        return layout
    held.append(spare)
    try:
        copy.apply(seat, action.with_claim(None))
    except MugginsError:
        return layout
    return list(copy.view(None)["layout"])


def _hand_event(st: GameState, start: int, kind: str) -> dict[str, Any] | None:
    return next((e.to_dict(None) for e in st.log[start:] if e.kind == kind), None)


def domino_end_lines(st: GameState, start: int, names: list[str], ascii_only: bool) -> list[str]:
    """What every seat still held, with its pips."""
    end = _hand_event(st, start, "hand_end") or {}
    hands, pips = end.get("hands") or [], end.get("pips") or []
    lines: list[str] = []
    for s, held in enumerate(hands):
        words = piece_words("dominoes", list(held), ascii_only)
        p = pips[s] if s < len(pips) else 0
        lines += wrap_words([*words, f"({p} pips)"] if held else ["out"], WIDTH - 4, f"{names[s]}:", "  ")
    return lines


def _hand_start(st: GameState, start: int) -> int:
    """Where in the log the hand whose last action's events begin at ``start`` was dealt."""
    return next((i for i in range(start - 1, -1, -1) if st.log[i].kind in ("hand_start", "round_start", "deal")),
                0)


def card_muggins_end_lines(st: GameState, start: int, names: list[str], ascii_only: bool) -> list[str]:
    """The last piles of the round with their totals, and each seat's points of the round."""
    first = _hand_start(st, start)
    piles = [e.to_dict(None) for e in st.log[first:] if e.kind == "pile_end"]
    lines = [f"{len(piles)} piles this round; the last ones:"]
    for p in piles[-3:]:
        lines.append(f"  {cards(p.get('cards', []), ascii_only)} = {p.get('total')}"
                     f" (last card: {_name(names, p.get('seat'))})")
    gained = [0] * st.num_players
    for e in st.log[first:]:
        if e.kind == "score":
            side = e.data.get("side")
            if isinstance(side, int) and 0 <= side < len(gained):
                gained[side] += int(e.data.get("points", 0))
    lines.append("Points this round: " + scores_text(gained, names))
    return lines


def cribbage_end_lines(st: GameState, names: list[str], ascii_only: bool) -> list[str]:
    """The board and every show of the hand with its explanation."""
    v = st.view(None)
    prev = v.get("previous_hand") if not st.is_over() else None
    shows = prev["shows"] if prev else v.get("shows") or []
    starter = prev["starter"] if prev else v.get("starter")
    lines = []
    for s, b in enumerate(v["board"]):
        lines.append(f"{names[s][:12]:<12} {peg_track(b['front'], b['back'], v['target'], 56, ascii_only)} "
                     f"{b['front']:>3}")
    lines.append(f"Starter {card(starter, ascii_only) if starter else '-'}")
    for sh in shows:
        what = "crib" if sh["what"] == "crib" else "hand"
        head = f"{possessive(names[sh['seat']])} {what} {cards(sh['cards'], ascii_only)}"
        lines.append(f"{head}: {sh['total']}  ({sh.get('explain', '')})" if "total" in sh else head)
    return lines


def make_hand_end(st: GameState, before: GameState, seat: int, action: Action, start: int,
                  names: list[str], ascii_only: bool) -> HandEnd:
    """The end of the hand that ``action`` (made by ``seat`` on ``before``) closed; ``start`` is where
    that action's events begin in the log."""
    number = hand_number(before)
    if st.game == "dominoes":
        return HandEnd(number, "Hand", domino_end_lines(st, start, names, ascii_only), start,
                       final_layout(st, before, seat, action))
    if st.game == "card-muggins":
        return HandEnd(number, "Round", card_muggins_end_lines(st, start, names, ascii_only), start)
    return HandEnd(number, "Hand", cribbage_end_lines(st, names, ascii_only), start)


def hand_end_events(st: GameState, end: HandEnd, names: list[str]) -> list[str]:
    """What happened from the hand's last action on (the play, the claims, the bonus or the awards, and
    any call on the last play), nothing of the next deal."""
    return [text for _, text in log_lines(st, None, names, end.start, skip=NEW_HAND)]


def render_hand_end(st: GameState, end: HandEnd, names: list[str], *, ascii_only: bool = False,
                    message: str = "") -> RenderableType:
    """The table as the hand left it, for everybody at once: nothing on it is secret. Within 24 rows
    with the prompt: the events first give way to the drawing, then the drawing is cut."""
    inner = WIDTH - 4
    header = f"{end.word} {end.number} is over.  Scores: {scores_text(st.scores(), names)}"
    events = [e for e in hand_end_events(st, end, names) if not _in_message(e, message)]
    room = ROWS - 1 - _rows([header]) - (_rows(message.splitlines()) if message else 0) - 2
    lines = end.lines
    drawing: list[str] = []
    if end.layout is not None:
        full = draw_layout(end.layout, inner, ascii_only)
        spare = room - _rows(lines, inner) - min(_rows(events), 4)
        drawing = full if len(full) <= spare else draw_layout(end.layout, inner, ascii_only, max(3, spare))
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


__all__ = ["HandEnd", "card", "describe", "hand_number", "make_hand_end", "possessive", "render_hand_end",
           "render_table", "scores_text"]
