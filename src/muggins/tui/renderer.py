"""How the terminal draws one game: the generic renderer, and the look-up of the renderer a game
registers (``GameSpec.terminal_renderer``).

The generic renderer is enough to play any game that speaks the protocol: it shows the view's public
fields as text, the seat's own pieces when the view holds a hand (``my_hand``), and the table lists the
legal moves numbered under it. A game with a board worth drawing registers its own subclass."""

from __future__ import annotations

import json
from typing import Any

from muggins.core.protocol import Action, GameState
from muggins.core.rules import GameSpec, get_game, load_object
from muggins.tui.text import WIDTH, HandEnd, fit_body, hand_start, scores_text, seat_name, wrap_words

# view fields the table shows elsewhere (header, hand, moves, muggins notice) or that say nothing to a player
SHOWN_ELSEWHERE = frozenset({"game", "preset", "seat", "players", "scores", "target", "turn", "to_act",
                             "waiting_for", "legal", "my_hand", "hand_sizes", "claims", "window", "over",
                             "winners"})
# view fields that hold a seat number: shown as the seat's name
SEAT_FIELDS = frozenset({"dealer", "leader", "last_player", "first", "starter_seat"})
MAX_FIELD = 200  # characters of one field's text before it is cut


def field_text(key: str, value: Any, names: list[str]) -> str:
    """One view field as text: a seat as its name, a list of words as words, anything else as JSON."""
    if key in SEAT_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return seat_name(names, value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, str)):
        return str(value)
    if isinstance(value, list) and all(isinstance(x, (int, str)) and not isinstance(x, bool) for x in value):
        return " ".join(map(str, value)) or "-"
    text = json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= MAX_FIELD else text[: MAX_FIELD - 3] + "..."


class TerminalRenderer:
    """The generic renderer: every public field of the view, one line each (``Total: 17``). A game's
    renderer overrides what it draws better (a layout, a pegboard, suits on cards)."""

    #: whether :meth:`drawing` draws something (a domino layout): the 'layout' command shows it whole
    has_drawing = False
    #: what ``--hints`` shows in this game (the menu's question)
    hint_words = "the bot's move and its expected points"
    #: whether the log shows events the table has no sentence for, as their JSON (a game's own renderer
    #: leaves its bookkeeping events out)
    shows_other_events = True

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec

    # -- pieces ------------------------------------------------------------------------------------
    def piece_words(self, pieces: list[str], ascii_only: bool) -> list[str]:
        """The pieces as the table writes them."""
        return [str(p) for p in pieces]

    def text(self, text: str, ascii_only: bool) -> str:
        """A move or a sentence with its pieces named as the table names them (a card's suit symbol)."""
        return text

    def hand_words(self, v: dict[str, Any], ascii_only: bool) -> list[str]:
        """The viewer's pieces (``my_hand``), and anything else of his the game shows beside them."""
        return self.piece_words(list(v.get("my_hand") or []), ascii_only)

    # -- the panel ---------------------------------------------------------------------------------
    def body(self, st: GameState, v: dict[str, Any], names: list[str], width: int, rows: int,
             ascii_only: bool, hints: bool) -> list[str]:
        """The lines of the game's panel, at most ``rows`` terminal rows ``width`` wide (at least one line)."""
        lines: list[str] = []
        for key, value in v.items():
            if key in SHOWN_ELSEWHERE:
                continue
            label = key.replace("_", " ").capitalize()
            lines += wrap_words(field_text(key, value, names).split(" "), width, f"{label}:", "  ")
        return fit_body(lines or ["(nothing on the table)"], width, rows)

    def other_event(self, e: dict[str, Any], names: list[str]) -> str | None:
        """An event the table has no sentence for: its kind and fields (``North: add {"total": 7}``)."""
        if not self.shows_other_events:
            return None
        rest = {k: v for k, v in e.items() if k not in ("kind", "seat")}
        who = f"{seat_name(names, e['seat'])}: " if "seat" in e else ""
        fields = f" {field_text('', rest, names)}" if rest else ""
        return f"{who}{e['kind'].replace('_', ' ')}{fields}"

    def drawing(self, layout: list[dict[str, Any]], width: int, ascii_only: bool,
                rows: int | None = None) -> list[str]:
        """The game's drawing (a layout) in ``width`` columns, cut to ``rows`` when given."""
        return []

    # -- the end of a hand -------------------------------------------------------------------------
    def hand_end(self, st: GameState, before: GameState, seat: int, action: Action, start: int,
                 number: int, names: list[str], ascii_only: bool) -> HandEnd:
        """The end of the hand (the round) that ``action`` of ``seat`` on ``before`` closed; ``start``
        is where that action's events begin in the log. Generic: each seat's points of the hand."""
        word = "Round" if any(e.kind == "round_start" for e in st.log) else "Hand"
        gained = [0] * st.num_sides
        for e in st.log[hand_start(st, start):]:
            side = e.data.get("side") if e.kind == "score" else None
            if isinstance(side, int) and 0 <= side < len(gained):
                gained[side] += int(e.data.get("points", 0))
        sides = names if st.num_sides == st.num_players else [f"Side {k + 1}" for k in range(st.num_sides)]
        return HandEnd(number, word, [f"Points this {word.lower()}: " + scores_text(gained, sides)], start)


_CACHE: dict[tuple[str, str | None], TerminalRenderer] = {}


def renderer_for(game: str) -> TerminalRenderer:
    """The renderer ``game`` registers, or the generic one."""
    spec = get_game(game)
    key = (spec.name, spec.terminal_renderer)
    if key not in _CACHE:
        cls = load_object(spec.terminal_renderer) if spec.terminal_renderer else TerminalRenderer
        _CACHE[key] = cls(spec)
    return _CACHE[key]


__all__ = ["WIDTH", "TerminalRenderer", "field_text", "renderer_for"]
