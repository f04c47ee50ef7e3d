"""The card Muggins state machine (RULES.md §4 with the §4.3 defaults and options, §8 "Card Muggins").

A round: deal, then piles. On his turn a player lays one card on the pile, keeping the running total at
most the cap, or - holding no card that fits - says "go" (and draws one card). A total that is a multiple
of five scores that total, the exact cap scores the cap bonus and closes the pile at once; otherwise the
pile closes once every player still holding cards has passed in a row, and the last card's player scores
"last". The next pile is led from his left. The round ends when every card is out of hands and stock.

Turn order of one play (§8): play and score, check the target, draw the refill, then close the pile.
Every random outcome - the cut for the first deal and each deal with its stock order - is a recorded chance
outcome, so a record replays with no generator.
"""

from __future__ import annotations

import random
from typing import Any

from muggins.cards.deck import Card, full_deck, parse_card
from muggins.cards.muggins31.rules import CardMugginsRules
from muggins.core.chance import Chance
from muggins.core.claims import Window, check_points, parse_points, resolve_call, settle_claim
from muggins.core.errors import (
    ClaimError,
    GameOver,
    IllegalAction,
    NotYourTurn,
    RecordError,
    RulesError,
    UnknownAction,
    shown,
)
from muggins.core.protocol import Action, Event, GameState, check_action, check_seat

DECK: tuple[Card, ...] = tuple(full_deck())
PLAY: tuple[Action, ...] = tuple(Action("play", c) for c in DECK)  # indexed by Card.index
GO = Action("go")
MUGGINS = Action("muggins")
CLAIM = Action("claim")
_BY_TEXT: dict[str, Card] = {c.text: c for c in DECK}
_MAX_MOVE_TEXT = 200  # no move is longer; longer text is refused before it is read


def _card(text: Any) -> Card:
    """A card of a chance outcome (canonical text first: deals are parsed on every round)."""
    c = _BY_TEXT.get(text) if isinstance(text, str) else None
    if c is not None:
        return c
    if not isinstance(text, str):
        raise RecordError(f"{text!r} is not a card")
    try:
        return parse_card(text)
    except UnknownAction as e:
        raise RecordError(str(e)) from None


class CardMugginsState(GameState):
    """One position of a card Muggins game. Each player is his own side."""

    game = "card-muggins"
    rules: CardMugginsRules

    hands: list[list[Card]]
    stock: list[Card]            # top of the stock is the end of the list
    pile: list[Card]
    piles: list[list[Card]]      # the closed piles of this round, in order
    total: int
    turn: int
    dealer: int
    round_no: int
    _scores: list[int]
    _over: bool
    _winners: frozenset[int]
    _window: Window | None
    _late_max: int               # what the window's scorer may still claim late ("last", lenient timing)
    _ver: int                    # bumped on every change; keys the legal-move cache
    _legal_cache: tuple[int, list[Action]] | None
    _final: bool
    _manual: bool
    _passed: list[bool]          # who has passed in this pile (since the last play, unless _final)
    _last_player: int
    _last_passer: int
    _round_log_start: int

    # ------------------------------------------------------------------------------------ set-up ----
    @classmethod
    def new(cls, rules: CardMugginsRules, num_players: int, chance: Chance) -> CardMugginsState:
        if not 2 <= num_players <= 4:
            raise RulesError(f"card Muggins is for 2-4 players; got {num_players}")
        if rules.hand_size * num_players > len(DECK):
            raise RulesError(f"{num_players} hands of {rules.hand_size} need more than 52 cards")
        s = cls.__new__(cls)
        s.rules = rules
        s.num_players = num_players
        s.chance = chance
        s.history = []
        s.log = []
        s._scores = [0] * num_players
        s._side = list(range(num_players))  # every player for himself
        s._over = False
        s._winners = frozenset()
        s._window = None
        s._late_max = 0
        s._ver = 0
        s._legal_cache = None
        s._final = rules.go_is_final_for_pile
        s._manual = rules.claims == "manual"
        s.round_no = 0
        s.dealer = s._cut_for_deal()
        s._start_round()
        return s

    def _cut_for_deal(self) -> int:
        """Each player draws a card; the highest rank deals (K high, A low), or the lowest with the
        ``low_card`` option. Tied players draw again (A19)."""
        seats = list(range(self.num_players))
        low = self.rules.first_dealer == "low_card"
        while True:
            k = len(seats)

            def make(rng: random.Random, k: int = k, seats: list[int] = seats) -> dict[str, Any]:
                return {"seats": list(seats), "cards": [c.text for c in rng.sample(DECK, k)]}

            out = self.chance.next("cut_for_deal", make)
            raw = out.get("cards")
            got = out.get("seats")
            if not isinstance(got, list) or got != seats or not isinstance(raw, list) or len(raw) != k:
                raise RecordError(f"cut_for_deal outcome {out!r} does not fit seats {seats}")
            cards = [_card(x) for x in raw]
            if len(set(cards)) != k:
                raise RecordError(f"cut_for_deal outcome {out!r} repeats a card")
            self.log.append(Event("cut_for_deal", None, {"seats": list(seats),
                                                         "cards": [c.text for c in cards]}))
            ranks = [c.rank for c in cards]
            best = min(ranks) if low else max(ranks)
            tied = [s for s, r in zip(seats, ranks, strict=True) if r == best]
            if len(tied) == 1:
                return tied[0]
            seats = tied

    def _deal(self) -> None:
        """One card at a time from the dealer's left, dealer last; the rest is the stock (§8)."""
        n, each, dealer = self.num_players, self.rules.hand_size, self.dealer

        def make(rng: random.Random) -> dict[str, Any]:
            deck = list(DECK)
            rng.shuffle(deck)
            hands: list[list[str]] = [[] for _ in range(n)]
            for i in range(n * each):
                hands[(dealer + 1 + i) % n].append(deck[i].text)
            return {"hands": hands, "stock": [c.text for c in deck[n * each:]]}

        out = self.chance.next("deal", make)
        raw_hands, raw_stock = out.get("hands"), out.get("stock")
        if not isinstance(raw_hands, list) or not isinstance(raw_stock, list) or len(raw_hands) != n:
            raise RecordError(f"a deal outcome needs 'hands' ({n} lists) and 'stock'")
        if any(not isinstance(h, list) or len(h) != each for h in raw_hands):
            raise RecordError(f"a deal must give {n} hands of {each} cards")
        hands = [[_card(x) for x in h] for h in raw_hands]
        stock = [_card(x) for x in raw_stock]
        seen = [c for h in hands for c in h] + stock
        if len(seen) != len(DECK) or len(set(seen)) != len(DECK):
            raise RecordError("a deal must hold every card of the pack exactly once")
        self.hands = hands
        self.stock = stock[::-1]  # drawn with pop(): the first listed card is the top

    def _start_round(self) -> None:
        n = self.num_players
        self.round_no += 1
        self._deal()
        self.pile = []
        self.piles = []
        self.total = 0
        self._passed = [False] * n
        self._last_player = -1
        self._last_passer = -1
        self.turn = (self.dealer + 1) % n
        self._round_log_start = len(self.log)
        self.log.append(Event("round_start", None, {"round": self.round_no, "dealer": self.dealer,
                                                    "leader": self.turn, "stock": len(self.stock)}))
        for s in range(n):
            self.log.append(Event("dealt", s, {"cards": [c.text for c in self.hands[s]],
                                               "count": len(self.hands[s])}, ("cards",)))
        self._ver += 1

    # ------------------------------------------------------------------------------ legal moves ----
    def _regular(self) -> list[Action]:
        """Legal moves of the player to act (claims aside): every card that fits, else go (A9)."""
        cache = self._legal_cache
        if cache is not None and cache[0] == self._ver:
            return cache[1]
        room = self.rules.cap - self.total
        out = [PLAY[c.index] for c in self.hands[self.turn] if c.value <= room]
        if not out:
            out = [GO]
        self._legal_cache = (self._ver, out)
        return out

    def legal_actions(self, seat: int) -> list[Action]:
        if self._over:
            return []
        out = list(self._regular()) if seat == self.turn else []
        w = self._window
        if w is not None:
            if seat != w.scorer:
                out.append(MUGGINS)
            elif w.may_claim:
                out.append(CLAIM)
        return out

    def to_act(self) -> frozenset[int]:
        if self._over:
            return frozenset()
        w = self._window
        if w is None:
            return frozenset((self.turn,))
        seats = {s for s in range(self.num_players) if s != w.scorer}
        seats.add(self.turn)
        if w.may_claim:
            seats.add(w.scorer)
        return frozenset(seats)

    def waiting_for(self) -> frozenset[int]:
        return frozenset() if self._over else frozenset((self.turn,))

    def _play_outcome(self, seat: int, card: Card) -> tuple[int, int, bool]:
        """(points of the play, "last" points, whether the pile closes) if ``seat`` laid ``card`` now,
        without changing anything. The closing is known at play time: the cap, the last card of the
        round, or (with the pass-once / others-pass options) every other player having passed."""
        r = self.rules
        total = self.total + card.value
        hit = total == r.cap
        if hit:
            pts = r.cap_bonus
        elif total % 5 == 0 and (self.pile or r.lead_scores):
            pts = total
        else:
            pts = 0
        if hit:
            return pts, (r.last_points if r.thirty_one_plus_last else 0), True
        stays = len(self.hands[seat]) > 1 or (r.draw_after_play and bool(self.stock))
        if stays and not self._final and not r.close_after_others_pass:
            return pts, 0, False  # a play restarts the circuit of gos
        others = [s for s in range(self.num_players) if s != seat and self.hands[s]]
        if not others and not stays:
            closes = True  # the last card of the round
        elif not self._final and not r.close_after_others_pass:
            closes = False
        else:
            if r.close_after_others_pass and others:
                need = others
            else:
                need = [*others, seat] if stays else others
            passed = self._passed if self._final else [False] * self.num_players
            closes = all(passed[s] for s in need)
        return pts, (r.last_points if closes else 0), closes

    def claim_for(self, seat: int, action: Action) -> int:
        """The points ``action`` makes for ``seat`` now: what a perfect player announces with it
        ("last" included only when it is muggable and known at play time)."""
        if action.kind != "play" or self._over or seat != self.turn or not isinstance(action.subject, Card):
            return 0
        pts, last, _ = self._play_outcome(seat, action.subject)
        return pts + last if self.rules.mug_last else pts

    def muggable(self, seat: int) -> int:
        w = self._window
        if w is None or self._over or seat == w.scorer:
            return 0
        return w.missed

    # ------------------------------------------------------------------------------------ apply ----
    def apply(self, seat: object, action: Action) -> None:
        # ``seat`` and amounts are checked here, untyped: a compiled build must not coerce 1.0 or True first
        if self._over:
            raise GameOver("the game is over")
        action = check_action(action)
        seat = check_seat(seat, self.num_players)
        kind = action.kind
        if kind in ("muggins", "claim") and action.claim is not None:
            check_points(action.claim, self.rules.max_step_points, "a muggins call" if kind == "muggins" else "a claim")
        if kind == "muggins":
            self._call(seat, action.claim)
            return
        if kind == "claim":
            self._late_claim(seat, action.claim)
            return
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        claim = action.claim
        if kind == "play":
            card = action.subject
            if not isinstance(card, Card) or action.target is not None or action.part is not None:
                raise IllegalAction("a play names one card, like 'play 5H'")
            if card not in self.hands[seat]:
                raise IllegalAction(f"seat {seat} does not hold {card}")
            if self.total + card.value > self.rules.cap:
                raise IllegalAction(f"{card} would make {self.total + card.value}, over the cap of "
                                    f"{self.rules.cap}")
        elif kind == "go":
            if action.subject is not None or action.target is not None or action.part is not None:
                raise IllegalAction("'go' takes no card")
            if self._regular()[0] is not GO:
                fits = " ".join(a.subject.text for a in self._regular())
                raise IllegalAction(f"you can play ({fits}): say go only when no card keeps the total "
                                    f"at most {self.rules.cap}")
        elif kind == "draw":
            raise IllegalAction("there is no draw move: cards are drawn automatically after a play or a go")
        else:
            raise IllegalAction(f"unknown move {shown(kind)} (moves are play <card>, go, muggins, claim <n>)")
        if claim is not None:
            if not self._manual:
                raise ClaimError("points are scored automatically in this game; do not announce them")
            if kind != "play":
                raise ClaimError(f"only a play can carry a claim, not {kind!r}")
            check_points(claim, self.rules.max_step_points, "a claim")
        if self._window is not None and (kind == "play" or self.rules.window == "until_next_action"):
            self._close_window()
        self.history.append((seat, action))
        self._ver += 1
        if kind == "play":
            self._do_play(seat, action.subject, claim)
        else:
            self._do_go(seat)

    # ---------------------------------------------------------------------------------- scoring ----
    def _award(self, seat: int, points: int, actor: int | None, reason: str) -> None:
        if points == 0:
            return
        self._scores[seat] += points
        self.log.append(Event("score", actor, {"side": seat, "points": points, "reason": reason}))
        if points > 0 and self.rules.win_check == "immediate" and self._scores[seat] >= self.rules.target:
            self._finish([seat])

    def _finish(self, seats: list[int]) -> None:
        if self._over:
            return
        self._over = True
        self._winners = frozenset(seats)
        self._window = None
        self.log.append(Event("game_end", None, {"winners": sorted(seats), "scores": list(self._scores)}))

    def _close_window(self) -> None:
        w = self._window
        if w is not None:
            if w.missed > 0:
                self.log.append(Event("missed", w.scorer, {"side": w.scorer, "points": w.missed,
                                                           "reason": w.reason}))
            self._window = None
            self._late_max = 0

    def _call(self, seat: int, amount: int | None) -> None:
        if not self._manual:
            raise ClaimError("there is no muggins in this game: points are scored automatically")
        w = self._window
        if w is None:
            raise ClaimError("no muggins window is open: a call must come before the next player acts")
        if seat == w.scorer:
            raise ClaimError("you cannot call muggins on yourself")
        r = self.rules
        res = resolve_call(w, amount, r.muggins, r.false_call_penalty, r.false_call_points)
        self.history.append((seat, Action("muggins", claim=amount)))
        self._ver += 1
        self._window = None
        self._late_max = 0
        self.log.append(Event("muggins", seat, {"on": w.scorer, "outcome": res.outcome,
                                                "points": res.caller_gain, "named": amount,
                                                "missed": w.missed}))
        if res.scorer_loss:
            self._award(w.scorer, -res.scorer_loss, w.scorer, "mugged")
        if res.caller_penalty:
            self._award(seat, -res.caller_penalty, seat, "false call")
        if res.scorer_award and not self._over:
            self._award(w.scorer, res.scorer_award, w.scorer, "false call")
        if res.caller_gain and not self._over:
            self._award(seat, res.caller_gain, seat, "muggins")
        if res.outcome in ("steal", "steal_and_deduct") and w.missed > res.caller_gain and not self._over:
            self.log.append(Event("missed", w.scorer, {"side": w.scorer, "points": w.missed - res.caller_gain,
                                                       "reason": w.reason}))

    def _late_claim(self, seat: int, amount: int | None) -> None:
        w = self._window
        if not self._manual or w is None or seat != w.scorer or not w.may_claim:
            raise ClaimError("there is nothing for you to claim now")
        if amount is None:
            raise ClaimError("a claim names its points, like 'claim 1'")
        self.history.append((seat, Action("claim", claim=amount)))
        self._ver += 1
        w.may_claim = False
        w.claimed = amount
        self.log.append(Event("claim", seat, {"points": amount, "late": True}))
        may = min(w.missed, self._late_max)
        self._late_max = 0
        if amount <= may:
            w.missed -= amount
            self._award(seat, amount, seat, w.reason)
        else:
            self._over_claim(seat, amount, may, "last card" if w.reason == "last" else w.reason)

    def _open_window(self, scorer: int, missed: int, claimed: int | None, reason: str,
                     may_claim: bool) -> None:
        w = self._window
        if w is not None and w.scorer == scorer:  # a still-open play window (window=until_next_play)
            w.missed += missed
            w.reason = reason
            w.may_claim = w.may_claim or may_claim
            self._late_max += missed if may_claim else 0
            return
        self._close_window()
        self._window = Window(scorer, scorer, missed, claimed, reason, may_claim)
        self._late_max = missed if may_claim else 0

    # ------------------------------------------------------------------------------------ moves ----
    def _draw(self, seat: int, why: str) -> None:
        card = self.stock.pop()
        self.hands[seat].append(card)
        self.log.append(Event("draw", seat, {"card": card.text, "why": why}, ("card",)))

    def _next_turn(self, after: int) -> int:
        """The next seat holding cards (and, with go_is_final_for_pile, not out of this pile); may be
        ``after`` itself; -1 when nobody can act."""
        n = self.num_players
        hands, passed, final = self.hands, self._passed, self._final
        for k in range(1, n + 1):
            s = (after + k) % n
            if hands[s] and not (final and passed[s]):
                return s
        return -1

    def _do_play(self, seat: int, card: Card, claim: int | None) -> None:
        r = self.rules
        pts, last, closes = self._play_outcome(seat, card)
        hand = self.hands[seat]
        hand.remove(card)
        self.pile.append(card)
        self.total += card.value
        self.log.append(Event("play", seat, {"card": card.text, "total": self.total}))
        mug_last = self._manual and r.mug_last
        claimable = pts + last if mug_last else pts
        if self._manual:
            awarded, missed, over = settle_claim(claimable, claim)
            if claim is not None:
                self.log.append(Event("claim", seat, {"points": claim}))
            if over:
                self._over_claim(seat, claim or 0, claimable, "play")
        else:
            awarded, missed = claimable, 0
        if awarded:
            self._award(seat, awarded, seat, "play")
        if self._over:
            return
        if self._manual:
            self._open_window(seat, missed, claim, "play", r.claim_timing == "lenient" and claim is None)
        self._last_player = seat
        if not self._final:
            self._passed = [False] * self.num_players
        if r.draw_after_play and self.stock and len(hand) < r.hand_size:
            self._draw(seat, "refill")
        if closes:
            if last and not mug_last:
                self._award(seat, last, seat, "last")
                if self._over:
                    return
            passer = self._last_passer
            by_pass = r.lead_after_last_passer and passer >= 0 and self.total != r.cap
            self._close_pile(passer if by_pass else seat)
        else:
            self.turn = self._next_turn(seat)
        self._ver += 1

    def _do_go(self, seat: int) -> None:
        r = self.rules
        self.log.append(Event("go", seat, {"total": self.total}))
        self._passed[seat] = True
        self._last_passer = seat
        hand = self.hands[seat]
        below = len(hand) < r.hand_size
        if self.stock and (r.go_draw == "one" or (r.go_draw == "only_if_below_5" and below)):
            self._draw(seat, "go")
        if self._pile_closes():
            lp = self._last_player
            if r.last_points:
                if self._manual and r.mug_last:
                    self._open_window(lp, r.last_points, None, "last", True)
                else:
                    self._award(lp, r.last_points, lp, "last")
                    if self._over:
                        return
            self._close_pile(seat if r.lead_after_last_passer else lp)
        else:
            self.turn = self._next_turn(seat)
        self._ver += 1

    def _pile_closes(self) -> bool:
        """After a go: every player still holding cards has passed in a row (A3), or every one but the
        last card's player with ``close_after_others_pass``."""
        lp = self._last_player
        active = [s for s in range(self.num_players) if self.hands[s]]
        if self.rules.close_after_others_pass and lp >= 0 and self.hands[lp] and len(active) > 1:
            active.remove(lp)
        passed = self._passed
        return all(passed[s] for s in active)

    def _close_pile(self, after: int) -> None:
        """End the pile; the next one is led by the first seat holding cards after ``after`` (A7)."""
        self.log.append(Event("pile_end", self._last_player, {"total": self.total,
                                                              "cards": [c.text for c in self.pile]}))
        self.piles.append(self.pile)
        self.pile = []
        self.total = 0
        self._passed = [False] * self.num_players
        self._last_player = -1
        self._last_passer = -1
        leader = self._next_turn(after)
        if leader < 0:
            self._end_round()
        else:
            self.turn = leader
            self.log.append(Event("pile_start", leader, {}))

    def _end_round(self) -> None:
        r = self.rules
        self.log.append(Event("round_end", None, {"round": self.round_no, "scores": list(self._scores)}))
        if r.win_check == "end_of_round":
            top = max(self._scores)
            if top >= r.target:
                leaders = [s for s in range(self.num_players) if self._scores[s] == top]
                if len(leaders) == 1:
                    self._finish(leaders)
                    return
                self.log.append(Event("tie_break", None, {"seats": leaders}))
        self.dealer = (self.dealer + 1) % self.num_players
        self._start_round()

    # --------------------------------------------------------------------------------- copies ----
    def clone(self) -> CardMugginsState:
        c = CardMugginsState.__new__(CardMugginsState)
        c.__dict__.update(self.__dict__)
        self._clone_base(c)
        c.hands = [h[:] for h in self.hands]
        c.stock = self.stock[:]
        c.pile = self.pile[:]
        c.piles = self.piles[:]  # closed piles are never changed
        c._passed = self._passed[:]
        c._window = self._window.copy() if self._window is not None else None
        c._legal_cache = None
        return c

    def _unknown_slots(self, seat: int) -> list[list[int]]:
        """For every other seat, one lower bound on card value per card in his hand, from what ``seat``
        saw this round: a player who said go at total T held no card worth cap - T or less then."""
        cap = self.rules.cap
        slots: list[list[int]] = [[] for _ in range(self.num_players)]
        for e in self.log[self._round_log_start:]:
            s = e.seat
            if s is None or s == seat:
                continue
            k = e.kind
            if k == "dealt":
                slots[s] = [1] * int(e.data["count"])
            elif k == "go":
                low = cap - int(e.data["total"]) + 1
                slots[s] = [max(b, low) for b in slots[s]]
            elif k == "draw":
                slots[s].append(1)
            elif k == "play":
                v = _card(e.data["card"]).value
                fitting = [i for i, b in enumerate(slots[s]) if b <= v]
                i = max(fitting, key=lambda i: slots[s][i]) if fitting else 0
                slots[s].pop(i)
        return slots

    def sample_hidden(self, seat: int, rng: random.Random) -> CardMugginsState:
        """Deal the cards ``seat`` cannot see (other hands and the stock) at random, keeping what he
        knows: his hand, every card played this round, the hand sizes and the go constraints."""
        c = self.clone()
        c.chance = self.chance.fork(rng)
        known = set(self.hands[seat]) | set(self.pile)
        for p in self.piles:
            known.update(p)
        unknown = [x for x in DECK if x not in known]
        rng.shuffle(unknown)
        slots = self._unknown_slots(seat)
        owners: list[tuple[int, int]] = []
        for s in range(self.num_players):
            if s == seat:
                continue
            bounds = slots[s]
            if len(bounds) != len(self.hands[s]):  # cannot happen; keep the counts exact regardless
                bounds = [1] * len(self.hands[s])
            owners.extend((b, s) for b in bounds)
        # Tightest slots first: value bounds are nested, so a greedy choice never blocks a later slot.
        owners.sort(key=lambda o: -o[0])
        hands: list[list[Card]] = [[] for _ in range(self.num_players)]
        pool = unknown
        for bound, s in owners:
            # the first fitting card; none fits only for an impossible history: then ignore the bound
            pick = next((i for i, x in enumerate(pool) if x.value >= bound), 0)
            hands[s].append(pool.pop(pick))
        for s in range(self.num_players):
            if s != seat:
                rng.shuffle(hands[s])
                c.hands[s] = hands[s]
        c.stock = pool
        c._legal_cache = None
        c._ver += 1
        return c

    # -------------------------------------------------------------------------------- notation ----
    def format_action(self, action: Action) -> str:
        if action.kind == "play":
            return f"play {action.subject}"
        return str(action.kind)

    def parse_action(self, text: object, seat: int | None = None) -> Action:
        if not isinstance(text, str) or len(text) > _MAX_MOVE_TEXT:
            raise UnknownAction(f"a move is text of at most {_MAX_MOVE_TEXT} characters; got {shown(text)}")
        words = text.strip().lower().replace(",", " ").split()
        if not words:
            raise UnknownAction("empty move; moves are play <card>, go, muggins [n], claim <n>")
        head = words[0]
        if head in ("go", "pass"):
            if len(words) != 1:
                raise UnknownAction(f"cannot read {text!r}; say just 'go'")
            return GO
        if head in ("muggins", "claim"):
            claim = None
            if len(words) == 2:
                claim = parse_points(head, words[1], self.rules.max_step_points)
            elif len(words) != 1:
                raise UnknownAction(f"cannot read {text!r}; write '{head}' or '{head} 10'")
            return Action(head, claim=claim)
        if head == "play":
            words = words[1:]
        if len(words) != 1:
            raise UnknownAction(f"cannot read {text!r}; write a play like 'play 5H'")
        return PLAY[parse_card(words[0]).index]

    # ------------------------------------------------------------------------------------ views ----
    def view(self, seat: int | None) -> dict[str, Any]:
        r = self.rules
        w = self._window
        v: dict[str, Any] = {
            "game": self.game, "preset": r.preset, "seat": seat, "players": self.num_players,
            "scores": list(self._scores), "target": r.target, "cap": r.cap, "round": self.round_no,
            "dealer": self.dealer, "turn": None if self._over else self.turn, "to_act": sorted(self.to_act()),
            "total": self.total, "pile": [c.text for c in self.pile],
            "earlier_piles": [[c.text for c in p] for p in self.piles],
            "passed": [s for s in range(self.num_players) if self._passed[s]],
            "last_player": None if self._last_player < 0 else self._last_player,
            "hand_sizes": [len(h) for h in self.hands], "stock": len(self.stock),
            "claims": r.claims, "window": w.public() if w is not None else None,
            "over": self._over, "winners": sorted(self._winners),
        }
        if seat is not None:
            v["my_hand"] = [c.text for c in sorted(self.hands[seat], key=lambda c: c.index)]
            v["legal"] = [self.format_action(a) for a in self.legal_actions(seat)]
        return v

    def inventory(self) -> dict[str, list[str]]:
        """Every card by where it lies: each hand, the stock, the pile in play and the closed piles."""
        out = {f"hand {s}": [c.text for c in h] for s, h in enumerate(self.hands)}
        out["stock"] = [c.text for c in self.stock]
        out["pile"] = [c.text for c in self.pile]
        out["closed piles"] = [c.text for p in self.piles for c in p]
        return out
