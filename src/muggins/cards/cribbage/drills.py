"""The Cribbage counting drill: a hand (or the crib) and the starter from a real deal; count the show."""

from __future__ import annotations

import random

from muggins.cards.cribbage import SPEC
from muggins.cards.cribbage.game import CribbageState
from muggins.cards.cribbage.show import explain_show, score_show
from muggins.cards.deck import Card
from muggins.core.chance import Chance
from muggins.train import Drawn, Question, random_play
from muggins.tui.render_cards import card, cards, cards_in

MAX_SHOW = 29  # the most a hand can make


class ShowDrill:
    """Count a hand of four with the starter, and one time in three the crib (whose flush needs all five
    cards). The hands are those of a real game dealt and played at random up to the show; the answer is the
    engine's show scorer, and the breakdown is its explanation."""

    name = "show"
    title = "Cribbage: count the show"

    def __init__(self, preset: str | None = None) -> None:
        self.rules = SPEC.rules(preset)

    def position(self, rng: random.Random) -> CribbageState:
        """A real two-hand game played at random to the start of a show."""
        while True:
            # the reference engine's state (the drill reads its fields); the same deal spec.new would give
            st = CribbageState.new(self.rules, 2, Chance(rng.getrandbits(32)))
            for _ in random_play(st, rng):
                if st.phase == "show" and not st.is_over():
                    return st

    def pick(self, st: CribbageState, rng: random.Random) -> tuple[tuple[Card, ...], Card, bool]:
        """The cards to count (a seat's kept hand, or the crib), the starter, and whether it is the crib."""
        assert st.starter is not None
        crib = rng.random() < 1 / 3
        held = st.crib if crib else st.kept[rng.randrange(st.num_players)]
        return tuple(held), st.starter, crib

    def drawn(self, st: CribbageState, held: tuple[Card, ...], crib: bool) -> Drawn:
        """The position for the page's board: the crib turned up for everyone, or the view of the seat whose
        hand is counted, without what the text leaves out (that seat's discards, the last hand's show)."""
        if crib:
            view = st.view(None).to_json()
            view["crib"] = [c.text for c in held]
        else:
            seat = next(s for s in range(st.num_players) if tuple(st.kept[s]) == held)
            view = st.view(seat).to_json()
            view.update(my_discards=[], legal=[])
        view["previous_hand"] = None
        return Drawn.of(SPEC, view)

    def make(self, rng: random.Random) -> Question:
        st = self.position(rng)
        held, starter, crib = self.pick(st, rng)
        shown = explain_show(held, starter, crib)
        what = "The crib" if crib else "The hand"
        body = [f"{SPEC.title}: the show", "", f"  Starter:   {card(starter.text, False)}",
                f"  {what + ':':<10} {cards([c.text for c in sorted(held)], False)}"]
        if crib:
            body += ["", "  (a crib's flush needs all five cards)"]
        why = tuple(cards_in(f"{points:>3}  {item}", False)
                    for item, points in shown.items) + (f'"{shown.text}"',)
        return Question("\n".join(body), f"What does {what.lower()} count?", score_show(held, starter, crib),
                        why, MAX_SHOW, self.drawn(st, held, crib))
