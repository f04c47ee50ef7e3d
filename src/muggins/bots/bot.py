"""A seat-taking bot: a skill policy for the moves plus an attention model for claims and calls."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from muggins.bots.attention import PERFECT, Attention
from muggins.bots.base import CLAIM_KINDS, Policy, manual_claims, pending_claim, true_points
from muggins.core.events import ActionKind
from muggins.core.protocol import Action, GameState

# plain strings in the actions a bot makes: a compiled game may expect the exact str type
MUGGINS: str = ActionKind.MUGGINS.value
CLAIM: str = ActionKind.CLAIM.value


@dataclass
class AttentiveBot:
    """``act`` first looks at the muggins rule (call an opponent's miss, make a late claim), then, if
    the game waits for this seat, asks its policy for a move and announces its points through the
    attention model. ``offered`` is False for bots that must never face players (``omniscient``)."""

    name: str
    policy: Policy
    attention: Attention = PERFECT
    offered: bool = True
    seed: int | None = None
    rng: random.Random = field(init=False, repr=False)
    _decided: dict[tuple[int, int, int, str], bool | int | None] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self._decided = {}

    def _once(self, state: GameState, seat: int, what: str, decide: Callable[[], bool | int | None]
              ) -> bool | int | None:
        """One decision per window: asking again about the same position repeats the first answer,
        so a server that polls the bot does not give it extra chances to notice."""
        key = (id(state), len(state.history), seat, what)
        if key not in self._decided:
            if len(self._decided) > 64:
                self._decided.clear()
            self._decided[key] = decide()
        return self._decided[key]

    def act(self, state: GameState, seat: int, rng: random.Random | None = None) -> Action | None:
        r = rng if rng is not None else self.rng
        legal = state.legal_actions(seat)
        kinds = {a.kind for a in legal}
        if MUGGINS in kinds:
            missed = state.muggable(seat)
            if self._once(state, seat, MUGGINS, lambda: self.attention.calls_muggins(missed, r)):
                return Action(MUGGINS, claim=missed if missed > 0 else None)
        if CLAIM in kinds:
            owed = pending_claim(state, seat)
            amount = self._once(state, seat, CLAIM, lambda: self.attention.announce(owed, r))
            if isinstance(amount, int) and not isinstance(amount, bool):
                return Action(CLAIM, claim=amount)
        regular = [a for a in legal if a.kind not in CLAIM_KINDS]
        if not regular or seat not in state.waiting_for():
            return None
        move = self.policy.choose(state, seat, regular, r)
        if manual_claims(state):
            claim = self.attention.announce(true_points(state, seat, move), r)
            if claim is not None:
                move = move.with_claim(claim)
        return move

    def reaction_delay(self, rng: random.Random | None = None) -> float:
        """Seconds a real-time server should wait before playing this bot's move."""
        return self.attention.delay(rng if rng is not None else self.rng)

    def stats(self) -> dict[str, float]:
        """Counters of the policy (a search reports its iterations and time)."""
        out: dict[str, float] = {}
        for key in ("total_iterations", "total_seconds", "searches"):
            v = getattr(self.policy, key, None)
            if isinstance(v, (int, float)):
                out[key] = float(v)
        return out
