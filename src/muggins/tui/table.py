"""The whole table for one viewer as rich renderables: header with scores, the game's own panel, the
latest events, the hand and the numbered moves. Everything is sized to fit 80 columns."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from muggins.core.protocol import GameState
from muggins.tui.render_cards import card, card_muggins_lines, cribbage_lines
from muggins.tui.render_dominoes import ASCII, UNICODE, draw_layout, horizontal

WIDTH = 80
EVENT_LINES = 5


def describe(e: dict[str, Any], names: list[str]) -> str | None:
    """One event as a sentence, or None for bookkeeping events a player need not read."""
    s = e.get("seat")
    who = names[s] if isinstance(s, int) and 0 <= s < len(names) else "Someone"
    k = e["kind"]
    if k == "play":
        where = f" on {e['on']}" if e.get("on") else ""
        part = f" ({e['part']})" if e.get("part") and e.get("part") != "half" else ""
        piece = e.get("tile") or e.get("card") or ""
        total = f", total {e['total']}" if "total" in e else ""
        return f"{who} played {piece}{where}{part}{total}"
    if k == "discard":
        return f"{who} laid away to the crib"
    if k == "claim":
        return f"{who} announced {e['points']}"
    if k == "score":
        return f"{who} scored {e['points']:+d} ({e['reason']})"
    if k == "muggins":
        on = e.get("on")
        target = names[on] if isinstance(on, int) and 0 <= on < len(names) else "?"
        if e.get("outcome") == "false_call":
            return f"{who} called Muggins! - a false call"
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
    if k == "hand_start":
        lead = e.get("leader")
        leads = "" if not isinstance(lead, int) else f" {names[lead]} lead" + ("" if names[lead] == "You" else "s")
        return f"--- Hand {e.get('hand')} ---" + leads
    if k == "game_end":
        won = e.get("winners") or []
        return "Game over. Won by " + ", ".join(names[w] for w in won if 0 <= w < len(names))
    if k == "void":
        return f"{who}: {e['points']} point(s) void - {e.get('why', '')}"
    return None


def recent_events(st: GameState, viewer: int | None, names: list[str], count: int = EVENT_LINES) -> list[str]:
    """The last ``count`` readable events as ``viewer`` may see them."""
    out: list[str] = []
    start = len(st.log)
    while start > 0 and len(out) < count:
        start = max(0, start - 4 * count)
        out = [t for t in (describe(e, names) for e in st.events_for(viewer, start)) if t]
    return out[-count:]


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


def domino_lines(v: dict[str, Any], width: int, ascii_only: bool, count: int | None) -> list[str]:
    """The drawing, then the boneyard; the count of the ends only when given (``--hints``): in a
    manual claim game counting is the player's job."""
    lines = draw_layout(v["layout"], width, ascii_only) or ["(no tile set yet)"]
    ends = len(v.get("open_ends", []))
    extra = f"Boneyard: {v['boneyard']}   Open ends: {ends}"
    if count is not None:
        extra += f"   Count: {count}"
    return lines + [extra]


def wrap_words(words: list[str], width: int, first: str = "", indent: str = "") -> list[str]:
    """Words joined by spaces into lines no wider than ``width`` (a long hand takes two lines)."""
    lines = [first]
    for w in words:
        if len(lines[-1]) + 1 + len(w) > width and lines[-1].strip():
            lines.append(indent + w)
        else:
            lines[-1] = f"{lines[-1]} {w}" if lines[-1].strip() else lines[-1] + w
    return lines


def my_hand(v: dict[str, Any], ascii_only: bool) -> list[str]:
    """The viewer's hand as lines: tiles drawn like the table's, cards with their suits."""
    if "my_hand" not in v:
        return []
    if v["game"] == "dominoes":
        g = ASCII if ascii_only else UNICODE
        words = [horizontal(t.partition("-")[0], t.partition("-")[2], g) for t in v["my_hand"]]
    else:
        words = [card(c, ascii_only) for c in v["my_hand"]]
        kept = v.get("my_kept")
        if kept and kept != v["my_hand"]:
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


def render_table(st: GameState, viewer: int | None, names: list[str], *, hints: bool = False,
                 ascii_only: bool = False, moves: list[str] | None = None, message: str = "",
                 title: str = "", open_hands: bool = False) -> RenderableType:
    """The table for ``viewer`` (None: a spectator). ``moves`` are listed numbered under the hand.
    ``open_hands`` shows every seat's hand (watching a record, where nothing is secret any more)."""
    v = st.view(viewer)
    inner = WIDTH - 4
    if v["game"] == "dominoes":
        count = getattr(st, "count", None) if hints else None
        body = domino_lines(v, inner, ascii_only, count if isinstance(count, int) else None)
    elif v["game"] == "cribbage":
        body = cribbage_lines(v, ascii_only, names)
    else:
        body = card_muggins_lines(v, ascii_only, names)
    head = title or f"{v['game']} / {v['preset']}"
    parts: list[RenderableType] = [
        Text(_scores(v, names), style="bold cyan"),
        Panel(Text("\n".join(body)), title=head, width=WIDTH,
              box=box.ASCII if ascii_only else box.ROUNDED),
    ]
    # as many recent events as the 24 rows leave room for (at least two)
    fixed = (3 + len(body) + (st.num_players if open_hands else 0) + 2 + len(my_hand(v, ascii_only))
             + len(move_list(moves or [], WIDTH - 1))
             + sum(len(line) // WIDTH + 1 for line in message.splitlines()) + 1)
    events = recent_events(st, viewer, names, max(2, min(EVENT_LINES, 24 - fixed)))
    if events:
        parts.append(Text("\n".join(events), style="dim"))
    if open_hands:
        for seat in range(st.num_players):
            held = my_hand(st.view(seat), ascii_only)
            line = " ".join(x.strip() for x in held).replace("Your hand:", f"{names[seat]}:", 1)
            parts.append(Text(line if len(line) < WIDTH else line[: WIDTH - 4] + "...", style="yellow"))
    if viewer is not None and "my_hand" in v:
        parts.append(Text("\n".join(my_hand(v, ascii_only)), style="yellow"))
    if moves:
        parts.append(Text("\n".join(move_list(moves, WIDTH - 1))))
    if message:
        parts.append(Text(message, style="bold red" if message.startswith("Not allowed") else "bold green"))
    return Group(*parts)


__all__ = ["card", "describe", "render_table"]
