"""The dominoes counting drill: a layout from a real game, a few plays in; what do the open ends count?"""

from __future__ import annotations

import random
from typing import Any

from muggins.dominoes import SPEC
from muggins.dominoes.scoring import score_table
from muggins.train import Drawn, Question, random_play
from muggins.tui.render_dominoes import draw_layout, open_ends_text

LAYOUT_ROWS = 15  # the drawing's share of a 24-row terminal: the rest is the heading, prompt and verdict


class CountDrill:
    """Count the open ends of a layout, drawn as the table draws it, under the default preset's rules.
    The answer is the engine's count; the explanation names the open ends and what the count scores."""

    name = "count"
    title = "Dominoes: count the open ends"

    def __init__(self, preset: str | None = None) -> None:
        self.rules = SPEC.rules(preset)

    def position(self, rng: random.Random) -> Any:
        """A real two-hand game played at random until the layout of the hand in play holds 2 to 12 tiles
        (a ``DominoState``, or the native state that reads like one)."""
        while True:
            st: Any = SPEC.new(self.rules, 2, seed=rng.getrandbits(32))
            want = rng.randint(2, 12)
            for _ in random_play(st, rng):
                if len(st.layout()) >= want and not st.is_over():
                    return st

    def make(self, rng: random.Random) -> Question:
        st = self.position(rng)
        v = st.view(None)
        drawing = draw_layout(v["layout"], 76, False, LAYOUT_ROWS,
                              [str(e["on"]) for e in v["open_ends"] if e.get("on")])
        points = score_table(self.rules.score_fn)[st.count]
        scores = f"it scores {points}" if points else "it scores nothing"
        why = (f"Open ends: {open_ends_text(dict(v))} (a double at an end counts both halves)",
               f"The count is {st.count}: under the {self.rules.preset} rules {scores}.")
        body = "\n".join([f"{SPEC.title}, {self.rules.preset} rules; the last tile played: "
                          f"{v['layout'][-1]['tile']}", "", *drawing])
        return Question(body, "What do the open ends count?", st.count, why, drawn=Drawn.of(SPEC, v.to_json()))
