"""Cribbage through the protocol on the native engine: :class:`NativeCribbageState` (see
:mod:`muggins.cards.native_state`). The engine is :mod:`muggins.cards.cribbage.native`; every deal and every cut
is the pure engine's (``draw_deal``, ``draw_cut``): read from the state's chance by that code when recorded, drawn
by the engine from the chance's generator as that code draws them otherwise."""

from __future__ import annotations

from typing import Any

from muggins.cards.cribbage.game import _FIELDS as PURE_FIELDS
from muggins.cards.cribbage.game import (
    COUNT_CRIB,
    COUNT_HAND,
    GO,
    CribbageState,
    discard_action,
    draw_cut,
    draw_deal,
    play_action,
)
from muggins.cards.cribbage.views import CribbageView
from muggins.cards.dealing import DECK
from muggins.cards.native_state import NativeCardState, _engine
from muggins.core.protocol import Action

_TEXT = tuple(c.text for c in DECK)
_TABLES: dict[int, tuple[Action, ...]] = {}


def _table(each: int) -> tuple[Action, ...]:
    """The Action of each internal id of the engine: the discards of ``each`` cards (a pair's id ranks it:
    ``a + b (b - 1) / 2`` for cards a < b), padded to 1326, a play of each card, go, count hand, count crib."""
    table = _TABLES.get(each)
    if table is None:
        discards = [discard_action((DECK[c],)) for c in range(52)] if each == 1 else \
            [discard_action((DECK[a], DECK[b])) for b in range(52) for a in range(b)]
        discards += [GO] * (1326 - len(discards))
        table = _TABLES[each] = (*discards, *(play_action(c) for c in DECK), GO, COUNT_HAND, COUNT_CRIB)
    return table

#: the pure state's fields: read from the twin, they are the position (a comparison of states reads them)
_FIELDS = PURE_FIELDS


class NativeCribbageState(NativeCardState):
    """A cribbage game played by the native engine (partners share a side with four players)."""

    game = "cribbage"
    action_ids = "muggins.cards.cribbage.action_ids"
    pure_type = CribbageState
    engine = "muggins.cards.cribbage.native"
    engine_class = "NativeCribbage"

    @classmethod
    def _start_native(cls, rules: Any, num_players: int, seed: int | None, state: Any) -> Any:
        if num_players != rules.players:  # the pure engine refuses it
            raise NotImplementedError(f"{num_players} players for a game of {rules.players}")
        return _engine(cls.engine).NativeCribbage.start(rules, seed, state)

    def _follow(self, nat: Any) -> None:
        nat.follow_chance(self._hook("_draw_deal"), self._hook("_draw_cut"))

    def _draw_deal(self, dealer: int) -> tuple[list[list[int]], list[int], list[int]] | None:
        """The next deal of the chance, read and checked by the pure engine's ``draw_deal``: the hands, the
        pack in order, the crib's card; None: the engine draws it (and those after) from the generator."""
        if self._hand_over():
            return None
        hands, crib, pack = draw_deal(self._chance, self.rules, self.num_players, dealer)
        return [[c.index for c in h] for h in hands], [c.index for c in pack], [c.index for c in crib]

    def _draw_cut(self, pack: list[int]) -> int | None:
        """The next cut of the chance (a position in ``pack``, the undealt cards in order), read and checked
        by the pure engine's ``draw_cut``; None: the engine draws it from the generator."""
        if self._hand_over():
            return None
        return draw_cut(self._chance, [DECK[c] for c in pack])

    def _outcomes(self, drawn: list[tuple[int, int, int, list[int]]]) -> list[dict[str, Any]]:
        """As ``cut_for_deal``, ``draw_deal`` and ``draw_cut`` make them."""
        r, n = self.rules, self.num_players
        each, to_crib = r.cards_each, r.crib_dealt
        out: list[dict[str, Any]] = []
        for kind, a, _, cards in drawn:
            texts = [_TEXT[c] for c in cards]
            if kind == 1:
                hands = [texts[(s - a - 1) % n:n * each:n] for s in range(n)]
                out.append({"kind": "deal", "hands": hands, "crib": texts[n * each:n * each + to_crib],
                            "pack": texts[n * each + to_crib:]})
            elif kind == 2:
                out.append({"kind": "starter", "cut": a, "card": texts[0]})
            else:
                out.append({"kind": "cut", "seats": [s for s in range(n) if (a >> s) & 1], "cards": texts})
        return out

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.num_players == 4 else seat

    def winners(self) -> frozenset[int]:
        won = self._nat.winners()
        return frozenset(s for s in range(self.num_players) if self.side_of(s) in won)

    @classmethod
    def _table_for(cls, rules: Any) -> tuple[Action, ...]:
        return _table(rules.discard_each)

    def view(self, seat: int | None) -> CribbageView:
        """What ``seat`` may see (the pure state's view of the same game)."""
        seen: CribbageView = self._synced().view(seat)
        return seen
