"""Card Muggins through the protocol on the native engine: :class:`NativeCardMugginsState` (see
:mod:`muggins.cards.native_state`). The engine is :mod:`muggins.cards.muggins31.native`; every deal is the pure
engine's (``CardMugginsState._deal``): read from the state's chance by that code when recorded, drawn by the engine
from the chance's generator as that code draws it otherwise."""

from __future__ import annotations

import random
from typing import Any

from muggins.cards.dealing import DECK
from muggins.cards.deck import Card
from muggins.cards.muggins31.state import _FIELDS as PURE_FIELDS
from muggins.cards.muggins31.state import GO, PLAY, CardMugginsState, _primary, deal_builder
from muggins.cards.muggins31.views import Muggins31View
from muggins.cards.native_state import NativeCardState, public_window
from muggins.core.protocol import Action, Event, check_seat
from muggins.core.sampling import resample

#: the pure state's fields: read from the twin, they are the position (a comparison of states reads them)
_FIELDS = PURE_FIELDS
_TEXT = tuple(c.text for c in DECK)
_TABLE: tuple[Action, ...] = (*PLAY, GO)  # the engine's internal ids: a play is its card, a go 52


class NativeCardMugginsState(NativeCardState):
    """A card Muggins game played by the native engine (each player is his own side)."""

    game = "card-muggins"
    action_ids = "muggins.cards.muggins31.action_ids"
    pure_type = CardMugginsState
    engine = "muggins.cards.muggins31.native"
    engine_class = "NativeCardMuggins"

    @classmethod
    def _start_native(cls, rules: Any, num_players: int, seed: int | None, state: Any) -> Any:
        from muggins.cards.native_state import _engine

        return _engine(cls.engine).NativeCardMuggins.start(rules, num_players, seed, state)

    def _outcomes(self, drawn: list[tuple[int, int, int, list[int]]]) -> list[dict[str, Any]]:
        """As ``cut_for_deal`` and ``CardMugginsState._deal`` make them."""
        n, each = self.num_players, self.rules.hand_size
        out: list[dict[str, Any]] = []
        for kind, a, _, cards in drawn:
            texts = [_TEXT[c] for c in cards]
            if kind == 1:
                out.append({"kind": "deal", "hands": [texts[(s - a - 1) % n:n * each:n] for s in range(n)],
                            "stock": texts[n * each:]})
            else:
                out.append({"kind": "cut_for_deal", "seats": [s for s in range(n) if (a >> s) & 1],
                            "cards": texts})
        return out

    def _draw_deal(self, dealer: int) -> tuple[list[list[int]], list[int]] | None:
        """The next deal of the chance, read and checked as the pure engine does: each hand in the order dealt,
        the stock in draw order; None: the engine draws it (and those after) from the generator."""
        if self._hand_over():
            return None
        n = self.num_players
        scratch = CardMugginsState._blank(self.rules, n, self._chance, list(range(n)))
        scratch.dealer = dealer
        scratch._deal()
        return [[c.index for c in h] for h in scratch.hands], [c.index for c in reversed(scratch.stock)]

    @classmethod
    def _table_for(cls, rules: Any) -> tuple[Action, ...]:
        return _TABLE

    def inventory(self) -> dict[str, list[str]]:
        """As ``CardMugginsState.inventory``: each hand, the stock, the pile in play and the closed piles."""
        nat = self._nat
        ch = self._sync_chance(False)
        deal = next(o for o in reversed(ch.outcomes[:ch.position]) if o.get("kind") == "deal")
        # a hand as the pure state keeps it: the cards dealt, in the order dealt, then those drawn, in turn
        order = {text: (0, i) for h in deal["hands"] for i, text in enumerate(h)}
        order.update((text, (1, i)) for i, text in enumerate(deal["stock"]))
        out = {f"hand {s}": sorted((_TEXT[c] for c in nat.held(s)), key=order.__getitem__)
               for s in range(self.num_players)}
        out["stock"] = [_TEXT[c] for c in reversed(nat.stock())]
        out["pile"] = [_TEXT[c] for c in nat.pile()]
        out["closed piles"] = [c for p in self._tracked().piles for c in p]
        return out

    def _refusing(self, blank: Any) -> None:
        nat = self._nat
        blank.turn = nat.turn()
        blank.hands = [[DECK[c] for c in nat.held(s)] for s in range(self.num_players)]
        blank.total = nat.total()

    @property
    def round_no(self) -> int:
        """The number of the round being played (``CardMugginsState.round_no``)."""
        return int(self._nat.round_no())

    @property
    def total(self) -> int:
        """The total of the pile in play (``CardMugginsState.total``)."""
        return int(self._nat.total())

    def _points_of(self, seat: int, action: Action) -> int:
        """As ``CardMugginsState._points_of``: a play's points ("last" with ``mug_last``), from the engine."""
        card = action.subject
        if action.kind != "play" or seat != self._nat.turn() or not isinstance(card, Card):
            return 0
        return int(self._nat.true_points(seat, card.index * self._space.by_kind["play"].width))

    def sample_hidden(self, seat: int, rng: random.Random) -> NativeCardMugginsState:
        """As ``CardMugginsState.sample_hidden`` (the same draws from ``rng``, the same deal): every round
        rebuilt from what ``seat`` saw and replayed natively (:func:`muggins.core.sampling.resample` on this
        state); the sample is this game's record with the current round's deal drawn, replayed natively."""
        check_seat(seat, self.num_players)
        r = self.rules
        state: Any = self  # (read through the protocol, as a pure state is)
        swap: Any = self._replayed
        sample = resample(state, seat, rng, start_kind="round_start", primary=_primary,
                          build=deal_builder(seat, self.num_players, r.cap, r.hand_size), swap=swap)
        assert isinstance(sample, NativeCardMugginsState)
        return sample

    def _replayed(self, t: Any, segment: Any, made: list[dict[str, Any]], seat: int) -> NativeCardMugginsState:
        """This game's record with the outcomes of the current round replaced by ``made``, replayed natively
        (``resample``'s swap: what the pure state gets by swapping the deal into the template ``t``)."""
        outs = t.chance.outcomes
        return self._replayed_with([*outs[:len(outs) - len(made)], *made], self.history)

    def view(self, seat: object) -> Muggins31View:
        """What ``seat`` may see (None: a spectator): see ``_view`` (declared here for the view's type)."""
        seen: Muggins31View = super().view(seat)
        return seen

    def _new_tracker(self, start: Any) -> _Piles:
        return _Piles([[c.text for c in p] for p in start.piles])

    def _view(self, seat: int | None) -> Muggins31View:
        """As ``CardMugginsState._view``, from the engine's data (the closed piles from the log)."""
        nat = self._nat
        r = self.rules
        over = nat.is_over()
        last = nat.last_player()
        return Muggins31View(
            game=self.game, preset=r.preset, seat=seat, players=self.num_players,
            scores=list(nat.side_scores()), target=r.target, cap=r.cap, round=nat.round_no(),
            dealer=nat.dealer(), turn=None if over else nat.turn(), to_act=sorted(nat.to_act()),
            total=nat.total(), pile=[_TEXT[c] for c in nat.pile()],
            earlier_piles=[p[:] for p in self._tracked().piles], passed=nat.passed(),
            last_player=None if last < 0 else last, hand_sizes=nat.hand_sizes(), stock=nat.stock_size(),
            claims=r.claims, window=public_window(nat.window()), over=over, winners=sorted(nat.winners()),
            my_hand=[_TEXT[c] for c in nat.held(seat)] if seat is not None else None,
            legal=[self.format_action(a) for a in self.legal_actions(seat)] if seat is not None else None,
        )


class _Piles:
    """The closed piles of the round, as the log tells them (a view tracker, see ``NativeCardState._tracked``)."""

    __slots__ = ("piles", "pos")

    def __init__(self, piles: list[list[str]], pos: int = 0) -> None:
        self.piles = piles
        self.pos = pos  # the engine's events fed so far

    def feed(self, e: Event) -> None:
        if e.kind == "pile_end":
            self.piles.append(e.data["cards"])
        elif e.kind == "round_start":
            self.piles = []

    def copy(self) -> _Piles:
        return _Piles(self.piles[:], self.pos)
