"""The game loop of ``muggins play``: people at one keyboard and bots around one table.

The screen is redrawn for every decision a person makes; input is one prompt line (a move's number or
its notation, optionally followed by the points announced). After another seat's scoring play a person
gets a moment to call "Muggins!" before the next seat acts; bots call on people through their own
attention model."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from muggins.bots.bot import AttentiveBot
from muggins.bots.registry import make_bot
from muggins.core.chance import Chance
from muggins.core.errors import IllegalAction, MugginsError, RecordError, RulesError
from muggins.core.protocol import Action, GameState
from muggins.core.records import apply_record_action, save, to_record
from muggins.core.rules import get_game
from muggins.tui.table import render_table

OPTIONAL = ("muggins", "claim")
QUIT = ("q", "quit", "exit")
HELP = ("?", "h", "help")


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


def make_seats(spec: list[str], seed: int) -> list[Seat]:
    """``["you", "casual", "human"]`` -> seats; raises RulesError on an unknown bot level."""
    seats: list[Seat] = []
    people = sum(1 for s in spec if s.strip().lower() in ("you", "human", "person"))
    for i, word in enumerate(spec):
        w = word.strip().lower()
        if w in ("you", "human", "person"):
            name = "You" if people == 1 else f"Player {i + 1}"
            seats.append(Seat(name))
        else:
            bot = make_bot(w, seed + i)
            if not bot.offered:
                raise RulesError(f"bot {w!r} sees every hand; it is for measuring, not for playing against")
            seats.append(Seat(f"{w.split(':')[0].capitalize()} bot {i}", w, bot))
    if not any(s.bot is None for s in seats):
        raise RulesError("at least one seat must be a person (you); use 'muggins bench' for bots only")
    return seats


@dataclass
class Options:
    """What the person chose beyond the rules."""

    hints: bool = False
    ascii_only: bool = False
    undo: bool = False
    save_to: Path | None = None
    hands: int = 0


class Quit(Exception):
    """The person asked to stop (or input ended)."""


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
        self.viewer = self.humans[0]
        self.message = ""
        self.asked: set[tuple[int, int]] = set()
        self.manual = getattr(state.rules, "claims", "auto") == "manual"
        self.scanned = len(state.log)
        self.message = ("Type a move's number and the points it scores ('2 10'). 'help' for more."
                        if self.manual else
                        "Type a move's number; 'help' for more.")

    # -- screen ------------------------------------------------------------------------------------
    def draw(self, viewer: int, moves: list[str] | None = None) -> None:
        self.console.clear()
        self.console.print(render_table(self.st, viewer, self.names, hints=self.opt.hints,
                                        ascii_only=self.opt.ascii_only, moves=moves, message=self.message),
                           highlight=False)
        self.message = ""

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
        saved = " (it is saved to " + str(self.opt.save_to) + ")" if self.opt.save_to else ""
        try:
            answer = self.ask(f"Stop the game{saved}? y + Enter to stop, Enter to play on> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        if answer in ("y", "yes"):
            raise Quit

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
        number = getattr(self.st, "hand_no", None) or getattr(self.st, "round_no", 0)
        return bool(self.opt.hands) and isinstance(number, int) and number > self.opt.hands

    def _loop(self) -> None:
        st = self.st
        while not st.is_over() and not self._hand_limit_reached():
            self._pause_after_hand()
            if self._optional_actions():
                continue
            waiting = sorted(st.waiting_for())
            bots = [s for s in waiting if self.seats[s].bot is not None]
            if bots:
                self._bot_move(bots[0])
                continue
            self._human_turn(waiting[0])

    def _pause_after_hand(self) -> None:
        """When a hand has just ended, let the person read its result before the next deal."""
        log = self.st.log
        start, self.scanned = min(self.scanned, len(log)), len(log)
        if any(e.kind == "hand_end" for e in log[start:]):
            self.draw(self.viewer)
            self.read("Hand over - Enter for the next hand> ")

    def _window_key(self) -> int:
        """Which scoring play the open window belongs to: the index of the last regular action."""
        hist = self.st.history
        return next((i for i in range(len(hist) - 1, -1, -1) if hist[i][1].kind not in OPTIONAL), -1)

    def _optional_actions(self) -> bool:
        """Muggins calls and late claims. A person whose opponent just scored gets the first moment
        (once per window) unless he is the next to act, where 'm' is among his moves; then bots
        decide by their attention. True when an action was applied."""
        st = self.st
        waiting = st.waiting_for()
        for h in self.humans:
            key = (h, self._window_key())
            if key in self.asked or h in waiting or Action("muggins") not in st.legal_actions(h):
                continue
            window = st.view(h).get("window") or {}
            if window.get("scorer") == h:
                continue
            self.asked.add(key)
            self.draw(h)
            text = self.read("m + Enter to call Muggins!, Enter to go on> ").lower()
            if text.startswith("m"):
                rest = text.lstrip("m").replace("uggins", "").strip()
                if self._apply_text(h, "muggins" + (f" {rest}" if rest else "")):
                    return True
        for s in sorted(st.to_act()):
            seat = self.seats[s]
            if seat.bot is None or not any(a.kind in OPTIONAL for a in st.legal_actions(s)):
                continue
            a = seat.bot.act(st, s)
            if a is not None and a.kind in OPTIONAL:
                st.apply(s, a)
                if a.kind == "muggins":
                    self.message = f"{seat.name} calls Muggins!"
                return True
        return False

    def _bot_move(self, s: int) -> None:
        bot = self.seats[s].bot
        assert bot is not None
        a = bot.act(self.st, s)
        regular = next((x for x in self.st.legal_actions(s) if x.kind not in OPTIONAL), None)
        chosen = a if a is not None else regular
        if chosen is None:
            raise IllegalAction(f"the game waits for seat {s} but offers it no move")
        try:
            self.st.apply(s, chosen)
        except MugginsError:  # a bot's slip must not stop the game: it plays a plain move instead
            if regular is None:
                raise
            self.st.apply(s, regular)

    def _human_turn(self, h: int) -> None:
        st = self.st
        if len(self.humans) > 1 and h != self.viewer:
            self.viewer = h
            self.console.clear()
            self.read(f"Pass the keyboard to {self.names[h]}; Enter when ready> ")
        self.viewer = h
        while True:
            legal = st.legal_actions(h)
            moves = [st.format_action(a) for a in legal]
            self.draw(h, moves)
            prompt = "your move> " if len(self.humans) == 1 else f"{self.names[h]}, your move> "
            text = self.read(prompt)
            low = text.lower()
            if not text:
                self.message = "Type a move's number (and the points you announce), or 'help'."
                continue
            if low in HELP:
                self.message = self.help_text(moves)
                continue
            if low == "undo":
                self._undo(h)
                return
            if low == "save":
                self.message = self.save_now() or "Give --save FILE to save the game."
                continue
            if self._apply_text(h, text, legal):
                return

    def _apply_text(self, h: int, text: str, legal: list[Action] | None = None) -> bool:
        """Apply what the person typed; on any mistake keep a message and return False."""
        st = self.st
        legal = legal if legal is not None else st.legal_actions(h)
        words = text.split()
        try:
            if words[0].isdigit():
                n = int(words[0])
                if not 1 <= n <= len(legal):
                    raise IllegalAction(f"there is no move {n}; choose 1 to {len(legal)}")
                action = legal[n - 1]
                if len(words) == 2 and words[1].isdigit():
                    action = action.with_claim(int(words[1]))
                elif len(words) > 1:
                    raise IllegalAction("after the move's number give only the points you announce")
            elif words[0].lower() in ("m", "mug"):
                action = st.parse_action(" ".join(["muggins", *words[1:]]), h)
            else:
                action = self._parse(text, h)
            if action.claim is not None and not self.manual and action.kind not in OPTIONAL:
                raise IllegalAction("points are counted for you in this game; give the move alone")
            st.apply(h, action)
            return True
        except (MugginsError, ValueError, IndexError) as e:
            self.message = f"Not allowed: {e}"
            return False

    def _parse(self, text: str, seat: int) -> Action:
        try:
            return self.st.parse_action(text, seat)
        except (MugginsError, ValueError):
            words = text.split()
            if len(words) > 1 and words[-1].isdigit():
                return self.st.parse_action(" ".join(words[:-1]), seat).with_claim(int(words[-1]))
            raise

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
        self.asked = {k for k in self.asked if k[1] <= idx}
        self.message = "Took back your last move."

    def help_text(self, moves: list[str]) -> str:
        example = "1" if moves else "a move"
        lines = [f"Type a move's number ({example}) or its notation ({moves[0] if moves else '5-3 on 5-5'})."]
        if self.manual:
            lines.append("Announce your points after it: '1 10' plays move 1 and claims 10. Say nothing and an "
                         "opponent may call Muggins! and take them.")
            lines.append("'m' calls Muggins! on an opponent's unclaimed points.")
        lines.append("'save' saves (with --save), 'quit' stops" + (", 'undo' takes back your move."
                                                                 if self.opt.undo else "."))
        return "\n".join(lines)

    # -- end -----------------------------------------------------------------------------------------
    def save_now(self) -> str:
        if self.opt.save_to is None:
            return ""
        save(to_record(self.st, players=[s.to_json() for s in self.seats]), self.opt.save_to)
        return f"Game saved to {self.opt.save_to}"

    def finish(self, stopped: bool) -> None:
        self.draw(self.viewer)
        st = self.st
        if st.is_over():
            won = ", ".join(self.names[w] for w in sorted(st.winners()))
            self.console.print(f"Game over - won by {won}. Final scores {st.scores()}", highlight=False)
        elif stopped:
            self.console.print("Game stopped.", highlight=False)
        else:
            self.console.print(f"Played {self.opt.hands} hand(s). Scores {st.scores()}", highlight=False)
        saved = self.save_now()
        if saved:
            self.console.print(saved, highlight=False)


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
