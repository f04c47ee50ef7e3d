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
from typing import Any, cast

from muggins.cards.dealing import CARD_BY_TEXT, DECK, cut_for_deal, record_card
from muggins.cards.deck import Card, parse_card
from muggins.cards.muggins31.rules import CardMugginsRules
from muggins.cards.muggins31.views import Muggins31View
from muggins.core.chance import Chance, shuffle
from muggins.core.errors import (
    IllegalAction,
    NotYourTurn,
    RecordError,
    RulesError,
    UnknownAction,
    shown,
)
from muggins.core.fields import LIST, LISTS, RESET, StateField
from muggins.core.protocol import Action, Event, GameState, check_seat
from muggins.core.sampling import Build, primary_events, redeal_events, resample
from muggins.core.views import WindowView

PLAY: tuple[Action, ...] = tuple(Action("play", c) for c in DECK)  # indexed by Card.index
GO = Action("go")
#: the cards worth at most v, a bit per index (a go at total T rules out _LOW[cap - T] for the hand)
_LOW: tuple[int, ...] = tuple(sum(1 << c.index for c in DECK if c.value <= v) for v in range(11))


_primary = primary_events("play", "go")


def _card(text: Any) -> Card:
    """A card of a chance outcome or of the log."""
    return record_card(text, "deal")


def deal_builder(seat: int, n: int, cap: int, hand_size: int) -> Build:
    """The deals ``sample_hidden`` draws for ``seat`` (of the pure and the native state alike), for
    :func:`muggins.core.sampling.resample`: every card another seat holds or held is a slot, forbidden the
    values a go of its holder ruled out; the unseen cards are shuffled by the generator and dealt tightest slot
    first; None when no world fits."""

    def build(segment: list[tuple[int, dict[str, Any]]], outcomes: list[dict[str, Any]],
              learned: dict[int, int], pick: random.Random | None,
              memo: dict[str, Any] | None = None) -> list[dict[str, Any]] | None:
        # one slot per card another seat holds or held: [forbidden cards (a bit per index), card]
        slots: dict[tuple[int, int], list[Any]] = {}
        held: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        mine: list[str] = []
        drawn: list[tuple[int, Card | None]] = []  # the stock as drawn this round: (seat, card if seen)
        for _, d in segment:
            k = d["kind"]
            s = d.get("seat")
            if s is None or (s == seat and k != "dealt" and k != "draw"):
                continue
            if k == "dealt":
                if s == seat:
                    mine = list(d["cards"])
                else:
                    for j in range(int(d["count"])):
                        slots[(s, j)] = [0, None]
                        held[s].append((s, j))
            elif k == "draw":
                if s == seat:
                    drawn.append((s, _card(d["card"])))
                else:
                    key = (s, -1 - len(drawn))
                    slots[key] = [0, None]
                    held[s].append(key)
                    drawn.append((s, None))
            elif k == "go":
                m = _LOW[max(0, min(10, cap - int(d["total"])))]
                for key in held[s]:
                    slots[key][0] |= m
            elif k == "play":
                card = _card(d["card"])
                bit = 1 << card.index
                ok = [key for key in held[s] if not slots[key][0] & bit]
                # constraints only grow, so a slot held longer is the more constrained: taking the most
                # constrained slot that allows the card never blocks a later one
                key = max(ok, key=lambda key: slots[key][0].bit_count()) if ok else held[s][0]
                slots[key][1] = card
                held[s].remove(key)
        known = {_card(x) for x in mine} | {c for _, c in drawn if c is not None}
        known.update(v[1] for v in slots.values() if v[1] is not None)
        unknown = [x for x in DECK if x not in known]
        if pick is not None:
            shuffle(unknown, pick)
        keys = [key for s in range(n) for key in held[s] if slots[key][1] is None]
        if keys:
            # tightest slots first: the value bounds are nested, so a greedy choice never blocks a later slot
            keys.sort(key=lambda key: -slots[key][0].bit_count())
            for key in keys:
                m = slots[key][0]
                i = next((i for i, x in enumerate(unknown) if not m >> x.index & 1), 0)
                slots[key][1] = unknown.pop(i)
        for m, c in slots.values():
            if m >> c.index & 1:  # no world fits: a card its holder was shown not to hold
                return None
        hands = [mine if s == seat else [slots[(s, j)][1].text for j in range(hand_size)]
                 for s in range(n)]
        stock = [(c if c is not None else slots[(s, -1 - g)][1]).text for g, (s, c) in enumerate(drawn)]
        stock.extend(x.text for x in unknown)
        return [*(dict(o) for o in outcomes if o.get("kind") != "deal"),
                {"kind": "deal", "hands": hands, "stock": stock}]

    return build


# Every field of a CardMugginsState beyond GameState's, declared once: muggins.core.fields generates from this
# table the annotations of CardMugginsState, _FIELDS and clone().
# fields-target: CardMugginsState FIELDS _FIELDS base=core/protocol.py
FIELDS = (
    StateField("rules", "object", "CardMugginsRules"),
    StateField("hands", "list", "list[list[Card]]", LISTS),
    StateField("stock", "list", "list[Card]", LIST, "top of the stock is the end of the list"),
    StateField("pile", "list", "list[Card]", LIST),
    StateField("piles", "list", "list[list[Card]]", LIST, "the closed piles of this round, in order (never changed)"),
    StateField("total", "long", "int"),
    StateField("turn", "long", "int"),
    StateField("dealer", "long", "int"),
    StateField("round_no", "long", "int"),
    StateField("_legal_cache", "object", "tuple[int, list[Action]] | None", RESET),
    StateField("_final", "bint", "bool"),
    StateField("_passed", "list", "list[bool]", LIST,
               "who has passed in this pile (since the last play, unless _final)"),
    StateField("_last_player", "long", "int"),
    StateField("_last_passer", "long", "int"),
    StateField("_round_log_start", "long", "int"),
)


class CardMugginsState(GameState):
    """One position of a card Muggins game. Each player is his own side."""

    game = "card-muggins"
    action_ids = "muggins.cards.muggins31.action_ids"  # numbers the moves: docs/actions.md

    # >>> generated by python -m muggins.core.fields from FIELDS: do not edit (hints)
    rules: CardMugginsRules
    hands: list[list[Card]]
    stock: list[Card]        # top of the stock is the end of the list
    pile: list[Card]
    piles: list[list[Card]]  # the closed piles of this round, in order (never changed)
    total: int
    turn: int
    dealer: int
    round_no: int
    _legal_cache: tuple[int, list[Action]] | None
    _final: bool
    _passed: list[bool]      # who has passed in this pile (since the last play, unless _final)
    _last_player: int
    _last_passer: int
    _round_log_start: int
    # <<< end of generated hints

    # ------------------------------------------------------------------------------------ set-up ----
    @classmethod
    def new(cls, rules: CardMugginsRules, num_players: int, chance: Chance) -> CardMugginsState:
        if not 2 <= num_players <= 4:
            raise RulesError(f"card Muggins is for 2-4 players; got {num_players}")
        if rules.hand_size * num_players > len(DECK):
            raise RulesError(f"{num_players} hands of {rules.hand_size} need more than 52 cards")
        s = cls._blank(rules, num_players, chance, list(range(num_players)))  # every player for himself
        s._legal_cache = None
        s._final = rules.go_is_final_for_pile
        s.round_no = 0
        s.dealer = cut_for_deal(chance, s.log, num_players, rules.first_dealer == "low_card", "cut_for_deal")
        s._start_round()
        return s

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
    def _regular(self, seat: int) -> list[Action]:
        """Legal moves of ``seat`` (claims aside): on his turn every card that fits, else go (A9)."""
        if seat != self.turn:
            return []
        cache = self._legal_cache
        if cache is None or cache[0] != self._ver:
            room = self.rules.cap - self.total
            cache = self._legal_cache = (self._ver, [PLAY[c.index] for c in self.hands[seat] if c.value <= room]
                                         or [GO])
        return cache[1]

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

    def _points_of(self, seat: int, action: Action) -> int:
        """The points a play makes for ``seat`` now: what a perfect player announces with it ("last"
        included only when it is muggable and known at play time)."""
        if action.kind != "play" or seat != self.turn or not isinstance(action.subject, Card):
            return 0
        pts, last, _ = self._play_outcome(seat, action.subject)
        return pts + last if self.rules.mug_last else pts

    # ------------------------------------------------------------------------------------ apply ----
    def _closes_window(self, seat: int, action: Action) -> bool:
        """With window=until_next_play only a play closes the window (a go does not)."""
        return action.kind == "play" or self.rules.window == "until_next_action"

    def _apply_move(self, seat: int, action: Action) -> None:
        kind = action.kind
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")
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
            if self._regular(seat)[0] is not GO:
                fits = " ".join(a.subject.text for a in self._regular(seat))
                raise IllegalAction(f"you can play ({fits}): say go only when no card keeps the total "
                                    f"at most {self.rules.cap}")
        elif kind == "draw":
            raise IllegalAction("there is no draw move: cards are drawn automatically after a play or a go")
        else:
            raise IllegalAction(f"unknown move {shown(kind)} (moves are play <card>, go, muggins, claim <n>)")
        self.history.append((seat, action))
        self._ver += 1
        if kind == "play":
            self._do_play(seat, action.subject, action.claim)
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
        self._end_window()  # points still unclaimed when the game ends are logged as missed
        self.log.append(Event("game_end", None, {"winners": sorted(seats), "scores": list(self._scores)}))

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
        self._score_step(seat, pts + last if mug_last else pts, claim, "play")
        if self._over:
            return
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
            if r.last_points:  # muggable with mug_last; the scorer may claim it late, whatever the timing
                self._score_step(lp, r.last_points, None, "last", "last card", r.mug_last, r.last_points, True)
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
        # >>> generated by python -m muggins.core.fields from FIELDS: do not edit (clone)
        c.__dict__.update(self.__dict__)
        self._clone_base(c)
        c.hands = [v[:] for v in self.hands]
        c.stock = self.stock[:]
        c.pile = self.pile[:]
        c.piles = self.piles[:]
        c._legal_cache = None
        c._passed = self._passed[:]
        # <<< end of generated clone
        return c

    def sample_hidden(self, seat: int, rng: random.Random) -> CardMugginsState:
        """A game of its own that ``seat`` cannot tell from this one: every deal rebuilt from what ``seat``
        saw (the current round's unseen cards drawn from ``rng``, ended rounds one canonical way) and the
        public history replayed on it (see :mod:`muggins.core.sampling`). A player who said go at total T
        held no card worth cap - T or less then."""
        check_seat(seat, self.num_players)

        def swap(t: GameState, segment: list[tuple[int, dict[str, Any]]], made: list[dict[str, Any]],
                 seat: int) -> CardMugginsState | None:
            # the template's round with the deal of ``made``: hands, stock and the events that show them
            assert isinstance(t, CardMugginsState)
            deal = made[-1]
            held = [[CARD_BY_TEXT[x] for x in h] for h in deal["hands"]]
            stock = [CARD_BY_TEXT[x] for x in deal["stock"]]
            c = t.clone()
            g = redeal_events(c.log, segment, seat, held, stock, deal["hands"], CARD_BY_TEXT, "card")
            c.hands = held
            c.stock = stock[g:][::-1]
            return c

        sample = resample(self, seat, rng, start_kind="round_start", primary=_primary,
                          build=deal_builder(seat, self.num_players, self.rules.cap, self.rules.hand_size), swap=swap)
        assert isinstance(sample, CardMugginsState)
        return sample

    # -------------------------------------------------------------------------------- notation ----
    def format_action(self, action: Action) -> str:
        if action.kind == "play":
            return f"play {action.subject}"
        return str(action.kind)

    def parse_action(self, text: object, seat: int | None = None) -> Action:
        words = [w.lower() for w in self._words(text, "empty move; moves are play <card>, go, muggins [n], claim <n>")]
        head = words[0]
        if head in ("go", "pass"):
            if len(words) != 1:
                raise UnknownAction(f"cannot read {text!r}; say just 'go'")
            return GO
        if head in ("muggins", "claim"):
            return self._parse_call(words, text, 10)
        if head == "play":
            words = words[1:]
        if len(words) != 1:
            raise UnknownAction(f"cannot read {text!r}; write a play like 'play 5H'")
        return PLAY[parse_card(words[0]).index]

    # ------------------------------------------------------------------------------------ views ----
    def view(self, seat: object) -> Muggins31View:
        # typed object: a compiled build would make True or 1.0 a seat before the check; -1 would
        # read the last seat's hand
        return self._view(None if seat is None else check_seat(seat, self.num_players))

    def _view(self, seat: int | None) -> Muggins31View:
        r = self.rules
        w = self._window
        return Muggins31View(
            game=self.game, preset=r.preset, seat=seat, players=self.num_players,
            scores=list(self._scores), target=r.target, cap=r.cap, round=self.round_no,
            dealer=self.dealer, turn=None if self._over else self.turn, to_act=sorted(self.to_act()),
            total=self.total, pile=[c.text for c in self.pile],
            earlier_piles=[[c.text for c in p] for p in self.piles],
            passed=[s for s in range(self.num_players) if self._passed[s]],
            last_player=None if self._last_player < 0 else self._last_player,
            hand_sizes=[len(h) for h in self.hands], stock=len(self.stock),
            claims=r.claims, window=cast("WindowView", w.public()) if w is not None else None,
            over=self._over, winners=sorted(self._winners),
            my_hand=[c.text for c in sorted(self.hands[seat], key=lambda c: c.index)] if seat is not None else None,
            legal=[self.format_action(a) for a in self.legal_actions(seat)] if seat is not None else None,
        )


    def inventory(self) -> dict[str, list[str]]:
        """Every card by where it lies: each hand, the stock, the pile in play and the closed piles."""
        out = {f"hand {s}": [c.text for c in h] for s, h in enumerate(self.hands)}
        out["stock"] = [c.text for c in self.stock]
        out["pile"] = [c.text for c in self.pile]
        out["closed piles"] = [c.text for p in self.piles for c in p]
        return out


# >>> generated by python -m muggins.core.fields from FIELDS: do not edit (names)
_FIELDS = (
    "rules", "num_players", "chance", "history", "log", "_over", "_winners", "_scores", "_side", "_manual",
    "_window", "_ver", "hands", "stock", "pile", "piles", "total", "turn", "dealer", "round_no",
    "_legal_cache", "_final", "_passed", "_last_player", "_last_passer", "_round_log_start",
)
# <<< end of generated names
