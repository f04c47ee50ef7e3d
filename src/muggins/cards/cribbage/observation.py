"""The observation of a cribbage game: what one seat sees, as numbers (see :mod:`muggins.rl.observation`).

After the fields every game has (:class:`~muggins.rl.observation.BaseEncoder`) come, read from
``state.view(seat)`` only, each card as one bit of the pack in pack order (A♣ A♦ A♥ A♠ 2♣ ... K♠):

* ``hand``: the cards the seat still holds; ``discards``: the cards it laid away to the crib;
* ``starter``: the starter, once cut;
* ``pile``: the cards of the play's current series; ``series``: the cards of its earlier series;
* ``shown``: the cards of the hands counted so far in this hand's show; ``crib``: the crib, once shown;
* ``count``: the play's running count / 31;
* ``phase``: one-hot, deal, discard, play, show, over;
* ``dealer``, ``last_player``: one-hot, from the observer on (all 0 when there is none);
* ``discarded``, ``gone``: 1 for each seat that has laid away its cards / said go, from the observer on;
* ``hand_sizes``: each seat's cards, from the observer on, / the cards dealt to each;
* ``crib_size``: cards in the crib / 4;
* ``partners``: 1 for each seat of the observer's side, from the observer on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from muggins.cards.muggins31.observation import set_cards
from muggins.rl.observation import BaseEncoder, Layout

if TYPE_CHECKING:
    import numpy as np

    from muggins.core.protocol import GameState

__all__ = ["CribbageEncoder"]

PHASES = ("deal", "discard", "play", "show", "over")


class CribbageEncoder(BaseEncoder):
    """A cribbage seat's view: its cards, the starter, the play and the shows as bits of the pack."""

    def _add_fields(self, lay: Layout) -> None:
        n = self.num_players
        self.dealt = float(self.rules.cards_each)
        self.s_hand = lay.add("hand", 52)
        self.s_discards = lay.add("discards", 52)
        self.s_starter = lay.add("starter", 52)
        self.s_pile = lay.add("pile", 52)
        self.s_series = lay.add("series", 52)
        self.s_shown = lay.add("shown", 52)
        self.s_crib = lay.add("crib", 52)
        self.s_count = lay.add("count", 1)
        self.s_phase = lay.add("phase", len(PHASES))
        self.s_dealer = lay.add("dealer", n)
        self.s_last = lay.add("last_player", n)
        self.s_discarded = lay.add("discarded", n)
        self.s_gone = lay.add("gone", n)
        self.s_sizes = lay.add("hand_sizes", n)
        self.s_crib_size = lay.add("crib_size", 1)
        self.s_partners = lay.add("partners", n)

    def _fill(self, out: np.ndarray, view: Any, state: GameState, seat: int) -> None:
        n = self.num_players
        set_cards(out, self.s_hand, view.get("my_hand") or ())
        set_cards(out, self.s_discards, view.get("my_discards") or ())
        if view["starter"] is not None:
            set_cards(out, self.s_starter, (view["starter"],))
        set_cards(out, self.s_pile, (p["card"] for p in view["pile"]))
        for series in view["series"]:
            set_cards(out, self.s_series, (p["card"] for p in series))
        for show in view["shows"]:
            if show["what"] == "hand":
                set_cards(out, self.s_shown, show["cards"])
        if view["crib"] is not None:
            set_cards(out, self.s_crib, view["crib"])
        out[self.s_count] = min(1.0, view["count"] / 31)
        phase = view["phase"]
        if phase in PHASES:
            out[self.s_phase + PHASES.index(phase)] = 1.0
        out[self.s_dealer + (view["dealer"] - seat) % n] = 1.0
        last = view["last_player"]
        if last is not None:
            out[self.s_last + (last - seat) % n] = 1.0
        for s in view["gone"]:
            out[self.s_gone + (s - seat) % n] = 1.0
        discarded, sizes, sides = view["discarded"], view["hand_sizes"], view["sides"]
        for i in range(n):
            s = (seat + i) % n
            out[self.s_discarded + i] = 1.0 if discarded[s] else 0.0
            out[self.s_sizes + i] = min(1.0, sizes[s] / self.dealt)
            out[self.s_partners + i] = 1.0 if sides[s] == sides[seat] else 0.0
        out[self.s_crib_size] = min(1.0, view["crib_size"] / 4)
