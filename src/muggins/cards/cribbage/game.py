"""The cribbage state machine (RULES.md §5, §8): the cut for the first deal, the deal, the discards to the
crib, the starter and his heels, the play, the show, and the muggins rule of ACC Rule 10.

Flow of one hand:

* ``discard`` (a simultaneous phase): every seat lays away its crib cards, in any order;
* the starter is cut (a chance outcome) as soon as the last discard is down; a jack is his heels;
* ``play``: from the dealer's left, each player lays a card keeping the count at most 31, or says
  ``go`` when he cannot (never while he can: the renege rule). Once every other player holding cards has
  said go, the player of the last card goes on alone while he can. The point for go (or for the last
  card) belongs to him: it comes with his card when nobody can follow it, otherwise he takes it with his
  own ``go`` when play comes back to him. 31 scores 2 and ends the series at once. After a series the
  count starts again from the first seat after the last card's player that still holds cards. The
  five-card game has one series only;
* ``show``: each hand is counted by its owner from the dealer's left round to the dealer ("count
  hand"), then the crib is turned up for everyone and the dealer counts it ("count crib").

In manual claim mode every play, scoring go and count carries the points its player announces; an
opponent may call muggins on what he left out until the next regular action (in the show, until the next
count). The game ends the moment a side reaches the target, in the play or in the show.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from operator import attrgetter
from typing import Any, cast

from muggins.cards.cribbage.pegging import peg_items, peg_parts
from muggins.cards.cribbage.rules import SKUNK_NAMES, CribbageRules, check_players
from muggins.cards.cribbage.show import explain_show, score_show
from muggins.cards.cribbage.views import CribbageView, GameResult, ShowView
from muggins.cards.dealing import DECK, cut_for_deal
from muggins.cards.dealing import record_card as _card
from muggins.cards.deck import Card, parse_card
from muggins.core.chance import Chance
from muggins.core.claims import Window
from muggins.core.errors import (
    IllegalAction,
    NotYourTurn,
    RecordError,
    UnknownAction,
    shown,
)
from muggins.core.fields import LIST, LISTS, SHARED, StateField
from muggins.core.protocol import Action, Event, GameState, check_seat
from muggins.core.views import WindowView

__all__ = ["COUNT_CRIB", "COUNT_HAND", "GO", "CribbageState", "ShowExplanation", "deal_hidden", "discard_action",
           "hidden_cards", "play_action", "stacked"]

_PLAY: dict[Card, Action] = {c: Action("play", c) for c in DECK}
GO = Action("go")
COUNT_HAND = Action("count", "hand")
COUNT_CRIB = Action("count", "crib")
_EMPTY: frozenset[int] = frozenset()
#: A shown hand or crib: (seat, "hand" or "crib", cards, claim, true points, starter).
Show = tuple[int, str, tuple[Card, ...], int | None, int, Card]
_SEATS: tuple[frozenset[int], ...] = tuple(frozenset(i for i in range(4) if m >> i & 1) for m in range(16))
_INDEX = attrgetter("index")  # the sort key of cards: the order of full_deck()
#: Every discard of one or two cards, built once for the whole pack (it depends on no game: it remembers
#: nobody's hand). Keys are sorted as full_deck() orders the cards.
_DISCARDS: dict[tuple[Card, ...], Action] = {
    key: Action("discard", key) for k in (1, 2) for key in combinations(sorted(DECK, key=_INDEX), k)}


def draw_deal(chance: Chance, r: CribbageRules, n: int, dealer: int) -> tuple[list[list[Card]], list[Card], list[Card]]:
    """The next deal of ``chance`` (an outcome of kind "deal"): each seat's cards in the order dealt (one at a
    time from the dealer's left, the dealer last), the crib's and the undealt pack in order; a recorded one
    is checked (RecordError)."""
    each, to_crib = r.cards_each, r.crib_dealt
    fresh: list[tuple[list[list[Card]], list[Card], list[Card]]] = []

    def make(rng: random.Random) -> dict[str, Any]:
        draw = rng.random
        deck = sorted(DECK, key=lambda _: draw())  # a shuffle, a third faster than rng.shuffle
        dealt: list[list[Card]] = [[] for _ in range(n)]
        i = 0
        for _ in range(each):  # one at a time from the dealer's left, the dealer last
            for k in range(1, n + 1):
                dealt[(dealer + k) % n].append(deck[i])
                i += 1
        crib, pack = deck[i:i + to_crib], deck[i + to_crib:]
        fresh.append((dealt, crib, pack))
        return {"hands": [[c.text for c in h] for h in dealt], "crib": [c.text for c in crib],
                "pack": [c.text for c in pack]}

    out = chance.next("deal", make)
    if fresh:  # drawn just now: no need to read the cards back
        return fresh[0]
    try:
        hands = [[_card(t, "deal") for t in h] for h in out["hands"]]
        crib = [_card(t, "deal") for t in out.get("crib", ())]
        pack = [_card(t, "deal") for t in out["pack"]]
    except (KeyError, TypeError):
        raise RecordError(f"a deal outcome holds 'hands', 'crib' and 'pack'; got {sorted(out)}") from None
    if len(hands) != n or any(len(h) != each for h in hands) or len(crib) != to_crib:
        raise RecordError(f"a deal gives {n} hands of {each} cards and {to_crib} card(s) to the crib")
    seen = {c for h in hands for c in h}
    seen.update(crib)
    seen.update(pack)
    if len(seen) != 52 or len(pack) != 52 - n * each - to_crib:
        raise RecordError("a deal must hold every card of the pack exactly once")
    return hands, crib, pack


def draw_cut(chance: Chance, pack: Sequence[Card]) -> int:
    """The next cut of ``chance`` (an outcome of kind "starter"): the position in ``pack`` (the undealt cards
    in order) of the starter, at least four cards from either end when drawn; a recorded one is checked
    (RecordError)."""
    m = len(pack)

    def make(rng: random.Random) -> dict[str, Any]:
        k = rng.randint(4, m - 4)
        return {"cut": k, "card": pack[k].text}

    out = chance.next("starter", make)
    k = out.get("cut")
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < m:
        raise RecordError(f"a starter cut is a position 0-{m - 1} in the pack; got {k!r}")
    if "card" in out and _card(out["card"], "starter") is not pack[k]:
        raise RecordError(f"the cut at {k} turns {pack[k]}, not {out['card']}")
    return k


def hidden_cards(seat: int, hands: Sequence[Sequence[Card]], discards: Sequence[Sequence[Card]],
                 shown: Sequence[bool], crib_shown: bool, crib_dealt: Sequence[Card], pack: Sequence[Card],
                 starter: Card | None, floors: Sequence[int]) -> tuple[list[Card], list[tuple[int, str, int, int]]]:
    """The cards ``seat`` cannot see, in deck order, and the places they fill (for ``sample_hidden`` of the pure
    and the native state alike): (owner, part, how many, floor) where part is "held", "discards", "crib" or
    "pack" and every held card's value is above floor (a player who said go at count c held nothing of 31 - c
    or less); ``shown[s]``: seat s has shown its hand."""
    hidden: set[Card] = set(pack)
    if starter is not None:
        hidden.discard(starter)
    in_pack = len(hidden)
    slots: list[tuple[int, str, int, int]] = []
    for s in range(len(hands)):
        if s == seat:
            continue
        if not shown[s] and hands[s]:
            slots.append((s, "held", len(hands[s]), floors[s]))
            hidden.update(hands[s])
        if not crib_shown and discards[s]:
            slots.append((s, "discards", len(discards[s]), 0))
            hidden.update(discards[s])
    if not crib_shown and crib_dealt:
        slots.append((-1, "crib", len(crib_dealt), 0))
        hidden.update(crib_dealt)
    slots.append((-1, "pack", in_pack, 0))
    return sorted(hidden, key=_INDEX), slots


def deal_hidden(pool: list[Card], slots: list[tuple[int, str, int, int]], rng: random.Random
                ) -> dict[tuple[int, str], list[Card]]:
    """The cards of ``pool`` dealt to ``slots`` (owner, part, how many, floor) for ``sample_hidden`` (of the pure
    and the native state alike): the pool shuffled by ``rng``, the most constrained hands first (the allowed sets
    are nested, so this never gets stuck), each slot the first cards worth more than its floor."""
    pool = pool[:]
    rng.shuffle(pool)
    fill: dict[tuple[int, str], list[Card]] = {}
    for s, part, k, floor in sorted(slots, key=lambda x: -x[3]):
        if floor > 0:
            ok = [x for x in pool if x.value > floor]
            if len(ok) < k:  # cannot happen for a reachable state; keep the counts right regardless
                ok = pool[:]
            chosen = ok[:k]
            taken = set(chosen)
            pool = [x for x in pool if x not in taken]
        else:
            chosen, pool = pool[:k], pool[k:]
        fill[(s, part)] = chosen
    return fill


def play_action(card: Card) -> Action:
    """The action that lays ``card`` in the play."""
    return _PLAY[card]


def discard_action(cards: Sequence[Card]) -> Action:
    """The action that lays ``cards`` away to the crib (one canonical action whatever their order)."""
    key = tuple(sorted(cards, key=_INDEX))
    a = _DISCARDS.get(key)
    return a if a is not None else Action("discard", key)


def _texts(cards: Sequence[Card]) -> list[str]:
    return [c.text for c in sorted(cards, key=_INDEX)]


class ShowExplanation(Event):
    """An "explain" event: the true count of a shown hand or crib, item by item, as ``explain_show`` says
    it. Explaining a hand costs about twenty times counting it, and simulations never read it, so the
    event's data is worked out when it is first read."""

    __slots__ = ("_args", "_filled", "show")

    def __init__(self, seat: int, what: str, cards: tuple[Card, ...], starter: Card, crib: bool) -> None:
        self.kind = "explain"
        self.seat = seat
        self.secret = ()
        self._args = (what, cards, starter, crib)
        self._filled: dict[str, Any] | None = None
        self.show: Show | None = None  # the show it explains, when told as its window closed

    @property
    def data(self) -> dict[str, Any]:
        if self._filled is None:
            what, cards, starter, crib = self._args
            s = explain_show(cards, starter, crib)
            self._filled = {"what": what, "cards": _texts(cards), "starter": starter.text, "total": s.total,
                            "explain": s.text, "items": [[name, pts] for name, pts in s.items]}
        return self._filled

    @data.setter
    def data(self, value: dict[str, Any]) -> None:
        self._filled = value


# Every field of a CribbageState beyond GameState's, declared once: muggins.core.fields generates from this
# table the annotations of CribbageState, _FIELDS and clone().
# fields-target: CribbageState FIELDS _FIELDS base=core/protocol.py
FIELDS = (
    StateField("rules", "object", "CribbageRules"),
    StateField("hand_no", "long", "int"),
    StateField("dealer", "long", "int"),
    StateField("phase", "str", "str", SHARED, '"discard", "play", "show" or "over"'),
    StateField("turn", "long", "int", SHARED, "the seat to play or count (-1 while discarding)"),
    StateField("count", "long", "int", SHARED, "the running count of the play"),
    StateField("hands", "list", "list[list[Card]]", LISTS, "the cards each seat holds now"),
    StateField("kept", "list", "list[list[Card]]", LIST,
               "the hand each seat kept for the show (empty until it discards; replaced, never changed)"),
    StateField("discards", "list", "list[list[Card]]", LIST),
    StateField("crib", "list", "list[Card]", LIST),
    StateField("pack", "list", "list[Card]", SHARED, "the undealt cards in order; the starter is pack[cut]"),
    StateField("starter", "object", "Card | None"),
    StateField("_nsides", "long", "int"),
    StateField("_back", "list", "list[int]", LIST, "the back peg of each side: its score before its last gain"),
    StateField("_result", "object", "dict[str, Any] | None"),
    StateField("_explain_due", "object", "Show | None"),
    StateField("_previous", "object", "dict[str, Any] | None"),
    StateField("_deal_pos", "long", "int"),
    StateField("_crib_dealt", "list", "list[Card]"),
    StateField("_cut", "long", "int"),
    StateField("_to_discard", "long", "int", SHARED, "bit mask of the seats still to lay away"),
    StateField("_discard_order", "list", "list[int]", LIST),
    StateField("_ranks", "list", "list[int]", LIST, "ranks of the current series"),
    StateField("_pile", "list", "list[tuple[int, Card]]", LIST, "the current series"),
    StateField("_old_series", "list", "list[list[tuple[int, Card]]]", LIST),
    StateField("_played", "list", "list[tuple[int, Card]]", LIST),
    StateField("_gone", "long", "int", SHARED, "bit mask of the seats that said go in this series"),
    StateField("_last", "long", "int", SHARED, "the seat that laid the last card of this series"),
    StateField("_go_floor", "list", "list[int]", LIST, "every card a seat still holds is worth more than this"),
    StateField("_shown", "list", "list[bool]", LIST),
    StateField("_crib_shown", "bint", "bool"),
    StateField("_shows", "list", "list[Show]", LIST),
    StateField("_show_order", "list", "list[tuple[int, str]]"),
    StateField("_show_i", "long", "int"),
    StateField("_hand_hist_start", "long", "int"),
    StateField("_hand_log_start", "long", "int"),
)


class CribbageState(GameState):
    game = "cribbage"
    action_ids = "muggins.cards.cribbage.action_ids"  # numbers the moves: docs/actions.md
    claim_kinds = ("play", "go", "count")
    _call_deadline = "before the next move (in the show, before the next count)"

    # >>> generated by python -m muggins.core.fields from FIELDS: do not edit (hints)
    rules: CribbageRules
    hand_no: int
    dealer: int
    phase: str                     # "discard", "play", "show" or "over"
    turn: int                      # the seat to play or count (-1 while discarding)
    count: int                     # the running count of the play
    hands: list[list[Card]]        # the cards each seat holds now
    # the hand each seat kept for the show (empty until it discards; replaced, never changed)
    kept: list[list[Card]]
    discards: list[list[Card]]
    crib: list[Card]
    pack: list[Card]               # the undealt cards in order; the starter is pack[cut]
    starter: Card | None
    _nsides: int
    _back: list[int]               # the back peg of each side: its score before its last gain
    _result: dict[str, Any] | None
    _explain_due: Show | None
    _previous: dict[str, Any] | None
    _deal_pos: int
    _crib_dealt: list[Card]
    _cut: int
    _to_discard: int               # bit mask of the seats still to lay away
    _discard_order: list[int]
    _ranks: list[int]              # ranks of the current series
    _pile: list[tuple[int, Card]]  # the current series
    _old_series: list[list[tuple[int, Card]]]
    _played: list[tuple[int, Card]]
    _gone: int                     # bit mask of the seats that said go in this series
    _last: int                     # the seat that laid the last card of this series
    _go_floor: list[int]           # every card a seat still holds is worth more than this
    _shown: list[bool]
    _crib_shown: bool
    _shows: list[Show]
    _show_order: list[tuple[int, str]]
    _show_i: int
    _hand_hist_start: int
    _hand_log_start: int
    # <<< end of generated hints

    # ------------------------------------------------------------------------------------ set-up ----
    @classmethod
    def new(cls, rules: CribbageRules, num_players: int, chance: Chance) -> CribbageState:
        check_players(rules, num_players)
        n = num_players
        teams = n == 4
        s = cls._blank(rules, n, chance, [i % 2 for i in range(n)] if teams else list(range(n)))
        s._nsides = 2 if teams else n
        s._back = [0] * s._nsides
        s._result = None
        s._explain_due = None
        s.hand_no = 0
        s._previous = None
        s.phase = "deal"
        s.turn = -1
        s.dealer = cut_for_deal(chance, s.log, n, rules.first_dealer_by != "high", "cut")
        if rules.five_card:
            pone = (s.dealer + 1) % n
            s._award(s._side[pone], 3, pone, "three for last")
        s._start_hand()
        return s

    def _start_hand(self) -> None:
        r, n = self.rules, self.num_players
        self.hand_no += 1
        dealer = self.dealer
        each, to_crib = r.cards_each, r.crib_dealt

        self._deal_pos = self.chance.position
        hands, crib, pack = draw_deal(self.chance, r, n, dealer)
        self.hands = [sorted(h, key=_INDEX) for h in hands]
        self.kept = [[] for _ in range(n)]
        self.discards = [[] for _ in range(n)]
        self._crib_dealt = crib
        self.crib = list(crib)
        self.pack = pack
        self.starter = None
        self._cut = -1
        self._to_discard = (1 << n) - 1
        self._discard_order = []
        self.phase = "over" if self._over else "discard"  # five-card: three for last can reach a tiny target
        self.turn = -1
        self.count = 0
        self._ranks = []
        self._pile = []
        self._old_series = []
        self._played = []
        self._gone = 0
        self._last = -1
        self._go_floor = [0] * n
        self._shown = [False] * n
        self._crib_shown = False
        self._shows = []
        self._show_order = []
        self._show_i = 0
        self._hand_hist_start = len(self.history)
        self._hand_log_start = len(self.log)
        self.log.append(Event("deal", dealer, {"hand": self.hand_no, "dealer": dealer, "cards_each": each,
                                               "crib_dealt": to_crib}))
        for s in range(n):
            self.log.append(Event("dealt", s, {"cards": [c.text for c in self.hands[s]], "count": each},
                                  ("cards",)))

    # ------------------------------------------------------------------------------ who acts ----
    def waiting_for(self) -> frozenset[int]:
        if self._over:
            return _EMPTY
        if self.phase == "discard":
            return _SEATS[self._to_discard]
        return _SEATS[1 << self.turn]

    def _regular(self, seat: int) -> list[Action]:
        """The legal moves of ``seat`` other than muggins calls and late claims."""
        phase = self.phase
        if phase == "play":
            if seat != self.turn:
                return []
            room = 31 - self.count
            out = [_PLAY[c] for c in self.hands[seat] if c.value <= room]
            return out if out else [GO]
        if phase == "discard":
            if not self._to_discard >> seat & 1:
                return []
            cache = _DISCARDS  # the hand is sorted, so each combination is already a canonical key
            return [cache.get(t) or discard_action(t)
                    for t in combinations(self.hands[seat], self.rules.discard_each)]
        if phase == "show" and seat == self.turn:
            return [COUNT_CRIB if self._show_order[self._show_i][1] == "crib" else COUNT_HAND]
        return []

    def _next_active(self, seat: int) -> int:
        """The first seat after ``seat`` (not ``seat`` itself) that holds cards and has not said go."""
        n = self.num_players
        hands = self.hands
        gone = self._gone
        t = seat
        for _ in range(n - 1):
            t += 1
            if t == n:
                t = 0
            if hands[t] and not gone >> t & 1:
                return t
        return -1

    def _can_play(self, cards: Sequence[Card], count: int) -> bool:
        room = 31 - count
        return any(c.value <= room for c in cards)

    def _points_of(self, seat: int, action: Action) -> int:
        """The points ``action`` scores for ``seat`` now: what a perfect player announces with it."""
        if not 0 <= seat < self.num_players:
            return 0
        kind = action.kind
        phase = self.phase
        if kind == "play" and phase == "play" and seat == self.turn:
            card = action.subject
            hand = self.hands[seat]
            if card not in hand or card.value > 31 - self.count:
                return 0
            count = self.count + card.value
            a, b, c = peg_parts([*self._ranks, card.rank], count)
            pts = a + b + c
            if count < 31 and self._next_active(seat) < 0 and \
                    not self._can_play([x for x in hand if x is not card], count):
                pts += 1
            return pts
        if kind == "go":
            return 1 if phase == "play" and seat == self.turn == self._last else 0
        if kind == "count" and phase == "show" and seat == self.turn:
            if self._show_order[self._show_i][1] == "crib":
                return score_show(self.crib, self.starter, True)
            return score_show(self.kept[seat], self.starter)
        return 0

    # ------------------------------------------------------------------------------------ apply ----
    def _apply_move(self, seat: int, action: Action) -> None:
        kind, subject, target, part, claim = action
        phase = self.phase
        if phase == "play":
            if seat != self.turn:
                raise NotYourTurn(f"it is seat {self.turn}'s turn to play, not seat {seat}'s")
            hand = self.hands[seat]
            if kind == "play":
                if subject.__class__ is not Card or target is not None or part is not None:
                    raise IllegalAction("a play names one card, like 'play 5H'")
                if subject not in hand:
                    raise IllegalAction(f"seat {seat} does not hold {subject}")
                if subject.value + self.count > 31:
                    raise IllegalAction(f"{subject} would take the count past 31 (the count is {self.count})")
                self.history.append((seat, action))
                self._do_play(seat, hand, subject, claim)
                return
            if kind == "go":
                if subject is not None or target is not None or part is not None:
                    raise IllegalAction("'go' takes no card")
                room = 31 - self.count
                able = [c for c in hand if c.value <= room]
                if able:
                    raise IllegalAction(f"you can play {' '.join(c.text for c in able)}: a player who can "
                                        f"play must play (there is no go while a card fits; count "
                                        f"{self.count})")
                self.history.append((seat, action))
                self._do_go(seat, hand, claim)
                return
            raise IllegalAction(f"in the play you lay a card or say go, not {shown(kind)}")
        if phase == "discard":
            if kind != "discard":
                raise IllegalAction(f"every player first lays away to the crib ('discard ...'), not {shown(kind)}")
            if not self._to_discard >> seat & 1:
                raise NotYourTurn(f"seat {seat} has already laid away to the crib")
            cards = self._discard_cards(seat, action)
            canonical = action if _DISCARDS.get(cards) is action else discard_action(cards)
            self.history.append((seat, canonical))
            self._do_discard(seat, canonical.subject)
            return
        if phase == "show":
            if kind != "count":
                raise IllegalAction(f"it is the show: the next move is a count, not {shown(kind)}")
            owner, what = self._show_order[self._show_i]
            if seat != owner:
                raise NotYourTurn(f"seat {owner} counts {'the crib' if what == 'crib' else 'his hand'} next")
            if action.subject not in (what, None) or action.target is not None or action.part is not None:
                raise IllegalAction(f"seat {seat} counts {'the crib' if what == 'crib' else 'his hand'} now: "
                                    f"'count {what}'")
            counted = COUNT_CRIB if what == "crib" else COUNT_HAND
            self.history.append((seat, counted if claim is None else counted._replace(claim=claim)))
            self._do_count(seat, what, claim)
            return
        raise IllegalAction(f"no move is possible in phase {phase!r}")

    def _discard_cards(self, seat: int, action: Action) -> tuple[Card, ...]:
        k = self.rules.discard_each
        cards = action.subject
        if isinstance(cards, Card):
            cards = (cards,)
        if not isinstance(cards, (tuple, list)) or not all(isinstance(c, Card) for c in cards) \
                or action.target is not None or action.part is not None:
            raise IllegalAction(f"a discard names {k} card(s), like 'discard {'5H 6D' if k == 2 else '5H'}'")
        if len(cards) != k:
            raise IllegalAction(f"lay away exactly {k} card(s) to the crib, not {len(cards)}")
        if len(set(cards)) != len(cards):
            raise IllegalAction("a discard names each card once")
        for c in cards:
            if c not in self.hands[seat]:
                raise IllegalAction(f"seat {seat} does not hold {c}")
        return tuple(cards)

    # ---------------------------------------------------------------------------------- scoring ----
    def _award(self, side: int, points: int, seat: int | None, reason: str) -> None:
        if points == 0:
            return
        if points > 0:
            self._back[side] = self._scores[side]
        self._scores[side] += points
        self.log.append(Event("score", seat, {"side": side, "points": points, "reason": reason}))
        if points > 0 and self._scores[side] >= self.rules.target and not self._over:
            self._finish(side)

    def _finish(self, side: int) -> None:
        self._over = True
        self.phase = "over"
        self._winners = frozenset(s for s in range(self.num_players) if self._side[s] == side)
        self._end_window()  # points still unclaimed are missed; a show's true count is told
        r = self.rules
        losers: list[dict[str, Any]] = []
        for o in range(self._nsides):
            if o != side:
                level = r.skunk_level(self._scores[o])
                losers.append({"side": o, "score": self._scores[o], "result": SKUNK_NAMES[level],
                               "game_points": r.game_points(level)})
        self._result = {"winner_side": side, "losers": losers,
                        "game_points": max(int(x["game_points"]) for x in losers)}
        self.log.append(Event("game_end", None, {"winners": sorted(self._winners),
                                                 "scores": list(self._scores), **self._result}))

    def _on_window_closed(self) -> None:
        """In manual mode the true count of a show is told once its window has closed."""
        due = self._explain_due
        if due is not None:
            self._explain_due = None
            seat, what, cards, _, _, starter = due
            e = ShowExplanation(seat, what, cards, starter, what == "crib")
            e.show = due
            self.log.append(e)

    def _reopen_window(self, window: Window, mark: int) -> None:
        """A move refused after closing the window: its show's count is untold again."""
        for e in self.log[mark:]:
            if isinstance(e, ShowExplanation) and e.show is not None:
                self._explain_due = e.show
        GameState._reopen_window(self, window, mark)

    # ------------------------------------------------------------------------------------ moves ----
    def _do_discard(self, seat: int, cards: tuple[Card, ...]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.discards[seat] = list(cards)
        self.kept[seat] = hand[:]
        self.crib.extend(cards)
        self._to_discard &= ~(1 << seat)
        self._discard_order.append(seat)
        self.log.append(Event("discard", seat, {"cards": [c.text for c in cards], "count": len(cards)},
                              ("cards",)))
        if not self._to_discard:
            self._cut_starter()

    def _cut_starter(self) -> None:
        """The pone cuts the pack (at least four cards in each packet) and the dealer turns the top card
        of the lower packet. A jack is his heels: 2 to the dealer at once."""
        pack = self.pack
        k = draw_cut(self.chance, pack)
        starter = pack[k]
        self._cut = k
        self.starter = starter
        self.log.append(Event("starter", None, {"card": starter.text, "cut": k}))
        dealer = self.dealer
        self.phase = "play"
        self.turn = (dealer + 1) % self.num_players
        if starter.rank == 11:
            mug = self.rules.mug_his_heels
            if self._manual and mug:
                self.log.append(Event("his_heels", dealer, {"card": starter.text}))
            # muggable with mug_his_heels; the dealer may claim it late, whatever the timing
            self._score_step(dealer, 2, None, "his heels", "jack turned up", mug, 2)

    def _do_play(self, seat: int, hand: list[Card], card: Card, claim: int | None) -> None:
        hand.remove(card)
        count = self.count + card.value
        self.count = count
        ranks = self._ranks
        ranks.append(card.rank)
        self._pile.append((seat, card))
        self._played.append((seat, card))
        self._last = seat
        a, b, c = peg_parts(ranks, count)
        pts = a + b + c
        go = 0
        nxt = -1
        if count < 31:
            nxt = self._next_active(seat)
            if nxt < 0:
                room = 31 - count
                for x in hand:
                    if x.value <= room:
                        nxt = seat
                        break
                else:  # nobody can follow: the go (or last card) comes with this card
                    go = 1
                    if hand:
                        self._go_floor[seat] = max(self._go_floor[seat], room)
        if self._manual:
            self.log.append(Event("play", seat, {"card": card.text, "count": count}))
            self._score_step(seat, pts + go, claim, "play", "card")
            if self._over:
                return
        else:
            pts += go
            if pts:
                self.log.append(Event("play", seat, {"card": card.text, "count": count, "points": pts,
                                                     "items": peg_items(ranks, count, go, not any(self.hands))}))
                self._award(self._side[seat], pts, seat, "play")
                if self._over:
                    return
            else:
                self.log.append(Event("play", seat, {"card": card.text, "count": count, "points": 0}))
        if nxt < 0:
            self._end_series(seat)
        else:
            self.turn = nxt

    def _do_go(self, seat: int, hand: list[Card], claim: int | None) -> None:
        count = self.count
        if hand:
            self._go_floor[seat] = max(self._go_floor[seat], 31 - count)
        if seat == self._last:  # every other player has gone: the last card's player takes the point
            self.log.append(Event("go", seat, {"count": count, "takes": "last card" if not any(self.hands)
                                               else "go"}))
            self._score_step(seat, 1, claim, "go")
            if not self._over:
                self._end_series(seat)
            return
        self._gone |= 1 << seat
        self.log.append(Event("go", seat, {"count": count}))
        if claim is not None:  # announcing points for a go that scores nothing
            self._score_step(seat, 0, claim, "go")
            if self._over:
                return
        t = self._next_active(seat)
        self.turn = t if t >= 0 else self._last

    def _end_series(self, last: int) -> None:
        self.log.append(Event("reset", None, {"count": self.count, "last": last}))
        self.count = 0
        self._ranks = []
        self._old_series.append(self._pile)
        self._pile = []
        self._gone = 0
        self._last = -1
        if not self.rules.five_card:
            n = self.num_players
            t = last
            for _ in range(n):
                t = t + 1 if t + 1 < n else 0
                if self.hands[t]:
                    self.turn = t
                    return
        self._start_show()

    def _start_show(self) -> None:
        n, d = self.num_players, self.dealer
        self.phase = "show"
        self._show_order = [((d + k) % n, "hand") for k in range(1, n + 1)] + [(d, "crib")]
        self._show_i = 0
        self.turn = self._show_order[0][0]
        self.log.append(Event("show_start", None, {"order": [[s, w] for s, w in self._show_order]}))

    def _do_count(self, seat: int, what: str, claim: int | None) -> None:
        starter = self.starter
        assert starter is not None
        crib = what == "crib"
        cards = tuple(self.crib if crib else self.kept[seat])
        pts = score_show(cards, starter, crib)
        if crib:
            self._crib_shown = True
        else:
            self._shown[seat] = True
        data: dict[str, Any] = {"what": what, "cards": _texts(cards) if crib else [c.text for c in cards],
                                "starter": starter.text}  # a kept hand is in order already
        manual = self._manual
        if not manual:
            data["points"] = pts
        self.log.append(Event("show", seat, data))
        show = (seat, what, cards, claim, pts, starter)
        self._shows.append(show)
        if manual:
            self._explain_due = show
        else:
            self.log.append(ShowExplanation(seat, what, cards, starter, crib))
        self._score_step(seat, pts, claim, what)
        if self._over:
            return
        self._show_i += 1
        if self._show_i < len(self._show_order):
            self.turn, nxt = self._show_order[self._show_i]
            if nxt == "crib":  # the crib is turned up for everyone before the dealer counts it
                self._crib_shown = True
            return
        self._previous = {"hand": self.hand_no, "dealer": self.dealer, "starter": starter,
                          "shows": self._shows}
        self.dealer = (self.dealer + 1) % self.num_players
        self._start_hand()


    @property
    def result(self) -> dict[str, Any] | None:
        """Once the game is over: the winning side and, for each losing side, its score, whether it was
        skunked and the game points the win is worth against it."""
        return self._result

    # --------------------------------------------------------------------------------- copies ----
    def clone(self) -> CribbageState:
        c = CribbageState.__new__(CribbageState)
        # >>> generated by python -m muggins.core.fields from FIELDS: do not edit (clone)
        c.__dict__.update(self.__dict__)
        self._clone_base(c)
        c.hands = [v[:] for v in self.hands]
        c.kept = self.kept[:]
        c.discards = self.discards[:]
        c.crib = self.crib[:]
        c._back = self._back[:]
        c._discard_order = self._discard_order[:]
        c._ranks = self._ranks[:]
        c._pile = self._pile[:]
        c._old_series = self._old_series[:]
        c._played = self._played[:]
        c._go_floor = self._go_floor[:]
        c._shown = self._shown[:]
        c._shows = self._shows[:]
        # <<< end of generated clone
        return c

    def sampling_frame(self, seat: int) -> tuple[list[Card], list[tuple[int, str, int, int]]]:
        """What ``sample_hidden`` deals from, computed from ``seat``'s view alone: the cards it cannot see
        (ascending) and the places they fill (:func:`hidden_cards`). A native search draws its worlds from
        this frame, so its worlds obey the same inferences as the pure sampler's."""
        return hidden_cards(seat, self.hands, self.discards, self._shown, self._crib_shown, self._crib_dealt,
                            self.pack, self.starter, self._go_floor)

    def sample_hidden(self, seat: int, rng: random.Random) -> CribbageState:
        """Deal the cards ``seat`` cannot see (other hands, their discards, the crib card, the pack)
        afresh, keeping what ``seat`` has learned: a player who said go held no card that fitted then.
        The sample is a whole game: its deal outcome and the other seats' discards are rewritten, so it
        replays from its own record."""
        c = self.clone()
        c.chance = self.chance.fork(rng)
        hidden, slots = self.sampling_frame(seat)
        fill = deal_hidden(hidden, slots, rng)
        n = self.num_players
        for s in range(n):
            if (s, "held") in fill:
                c.hands[s] = sorted(fill[(s, "held")], key=_INDEX)
            if (s, "discards") in fill:
                c.discards[s] = sorted(fill[(s, "discards")], key=_INDEX)  # as a discard lays them away
            if not self._to_discard >> s & 1 and s != seat and not self._shown[s]:
                c.kept[s] = sorted([x for t, x in self._played if t == s] + c.hands[s], key=_INDEX)
        if (-1, "crib") in fill:
            c._crib_dealt = fill[(-1, "crib")]
        c.crib = list(c._crib_dealt)
        for s in self._discard_order:
            c.crib.extend(c.discards[s])
        pack = fill[(-1, "pack")]
        if self.starter is not None:
            pack = pack[:self._cut] + [self.starter] + pack[self._cut:]
        c.pack = pack
        # rewrite the record of this hand so that the sample is a game of its own
        dealt = []
        for s in range(n):
            if s == seat:
                dealt.append(list(self.chance.outcomes[self._deal_pos]["hands"][s]))
            else:
                mine = [x for t, x in self._played if t == s] + c.hands[s] + c.discards[s]
                dealt.append(_texts(mine))
        c.chance.outcomes[self._deal_pos] = {"kind": "deal", "hands": dealt,
                                             "crib": [x.text for x in c._crib_dealt],
                                             "pack": [x.text for x in pack]}
        for i in range(self._hand_hist_start, len(c.history)):
            s, a = c.history[i]
            if a.kind == "discard" and s != seat:
                c.history[i] = (s, discard_action(c.discards[s]))
        for i in range(self._hand_log_start, len(c.log)):
            e = c.log[i]
            if e.seat is not None and e.seat != seat and e.kind in ("dealt", "discard"):
                s = e.seat
                cards = dealt[s] if e.kind == "dealt" else [x.text for x in discard_action(c.discards[s]).subject]
                c.log[i] = Event(e.kind, s, {**e.data, "cards": cards}, e.secret)
        return c

    # -------------------------------------------------------------------------------- notation ----
    def format_action(self, action: Action) -> str:
        k = action.kind
        if k == "play":
            return f"play {action.subject.text}"
        if k == "discard":
            return "discard " + " ".join(c.text for c in sorted(action.subject, key=_INDEX))
        if k == "count":
            return f"count {action.subject or 'hand'}"
        return str(k)

    def parse_action(self, text: object, seat: int | None = None) -> Action:
        words = self._words(text)
        head = words[0].lower()
        if head in ("muggins", "claim"):
            return self._parse_call([head, *words[1:]], text, 2)
        if head == "go":
            if len(words) != 1:
                raise UnknownAction(f"cannot read {text!r}; 'go' takes nothing after it")
            return GO
        if head in ("count", "show"):
            if len(words) == 1:
                if self.phase == "show" and self._show_order[self._show_i][1] == "crib" and \
                        (seat is None or seat == self.turn):
                    return COUNT_CRIB
                return COUNT_HAND
            if len(words) == 2 and words[1].lower() in ("hand", "crib"):
                return COUNT_CRIB if words[1].lower() == "crib" else COUNT_HAND
            raise UnknownAction(f"cannot read {text!r}; write 'count hand' or 'count crib'")
        if head in ("discard", "crib", "lay"):
            if len(words) < 2:
                raise UnknownAction("name the cards to lay away, like 'discard 5H 6D'")
            return discard_action([parse_card(w) for w in words[1:]])
        if head == "play":
            words = words[1:]
        if len(words) != 1:
            raise UnknownAction(f"cannot read {text!r}; write a play like 'play 5H' (or just '5H')")
        return _PLAY[parse_card(words[0])]

    # ------------------------------------------------------------------------------------ views ----
    def _show_view(self, show: Show) -> ShowView:
        seat, what, cards, claim, _, starter = show
        v: ShowView = {"seat": seat, "what": "crib" if what == "crib" else "hand", "cards": _texts(cards)}
        if self._manual:
            v["claim"] = claim
        if show is not self._explain_due:  # a count under an open window keeps its truth to itself
            s = explain_show(cards, starter, what == "crib")
            v["total"] = s.total
            v["explain"] = s.text
        return v

    def view(self, seat: object) -> CribbageView:
        # typed object: a compiled build would make True or 1.0 a seat before the check; -1 would
        # read the last seat's hand
        return self._view(None if seat is None else check_seat(seat, self.num_players))

    def _view(self, seat: int | None) -> CribbageView:
        r = self.rules
        n = self.num_players
        w = self._window
        starter = self.starter
        prev = self._previous
        return CribbageView(
            game=self.game, preset=r.preset, seat=seat, players=n, sides=list(self._side),
            scores=list(self._scores),
            board=[{"front": f, "back": b} for f, b in zip(self._scores, self._back, strict=True)],
            target=r.target, hand=self.hand_no, dealer=self.dealer, phase=self.phase,
            turn=None if self._over or self.phase == "discard" else self.turn,
            to_act=sorted(self.to_act()), waiting_for=sorted(self.waiting_for()),
            hand_sizes=[len(h) for h in self.hands],
            discarded=[not self._to_discard >> s & 1 for s in range(n)],
            crib_size=len(self.crib), crib=_texts(self.crib) if self._crib_shown else None,
            starter=starter.text if starter is not None else None,
            count=self.count,
            pile=[{"seat": s, "card": c.text} for s, c in self._pile],
            series=[[{"seat": s, "card": c.text} for s, c in p] for p in self._old_series],
            gone=[s for s in range(n) if self._gone >> s & 1],
            last_player=None if self._last < 0 else self._last,
            shows=[self._show_view(x) for x in self._shows],
            claims=r.claims, window=cast("WindowView", w.public()) if w is not None else None,
            over=self._over, winners=sorted(self._winners), result=cast("GameResult | None", self._result),
            previous_hand=None if prev is None else {
                "hand": prev["hand"], "dealer": prev["dealer"], "starter": prev["starter"].text,
                "shows": [self._show_view(x) for x in prev["shows"]]},
            my_hand=_texts(self.hands[seat]) if seat is not None else None,
            my_kept=_texts(self.kept[seat]) if seat is not None else None,
            my_discards=_texts(self.discards[seat]) if seat is not None else None,
            legal=[self.format_action(a) for a in self.legal_actions(seat)] if seat is not None else None,
        )

    def inventory(self) -> dict[str, list[str]]:
        """Every card by where it lies: each hand (the cards still held), the cards played in this hand,
        the crib, the starter once cut, and the rest of the pack (``stock``)."""
        out = {f"hand {s}": [c.text for c in h] for s, h in enumerate(self.hands)}
        out["played"] = [c.text for _, c in self._played]
        out["crib"] = [c.text for c in self.crib]
        out["starter"] = [self.starter.text] if self.starter is not None else []
        out["stock"] = [c.text for i, c in enumerate(self.pack) if self.starter is None or i != self._cut]
        return out


def stacked(rules: CribbageRules, hands: Sequence[Sequence[str]], starter: str, dealer: int = 0,
            crib: Sequence[str] = (), seed: int | None = 0) -> CribbageState:
    """A game whose first deal is fixed: ``hands`` by seat (six cards each for two players, five
    otherwise), ``crib`` the card dealt to the crib in the three-hand game, ``starter`` the card the cut
    turns up, and ``dealer`` the first dealer. Later deals come from ``seed``. For teaching positions,
    puzzles and tests; the result is an ordinary game with an ordinary record."""
    n = rules.players
    if len(hands) != n:
        raise IllegalAction(f"{rules.preset} deals {n} hands, not {len(hands)}")
    if not 0 <= dealer < n:
        raise IllegalAction(f"there is no seat {dealer} to deal")
    dealt = [[parse_card(t).text for t in h] for h in hands]
    crib_cards = [parse_card(t).text for t in crib]
    top = parse_card(starter).text
    named = [t for h in dealt for t in h] + crib_cards + [top]
    if len(set(named)) != len(named):
        raise IllegalAction("a card is named twice")
    rest = [c.text for c in DECK if c.text not in named]
    pack = rest[:4] + [top] + rest[4:]
    order = list(range(1, 14)) if rules.first_dealer_by == "low" else list(range(13, 0, -1))
    cut = ["" for _ in range(n)]
    cut[dealer] = Card.of(order[0], "C").text
    k = 1
    for s in range(n):
        if s != dealer:
            cut[s] = Card.of(order[k], "C").text
            k += 1
    outcomes: list[dict[str, Any]] = [
        {"kind": "cut", "seats": list(range(n)), "cards": cut},
        {"kind": "deal", "hands": dealt, "crib": crib_cards, "pack": pack},
        {"kind": "starter", "cut": 4, "card": top},
    ]
    return CribbageState.new(rules, n, Chance(outcomes=outcomes, seed=seed))


# >>> generated by python -m muggins.core.fields from FIELDS: do not edit (names)
_FIELDS = (
    "rules", "num_players", "chance", "history", "log", "_over", "_winners", "_scores", "_side", "_manual",
    "_window", "_ver", "hand_no", "dealer", "phase", "turn", "count", "hands", "kept", "discards", "crib",
    "pack", "starter", "_nsides", "_back", "_result", "_explain_due", "_previous", "_deal_pos", "_crib_dealt",
    "_cut", "_to_discard", "_discard_order", "_ranks", "_pile", "_old_series", "_played", "_gone", "_last",
    "_go_floor", "_shown", "_crib_shown", "_shows", "_show_order", "_show_i", "_hand_hist_start",
    "_hand_log_start",
)
# <<< end of generated names
