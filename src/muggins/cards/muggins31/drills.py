"""The card Muggins drill: a pile of a real game in play; what is its running total?"""

from __future__ import annotations

import random

from muggins.cards.muggins31 import SPEC
from muggins.cards.muggins31.state import CardMugginsState
from muggins.core.chance import Chance
from muggins.core.protocol import GameState
from muggins.train import Drawn, Question, random_play
from muggins.tui.render_cards import card, cards


class PeggingDrill:
    """Add up a pile in play (ten-cards count 10, an ace 1), as the table shows it without its total. The
    pile is one of a real game played at random; the answer is the engine's running total, and the
    explanation adds the cards and says what the last card scored."""

    name = "pegging"
    title = "Card Muggins: the running total"

    def __init__(self, preset: str | None = None) -> None:
        self.rules = SPEC.rules(preset)

    def position(self, rng: random.Random) -> tuple[CardMugginsState, GameState, int]:
        """A real two-hand game played at random until the pile holds 2 to 7 cards; with the state before
        the last card and the seat that laid it."""
        while True:
            # the reference engine's state (the drill reads its fields); the same deal spec.new would give
            st = CardMugginsState.new(self.rules, 2, Chance(rng.getrandbits(32)))
            want = rng.randint(2, 7)
            for before, seat, action in random_play(st, rng):
                if action.kind == "play" and len(st.pile) >= want and not st.is_over():
                    return st, before, seat

    def make(self, rng: random.Random) -> Question:
        st, before, seat = self.position(rng)
        pile = list(st.pile)
        last = st.history[-1][1]
        scored = before.claim_for(seat, last)
        text = " + ".join(str(c.value) for c in pile)
        why = (f"{text} = {st.total}",
               f"The last card, {card(pile[-1].text, False)}, scored "
               f"{scored if scored else 'nothing'} (a total that is a multiple of 5 scores "
               f"itself, {self.rules.cap} scores {self.rules.cap_bonus}).")
        body = [f"{SPEC.title}: the pile in play", "", f"  Pile: {cards([c.text for c in pile], False)}"]
        return Question("\n".join(body), "What is the running total?", st.total, why, self.rules.cap,
                        Drawn.of(SPEC, st.view(None).to_json()))
