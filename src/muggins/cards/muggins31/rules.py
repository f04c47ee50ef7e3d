"""Card Muggins rules as data: the rule model of RULES.md §4.2, every ambiguity of §4.3 as an option with
its proposed default, the muggins-rule options of §2.8, and the named presets (S0's variations)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from muggins.core.claims import MugginsOptions
from muggins.core.errors import RulesError
from muggins.core.rules import bounded, check_bounds

GoDraw = Literal["one", "none", "only_if_below_5"]
WindowRule = Literal["until_next_action", "until_next_play"]
WinCheck = Literal["immediate", "end_of_round"]
FirstDealer = Literal["high_card", "low_card"]


@dataclass(frozen=True)
class CardMugginsRules(MugginsOptions):
    """Every option of card Muggins. Defaults are S0 read with the §4.3 defaults (the ``muggins`` preset).

    The target defaults to the short game (61); the full game is ``target=100``.

    Whole-number options are bounded (``option_schema`` publishes the bounds): ``cap`` 10-99 (not a
    multiple of 5), ``cap_bonus`` and ``last_points`` 0-10, ``hand_size`` 1-26, ``target`` 1-1000,
    ``false_call_points`` 0-100.
    """

    preset: str = "muggins"
    cap: int = bounded(31, 10, 99)      # the running total may never pass it (Strict 21: 21)
    cap_bonus: int = bounded(2, 0, 10)  # making the cap exactly scores this and closes the pile (A4, A17)
    thirty_one_plus_last: bool = False  # A5 option: the cap also earns "last" (2 + 1)
    last_points: int = bounded(1, 0, 10)  # the last card of a pile below the cap (A6)
    hand_size: int = bounded(5, 1, 26)  # cards dealt, and what a refill draws back up to
    draw_after_play: bool = True        # the refill: draw one card when the hand is below hand_size
    go_draw: GoDraw = "one"             # A1: "only_if_below_5" draws when the hand is below hand_size
    go_is_final_for_pile: bool = False  # A2 option: a player who said go sits out the rest of the pile
    close_after_others_pass: bool = False  # A3 option: the last card's player need not pass too
    lead_scores: bool = True            # A8: a lead of 5 or a ten-card scores
    lead_after_last_passer: bool = False  # A7 option: the next pile is led from the last passer's left
    mug_last: bool = False              # A14 option: "last" must be claimed and can be mugged
    window: WindowRule = "until_next_action"  # A13: a go closes the window, or only the next play does
    target: int = bounded(61, 1, 1000)  # first to reach it wins (61 short game, 100 full game)
    win_check: WinCheck = "immediate"   # A16: at once, even mid-round; or only when a round ends
    first_dealer: FirstDealer = "high_card"  # S0: high card deals; ties are redrawn (A19)

    def __post_init__(self) -> None:
        check_bounds(self)
        if not 10 <= self.cap <= 99:
            raise RulesError(f"cap must be between 10 and 99 (so that any card can lead); got {self.cap}")
        if self.cap % 5 == 0:
            raise RulesError(f"cap {self.cap} is a multiple of 5, so the cap bonus would clash with its "
                             "multiple-of-five score; use 21 or 31")
        if not 1 <= self.hand_size <= 26:
            raise RulesError(f"hand_size must be between 1 and 26; got {self.hand_size}")
        if self.target <= 0:
            raise RulesError(f"target must be positive; got {self.target}")
        if self.cap_bonus < 0 or self.last_points < 0 or self.false_call_points < 0:
            raise RulesError("cap_bonus, last_points and false_call_points cannot be negative")


    @property
    def max_step_points(self) -> int:
        """The most one scoring step can make: the largest multiple of five below the cap, or the cap bonus,
        with "last" twice over (a pile closed by the cap may add it, and a window left open by a go may add
        the pile's last point to the play's)."""
        return max(5 * (self.cap // 5), self.cap_bonus) + 2 * self.last_points

    def max_points_of(self, reason: str) -> int:
        """A play's step: its pile score with the pile's last point once (a pile closed by the cap); a step
        that added "last" to an open window (reason "last"): the largest step."""
        if reason == "play":
            return max(5 * (self.cap // 5), self.cap_bonus) + self.last_points
        return self.max_step_points


def _p(name: str, **kw: object) -> CardMugginsRules:
    return dataclasses.replace(CardMugginsRules(), preset=name, **kw)  # type: ignore[arg-type]


PRESETS: dict[str, CardMugginsRules] = {
    "muggins": _p("muggins"),
    "deal-seven": _p("deal-seven", hand_size=7, draw_after_play=False, go_draw="none"),
    "no-muggins": _p("no-muggins", claims="auto"),
    "strict-21": _p("strict-21", cap=21),
}

DESCRIPTIONS: dict[str, str] = {
    "muggins": "Card Muggins: five cards each, add to a pile up to 31; multiples of five score their total, "
               "31 scores 2, last card 1; a go draws a card; muggins steals missed points; 61 up.",
    "deal-seven": "Deal-Seven: seven cards each and no drawing at all; the round ends when hands are empty.",
    "no-muggins": "No-Muggins: points are scored automatically; nothing to claim or call.",
    "strict-21": "Strict 21: the pile is capped at 21 (exactly 21 scores 2 and closes the pile).",
}
