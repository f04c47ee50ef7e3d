"""Domino rules as data: every option of RULES.md §1.11 and §2.8, and the named presets of §3."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Literal

from muggins.core.claims import MugginsOptions
from muggins.core.errors import RulesError
from muggins.core.rules import bounded, check_bounds

FirstLead = Literal["lot_heaviest", "lot_lightest", "highest_double", "highest_double_forced",
                    "must_set_double"]
NextLead = Literal["winner_else_lot", "rotate_left", "lowest_score", "alternate"]
LeadMustBe = Literal["any", "double", "double_or_scoring"]
Spinner = Literal["none", "first_double", "all_doubles", "sniff_stub", "sniff_option"]
SpinnerCount = Literal["pagat", "sniff_ends"]
ScoreFn = Literal["fives_count", "fives_per5", "threes_count", "threes_per3", "fives_and_threes",
                  "threes_and_fives_pips", "odd_primes"]
Draw = Literal["until_playable", "one_then_pass", "max_n", "none"]
OutBonus = Literal["per_opponent_round5", "total_round5", "raw", "per5", "largest_hand_per5",
                   "subtract_own", "chip_out_1", "heaviest_tile_prime", "none"]
Blocked = Literal["lightest_takes_opponents", "lightest_takes_difference", "cascade", "no_winner",
                  "subtract_own", "none"]
RoundMode = Literal["per_hand", "net", "none"]
BlockedTie = Literal["nobody", "split", "all_tied_score"]
WinCheck = Literal["immediate", "end_of_hand"]
ExtraTurn = Literal["none", "double_or_scoring"]
LotTie = Literal["redraw", "high_end"]


@dataclass(frozen=True)
class DominoRules(MugginsOptions):
    """Every option of a Fives-family domino game. Defaults are the ``muggins`` preset.

    Whole-number options are bounded (``option_schema`` publishes the bounds): ``target`` 1-1000 (the
    sources play to 61-500), ``deal`` and ``hand_size`` 1-30 tiles, ``max_draws_per_turn`` 1-10,
    ``boneyard_reserve`` 0-2, ``round_to`` 1, 3 or 5, ``entry_threshold`` 0-50, ``false_call_points`` 0-100.
    """

    preset: str = "muggins"
    tile_set: Literal[6, 9, 12, 15] = 6
    partnerships: bool = False          # used when four play: seats 0 and 2 against 1 and 3
    deal: tuple[int, ...] = bounded((7, 5, 5), 1, 30)  # tiles each for 2, 3, 4 players (5 for more)
    hand_size: int | None = bounded(None, 1, 30)  # overrides ``deal``
    first_lead: FirstLead = "lot_heaviest"
    lot_tie: LotTie = "redraw"
    next_lead: NextLead = "winner_else_lot"
    lead_must_be: LeadMustBe = "any"
    spinner: Spinner = "none"
    spinner_sides_first: bool = True
    spinner_fill_first: bool = False    # Merry-Go-Round: all four faces of the set double first
    spinner_count: SpinnerCount = "pagat"
    score_fn: ScoreFn = "fives_count"
    draw: Draw = "until_playable"
    max_draws_per_turn: int = bounded(2, 1, 10)  # with draw = max_n
    voluntary_draw: bool = False
    boneyard_reserve: int = bounded(0, 0, 2)
    knocking: bool = False              # the partnership knocking variant (§1.8)
    out_bonus: OutBonus = "per_opponent_round5"
    blocked: Blocked = "lightest_takes_difference"
    round_mode: RoundMode = "per_hand"
    round_to: int = bounded(5, 1, 5)   # 1, 3 or 5
    blocked_tie: BlockedTie = "nobody"
    partner_pips_deducted: bool = False
    partnership_both_out: bool = False  # Fives and Threes: a hand ends when both partners are out
    hand_double_counts_once: bool = False
    target: int = bounded(200, 1, 1000)
    exact_target: bool = False
    no_win_on_down: bool = False        # TEES: the winning points cannot come from the lead
    win_check: WinCheck = "immediate"
    entry_threshold: int = bounded(0, 0, 50)
    tie_break_hands: bool = True
    extra_turn: ExtraTurn = "none"      # Seven-Toed Pete
    mug_bonus: bool = False             # end-of-hand bonus must be claimed and can be mugged

    def __post_init__(self) -> None:
        check_bounds(self)
        if self.boneyard_reserve not in (0, 1, 2):
            raise RulesError("boneyard_reserve must be 0, 1 or 2")
        if self.target <= 0:
            raise RulesError("target must be positive")
        if self.round_to not in (1, 3, 5):
            raise RulesError("round_to must be 1, 3 or 5")
        if self.max_draws_per_turn < 1:
            raise RulesError("max_draws_per_turn must be at least 1")
        if len(self.deal) != 3 or any(d < 1 for d in self.deal):
            raise RulesError("deal lists the tiles each for 2, 3 and 4 players")
        if self.hand_size is not None and self.hand_size < 1:
            raise RulesError("hand_size must be at least 1")
        if self.entry_threshold < 0 or self.false_call_points < 0:
            raise RulesError("thresholds and penalties are not negative")

    @functools.cached_property
    def max_play_points(self) -> int:
        """The most one play can score: the count is at most two ends of a double each on a line, a double
        and four arms ending in doubles with one spinner, and the pips of the whole set otherwise."""
        from muggins.dominoes.scoring import score_table

        top = self.tile_set
        set_pips = top * (top + 1) * (top + 2) // 2
        count = {"none": 4 * top, "all_doubles": set_pips}.get(self.spinner, 10 * top)
        return max(score_table(self.score_fn)[:count + 1])

    def max_points_of(self, reason: str) -> int:
        """A play's step: the most one play scores; a domino's with its muggable bonus: the largest step."""
        return self.max_play_points if reason == "play" else self.max_step_points

    @functools.cached_property
    def max_step_points(self) -> int:
        """The most one scoring step can make: a play's points (``max_play_points``) plus the largest
        end-of-hand bonus, which a domino credits with the last play. The pip bonuses are at most the set's
        pips with each of up to six hands rounded up."""
        top = self.tile_set
        set_pips = top * (top + 1) * (top + 2) // 2
        play = self.max_play_points
        ob = self.out_bonus
        if ob in ("none", "subtract_own"):
            bonus = 0
        elif ob == "chip_out_1":
            bonus = 1
        elif ob == "heaviest_tile_prime":
            bonus = 2 * top
        else:
            bonus = set_pips + 6 * self.round_to
            if ob in ("per5", "largest_hand_per5"):
                bonus //= self.round_to
        return play + bonus

    @property
    def draw_limit(self) -> int:
        if self.draw == "none":
            return 0
        if self.draw == "one_then_pass":
            return 1
        if self.draw == "max_n":
            return self.max_draws_per_turn
        return 1 << 30

    def tiles_each(self, players: int) -> int:
        if self.hand_size is not None:
            return self.hand_size
        if 2 <= players <= 4:
            return self.deal[players - 2]
        return 5


def _p(name: str, **kw: object) -> DominoRules:
    return dataclasses.replace(DominoRules(), preset=name, **kw)  # type: ignore[arg-type]


PRESETS: dict[str, DominoRules] = {
    "muggins": _p("muggins"),
    "muggins-spinner": _p("muggins-spinner", spinner="first_double", spinner_count="sniff_ends",
                          blocked="no_winner", next_lead="lowest_score"),
    "all-fives": _p("all-fives", spinner="first_double", deal=(9, 7, 5)),
    "sniff": _p("sniff", spinner="first_double", spinner_count="sniff_ends", deal=(7, 6, 5), claims="auto"),
    "five-up": _p("five-up", spinner="all_doubles", score_fn="fives_per5", deal=(5, 5, 5), out_bonus="per5",
                  target=61),
    "all-threes": _p("all-threes", score_fn="threes_count", round_to=3),
    "fives-and-threes": _p("fives-and-threes", score_fn="fives_and_threes", draw="none",
                           out_bonus="chip_out_1", blocked="none", target=61, exact_target=True,
                           next_lead="rotate_left", partnership_both_out=True),
    "odd-primes": _p("odd-primes", score_fn="odd_primes", draw="none", out_bonus="heaviest_tile_prime",
                     blocked="none", target=61, exact_target=True, next_lead="rotate_left",
                     partnership_both_out=True),
    "block-muggins": _p("block-muggins", draw="none", round_mode="net"),
    "seven-toed-pete": _p("seven-toed-pete", spinner="first_double", score_fn="fives_per5", deal=(7, 7, 7),
                          draw="none", lead_must_be="double_or_scoring", extra_turn="double_or_scoring",
                          next_lead="rotate_left", out_bonus="per5", target=61),
    "seven-rocks": _p("seven-rocks", spinner="first_double", deal=(7, 7, 7), draw="none",
                      partnerships=True, out_bonus="subtract_own", blocked="subtract_own", target=250),
    "merry-go-round": _p("merry-go-round", first_lead="must_set_double", lead_must_be="double",
                         spinner="first_double", spinner_fill_first=True, score_fn="fives_per5",
                         deal=(7, 7, 7), out_bonus="per5", target=61, exact_target=True),
}

DESCRIPTIONS: dict[str, str] = {
    "muggins": "Muggins: a line with no spinner, points = count when a multiple of five, 200 up (pagat).",
    "muggins-spinner": "Muggins with the first double a four-way spinner whose bare ends keep counting "
                       "(Model S); a blocked hand scores nothing; the lowest score leads later hands.",
    "all-fives": "All Fives: the first double is a spinner that stops counting once both sides are covered.",
    "sniff": "Sniff (US): the first double (the sniff) is a spinner whose ends keep counting; no muggins.",
    "five-up": "Five Up: every double is a spinner; one point per five; 61 up.",
    "all-threes": "All Threes: scores multiples of three; bonuses rounded to threes.",
    "fives-and-threes": "Fives and Threes: count/5 + count/3, no drawing, a point for chipping out, "
                        "exactly 61.",
    "odd-primes": "Odd Primes: Fives and Threes extended to every odd prime.",
    "block-muggins": "Block Muggins: Muggins scoring with no boneyard draws.",
    "seven-toed-pete": "Seven-Toed Pete: seven each, no drawing, lead a double or scoring tile, another turn "
                       "after a double or a scoring play; one point per five.",
    "seven-rocks": "Seven Rocks: partnership, seven each, each player's own pips deducted at the end, 250 up.",
    "merry-go-round": "Merry-Go-Round: the set tile must be a double and all four of its faces are played "
                      "first; one point per five; exactly 61.",
}
