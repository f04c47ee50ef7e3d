"""The observation of a game of card Muggins: what one seat sees, as numbers (see
:mod:`muggins.rl.observation`).

After the fields every game has (:class:`~muggins.rl.observation.BaseEncoder`) come, read from
``state.view(seat)`` only, each card as one bit of the pack in pack order (A♣ A♦ A♥ A♠ 2♣ ... K♠):

* ``hand``: the seat's own cards;
* ``pile``: the cards of the pile on the table;
* ``earlier_piles``: the cards of the round's closed piles;
* ``total``: the running total / the cap;
* ``passed``: 1 for each seat that has said go on this pile, from the observer on;
* ``last_player``, ``dealer``: one-hot, from the observer on (all 0 when there is none);
* ``hand_sizes``: each seat's cards, from the observer on, / twice the deal (at most 1);
* ``stock``: the cards left to draw / the stock after the deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from muggins.cards.dealing import CARD_BY_TEXT
from muggins.rl.observation import BaseEncoder, Layout

if TYPE_CHECKING:
    from collections.abc import Iterable

    import numpy as np

    from muggins.core.protocol import GameState

__all__ = ["CardMugginsEncoder", "set_cards"]


def set_cards(out: np.ndarray, start: int, texts: Iterable[str]) -> None:
    """Set the bit of each card of ``texts`` (canonical text, ``"5H"``) in the 52 numbers from ``start``."""
    for text in texts:
        out[start + CARD_BY_TEXT[text].index] = 1.0


class CardMugginsEncoder(BaseEncoder):
    """A card Muggins seat's view: hand, pile and earlier piles as bits of the pack, the total, who passed."""

    def _add_fields(self, lay: Layout) -> None:
        n = self.num_players
        r = self.rules
        self.cap = float(r.cap)
        self.most_in_hand = 2.0 * r.hand_size
        self.stock0 = float(max(1, 52 - n * r.hand_size))
        self.s_hand = lay.add("hand", 52)
        self.s_pile = lay.add("pile", 52)
        self.s_earlier = lay.add("earlier_piles", 52)
        self.s_total = lay.add("total", 1)
        self.s_passed = lay.add("passed", n)
        self.s_last = lay.add("last_player", n)
        self.s_dealer = lay.add("dealer", n)
        self.s_sizes = lay.add("hand_sizes", n)
        self.s_stock = lay.add("stock", 1)

    def _fill(self, out: np.ndarray, view: Any, state: GameState, seat: int) -> None:
        n = self.num_players
        set_cards(out, self.s_hand, view.get("my_hand") or ())
        set_cards(out, self.s_pile, view["pile"])
        for pile in view["earlier_piles"]:
            set_cards(out, self.s_earlier, pile)
        out[self.s_total] = min(1.0, view["total"] / self.cap)
        for s in view["passed"]:
            out[self.s_passed + (s - seat) % n] = 1.0
        last = view["last_player"]
        if last is not None:
            out[self.s_last + (last - seat) % n] = 1.0
        out[self.s_dealer + (view["dealer"] - seat) % n] = 1.0
        sizes = view["hand_sizes"]
        for i in range(n):
            out[self.s_sizes + i] = min(1.0, sizes[(seat + i) % n] / self.most_in_hand)
        out[self.s_stock] = min(1.0, view["stock"] / self.stock0)
