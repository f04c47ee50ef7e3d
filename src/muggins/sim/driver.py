"""Play one game between bots and collect what happened.

The loop asks, at every step, the seats that *may* act without being waited for (a muggins call) first,
in seat order after the last actor, then the seat(s) the game waits for. Statistics come from the event
log: points, points left unclaimed ("missed" events), points taken by muggins calls and false calls.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from muggins.bots.base import CLAIM_KINDS, HAND_START_KINDS, Bot, BotError, manual_claims, true_points
from muggins.core.chance import Chance, Outcome
from muggins.core.errors import IllegalAction
from muggins.core.events import ActionKind, EventKind
from muggins.core.protocol import Action, GameState
from muggins.core.rules import GameSpec

#: A game still running after this many actions is stopped and scored as unfinished (a draw); some
#: rule sets (seven-rocks for two, where every hand can end below zero) need not end at all.
MAX_ACTIONS = 5000


class DealChance(Chance):
    """Chance whose n-th outcome of each kind depends only on (seed, kind, n).

    Two games started from the same seed therefore see the same n-th deal even when their play
    differs (a lot redrawn in one game and not in the other does not shift later deals): the basis of
    duplicate tournaments. Records replay unchanged, as they hold the outcomes themselves."""

    __slots__ = ("_counts", "_streams_seed")

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._streams_seed = seed
        self._counts: dict[str, int] = {}

    def next(self, kind: str, make: Callable[[random.Random], Outcome]) -> Outcome:
        if self._pos >= len(self.outcomes):
            i = self._counts.get(kind, 0)
            self._counts[kind] = i + 1
            self.rng = random.Random(f"{self._streams_seed}:{kind}:{i}")
        return super().next(kind, make)


@dataclass
class SeatStats:
    """One seat's figures for one game."""

    bot: str
    side: int
    score: int = 0            # the seat's side score at the end
    claims_true: int = 0      # true points of the seat's own moves (manual claim mode)
    claims_made: int = 0      # of which announced with the move and accepted
    late_claims: int = 0      # announced afterwards (lenient timing, claimable bonus)
    over_claims: int = 0      # announcements above the truth (void)
    missed: int = 0           # points left unclaimed that nobody took ("missed" events, and a last
                              # window the end of the game closed, which leaves no event)
    mugged: int = 0           # points lost to an opponent's call
    stolen: int = 0           # points gained by calling muggins
    calls: int = 0            # correct muggins calls
    false_calls: int = 0      # calls with nothing to take
    decisions: int = 0
    seconds: float = 0.0      # time spent deciding
    search_iterations: int = 0

    @property
    def unclaimed(self) -> int:
        """Every point the seat failed to announce in time."""
        return self.missed + self.mugged


@dataclass
class GameResult:
    """The outcome and figures of one game; JSON-able through :meth:`to_dict`."""

    seed: int
    game: str
    preset: str
    bots: list[str]
    side_scores: list[int]
    winners: list[int]
    finished: bool
    actions: int
    hands: int
    seats: list[SeatStats] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def winning_bots(self) -> set[str]:
        return {self.bots[s] for s in self.winners}


def _seat_rng(seed: int, seat: int) -> random.Random:
    return random.Random(f"bot:{seed}:{seat}")


def _iterations(bot: Bot) -> int:
    """The search iterations a bot has run so far (0 for bots that do not search)."""
    report = getattr(bot, "stats", None)
    return int(report().get("total_iterations", 0)) if callable(report) else 0


def play_game(spec: GameSpec, rules: Any, players: int, bots: Sequence[Bot], seed: int,
              max_actions: int = MAX_ACTIONS,
              on_state: Callable[[GameState], None] | None = None) -> GameResult:
    """Play one game of ``spec`` with ``rules`` and one bot per seat; all chance from ``seed``."""
    if len(bots) != players:
        raise ValueError(f"{players} seats need {players} bots; got {len(bots)}")
    state = spec.new(rules, players, chance=DealChance(seed))
    return run(state, bots, seed, max_actions, on_state)


def run(state: GameState, bots: Sequence[Bot], seed: int, max_actions: int = MAX_ACTIONS,
        on_state: Callable[[GameState], None] | None = None) -> GameResult:
    """Drive ``state`` to its end (or ``max_actions``) with ``bots``; the figures of the game."""
    n = state.num_players
    rngs = [_seat_rng(seed, s) for s in range(n)]
    stats = [SeatStats(bot=bots[s].name, side=state.side_of(s)) for s in range(n)]
    manual = manual_claims(state)
    actions = 0
    iterations_before = [_iterations(b) for b in bots]
    # the last regular move: (seat, points still unannounced, log length before it); the game's end
    # can close its window without a "missed" event
    last_move: list[tuple[int, int, int] | None] = [None]

    def ask(seat: int) -> Action | None:
        t0 = time.perf_counter()
        a = bots[seat].act(state, seat, rngs[seat])
        st = stats[seat]
        st.seconds += time.perf_counter() - t0
        st.decisions += 1
        return a

    def apply(seat: int, a: Action) -> None:
        if manual and a.kind not in CLAIM_KINDS:
            truth = true_points(state, seat, a._replace(claim=None))
            st = stats[seat]
            st.claims_true += truth
            accepted = 0
            if a.claim is not None:
                if a.claim <= truth:
                    accepted = a.claim
                else:
                    st.over_claims += 1
            st.claims_made += accepted
            last_move[0] = (seat, truth - accepted, len(state.log))
        elif a.kind == ActionKind.CLAIM and last_move[0] is not None and last_move[0][0] == seat and a.claim:
            mover, owed, at = last_move[0]
            last_move[0] = (mover, max(0, owed - a.claim), at)
        elif a.kind == ActionKind.MUGGINS:
            last_move[0] = None
        try:
            state.apply(seat, a)
        except IllegalAction as e:
            raise BotError(f"bot {bots[seat].name!r} at seat {seat} made an illegal move "
                           f"{a!r}: {e}") from e

    while not state.is_over() and actions < max_actions:
        if on_state is not None:
            on_state(state)
        waiting = state.waiting_for()
        optional = state.to_act() - waiting
        acted = False
        if optional:
            last = state.history[-1][0] if state.history else -1
            for seat in sorted(optional, key=lambda s: (s - last - 1) % n):
                a = ask(seat)
                if a is not None:
                    apply(seat, a)
                    acted = True
                    break
        if not acted:
            seat = min(waiting)
            a = ask(seat)
            if a is None:
                raise BotError(f"bot {bots[seat].name!r} at seat {seat} did nothing while the game "
                               "waited for it")
            apply(seat, a)
        actions += 1

    hands = 0
    for e in state.log:
        k = e.kind
        if k in HAND_START_KINDS:
            hands += 1
        elif k == EventKind.MISSED and e.seat is not None:
            stats[e.seat].missed += int(e.data.get("points", 0))
        elif k == EventKind.CLAIM and e.seat is not None and e.data.get("late"):
            stats[e.seat].late_claims += int(e.data.get("points", 0))
        elif k == EventKind.MUGGINS and e.seat is not None:
            caller = stats[e.seat]
            outcome = e.data.get("outcome")
            if outcome == "false_call":
                caller.false_calls += 1
                continue
            caller.calls += 1
            gain = int(e.data.get("points", 0))
            caller.stolen += gain
            on = e.data.get("on")
            if isinstance(on, int):
                stats[on].mugged += int(e.data.get("missed", 0)) if outcome == "forfeit" else gain
    final = last_move[0]
    if state.is_over() and final is not None and final[1] > 0:
        mover, owed, at = final
        if not any(e.kind in (EventKind.MISSED, EventKind.MUGGINS) for e in state.log[at:]):
            stats[mover].missed += owed
    sides = state.side_scores()
    for s in range(n):
        stats[s].score = sides[stats[s].side]
        stats[s].search_iterations = _iterations(bots[s]) - iterations_before[s]
    return GameResult(
        seed=seed, game=state.game, preset=str(getattr(state.rules, "preset", "")),
        bots=[b.name for b in bots], side_scores=list(sides), winners=sorted(state.winners()),
        finished=state.is_over(), actions=actions, hands=max(hands, 1), seats=stats,
    )
