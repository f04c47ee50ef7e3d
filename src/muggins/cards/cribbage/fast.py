"""Cribbage through the protocol on the native engine: :class:`NativeCribbageState` (see
:mod:`muggins.cards.native_state`). The engine is :mod:`muggins.cards.cribbage.native`; every deal and every cut
is the pure engine's (``draw_deal``, ``draw_cut``): read from the state's chance by that code when recorded, drawn
by the engine from the chance's generator as that code draws them otherwise."""

from __future__ import annotations

import random
from typing import Any, cast

from muggins.cards.cribbage.game import _FIELDS as PURE_FIELDS
from muggins.cards.cribbage.game import (
    COUNT_CRIB,
    COUNT_HAND,
    GO,
    CribbageState,
    deal_hidden,
    discard_action,
    draw_cut,
    draw_deal,
    hidden_cards,
    play_action,
)
from muggins.cards.cribbage.show import explain_show
from muggins.cards.cribbage.views import CribbageView, GameResult, PreviousHand, ShowView
from muggins.cards.dealing import CARD_BY_TEXT, DECK
from muggins.cards.deck import Card
from muggins.cards.native_state import NativeCardState, _engine, public_window
from muggins.core.chance import Chance
from muggins.core.protocol import Action, Event, check_seat

_TEXT = tuple(c.text for c in DECK)
_TABLES: dict[int, tuple[Action, ...]] = {}


def _table(each: int) -> tuple[Action, ...]:
    """The Action of each internal id of the engine: the discards of ``each`` cards (a pair's id ranks it:
    ``a + b (b - 1) / 2`` for cards a < b), padded to 1326, a play of each card, go, count hand, count crib."""
    table = _TABLES.get(each)
    if table is None:
        discards = [discard_action((DECK[c],)) for c in range(52)] if each == 1 else \
            [discard_action((DECK[a], DECK[b])) for b in range(52) for a in range(b)]
        discards += [GO] * (1326 - len(discards))
        table = _TABLES[each] = (*discards, *(play_action(c) for c in DECK), GO, COUNT_HAND, COUNT_CRIB)
    return table

#: the pure state's fields: read from the twin, they are the position (a comparison of states reads them)
_FIELDS = PURE_FIELDS


class NativeCribbageState(NativeCardState):
    """A cribbage game played by the native engine (partners share a side with four players)."""

    game = "cribbage"
    action_ids = "muggins.cards.cribbage.action_ids"
    pure_type = CribbageState
    engine = "muggins.cards.cribbage.native"
    engine_class = "NativeCribbage"

    @classmethod
    def _start_native(cls, rules: Any, num_players: int, seed: int | None, state: Any) -> Any:
        if num_players != rules.players:  # the pure engine refuses it
            raise NotImplementedError(f"{num_players} players for a game of {rules.players}")
        return _engine(cls.engine).NativeCribbage.start(rules, seed, state)

    def _draw_deal(self, dealer: int) -> tuple[list[list[int]], list[int], list[int]] | None:
        """The next deal of the chance, read and checked by the pure engine's ``draw_deal``: the hands, the
        pack in order, the crib's card; None: the engine draws it (and those after) from the generator."""
        if self._hand_over():
            return None
        hands, crib, pack = draw_deal(self._chance, self.rules, self.num_players, dealer)
        return [[c.index for c in h] for h in hands], [c.index for c in pack], [c.index for c in crib]

    def _draw_cut(self, pack: list[int]) -> int | None:
        """The next cut of the chance (a position in ``pack``, the undealt cards in order), read and checked
        by the pure engine's ``draw_cut``; None: the engine draws it from the generator."""
        if self._hand_over():
            return None
        return draw_cut(self._chance, [DECK[c] for c in pack])

    def _outcomes(self, drawn: list[tuple[int, int, int, list[int]]]) -> list[dict[str, Any]]:
        """As ``cut_for_deal``, ``draw_deal`` and ``draw_cut`` make them."""
        r, n = self.rules, self.num_players
        each, to_crib = r.cards_each, r.crib_dealt
        out: list[dict[str, Any]] = []
        for kind, a, _, cards in drawn:
            texts = [_TEXT[c] for c in cards]
            if kind == 1:
                hands = [texts[(s - a - 1) % n:n * each:n] for s in range(n)]
                out.append({"kind": "deal", "hands": hands, "crib": texts[n * each:n * each + to_crib],
                            "pack": texts[n * each + to_crib:]})
            elif kind == 2:
                out.append({"kind": "starter", "cut": a, "card": texts[0]})
            else:
                out.append({"kind": "cut", "seats": [s for s in range(n) if (a >> s) & 1], "cards": texts})
        return out

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.num_players == 4 else seat

    def _refusing(self, blank: Any) -> None:
        nat = self._nat
        self._turn_on(blank)
        blank.hands = [[DECK[c] for c in nat.held(s)] for s in range(self.num_players)]
        blank.count = nat.count()
        blank._to_discard = sum(1 << s for s in nat.waiting_for())

    def _turn_on(self, blank: Any) -> None:
        """Set on the blank pure state ``blank`` where the hand is: its phase, the seat to play and the next
        count of the show (what its parsing and its checks of a move read of the turn)."""
        nat = self._nat
        blank.phase = nat.phase()
        blank.turn = nat.turn()
        blank._show_order = self._show_order
        blank._show_i = 0

    @property
    def phase(self) -> str:
        """The phase of the hand (``CribbageState.phase``)."""
        return str(self._nat.phase())

    @property
    def _show_order(self) -> list[tuple[int, str]]:
        """The next count of the show as ``CribbageState._show_order[_show_i]`` gives it (the seat that counts
        and what: "hand" or "crib"), alone (``_show_i`` is 0): what a move "count" is read as."""
        nat = self._nat
        waiting = nat.waiting_for()
        return [(min(waiting) if waiting else nat.dealer(), "crib" if nat.view_ints()[3] == self.num_players
                 else "hand")]

    _show_i = 0

    def inventory(self) -> dict[str, list[str]]:
        """As ``CribbageState.inventory``: each hand, the cards played this hand (in the order played, from
        the log), the crib, the starter once cut and the rest of the pack."""
        nat = self._nat
        out = {f"hand {s}": [_TEXT[c] for c in nat.held(s)] for s in range(self.num_players)}
        played: list[str] = []
        for e in reversed(self._events_made() or self._start_state().log):
            if e.kind == "deal":
                break
            if e.kind == "play":
                played.append(e.data["card"])
        out["played"] = played[::-1]
        # the crib as the pure state fills it: the card dealt to it, then each discard of this hand in turn
        ch = self._sync_chance(False)
        dealt = next(o for o in reversed(ch.outcomes[:ch.position]) if o.get("kind") == "deal")
        crib = list(dealt.get("crib", ()))
        laid = (len(nat.crib()) - len(crib)) // self.rules.discard_each
        discards = [a for _, a in self.history if a.kind == "discard"]
        for a in discards[len(discards) - laid:] if laid else ():
            crib.extend(c.text for c in (a.subject if isinstance(a.subject, tuple) else (a.subject,)))
        out["crib"] = crib
        pack, cut = nat.pack()
        out["starter"] = [_TEXT[pack[cut]]] if cut >= 0 else []
        out["stock"] = [_TEXT[c] for i, c in enumerate(pack) if i != cut]
        return out

    @property
    def hand_no(self) -> int:
        """The number of the hand being played (``CribbageState.hand_no``)."""
        return int(self._nat.hand_no())

    @property
    def count(self) -> int:
        """The count of the pegging (``CribbageState.count``)."""
        return int(self._nat.count())

    def winners(self) -> frozenset[int]:
        won = self._nat.winners()
        return frozenset(s for s in range(self.num_players) if self.side_of(s) in won)

    @classmethod
    def _table_for(cls, rules: Any) -> tuple[Action, ...]:
        return _table(rules.discard_each)

    def _points_of(self, seat: int, action: Action) -> int:
        """As ``CribbageState._points_of``: the points a play, a go or a count makes now, from the engine."""
        kind = action.kind
        if kind == "play":
            card = action.subject
            if not isinstance(card, Card):
                return 0
            i = _ID_PLAY + card.index
        elif kind == "go":
            i = _ID_GO
        elif kind == "count":
            i = _ID_COUNT
        else:
            return 0
        return int(self._nat.move_points(seat, i))

    def sample_hidden(self, seat: int, rng: random.Random) -> NativeCribbageState:
        """As ``CribbageState.sample_hidden`` (the same draws from ``rng``, the same cards dealt to the same
        places): the cards ``seat`` cannot see dealt afresh under what it has learned, this hand's deal and the
        other seats' discards rewritten in the record, and the record replayed natively."""
        check_seat(seat, self.num_players)
        nat, n = self._nat, self.num_players
        t: _Hand = self._tracked()
        ch = self._sync_chance(False)
        outs = ch.outcomes[:ch.position]
        deal_pos = max(i for i, o in enumerate(outs) if o.get("kind") == "deal")
        deal = outs[deal_pos]
        crib_dealt = [CARD_BY_TEXT[x] for x in deal.get("crib", ())]
        phase = nat.phase()
        show_i = nat.view_ints()[3]
        crib_shown = show_i == n and phase != "play"
        shown = {x[0] for x in t.shows if x[1] == "hand"}
        hands = [[DECK[c] for c in nat.held(s)] for s in range(n)]
        discards = [[CARD_BY_TEXT[x] for x in d] for d in t.discards]
        pack_ids, cut = nat.pack()
        pack = [DECK[c] for c in pack_ids]
        starter = pack[cut] if cut >= 0 else None
        pool, slots = hidden_cards(seat, hands, discards, [s in shown for s in range(n)], crib_shown, crib_dealt,
                                   pack, starter, t.floor)
        fill = deal_hidden(pool, slots, rng)
        # the record of this hand rewritten with the cards drawn
        played = [[DECK[c] for c in nat.kept(s)] for s in range(n)]  # (kept: what was held after discarding)
        dealt: list[list[str]] = []
        for s in range(n):
            if s == seat:
                dealt.append(list(deal["hands"][s]))
                continue
            held = fill.get((s, "held"), hands[s])
            gone = [c for c in played[s] if c not in hands[s]] if played[s] else []
            mine = gone + held + fill.get((s, "discards"), discards[s])
            dealt.append(sorted((c.text for c in mine), key=_INDEX.__getitem__))
        new_crib = fill.get((-1, "crib"), crib_dealt)
        rest = fill[(-1, "pack")]
        if starter is not None:
            rest = rest[:cut] + [starter] + rest[cut:]
        made = list(outs)
        made[deal_pos] = {"kind": "deal", "hands": dealt, "crib": [c.text for c in new_crib],
                          "pack": [c.text for c in rest]}
        history = self.history
        for s in range(n):
            laid = fill.get((s, "discards"))
            if laid is not None and t.discards[s]:
                i = max(i for i, (who, a) in enumerate(history) if who == s and a.kind == "discard")
                history[i] = (s, discard_action(laid))
        sample = self._replayed_with(made, history)
        forked = Chance(outcomes=made)
        forked._pos = len(made)
        forked.rng = rng
        sample.chance = forked
        return sample

    def _notation(self) -> Any:
        """The blank pure state with what ``CribbageState.parse_action`` reads of the position ("count" alone
        is the crib's count when the crib is to be counted next by ``seat``)."""
        blank = super()._notation()
        self._turn_on(blank)
        return blank

    def view(self, seat: object) -> CribbageView:
        """What ``seat`` may see (None: a spectator): see ``_view`` (declared here for the view's type)."""
        seen: CribbageView = super().view(seat)
        return seen

    def _new_tracker(self, start: Any) -> _Hand:
        return _Hand.of(start)

    def _view(self, seat: int | None) -> CribbageView:
        """As ``CribbageState._view``, from the engine's data (what the position does not hold - the pegs
        behind, the series of the play, the discards, the shows - from the log)."""
        nat = self._nat
        r = self.rules
        n = self.num_players
        t: _Hand = self._tracked()
        manual = r.claims == "manual"
        to_discard, gone, last, show_i, _, crib_size, sizes = nat.view_ints()
        phase = nat.phase()
        over = phase == "over"
        scores = list(nat.side_scores())
        starter = nat.starter()
        # turned up once the crib is to be counted (if the game ends after that, it stays up)
        crib_shown = show_i == n and phase != "play"
        prev = t.previous
        return CribbageView(
            game=self.game, preset=r.preset, seat=seat, players=n, sides=[self.side_of(s) for s in range(n)],
            scores=scores, board=[{"front": f, "back": b} for f, b in zip(scores, t.back, strict=True)],
            target=r.target, hand=nat.hand_no(), dealer=nat.dealer(), phase=phase,
            turn=None if over or phase == "discard" else nat.turn(),
            to_act=sorted(nat.to_act()), waiting_for=sorted(nat.waiting_for()), hand_sizes=sizes,
            discarded=[not to_discard >> s & 1 for s in range(n)], crib_size=crib_size,
            crib=[_TEXT[c] for c in nat.crib()] if crib_shown else None,
            starter=_TEXT[starter] if starter >= 0 else None, count=nat.count(),
            pile=[dict(p) for p in t.pile], series=[[dict(p) for p in x] for x in t.series],  # type: ignore[misc]
            gone=[s for s in range(n) if gone >> s & 1], last_player=None if last < 0 else last,
            shows=[_show_view(x, manual) for x in t.shows], claims=r.claims,
            window=public_window(nat.window()), over=over, winners=sorted(self.winners()),
            result=cast("GameResult | None", t.result),
            previous_hand=None if prev is None else cast("PreviousHand", {
                "hand": prev[0], "dealer": prev[1], "starter": prev[2],
                "shows": [_show_view(x, manual) for x in prev[3]]}),
            my_hand=[_TEXT[c] for c in nat.held(seat)] if seat is not None else None,
            my_kept=[_TEXT[c] for c in nat.kept(seat)] if seat is not None else None,
            my_discards=sorted(t.discards[seat], key=_INDEX.__getitem__) if seat is not None else None,
            legal=[self.format_action(a) for a in self.legal_actions(seat)] if seat is not None else None,
        )


_INDEX = {c.text: c.index for c in DECK}
#: the first event each move logs (a play's own events follow it until the next of these)
_MOVES = frozenset(("go", "discard", "show", "muggins", "deal"))
_ID_PLAY, _ID_GO, _ID_COUNT = 1326, 1378, 1379  # the engine's internal ids of a play (+ its card), go, a count


def _show_view(show: list[Any], manual: bool) -> ShowView:
    """A show as ``CribbageState._show_view`` gives it: ``[seat, what, cards, claim, starter, told, total,
    explain]`` (the truth worked out when first shown)."""
    seat, what, cards, claim, starter, told = show[:6]
    v: ShowView = {"seat": seat, "what": what, "cards": cards[:]}
    if manual:
        v["claim"] = claim
    if told:
        if len(show) == 6:
            e = explain_show(tuple(CARD_BY_TEXT[c] for c in cards), CARD_BY_TEXT[starter], what == "crib")
            show += [e.total, e.text]
        v["total"] = show[6]
        v["explain"] = show[7]
    return v


class _Hand:
    """What a cribbage view shows that the engine's position does not hold, as the log tells it (a view
    tracker, see ``NativeCardState._tracked``): the back pegs, the series of this hand's play, each seat's
    discards, the shows of this hand and the last, the result."""

    __slots__ = ("back", "discards", "due", "floor", "hand", "kept", "pile", "played", "plays", "pos", "previous",
                 "result", "scores", "series", "shows", "starter")
    pos: int  # the engine's events fed so far
    scores: list[int]  # each side's score as the log tells it
    back: list[int]  # each side's back peg
    result: dict[str, Any] | None
    hand: tuple[int, int]  # this hand's number and dealer
    starter: str | None
    pile: list[dict[str, Any]]  # the current series: {"seat", "card"}
    series: list[list[dict[str, Any]]]  # the series before it in this hand
    discards: list[list[str]]
    shows: list[list[Any]]  # this hand's shows (see _show_view)
    previous: tuple[int, int, str | None, list[list[Any]]] | None  # the last hand's number, dealer, starter, shows
    due: list[Any] | None  # the show whose true count is not told yet
    floor: list[int]  # every card a seat still holds is worth more than this (``_go_floor``)
    plays: list[int]  # the cards each seat has played in this hand
    played: int  # the seat of the last play, -1: the last move was no play
    kept: int  # the cards each seat keeps for the play

    @classmethod
    def of(cls, start: Any) -> _Hand:
        """The tracker at the pure position ``start``."""
        t = cls()
        t.pos = 0
        t.scores = list(start._scores)
        t.back = list(start._back)
        t.result = start._result
        t.hand = (start.hand_no, start.dealer)
        t.starter = None if start.starter is None else start.starter.text
        t.pile = [{"seat": s, "card": c.text} for s, c in start._pile]
        t.series = [[{"seat": s, "card": c.text} for s, c in x] for x in start._old_series]
        t.discards = [[c.text for c in d] for d in start.discards]
        t.due = None
        t.floor = list(start._go_floor)
        t.plays = [sum(1 for s, _ in start._played if s == seat) for seat in range(start.num_players)]
        t.played = -1
        t.kept = start.rules.cards_each - start.rules.discard_each

        def show(x: Any) -> list[Any]:
            entry = [x[0], x[1], sorted((c.text for c in x[2]), key=_INDEX.__getitem__), x[3], x[5].text,
                     x is not start._explain_due]
            if x is start._explain_due:
                t.due = entry
            return entry

        t.shows = [show(x) for x in start._shows]
        p = start._previous
        t.previous = None if p is None else (p["hand"], p["dealer"], p["starter"].text, [show(x) for x in p["shows"]])
        return t

    def feed(self, e: Event) -> None:
        k = e.kind
        d = e.data
        if k == "play":
            self.pile.append({"seat": e.seat, "card": d["card"]})
            self.plays[cast("int", e.seat)] += 1
            self.played = cast("int", e.seat)
            return
        if k == "go":
            self._floor(cast("int", e.seat), d["count"])
        elif k == "reset":  # a series ended by a play that nobody (its player included) could follow
            if self.played >= 0 and d["count"] < 31:
                self._floor(self.played, d["count"])
        if k in _MOVES:
            self.played = -1
        if k == "score":
            side, points = d["side"], d["points"]
            if points > 0:
                self.back[side] = self.scores[side]
            self.scores[side] += points
        if k == "reset":
            self.series.append(self.pile)
            self.pile = []
        elif k == "discard":
            self.discards[cast("int", e.seat)] = d["cards"]
        elif k == "starter":
            self.starter = d["card"]
        elif k == "show":
            entry = [e.seat, d["what"], sorted(d["cards"], key=_INDEX.__getitem__), None, d["starter"], False]
            self.shows.append(entry)
            self.due = entry
        elif k == "claim":
            if self.due is not None and self.due[0] == e.seat and not d.get("late") and self.shows \
                    and self.shows[-1] is self.due and self.due[3] is None:
                self.due[3] = d["points"]
        elif k == "explain":
            if self.due is not None:
                self.due[5] = True
                self.due = None
        elif k == "deal":
            if self.hand[0]:
                self.previous = (self.hand[0], self.hand[1], self.starter, self.shows)
            self.hand = (d["hand"], d["dealer"])
            self.pile, self.series, self.shows, self.starter = [], [], [], None
            self.discards = [[] for _ in self.discards]
            self.floor = [0] * len(self.floor)
            self.plays = [0] * len(self.plays)
        elif k == "game_end":
            self.result = {"winner_side": d["winner_side"], "losers": d["losers"], "game_points": d["game_points"]}

    def _floor(self, seat: int, count: int) -> None:
        """``seat`` could lay nothing at ``count``: the cards he still holds are worth more than 31 - count."""
        if self.plays[seat] < self.kept:
            self.floor[seat] = max(self.floor[seat], 31 - count)

    def copy(self) -> _Hand:
        c = _Hand()
        c.pos, c.hand, c.starter, c.result = self.pos, self.hand, self.starter, self.result
        c.floor, c.plays, c.played, c.kept = self.floor[:], self.plays[:], self.played, self.kept
        c.scores, c.back, c.discards = self.scores[:], self.back[:], self.discards[:]
        c.pile, c.series = self.pile[:], self.series[:]
        # a show changes (its claim, told) while its window is open: the copy has its own
        made = {id(x): x[:] for x in self.shows}
        p = self.previous
        if p is not None:
            made.update((id(x), x[:]) for x in p[3])
            c.previous = (p[0], p[1], p[2], [made[id(x)] for x in p[3]])
        else:
            c.previous = None
        c.shows = [made[id(x)] for x in self.shows]
        c.due = None if self.due is None else made[id(self.due)]
        return c
