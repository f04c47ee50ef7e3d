"""Count to 21: a tiny game that registers nothing for any interface, to prove that the terminal, the
server and the page play a game they have never heard of through the protocol and the registry alone.

2-3 players take turns adding 1, 2 or 3 to a shared total. A play that makes the total a multiple of 5
scores total/5 points; the total goes back to 0 (a new round) once it reaches 21 or more; the first to
10 points wins. With the muggins rule a player announces his points with his play, and an opponent may
call Muggins! on points left unannounced until the next play. A lot decides who starts.

The muggins window is a minimal copy of the one in the card games (``muggins.cards.muggins31.state``).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from muggins.core.chance import Chance
from muggins.core.claims import MugginsOptions, Window, check_points, parse_points, resolve_call, settle_claim
from muggins.core.errors import ClaimError, GameOver, IllegalAction, NotYourTurn, RulesError, UnknownAction
from muggins.core.protocol import Action, Event, GameState, check_action, check_seat
from muggins.core.rules import GameSpec, bounded, check_bounds, register, unregister

NAME = "count-to-21"
RESET_AT = 21
STEPS = (1, 2, 3)


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

MUGGINS = Action("muggins")
CLAIM = Action("claim")


class ToyState(GameState):
    """One position of count to 21."""

    game = NAME
    rules: ToyRules
    total: int
    turn: int
    round_no: int
    _window: Window | None

    @classmethod
    def new(cls, rules: ToyRules, num_players: int, chance: Chance) -> ToyState:
        if not 2 <= num_players <= 3:
            raise RulesError(f"count to 21 is for 2-3 players; got {num_players}")
        s = cls.__new__(cls)
        s.rules, s.num_players, s.chance = rules, num_players, chance
        s.history, s.log = [], []
        s._scores, s._side = [0] * num_players, list(range(num_players))
        s._over, s._winners, s._window = False, frozenset(), None
        s.total, s.round_no = 0, 1
        s.turn = int(chance.next("lot", lambda rng: {"first": rng.randrange(num_players)})["first"])
        s.log.append(Event("first_player", s.turn))
        s.log.append(Event("round_start", None, {"round": 1, "dealer": s.turn, "leader": s.turn}))
        return s

    # -- who acts ---------------------------------------------------------------------------------
    def _manual(self) -> bool:
        return self.rules.claims == "manual"

    def legal_actions(self, seat: int) -> list[Action]:
        if self._over:
            return []
        out = [Action("add", n) for n in STEPS] if seat == self.turn else []
        w = self._window
        if w is not None:
            if seat != w.scorer:
                out.append(MUGGINS)
            elif w.may_claim:
                out.append(CLAIM)
        return out

    def to_act(self) -> frozenset[int]:
        if self._over:
            return frozenset()
        w = self._window
        return frozenset(range(self.num_players)) if w is not None else frozenset((self.turn,))

    def waiting_for(self) -> frozenset[int]:
        return frozenset() if self._over else frozenset((self.turn,))

    def claim_for(self, seat: int, action: Action) -> int:
        if self._over or seat != self.turn or action.kind != "add" or action.subject not in STEPS:
            return 0
        total = self.total + action.subject
        return total // 5 if total % 5 == 0 else 0

    def muggable(self, seat: int) -> int:
        w = self._window
        return 0 if w is None or self._over or seat == w.scorer else w.missed

    # -- apply ------------------------------------------------------------------------------------
    def apply(self, seat: object, action: Action) -> None:
        if self._over:
            raise GameOver("the game is over")
        action = check_action(action)
        seat = check_seat(seat, self.num_players)
        if action.claim is not None:
            check_points(action.claim, self.rules.max_step_points, "a claim")
        if action.kind == "muggins":
            self._call(seat, action.claim)
            return
        if action.kind == "claim":
            self._late_claim(seat, action.claim)
            return
        if action.kind != "add" or action.subject not in STEPS:
            raise IllegalAction(f"unknown move {action.kind!r}; moves are add 1, add 2, add 3, muggins, claim <n>")
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if action.claim is not None and not self._manual():
            raise ClaimError("points are scored automatically in this game; do not announce them")
        points = self.claim_for(seat, action)
        self._close_window()
        self.history.append((seat, action))
        self.total += action.subject
        self.log.append(Event("add", seat, {"add": action.subject, "total": self.total}))
        if self._manual():
            awarded, missed, over = settle_claim(points, action.claim)
            if action.claim is not None:
                self.log.append(Event("claim", seat, {"points": action.claim}))
            if over:
                self._over_claim(seat, action.claim or 0, points, "play")
        else:
            awarded, missed = points, 0
        self._award(seat, awarded, seat, "play")
        if self._over:
            return
        if self._manual():
            lenient = self.rules.claim_timing == "lenient" and action.claim is None
            self._window = Window(seat, seat, missed, action.claim, "play", lenient and missed > 0)
        if self.total >= RESET_AT:
            self.log.append(Event("round_end", None, {"round": self.round_no, "total": self.total,
                                                      "scores": list(self._scores)}))
            self.total = 0
            self.round_no += 1
            self.log.append(Event("round_start", None, {"round": self.round_no, "dealer": seat,
                                                        "leader": (seat + 1) % self.num_players}))
        self.turn = (seat + 1) % self.num_players

    def _award(self, side: int, points: int, seat: int | None, reason: str, /) -> None:
        if points == 0 or self._over:
            return
        self._scores[side] += points
        self.log.append(Event("score", seat, {"side": side, "points": points, "reason": reason}))
        if self._scores[side] >= self.rules.target:
            self._over, self._winners, self._window = True, frozenset((side,)), None
            self.log.append(Event("game_end", None, {"winners": [side], "scores": list(self._scores)}))

    def _close_window(self) -> None:
        w = self._window
        if w is not None and w.missed > 0:
            self.log.append(Event("missed", w.scorer, {"side": w.scorer, "points": w.missed, "reason": w.reason}))
        self._window = None

    def _call(self, seat: int, amount: int | None) -> None:
        w = self._window
        if not self._manual() or w is None:
            raise ClaimError("no muggins window is open: a call must come before the next play")
        if seat == w.scorer:
            raise ClaimError("you cannot call muggins on yourself")
        r = self.rules
        res = resolve_call(w, amount, r.muggins, r.false_call_penalty, r.false_call_points)
        self.history.append((seat, Action("muggins", claim=amount)))
        self._window = None
        self.log.append(Event("muggins", seat, {"on": w.scorer, "outcome": res.outcome, "points": res.caller_gain,
                                                "named": amount, "missed": w.missed}))
        if res.scorer_loss:
            self._award(w.scorer, -res.scorer_loss, w.scorer, "mugged")
        if res.caller_penalty:
            self._award(seat, -res.caller_penalty, seat, "false call")
        if res.scorer_award:
            self._award(w.scorer, res.scorer_award, w.scorer, "false call")
        if res.caller_gain:
            self._award(seat, res.caller_gain, seat, "muggins")

    def _late_claim(self, seat: int, amount: int | None) -> None:
        w = self._window
        if w is None or seat != w.scorer or not w.may_claim:
            raise ClaimError("there is nothing for you to claim now")
        if amount is None:
            raise ClaimError("a claim names its points, like 'claim 2'")
        self.history.append((seat, Action("claim", claim=amount)))
        w.may_claim, w.claimed = False, amount
        self.log.append(Event("claim", seat, {"points": amount, "late": True}))
        if amount <= w.missed:
            w.missed -= amount
            self._award(seat, amount, seat, "play")
        else:
            self._over_claim(seat, amount, w.missed, "play")

    # -- information ------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        w = self._window
        v: dict[str, Any] = {
            "game": self.game, "preset": self.rules.preset, "seat": seat, "players": self.num_players,
            "scores": list(self._scores), "target": self.rules.target, "total": self.total,
            "round": self.round_no, "turn": None if self._over else self.turn, "to_act": sorted(self.to_act()),
            "claims": self.rules.claims, "window": w.public() if w is not None else None,
            "over": self._over, "winners": sorted(self._winners),
        }
        if seat is not None:
            v["legal"] = [self.format_action(a) for a in self.legal_actions(seat)]
        return v

    def sample_hidden(self, seat: int, rng: random.Random) -> ToyState:
        c = self.clone()
        c.chance = self.chance.fork(rng)
        return c  # nothing is hidden

    def clone(self) -> ToyState:
        c = ToyState.__new__(ToyState)
        c.__dict__.update(self.__dict__)
        self._clone_base(c)
        c._window = self._window.copy() if self._window is not None else None
        return c

    # -- notation ---------------------------------------------------------------------------------
    def format_action(self, action: Action) -> str:
        return f"add {action.subject}" if action.kind == "add" else str(action.kind)

    def parse_action(self, text: str, seat: int | None = None) -> Action:
        words = str(text).strip().lower().split()
        if len(words) in (1, 2) and words[0] in ("muggins", "claim"):
            claim = parse_points(words[0], words[1], self.rules.max_step_points) if len(words) == 2 else None
            return Action(words[0], claim=claim)
        if len(words) == 2 and words[0] == "add" and words[1] in ("1", "2", "3"):
            return Action("add", int(words[1]))
        raise UnknownAction(f"cannot read {str(text)[:40]!r}; moves are add 1, add 2, add 3, muggins, claim <n>")


SPEC = GameSpec(name=NAME, title="Count to 21", state_type=ToyState, presets=PRESETS, default_preset="toy",
                min_players=2, max_players=3, descriptions=DESCRIPTIONS)


@contextmanager
def toy_registered() -> Iterator[GameSpec]:
    """Count to 21 in the registry for the duration (it is never registered outside the tests)."""
    register(SPEC)
    try:
        yield SPEC
    finally:
        unregister(NAME)
