"""The game loop of ``muggins play``: people at one keyboard and bots around one table.

The screen is redrawn for every decision a person makes; input is one prompt line (a move's number or
its notation, optionally followed by the points announced). After another seat's scoring play a person
gets a moment to call "Muggins!" before the next seat acts; bots call on people through their own
attention model.

With several people at one keyboard nothing of one person's is ever drawn while another may be looking:
whenever the person asked changes (a turn, a muggins moment) a screen with nothing secret on it asks for
the keyboard to be passed first. The end of a hand is shown to everybody at once, before the next deal:
it holds nothing secret (every hand is turned up)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from muggins.analysis.evaluate import AnalysisError, rank_moves
from muggins.analysis.wording import move_phrase
from muggins.bots.bot import AttentiveBot
from muggins.bots.names import table_names
from muggins.bots.registry import make_bot
from muggins.core.chance import Chance
from muggins.core.errors import IllegalAction, MugginsError, RecordError, RulesError
from muggins.core.protocol import Action, GameState
from muggins.core.records import apply_record_action, save, to_record
from muggins.core.rules import get_game
from muggins.tui.renderer import renderer_for
from muggins.tui.table import (
    ROWS,
    WIDTH,
    HandEnd,
    describe,
    hand_number,
    log_lines,
    make_hand_end,
    render_hand_end,
    render_table,
    scores_text,
)

OPTIONAL = ("muggins", "claim")
QUIT = ("q", "quit", "exit")
HELP = ("?", "h", "help")
# windows that are not about a move's own points (a domino bonus, card Muggins' "last", his heels): always
# worth a person's moment
MOVE_REASONS = ("play", "hand", "crib")
MAX_DIGITS = 18  # an amount longer than this is no amount of points
HINT_SAMPLES = 12  # worlds a hint samples: a quick estimate while the person waits
ANALYSE_PROMPT = r"Analyse this game? \[y/N] "  # console.input reads markup: the brackets escaped


@dataclass
class Seat:
    """Who sits at a seat: a person (``bot`` None) or a bot of a level."""

    name: str
    level: str | None = None
    bot: AttentiveBot | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        if self.level:
            return {"name": self.name, "kind": "bot", "bot": self.level}
        return {"name": self.name, "kind": "human"}


PEOPLE = ("you", "human", "person")
MAX_NAME = 20  # characters of a person's name at the table


def make_seats(spec: list[str], seed: int, names: list[str] | None = None) -> list[Seat]:
    """``["you", "casual", "human"]`` -> seats; raises RulesError on an unknown bot level. ``names`` are
    the people's names in seat order (default: "You" for one person, "Player N" for several); the bots
    get distinct names (:func:`~muggins.bots.names.table_names`)."""
    words = [s.strip().lower() for s in spec]
    people = [i for i, w in enumerate(words) if w in PEOPLE]
    if names is not None:
        check_names(names, len(people))
    bot_names = table_names([None if w in PEOPLE else w for w in words])
    seats: list[Seat] = []
    for i, w in enumerate(words):
        if w in PEOPLE:
            if names is not None:
                seats.append(Seat(names[people.index(i)].strip()))
            else:
                seats.append(Seat("You" if len(people) == 1 else f"Player {i + 1}"))
        else:
            bot = make_bot(w, seed + i)
            if not bot.offered:
                raise RulesError(f"bot {w!r} sees every hand; it is for measuring, not for playing against")
            seats.append(Seat(str(bot_names[i]), w, bot))
    if not people:
        raise RulesError("at least one seat must be a person (you); use 'muggins bench' for bots only")
    return seats


def check_names(names: list[str], people: int) -> None:
    """The people's names: one for each person, 1-20 printable characters, no two alike (RulesError)."""
    if len(names) != people:
        raise RulesError(f"--names gives {len(names)} name(s) for {people} person(s) at the keyboard; "
                         "give one name for each 'you' or 'human' seat, in seat order")
    seen: set[str] = set()
    for name in names:
        n = " ".join(name.split())
        if not n or len(n) > MAX_NAME or not n.isprintable() or "," in n:
            raise RulesError(f"a name is 1-{MAX_NAME} printable characters, no comma; got {name[:30]!r}")
        if n.casefold() in seen:
            raise RulesError(f"two people are named {n!r}; give each a name of his own")
        seen.add(n.casefold())


def hint_text(st: GameState, seat: int, samples: int = HINT_SAMPLES) -> str:
    """The move the bot would make for ``seat`` and its expected points, from what the seat knows (the
    hidden hands are sampled); "" when the seat has no move to choose."""
    try:
        best = rank_moves(st, seat, samples=samples, seed=f"hint:{len(st.history)}")[0]
    except AnalysisError:
        return ""
    return f"Hint: the bot would {move_phrase(best.text)}, {best.points:+.1f} points expected this hand."


@dataclass
class Options:
    """What the person chose beyond the rules."""

    hints: bool = False
    ascii_only: bool = False
    undo: bool = False
    save_to: Path | None = None
    hands: int = 0
    offer_analysis: bool = False  # ask at the end of a finished game whether to analyse it


class Quit(Exception):
    """The person asked to stop (or input ended)."""


def _digits(word: str) -> bool:
    return word.isascii() and word.isdigit()


def amount(word: str) -> int:
    """Points typed at the prompt: ASCII digits (the engine refuses more than a step can score)."""
    if not _digits(word):
        raise IllegalAction(f"{word[:20]!r} is not a number of points")
    if len(word) > MAX_DIGITS:
        raise IllegalAction(f"{word[:12]}... is far more points than any move makes")
    return int(word)


class Session:
    """One game at one keyboard. ``ask`` reads a line (raises EOFError at the end of input)."""

    def __init__(self, state: GameState, seats: list[Seat], console: Console, options: Options,
                 ask: Callable[[str], str] | None = None) -> None:
        self.st = state
        self.seats = seats
        self.console = console
        self.opt = options
        self.ask = ask or (lambda prompt: console.input(prompt))
        self.names = [s.name for s in seats]
        self.humans = [i for i, s in enumerate(seats) if s.bot is None]
        self.holder: int | None = self.humans[0]  # the person at the keyboard (None: everybody may look)
        self.asked: set[tuple[int, int]] = set()
        self.points: dict[int, int] = {}  # history index of a regular action -> the points it made
        self.ended: HandEnd | None = None  # a hand just ended and not yet shown
        self.first_hand = max(1, hand_number(state))
        self.hint: tuple[tuple[int, int], str] | None = None  # ((seat, actions), text) of the last hint
        self.manual = getattr(state.rules, "claims", "auto") == "manual"
        self.message = ("Type a move's number and the points it scores ('2 10'). 'help' for more."
                        if self.manual else
                        "Type a move's number; 'help' for more.")

    # -- screen ------------------------------------------------------------------------------------
    def draw(self, viewer: int | None, moves: list[str] | None = None) -> None:
        """The table for ``viewer``: only ever the person at the keyboard (or nobody's hand)."""
        if viewer is not None and viewer != self.holder:
            raise AssertionError(f"{self.names[viewer]}'s screen while {self.holder} holds the keyboard")
        self.console.clear()
        self.console.print(render_table(self.st, viewer, self.names, hints=self.opt.hints,
                                        ascii_only=self.opt.ascii_only, moves=moves, message=self.message),
                           highlight=False)
        self.message = ""

    def draw_end(self, end: HandEnd) -> None:
        """The hand that just ended, for everybody."""
        self.console.clear()
        self.console.print(render_hand_end(self.st, end, self.names, ascii_only=self.opt.ascii_only,
                                           message=self.message), highlight=False)
        self.message = ""

    def say(self, text: str) -> None:
        """Add a line to the message shown on the next screen."""
        self.message = f"{self.message}\n{text}" if self.message else text

    def read(self, prompt: str) -> str:
        """A line from the person. 'quit' and Ctrl-C ask before stopping, so a slip never ends the
        game; the end of input does stop it (the game is saved first with --save)."""
        try:
            text = self.ask(prompt).strip()
        except EOFError:
            raise Quit from None
        except KeyboardInterrupt:
            text = "quit"
        if text.lower() in QUIT:
            self.confirm_quit()
            return ""
        return text

    def confirm_quit(self) -> None:
        saved = (f" (it will be saved to {self.opt.save_to})" if self.opt.save_to
                 else " (it is not saved: start with --save FILE to keep it)")
        try:
            answer = self.ask(f"Stop the game{saved}? y + Enter to stop, Enter to play on> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        if answer in ("y", "yes"):
            raise Quit

    def hand_to(self, h: int) -> None:
        """Before anything of person ``h``'s is drawn: with several people at the keyboard and another
        one (or everybody) at it now, a blank screen asks for the keyboard to be passed to ``h``."""
        if len(self.humans) > 1 and self.holder != h:
            self.holder = None
            self.console.clear()
            self.read(f"Pass the keyboard to {self.names[h]}; Enter when ready> ")
        self.holder = h

    def _public_viewer(self) -> int | None:
        """Whose events a screen for everybody shows: the only person's, or nobody's."""
        return self.humans[0] if len(self.humans) == 1 else None

    def show_lines(self, lines: list[str], what: str) -> None:
        """Lines on pages of one screen each, the last page first: p earlier, n later, Enter back."""
        page = ROWS - 1
        rows: list[str] = []
        for line in lines or ["(nothing yet)"]:
            while len(line) > WIDTH - 1:
                rows.append(line[: WIDTH - 1])
                line = "  " + line[WIDTH - 1:]
            rows.append(line)
        pages = max(1, -(-len(rows) // page))
        i = pages - 1
        while True:
            self.console.clear()
            self.console.print(Text("\n".join(rows[i * page:(i + 1) * page])), highlight=False)
            try:  # q leaves the pager (not the game); the end of input still stops the game
                text = self.ask(f"{what} page {i + 1} of {pages}: p earlier, n later, q or Enter back to the "
                                "game> ")
            except EOFError:
                raise Quit from None
            except KeyboardInterrupt:
                return
            low = text.strip().lower()
            if low in ("p", "b", "earlier", "back"):
                i = max(0, i - 1)
            elif low in ("n", "f", "later"):
                i = min(pages - 1, i + 1)
            else:
                return

    def show_log(self, viewer: int | None) -> None:
        """The whole log of the game as ``viewer`` may see it."""
        self.show_lines([text for _, text in log_lines(self.st, viewer, self.names,
                                                       ascii_only=self.opt.ascii_only)], "Log")

    def show_layout(self, layout: list[dict[str, Any]] | None = None) -> None:
        """The whole drawing of the game's layout (dominoes), however tall."""
        renderer = renderer_for(self.st.game)
        if layout is None:
            layout = self.st.view(None).get("layout")
        if layout is None or not renderer.has_drawing:
            self.message = "There is no layout in this game."
            return
        self.show_lines(renderer.drawing(layout, WIDTH - 1, self.opt.ascii_only), "Layout")

    def command(self, low: str, viewer: int | None, moves: list[str] | None = None,
                layout: list[dict[str, Any]] | None = None) -> bool:
        """The commands any prompt takes (help, log, layout, save); True when ``low`` was one."""
        if low in HELP:
            self.message = self.help_text(moves or [])
        elif low == "log":
            self.show_log(viewer)
        elif low in ("layout", "table"):
            self.show_layout(layout)
        elif low == "save":
            self.message = self.save_now() or "Give --save FILE to save the game."
        else:
            return False
        return True

    # -- the loop ------------------------------------------------------------------------------------
    def run(self) -> None:
        """Play until the game ends, the hand limit is reached, or the person stops."""
        while True:
            try:
                self._loop()
                break
            except Quit:
                self.finish(stopped=True)
                return
            except KeyboardInterrupt:  # Ctrl-C while a bot thinks: ask, as at a prompt
                try:
                    self.confirm_quit()
                except Quit:
                    self.finish(stopped=True)
                    return
        self.finish(stopped=False)

    def _hand_limit_reached(self) -> bool:
        """--hands N: N hands played in this sitting (the hand a resumed game is in counts as the first)."""
        return bool(self.opt.hands) and hand_number(self.st) >= self.first_hand + self.opt.hands

    def _loop(self) -> None:
        st = self.st
        while not st.is_over():
            if self.ended is not None:
                self._end_of_hand(self.ended)
                if st.is_over():  # a call on the hand's last move reached the target
                    return
            if self._hand_limit_reached():
                return
            if self._people_optional() or self._bots_optional():
                continue
            waiting = sorted(st.waiting_for())
            bots = [s for s in waiting if self.seats[s].bot is not None]
            if bots:
                self._bot_move(bots[0])
                continue
            self._human_turn(waiting[0])

    def apply(self, seat: int, action: Action) -> None:
        """Apply an action of any seat, keeping what the screens need: the points a move made (whether
        its window is worth a person's moment) and the end of a hand, seen from the position before."""
        st = self.st
        number = hand_number(st)
        regular = action.kind not in OPTIONAL
        before = st.clone()
        try:
            points = st.claim_for(seat, action) if regular else 0
        except MugginsError:
            points = 0
        start = len(st.log)
        st.apply(seat, action)
        if regular:
            self.points[len(st.history) - 1] = points
        if hand_number(st) != number or (st.is_over() and any(
                e.kind in ("hand_end", "round_end") for e in st.log[start:])):
            self.ended = make_hand_end(st, before, seat, action, start, self.names, self.opt.ascii_only)

    # -- muggins windows -----------------------------------------------------------------------------
    def _window(self) -> tuple[int, dict[str, Any]] | None:
        """The open muggins window if it is worth a person's moment: (the history index of the move
        that opened it, its public data). A move that made no points leaves nothing to call on: the
        engine keeps a window open after every move, so that what it shows never tells whether points
        were missed, but a person is asked only after a move that scored (which the table shows)."""
        w = self.st.view(None).get("window")
        if not w:
            return None
        hist = self.st.history
        scorer = w.get("scorer")
        origin = next((i for i in range(len(hist) - 1, -1, -1)
                       if hist[i][0] == scorer and hist[i][1].kind not in OPTIONAL), -1)
        if w.get("reason") in MOVE_REASONS and self.points.get(origin, 1) <= 0:
            return None
        return origin, w

    def _options_of(self, h: int) -> tuple[bool, bool]:
        """(may call Muggins!, may still claim) for person ``h`` now."""
        kinds = {a.kind for a in self.st.legal_actions(h)}
        return "muggins" in kinds, "claim" in kinds

    def _people_optional(self, end: HandEnd | None = None) -> bool:
        """A person whose opponent just scored gets a moment to call Muggins! (the scorer, when the rules
        let him, to claim late), once per window, unless he is the next to act, where the call is among
        his moves. True when an action was applied."""
        found = self._window()
        if found is None:
            return False
        origin = found[0]
        # the next to act finds the call among his moves, unless a bot may call first: then he is asked
        # with everybody else, before the bots' calls are resolved
        waiting = self.st.waiting_for() if end is None and not self._bot_may_call() else frozenset()
        for h in self.humans:
            if (h, origin) in self.asked or h in waiting:
                continue
            call, claim = self._options_of(h)
            if not (call or claim):
                continue
            self.asked.add((h, origin))
            if self._ask_optional(h, call, end):
                return True
        return False

    def _ask_optional(self, h: int, call: bool, end: HandEnd | None) -> bool:
        """Ask person ``h`` whether to call Muggins! (or claim late). At the end of a hand the screen is
        everybody's; otherwise the keyboard goes to ``h`` first and the table is drawn for ``h``."""
        if end is None:
            self.hand_to(h)
        who = "" if len(self.humans) == 1 else f"{self.names[h]}: "
        what = "m + Enter to call Muggins!" if call else "claim N + Enter to claim your points"
        while True:
            if end is None:
                self.draw(h)
            else:
                self.draw_end(end)
            text = self.read(f"{who}{what}, Enter to go on> ")
            low = text.lower()
            if not text:
                return False
            if self.command(low, h if end is None else self._public_viewer(), layout=end.layout if end else None):
                continue
            words = low.split()
            if call and words[0] in ("m", "mug", "muggins"):
                act = " ".join(["muggins", *words[1:]])
            elif call and low.startswith("m") and _digits(low[1:].strip()):
                act = f"muggins {low[1:].strip()}"
            elif not call and (words[0] == "claim" or _digits(words[0])):
                act = " ".join(["claim", *words[1:]]) if words[0] == "claim" else f"claim {words[0]}"
            else:
                self.message = ("Not allowed: type m (and the points you name, 'm 10') or press Enter."
                                if call else "Not allowed: type claim and the points ('claim 10') or press Enter.")
                continue
            if self._apply_text(h, act):
                return True

    def _bot_may_call(self) -> bool:
        """Whether a bot may call Muggins! (or claim late) now."""
        st = self.st
        return any(self.seats[s].bot is not None and any(a.kind in OPTIONAL for a in st.legal_actions(s))
                   for s in st.to_act())

    def _bots_optional(self) -> bool:
        """Bots decide on the open window by their attention; True when one acted."""
        st = self.st
        for s in sorted(st.to_act()):
            seat = self.seats[s]
            if seat.bot is None or not any(a.kind in OPTIONAL for a in st.legal_actions(s)):
                continue
            a = seat.bot.act(st, s)
            if a is not None and a.kind in OPTIONAL:
                start = len(st.log)
                try:
                    self.apply(s, a)
                except MugginsError:
                    continue
                call = next((e.to_dict(None) for e in st.log[start:] if e.kind == "muggins"), None)
                if call is not None:
                    self.say(describe(call, self.names) or f"{seat.name} calls Muggins!")
                return True
        return False

    # -- moves ---------------------------------------------------------------------------------------
    def _bot_move(self, s: int) -> None:
        bot = self.seats[s].bot
        assert bot is not None
        a = bot.act(self.st, s)
        regular = next((x for x in self.st.legal_actions(s) if x.kind not in OPTIONAL), None)
        chosen = a if a is not None else regular
        if chosen is None:
            raise IllegalAction(f"the game waits for seat {s} but offers it no move")
        try:
            self.apply(s, chosen)
        except MugginsError:  # a bot's slip must not stop the game: it plays a plain move instead
            if regular is None:
                raise
            self.apply(s, regular)

    def moves(self, h: int) -> list[Action]:
        """Person ``h``'s moves as listed: plays in the order of the hand, then the other moves, then a
        muggins call or a late claim (only when the window is worth a moment, see :meth:`_window`, and
        the person has not declined it already)."""
        st = self.st
        legal = st.legal_actions(h)
        found = self._window()
        if found is None or (h, found[0]) in self.asked:  # nothing to call on, or already declined
            legal = [a for a in legal if a.kind not in OPTIONAL]
        hand = [str(x) for x in st.view(h).get("my_hand") or []]
        pos = {t: i for i, t in enumerate(hand)}
        last = len(hand)

        def order(item: tuple[int, Action]) -> tuple[bool, tuple[int, ...], int]:
            i, a = item
            subject = a.subject
            if isinstance(subject, tuple):
                at = tuple(sorted(pos.get(str(x), last) for x in subject))
            else:
                at = (pos.get(str(subject), last) if subject is not None else last + 1,)
            return a.kind in OPTIONAL, at, i

        return [a for _, a in sorted(enumerate(legal), key=order)]

    def _human_turn(self, h: int) -> None:
        st = self.st
        self.hand_to(h)
        while True:
            legal = self.moves(h)
            moves = [st.format_action(a) for a in legal]
            if self.opt.hints and (hint := self.hint_for(h)):
                self.say(hint)
            self.draw(h, moves)
            prompt = "your move> " if len(self.humans) == 1 else f"{self.names[h]}, your move> "
            text = self.read(prompt)
            low = text.lower()
            if not text:
                self.message = "Type a move's number (and the points you announce), or 'help'."
                continue
            if low == "undo":
                self._undo(h)
                return
            if self.command(low, h, moves):
                continue
            if self._apply_text(h, text, legal):
                return

    def hint_for(self, h: int) -> str:
        """The hint of person ``h``, who holds the keyboard (asked only after :meth:`hand_to`): computed
        once a position, from ``h``'s own information."""
        if self.holder != h or self.seats[h].bot is not None:
            raise AssertionError(f"a hint for {self.names[h]} while {self.holder} holds the keyboard")
        key = (h, len(self.st.history))
        if self.hint is None or self.hint[0] != key:
            self.hint = (key, hint_text(self.st, h))
        return self.hint[1]

    def _apply_text(self, h: int, text: str, legal: list[Action] | None = None) -> bool:
        """Apply what the person typed; on any mistake keep a message and return False."""
        st = self.st
        legal = legal if legal is not None else self.moves(h)
        words = text.split()
        try:
            if _digits(words[0]):
                n = amount(words[0])
                if not 1 <= n <= len(legal):
                    raise IllegalAction(f"there is no move {words[0]}; choose 1 to {len(legal)}")
                action = legal[n - 1]
                if len(words) == 2 and _digits(words[1]):
                    action = action.with_claim(amount(words[1]))
                elif len(words) > 1:
                    raise IllegalAction("after the move's number give only the points you announce")
            elif words[0].lower() in ("m", "mug"):
                action = st.parse_action(" ".join(["muggins", *words[1:]]), h)
            else:
                action = self._parse(text, h, legal)
            if action.claim is not None and not self.manual and action.kind not in OPTIONAL:
                raise IllegalAction("points are counted for you in this game; give the move alone")
            start = len(st.log)
            self.apply(h, action)
        except (MugginsError, ValueError, IndexError) as e:
            self.message = f"Not allowed: {e}"
            return False
        self._tell_over_claim(h, start)
        return True

    def _tell_over_claim(self, h: int, start: int) -> None:
        """An announcement above what the move made is void (RULES §2.8): say so, and what follows."""
        for e in self.st.log[start:]:
            if e.kind != "over_claim" or e.seat != h:
                continue
            data = e.to_dict(None)
            text = data.get("message")
            if not isinstance(text, str):
                penalty = getattr(self.st.rules, "over_claim", "void") == "opponent_scores"
                text = (f"announced {data.get('points')}, more than the move made: the claim is void and "
                        + (f"the next opponent scores {data.get('points')} as a penalty" if penalty
                           else "scores nothing"))
            self.say(f"{self.names[h]} {text}.")

    def _parse(self, text: str, seat: int, legal: list[Action]) -> Action:
        """A move in notation, optionally followed by the points announced; a piece named without its
        place ('2-6 10') is the move when it fits in one place only."""
        st = self.st
        try:
            action = st.parse_action(text, seat)
        except (MugginsError, ValueError):
            words = text.split()
            if len(words) > 1 and _digits(words[-1]):
                action = st.parse_action(" ".join(words[:-1]), seat).with_claim(amount(words[-1]))
            else:
                raise
        bare = action.with_claim(None)
        if any(a.with_claim(None) == bare for a in legal) or action.kind != "play" or action.target is not None:
            return action
        same = [a for a in legal if a.kind == action.kind and a.subject == action.subject]
        if len(same) == 1:
            return same[0].with_claim(action.claim)
        if len(same) > 1:
            where = ", ".join(st.format_action(a) for a in same)
            raise IllegalAction(f"{action.subject} fits in {len(same)} places ({where}): say which, or give "
                                f"the move's number")
        return action

    def _undo(self, h: int) -> None:
        """Back to this person's previous move (only when every other seat is a bot)."""
        if not self.opt.undo:
            self.message = "Undo is off; start the game with --undo to allow it."
            return
        if len(self.humans) > 1:
            self.message = "Undo is only for games against bots."
            return
        hist = self.st.history
        idx = next((i for i in range(len(hist) - 1, -1, -1)
                    if hist[i][0] == h and hist[i][1].kind not in OPTIONAL), None)
        if idx is None:
            self.message = "Nothing of yours to take back yet."
            return
        self.st.undo(len(hist) - idx)
        self.asked = {k for k in self.asked if k[1] < idx}
        self.points = {k: v for k, v in self.points.items() if k < idx}
        self.ended = None
        self.message = "Took back your last move."

    def help_text(self, moves: list[str]) -> str:
        example = "1" if moves else "a move"
        spec = get_game(self.st.game)
        notation = f" ({moves[0]})" if moves else ""
        lines = [f"Type a move's number ({example}) or its notation{notation}"
                 + (f"; {spec.move_hint}." if spec.move_hint else ".")]
        if self.manual:
            lines.append("Announce your points after it: '1 10' plays move 1 and claims 10. Say nothing and an "
                         "opponent may call Muggins! and take them.")
            lines.append("'m' calls Muggins! on an opponent's unclaimed points.")
        lines.append("'log' pages through the whole game" + (", 'layout' shows the whole layout"
                                                            if renderer_for(self.st.game).has_drawing else "")
                     + "; 'save' saves (with --save), 'quit' stops"
                     + (", 'undo' takes back your move." if self.opt.undo else "."))
        return "\n".join(lines)

    # -- end of a hand --------------------------------------------------------------------------------
    def _end_of_hand(self, end: HandEnd) -> None:
        """The hand as it ended, for everybody: the people may call Muggins! on its last move (the
        window stays open until the next hand's first move), then the bots; then the next deal."""
        self.holder = self.holder if len(self.humans) == 1 else None
        while self._people_optional(end) or self._bots_optional():
            pass
        if self._hand_limit_reached() or self.st.is_over():
            return  # the game stops here (a call may reach the target): finish() shows this screen
        self.draw_end(end)
        self.read(f"Enter for the next {end.word.lower()}> ")
        self.ended = None

    def save_now(self) -> str:
        if self.opt.save_to is None:
            return ""
        save(to_record(self.st, players=[s.to_json() for s in self.seats]), self.opt.save_to)
        return f"Game saved to {self.opt.save_to}"

    def finish(self, stopped: bool) -> None:
        st = self.st
        if self.ended is not None:
            self.draw_end(self.ended)
        else:
            self.draw(self.holder)
        scores = scores_text(st.scores(), self.names)
        if st.is_over():
            won = " and ".join(self.names[w] for w in sorted(st.winners()))
            self.console.print(f"Game over - won by {won}. Final scores: {scores}", highlight=False)
        elif stopped:
            self.console.print(f"Game stopped. Scores: {scores}", highlight=False)
        else:
            n = self.opt.hands
            self.console.print(f"Played {n} {'hand' if n == 1 else 'hands'}. Scores: {scores}", highlight=False)
        saved = self.save_now()
        if saved:
            self.console.print(saved, highlight=False)
        if st.is_over() and self.opt.offer_analysis:
            self.offer_analysis()

    def offer_analysis(self) -> None:
        """Ask whether to analyse the game just finished (no by default, and at the end of input)."""
        try:
            answer = self.ask(ANALYSE_PROMPT).strip().lower()
        except (EOFError, KeyboardInterrupt):
            return
        if answer not in ("y", "yes"):
            return
        from muggins.analysis.report import run_analysis, show

        record = to_record(self.st, players=[s.to_json() for s in self.seats])
        try:
            analysis = run_analysis(record, console=self.console)
        except KeyboardInterrupt:
            self.console.print("Analysis stopped.", highlight=False)
            return
        show(analysis, self.console)


def resume(path: Path, seed: int) -> tuple[GameState, list[Seat]]:
    """A saved game and its seats, ready to continue; later chance comes from ``seed``."""
    from muggins.core.records import load

    rec = load(path)
    if not isinstance(rec, dict) or not isinstance(rec.get("players"), list) or not rec["players"]:
        raise RecordError(f"{path} is not a game record with players")
    try:
        spec = get_game(rec["game"])
        rules = spec.rules(rec.get("preset"), rec.get("options") or {})
        st = spec.new(rules, len(rec["players"]), chance=Chance(seed=seed, outcomes=rec.get("chance", [])))
    except (RulesError, KeyError) as e:
        raise RecordError(f"{path}: {e}") from None
    for i, entry in enumerate(rec.get("actions", [])):
        apply_record_action(st, i, entry)
    words = [str(p["bot"]) if isinstance(p, dict) and p.get("kind", "bot") == "bot" and p.get("bot")
             else "human" for p in rec["players"]]
    if "human" not in words:
        words[0] = "human"  # a record of bots alone: the person takes seat 0
    seats = make_seats(words, seed)
    for s, p in zip(seats, rec["players"], strict=True):
        if isinstance(p, dict) and isinstance(p.get("name"), str):
            s.name = p["name"]
    return st, seats


def new_seed() -> int:
    return random.randrange(1 << 30)
