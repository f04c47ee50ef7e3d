"""Card Muggins through the protocol on the native engine: :class:`NativeCardMugginsState` (see
:mod:`muggins.cards.native_state`). The engine is :mod:`muggins.cards.muggins31.native`; every deal is drawn
through the state's chance by the pure engine's own code (``CardMugginsState._deal``)."""

from __future__ import annotations

from typing import Any

from muggins.cards.deck import Card
from muggins.cards.muggins31.state import _FIELDS as PURE_FIELDS
from muggins.cards.muggins31.state import GO, PLAY, CardMugginsState
from muggins.cards.muggins31.views import Muggins31View
from muggins.cards.native_state import NativeCardState
from muggins.core.protocol import Action

#: the pure state's fields: read from the twin, they are the position (a comparison of states reads them)
_FIELDS = PURE_FIELDS


class NativeCardMugginsState(NativeCardState):
    """A card Muggins game played by the native engine (each player is his own side)."""

    game = "card-muggins"
    action_ids = "muggins.cards.muggins31.action_ids"
    pure_type = CardMugginsState
    engine = "muggins.cards.muggins31.native"
    engine_class = "NativeCardMuggins"

    def _follow(self, nat: Any) -> None:
        nat.follow_chance(self._draw_deal)

    def _draw_deal(self, dealer: int) -> tuple[list[list[int]], list[int]]:
        """The next deal from :attr:`chance`, drawn and checked as the pure engine does: each hand in the
        order dealt, the stock in draw order."""
        n = self.num_players
        scratch = CardMugginsState._blank(self.rules, n, self.chance, list(range(n)))
        scratch.dealer = dealer
        scratch._deal()
        return [[c.index for c in h] for h in scratch.hands], [c.index for c in reversed(scratch.stock)]

    def _regular(self, seat: int) -> list[Action]:
        return [PLAY[c] if c >= 0 else GO for c in self._nat.regular(seat)]

    def _points_of(self, seat: int, action: Action) -> int:
        """As ``CardMugginsState._points_of``: a play's points ("last" with ``mug_last``), from the engine."""
        card = action.subject
        if action.kind != "play" or seat != self._nat.turn() or not isinstance(card, Card):
            return 0
        return int(self._nat.true_points(seat, card.index * self._space.by_kind["play"].width))

    def view(self, seat: int | None) -> Muggins31View:
        """What ``seat`` may see (the pure state's view of the same game)."""
        seen: Muggins31View = self._synced().view(seat)
        return seen
