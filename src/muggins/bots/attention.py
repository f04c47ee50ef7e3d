"""The attention model: how reliably a seat announces its own points and notices an opponent's miss.

Attention is kept apart from skill (which move to make): a strong player may still forget to count,
and a weak one may be a sharp muggins caller. The model has four rates and a reaction delay:

* ``forget`` - a scoring move is made with nothing announced (all its points left for a muggins call);
* ``under_claim`` - a smaller amount is announced (the difference is left unclaimed);
* ``vigilance`` - when an opponent left points unclaimed, the chance of calling "Muggins!";
* ``false_call`` - when an opponent left nothing, the chance of calling anyway (a false call);
* ``reaction``/``reaction_spread`` - seconds a real-time server waits before the bot acts.

``forget`` and ``under_claim`` are exclusive outcomes of one draw, so their sum is at most 1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from muggins.core.errors import RulesError


@dataclass(frozen=True)
class Attention:
    """Rates of the attention model; the default is a perfect, instant player."""

    forget: float = 0.0
    under_claim: float = 0.0
    vigilance: float = 1.0
    false_call: float = 0.0
    reaction: float = 0.0
    reaction_spread: float = 0.0

    def __post_init__(self) -> None:
        for name in ("forget", "under_claim", "vigilance", "false_call"):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise RulesError(f"attention rate {name!r} must be between 0 and 1; got {v!r}")
        if self.forget + self.under_claim > 1.0:
            raise RulesError("forget + under_claim must not exceed 1 (they are exclusive outcomes)")
        if self.reaction < 0 or self.reaction_spread < 0:
            raise RulesError("reaction delays are not negative")

    @property
    def perfect(self) -> bool:
        """Never misses a claim and never lets a miss go (and never calls falsely)."""
        return self.forget == 0 and self.under_claim == 0 and self.vigilance == 1 and self.false_call == 0

    def announce(self, true_points: int, rng: random.Random) -> int | None:
        """What the seat announces for a move worth ``true_points`` (None: says nothing)."""
        if true_points <= 0:
            return None
        u = rng.random()
        if u < self.forget:
            return None
        if u < self.forget + self.under_claim:
            return under_amount(true_points, rng)
        return true_points

    def calls_muggins(self, muggable: int, rng: random.Random) -> bool:
        """Whether the seat calls "Muggins!" on an open window where ``muggable`` points are missed."""
        if muggable > 0:
            return self.vigilance >= 1.0 or rng.random() < self.vigilance
        return self.false_call > 0 and rng.random() < self.false_call

    def delay(self, rng: random.Random) -> float:
        """Seconds before acting in real-time play (never negative)."""
        if self.reaction_spread == 0:
            return self.reaction
        return max(0.0, rng.gauss(self.reaction, self.reaction_spread))


def under_amount(true_points: int, rng: random.Random) -> int | None:
    """A plausible smaller announcement: a smaller multiple of five when the points are fives (the
    common slip "ten" for fifteen; a lone five has no smaller count, so it is not announced at all),
    otherwise any smaller positive amount; None when nothing is smaller."""
    if true_points % 5 == 0:
        return 5 * rng.randrange(1, true_points // 5) if true_points >= 10 else None
    if true_points > 1:
        return rng.randrange(1, true_points)
    return None


PERFECT = Attention()

#: Attention of the named levels (skill is chosen in :mod:`muggins.bots.registry`).
LEVEL_ATTENTION: dict[str, Attention] = {
    "beginner": Attention(forget=0.25, under_claim=0.10, vigilance=0.25, false_call=0.02,
                          reaction=3.0, reaction_spread=1.0),
    "casual": Attention(forget=0.10, under_claim=0.05, vigilance=0.60, false_call=0.005,
                        reaction=2.0, reaction_spread=0.7),
    "club": Attention(forget=0.02, under_claim=0.01, vigilance=0.90, false_call=0.0,
                      reaction=1.2, reaction_spread=0.4),
    "expert": Attention(reaction=0.6, reaction_spread=0.2),
}
