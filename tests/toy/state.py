"""Count to 21: a tiny game that registers nothing for any interface, to prove that the terminal, the
server, the page, the bots, the simulator and the record writer play a game they have never heard of
through the protocol and the registry alone.

2-3 players take turns adding 1, 2 or 3 to a shared total. A play that makes the total a multiple of 5
scores total/5 points; the total goes back to 0 (a new round) once it reaches 21 or more; the first to
10 points wins. With the muggins rule a player announces his points with his play, and an opponent may
call Muggins! on points left unannounced until the next play. A lot decides who starts.

The game keeps only its own moves; the muggins window is the core's (``GameState``): each play reports its
scoring step with ``_score_step``. It speaks the protocol's closed vocabulary: an addition is a ``play``
(text "add N") and logs a ``play`` event whose ``card`` is the number added. Nothing is hidden.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import cast

from muggins.core.chance import Chance
from muggins.core.claims import MugginsOptions
from muggins.core.errors import IllegalAction, NotYourTurn, RulesError, UnknownAction, shown
from muggins.core.protocol import Action, Event, GameState, check_seat
from muggins.core.rules import bounded, check_bounds
from muggins.core.views import WindowView
from tests.toy.action_ids import STEPS
from tests.toy.views import ToyView

NAME = "count-to-21"
RESET_AT = 21
MOVES = "moves are add 1, add 2, add 3, muggins [n], claim <n>"
ADD: tuple[Action, ...] = tuple(Action("play", n) for n in STEPS)


@dataclass(frozen=True)
class ToyRules(MugginsOptions):
    """The options of count to 21: the muggins rule's, and the points that win."""

    preset: str = "toy"
    target: int = bounded(10, 1, 100)

    def __post_init__(self) -> None:
        check_bounds(self)

    @property
    def max_step_points(self) -> int:
        """The most one play can score: the highest multiple of five a play can make, over five."""
        return (RESET_AT - 1 + max(STEPS)) // 5


PRESETS = {"toy": ToyRules(), "toy-auto": dataclasses.replace(ToyRules(), preset="toy-auto", claims="auto")}
DESCRIPTIONS = {"toy": "Add 1-3 to the total; a multiple of five scores a fifth of it; announce your points.",
                "toy-auto": "The same, with the points counted for you."}


class ToyState(GameState):
    """One position of count to 21. Each player is his own side."""

    game = NAME
    action_ids = "tests.toy.action_ids"
    rules: ToyRules
    total: int
    turn: int
    round_no: int

    @classmethod
    def new(cls, rules: ToyRules, num_players: int, chance: Chance) -> ToyState:
        if not 2 <= num_players <= 3:
            raise RulesError(f"count to 21 is for 2-3 players; got {num_players}")
        s = cls._blank(rules, num_players, chance, list(range(num_players)))
        s.total, s.round_no = 0, 1
        s.turn = int(chance.next("lot", lambda rng: {"first": rng.randrange(num_players)})["first"])
        s.log.append(Event("round_start", None, {"round": 1, "dealer": s.turn, "leader": s.turn, "stock": 0}))
        return s

    # -- the game's own moves ---------------------------------------------------------------------
    def _regular(self, seat: int) -> list[Action]:
        return list(ADD) if seat == self.turn else []

    def waiting_for(self) -> frozenset[int]:
        return frozenset() if self._over else frozenset((self.turn,))

    def _points_of(self, seat: int, action: Action) -> int:
        if seat != self.turn or action.kind != "play" or action.subject not in STEPS:
            return 0
        total = self.total + action.subject
        return total // 5 if total % 5 == 0 else 0

    def _apply_move(self, seat: int, action: Action) -> None:
        n = action.subject
        if action.kind != "play" or type(n) is not int or n not in STEPS or action.target is not None \
                or action.part is not None:
            raise IllegalAction(f"{shown(action.kind)} is no move of count to 21; {MOVES}")
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        points = self._points_of(seat, action)
        self.history.append((seat, action))
        self._ver += 1
        self.total += n
        self.log.append(Event("play", seat, {"card": str(n), "total": self.total}))
        self._score_step(seat, points, action.claim, "play")
        if self._over:
            return
        if self.total >= RESET_AT:
            self.log.append(Event("round_end", None, {"round": self.round_no, "scores": list(self._scores)}))
            self.total = 0
            self.round_no += 1
            self.log.append(Event("round_start", None, {"round": self.round_no, "dealer": seat,
                                                        "leader": (seat + 1) % self.num_players, "stock": 0}))
        self.turn = (seat + 1) % self.num_players

    def _award(self, side: int, points: int, seat: int | None, reason: str, /) -> None:
        if points == 0 or self._over:
            return
        self._scores[side] += points
        self.log.append(Event("score", seat, {"side": side, "points": points, "reason": reason}))
        if self._scores[side] >= self.rules.target:
            self._finish([side])

    def _finish(self, sides: list[int]) -> None:
        self._over, self._winners = True, frozenset(sides)
        self._end_window()  # points still unclaimed when the game ends are logged as missed
        self.log.append(Event("game_end", None, {"winners": sorted(sides), "scores": list(self._scores)}))

    # -- information ------------------------------------------------------------------------------
    def view(self, seat: int | None) -> ToyView:
        if seat is not None:
            check_seat(seat, self.num_players)
        w = self._window
        return ToyView(
            game=self.game, preset=self.rules.preset, seat=seat, players=self.num_players,
            scores=list(self._scores), target=self.rules.target, total=self.total, round=self.round_no,
            turn=None if self._over else self.turn, to_act=sorted(self.to_act()), claims=self.rules.claims,
            window=cast("WindowView", w.public()) if w is not None else None, over=self._over,
            winners=sorted(self._winners),
            legal=[self.format_action(a) for a in self.legal_actions(seat)] if seat is not None else None,
        )

    def inventory(self) -> dict[str, list[str]]:
        """No pieces: the game is a running total."""
        return {}

    def sample_hidden(self, seat: int, rng: random.Random) -> ToyState:
        """Nothing is hidden, so a copy is a world the seat cannot tell from this one; its chance keeps the
        recorded past only (what comes next is drawn from ``rng``, not read from the true generator)."""
        check_seat(seat, self.num_players)
        c = self.clone()
        c.chance = self.chance.fork(rng)
        return c

    def clone(self) -> ToyState:
        c = ToyState.__new__(ToyState)
        c.__dict__.update(self.__dict__)  # the game's own fields are numbers
        self._clone_base(c)
        return c

    # -- notation ---------------------------------------------------------------------------------
    def format_action(self, action: Action) -> str:
        return f"add {action.subject}" if action.kind == "play" else str(action.kind)

    def parse_action(self, text: object, seat: int | None = None) -> Action:
        words = [w.lower() for w in self._words(text, f"empty move; {MOVES}")]
        if words[0] in ("muggins", "claim"):
            return self._parse_call(words, text, 2)
        if len(words) == 2 and words[0] == "add" and words[1] in ("1", "2", "3"):
            return ADD[int(words[1]) - 1]
        raise UnknownAction(f"cannot read {shown(text)}; {MOVES}")
