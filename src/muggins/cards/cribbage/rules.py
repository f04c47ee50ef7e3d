"""Cribbage rules as data: every option of RULES.md §5 and §6 rows 34-37, and the named presets.

Muggins is an optional rule of tournament cribbage that must be announced before play (ACC Rule 10), so
the presets but one score automatically (``claims="auto"``); ``claims="manual"`` turns the muggins rule on:
each card, go and show is announced by its player and an opponent may take what he misses. The
``cribbage-muggins`` preset is the two-player game with ACC Rule 10 in force.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from muggins.core.claims import MugginsOptions
from muggins.core.errors import RulesError
from muggins.core.rules import bounded, check_bounds

FirstDealerBy = Literal["low", "high"]
SkunkValues = Literal["acc", "casual", "casual-4", "none"]

#: Game points for (plain win, skunk, double skunk) under each ``skunk_values`` setting: ACC Rule 12
#: scores a win 2 and any skunk 3; casual play counts a skunk as two games and a double skunk as three
#: (or four); "none" ignores skunks (they are still reported).
GAME_POINTS: dict[str, tuple[int, int, int]] = {
    "acc": (2, 3, 3),
    "casual": (1, 2, 3),
    "casual-4": (1, 2, 4),
    "none": (1, 1, 1),
}
SKUNK_NAMES = ("win", "skunk", "double skunk")


#: the most one scoring step of each kind makes (the window's reason): a card in the play, a go, his heels
_MAX_POINTS_OF = {"play": 15, "go": 1, "his heels": 2}

@dataclass(frozen=True)
class CribbageRules(MugginsOptions):
    """Every option of a cribbage game. Defaults are the ``cribbage`` preset (two players, 121 up).

    Whole-number options are bounded (``option_schema`` publishes the bounds): ``target`` 1-1000 (the
    game is 121 or 61), ``skunk_margin`` and ``double_skunk_margin`` 1-1000, ``false_call_points`` 0-100.
    """

    preset: str = "cribbage"
    claims: Literal["auto", "manual"] = "auto"
    players: Literal[2, 3, 4] = 2       # 4: partnerships, seats 0 and 2 against 1 and 3
    five_card: bool = False              # the original five-card game (two players)
    target: int = bounded(121, 1, 1000)
    first_dealer_by: FirstDealerBy = "low"
    skunk_values: SkunkValues = "acc"
    skunk_margin: int = bounded(31, 1, 1000)  # a win by this much (loser at most target - 31) is a skunk
    double_skunk_margin: int = bounded(61, 1, 1000)  # ... and by this much a double skunk
    mug_his_heels: bool = False          # his heels must be claimed by the dealer and can be mugged

    def __post_init__(self) -> None:
        check_bounds(self)
        if self.players not in (2, 3, 4):
            raise RulesError(f"cribbage is for 2, 3 or 4 players; got players={self.players!r}")
        if self.five_card and self.players != 2:
            raise RulesError("five-card cribbage is a two-player game")
        if self.target <= 0:
            raise RulesError("target must be positive")
        if not 0 < self.skunk_margin <= self.double_skunk_margin:
            raise RulesError("skunk margins must be positive, the double skunk's at least the skunk's")
        if self.false_call_points < 0:
            raise RulesError("false_call_points cannot be negative")

    @property
    def max_step_points(self) -> int:
        """The most one scoring step can make: 29, the best hand or crib (a card in the play makes at most
        15: a double pair royal, 15 or 31, and the go; his heels 2)."""
        return 29

    def max_points_of(self, reason: str) -> int:
        """A card in the play 15, a go 1, his heels 2, a hand or the crib 29."""
        return _MAX_POINTS_OF.get(reason, 29)

    # --- the deal ---------------------------------------------------------------------------------
    @property
    def cards_each(self) -> int:
        """Cards dealt to each player: six for two (five in the five-card game), five for three or four."""
        return 6 if self.players == 2 and not self.five_card else 5

    @property
    def discard_each(self) -> int:
        """Cards each player lays away to the crib."""
        return 2 if self.players == 2 else 1

    @property
    def crib_dealt(self) -> int:
        """Cards dealt straight to the crib (one in the three-hand game, so the crib still holds four)."""
        return 1 if self.players == 3 else 0

    @property
    def hand_size(self) -> int:
        """Cards kept for the play and the show."""
        return self.cards_each - self.discard_each

    # --- the outcome ------------------------------------------------------------------------------
    def skunk_level(self, loser_score: int) -> int:
        """0 (plain win), 1 (skunk) or 2 (double skunk), judging the winner as exactly at the target
        (RULES.md §8): in a 121 game a loser at 90 or less is skunked, at 60 or less double skunked."""
        if loser_score <= self.target - self.double_skunk_margin:
            return 2
        if loser_score <= self.target - self.skunk_margin:
            return 1
        return 0

    def game_points(self, level: int) -> int:
        return GAME_POINTS[self.skunk_values][level]


def _p(name: str, **kw: object) -> CribbageRules:
    return dataclasses.replace(CribbageRules(), preset=name, **kw)  # type: ignore[arg-type]


PRESETS: dict[str, CribbageRules] = {
    "cribbage": _p("cribbage"),
    "cribbage-61": _p("cribbage-61", target=61),
    "three-hand": _p("three-hand", players=3),
    "four-hand": _p("four-hand", players=4, first_dealer_by="high"),
    "five-card": _p("five-card", five_card=True, target=61),
    "cribbage-muggins": _p("cribbage-muggins", claims="manual", muggins="steal", claim_timing="strict",
                           over_claim="void", false_call_penalty="award"),
}

DESCRIPTIONS: dict[str, str] = {
    "cribbage": "Six-card cribbage for two, 121 up; the lower cut deals first.",
    "cribbage-61": "Six-card cribbage for two, 61 up (once around).",
    "three-hand": "Three players, five cards each and one to the crib; each discards one; 121 up.",
    "four-hand": "Four players in partnerships (the first and third seats against the second and fourth), "
                 "five cards each, one discard each; the higher cut deals first; 121 up.",
    "five-card": "The original five-card game for two: three cards kept, the pone pegs 3 at the start, "
                 "one series of play that stops at the first go or 31; 61 up.",
    "cribbage-muggins": "Six-card cribbage for two, 121 up, with the muggins rule (ACC Rule 10): each player "
                        "announces his own points for every card, go, hand and crib; an opponent who calls "
                        "muggins before the next move takes what was left out; an over-claim scores nothing; "
                        "a false call gives the named points (or 10) to the accused; his heels are pegged "
                        "for the dealer.",
}


def check_players(rules: CribbageRules, n: int) -> None:
    """A preset fixes the number of players (it changes the deal); say which one fits ``n``."""
    if n != rules.players:
        fits = {2: "cribbage", 3: "three-hand", 4: "four-hand"}.get(n)
        hint = f"; use the {fits} preset or players={n}" if fits and not rules.five_card else ""
        raise RulesError(f"the {rules.preset} rules are for {rules.players} players, not {n}{hint}")
