"""The muggins rule, shared by every game: claims, the window, steals, forfeits and false calls.

In ``manual`` claim mode the acting player announces his points with the move. The engine keeps what
was announced when it is not more than the truth (an under-claim leaves the difference unclaimed); an
over-claim is void. Whatever stays unclaimed is *muggable*: a window opens and any opponent may call
"Muggins!" until the next player's first action. The first caller settles the window.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from muggins.core.errors import BadAmount, UnknownAction, shown
from muggins.core.rules import bounded

ClaimMode = Literal["auto", "manual"]
ClaimTiming = Literal["strict", "lenient"]
MugginsOutcome = Literal["steal", "forfeit", "steal_and_deduct"]
OverClaim = Literal["void", "opponent_scores"]
FalseCall = Literal["none", "deduct", "award"]


@dataclass(frozen=True)
class MugginsOptions:
    """Options of the muggins rule (RULES.md §2.8); a mixin of every game's rules."""

    claims: ClaimMode = "manual"
    claim_timing: ClaimTiming = "strict"
    muggins: MugginsOutcome = "steal"
    over_claim: OverClaim = "void"
    false_call_penalty: FalseCall = "none"
    false_call_points: int = bounded(10, 0, 100)  # with false_call_penalty=deduct (or award, naming nothing)

    def max_points_of(self, reason: str) -> int:
        """The most one scoring step of kind ``reason`` (a window's reason: "play", "go", "hand" ...) can make
        in this game: a false call under ``false_call_penalty=award`` gives the accused at most this. A game
        whose steps differ in size refines it; by default, the game's largest step."""
        return int(getattr(self, "max_step_points"))  # noqa: B009 - every game's rules define it


#: what ``muggins rules`` says of the options of the muggins rule (the values are the games' own)
OPTION_HELP: dict[str, str] = {
    "false_call_penalty": "a call when nothing was missed: none costs nothing; deduct takes false_call_points "
                          "off the caller; award gives the accused what the caller named (false_call_points "
                          "when he named nothing), at most what the called step could have been worth: the "
                          "most one step of its kind scores in the game (a play, a go, a hand ...)",
    "false_call_points": "the points of a false call under false_call_penalty=deduct, or of a call naming "
                         "nothing under award",
}


class Window:
    """An open muggins window: ``scorer`` made points and ``missed`` of them are still unclaimed.

    ``what`` names the scoring step in over-claim messages ("play", "last card", "hand"); ``late`` is how
    much of ``missed`` the scorer may still claim late while ``may_claim`` (a bonus may allow less than all
    that was missed, card Muggins' "last")."""

    __slots__ = ("claimed", "late", "may_claim", "missed", "reason", "scorer", "scorer_side", "what")

    def __init__(self, scorer: int, scorer_side: int, missed: int, claimed: int | None, reason: str,
                 may_claim: bool, what: str | None = None, late: int | None = None) -> None:
        self.scorer = scorer
        self.scorer_side = scorer_side
        self.missed = missed
        self.claimed = claimed
        self.reason = reason
        self.may_claim = may_claim  # the scorer may still announce (lenient timing or a bonus)
        self.what = reason if what is None else what
        self.late = (missed if may_claim else 0) if late is None else late

    def copy(self) -> Window:
        return Window(self.scorer, self.scorer_side, self.missed, self.claimed, self.reason, self.may_claim,
                      self.what, self.late)

    def late_claimable(self) -> int:
        """What the scorer may still claim late (0 when he may not)."""
        return min(self.missed, self.late) if self.may_claim else 0

    def public(self) -> dict[str, object]:
        """What everybody may know about the window: not how much (if anything) was missed."""
        return {"scorer": self.scorer, "claimed": self.claimed, "reason": self.reason,
                "scorer_may_claim": self.may_claim}


def check_points(value: object, bound: int, what: str) -> int:
    """``value`` if it is a plain whole number of points from 0 to ``bound`` (the most one scoring step of
    the game can make), else :class:`BadAmount`. A bool, a float or a numeric string is refused: an amount
    is an ``int``, in both builds alike."""
    if type(value) is not int or not 0 <= value <= bound:
        raise BadAmount(f"{what} is a whole number of points from 0 to {bound}, the most one scoring step "
                        f"makes in this game; got {shown(value)}")
    return value


def parse_points(head: str, word: str, bound: int) -> int:
    """The amount written after ``head`` ("claim" or "muggins") in a move's text ("claim 10"): ASCII
    digits only, checked like :func:`check_points`."""
    what = "a muggins call" if head == "muggins" else f"a {head}"
    if not (word.isascii() and word.isdigit()):
        raise UnknownAction(f"{what} names a whole number of points with the digits 0-9, like '{head} 10'; "
                            f"got {shown(word)}")
    if len(word) > 18:  # far above any bound, and never worth converting
        raise BadAmount(f"{what} is a whole number of points from 0 to {bound}, the most one scoring step "
                        f"makes in this game; got a number of {len(word)} digits")
    return check_points(int(word), bound, what)


def settle_claim(true_points: int, claim: int | None) -> tuple[int, int, bool]:
    """(awarded, missed, over_claimed) for a claim made with a move.

    ``None`` (said nothing) claims 0. A claim above the truth is void: nothing is awarded and the true
    points stay unclaimed."""
    c = 0 if claim is None else claim
    if c <= true_points:
        return c, true_points - c, False
    return 0, true_points, True


@dataclass(frozen=True)
class CallResult:
    """The result of a muggins call; the game credits the points to the sides."""

    outcome: Literal["steal", "forfeit", "steal_and_deduct", "false_call"]
    caller_gain: int = 0       # added to the caller's side
    scorer_loss: int = 0       # taken off the scorer's side (steal_and_deduct)
    caller_penalty: int = 0    # taken off the caller's side (false call, 'deduct')
    scorer_award: int = 0      # given to the accused side (false call, 'award')


def resolve_call(window: Window, amount: int | None, rule: MugginsOutcome, false_call: FalseCall,
                 false_call_points: int, award_cap: int) -> CallResult:
    """Settle a call. ``amount`` is what the caller names (None: "all you missed"); he gets the lesser
    of the named amount and the true shortfall (ACC Rule 10.4.a). A false call under ``award`` gives the
    accused what the caller tried to take (ACC 10.4.a), never more than ``award_cap``: the most the called
    step could have been worth (``max_points_of`` its reason), as a caller could never have taken more."""
    missed = window.missed
    if missed <= 0 or amount == 0:
        if false_call == "deduct":
            return CallResult("false_call", caller_penalty=false_call_points)
        if false_call == "award":
            return CallResult("false_call", scorer_award=min(amount if amount else false_call_points, award_cap))
        return CallResult("false_call")
    gain = missed if amount is None else min(amount, missed)
    if rule == "forfeit":
        return CallResult("forfeit")
    if rule == "steal_and_deduct":
        return CallResult("steal_and_deduct", caller_gain=gain, scorer_loss=gain)
    return CallResult("steal", caller_gain=gain)
