"""What a bot is, and the few protocol-level helpers every bot shares.

A bot answers one question: given a position and the seat it plays, what does that seat do now?
It may use only what the seat may know: ``legal_actions(seat)``, ``view(seat)``, ``claim_for(seat, a)``
for its own candidate moves, ``muggable(seat)`` (derivable from public information) and states drawn by
``sample_hidden(seat, rng)``. Only the ``omniscient`` bot reads the real hidden state, and it is never
offered to players.

A bot is split in two independent parts: a *policy* (skill: which regular move to make) and an
*attention* model (whether the seat notices its own points and an opponent's miss, see
:mod:`muggins.bots.attention`).
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from muggins.core.events import ActionKind, EventKind
from muggins.core.protocol import Action, GameState

#: Kinds that belong to the muggins rule rather than to the play of the game.
CLAIM_KINDS = frozenset((ActionKind.MUGGINS, ActionKind.CLAIM))

#: Log event kinds that end a hand (dominoes), a round (card Muggins) or start the next cribbage deal:
#: a natural search horizon.
HAND_END_KINDS = frozenset((EventKind.HAND_END, EventKind.ROUND_END, EventKind.DEAL))

#: Log event kinds that start a hand (dominoes), a round (card Muggins) or a deal (cribbage).
HAND_START_KINDS = frozenset((EventKind.HAND_START, EventKind.ROUND_START, EventKind.DEAL))


class BotError(RuntimeError):
    """A bot failed to produce a move the game accepts (a bug in the bot, never a user error)."""


@runtime_checkable
class Bot(Protocol):
    """Anything that can take a seat: ``act`` returns the seat's action, or None to do nothing
    (allowed only when the game does not wait for that seat)."""

    name: str

    def act(self, state: GameState, seat: int, rng: random.Random) -> Action | None: ...


class Policy(Protocol):
    """The skill part of a bot: picks one of ``actions`` (the seat's regular moves, claims removed)."""

    name: str

    def choose(self, state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action: ...


def regular_actions(state: GameState, seat: int) -> list[Action]:
    """The seat's legal moves of the game itself (no muggins calls, no late claims)."""
    return [a for a in state.legal_actions(seat) if a.kind not in CLAIM_KINDS]


def true_points(state: GameState, seat: int, action: Action) -> int:
    """The points ``action`` scores for ``seat`` now (what a perfect player announces).

    Every game implements ``claim_for``; a game without claims scores nothing to announce."""
    claim_for = getattr(state, "claim_for", None)
    if claim_for is None:
        return 0
    return int(claim_for(seat, action))


def manual_claims(state: GameState) -> bool:
    """True when points must be announced (the muggins rule is in force)."""
    return getattr(state.rules, "claims", "auto") == "manual"


def with_true_claim(state: GameState, seat: int, action: Action) -> Action:
    """``action`` carrying its true claim in manual mode (used inside searches: perfect claims)."""
    if action.kind in CLAIM_KINDS or not manual_claims(state):
        return action
    pts = true_points(state, seat, action)
    return action.with_claim(pts) if pts > 0 else action


def pending_claim(state: GameState, seat: int) -> int:
    """Points ``seat`` could still announce in an open window (lenient timing, a claimable bonus).

    ``claim_for(seat, Action("claim"))`` where the game answers it; otherwise the shortfall, which is
    public knowledge (any opponent could mug it), read through an opponent's ``muggable``."""
    side = state.side_of(seat)
    owed = max((state.muggable(s) for s in range(state.num_players) if state.side_of(s) != side), default=0)
    return max(owed, true_points(state, seat, Action(ActionKind.CLAIM.value)))


def next_decision(state: GameState) -> tuple[int, list[Action]] | None:
    """The seat the game waits for (lowest first in a simultaneous phase) with its regular moves."""
    waiting = state.waiting_for()
    if not waiting:
        return None
    for seat in sorted(waiting):
        acts = regular_actions(state, seat)
        if acts:
            return seat, acts
    return None


def game_target(state: GameState) -> int:
    """The score that wins (used to scale evaluations); 100 when the rules have no ``target``."""
    return int(getattr(state.rules, "target", 100) or 100)
