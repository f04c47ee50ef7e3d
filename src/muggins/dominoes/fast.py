"""Dominoes through the protocol on the native engine: :class:`NativeDominoState` (what ``spec.new`` gives
where the native engine is built and plays the rules), and the decoder of the native engine's integer event
log.

The native engine (:mod:`muggins.dominoes.native`) logs each event as a few ints while it runs; ``Event``
objects are made here by :class:`LogDecoder`, at the protocol's edge, only when asked for. Both move
protocols go straight to C: the integer ids (``legal_action_ids`` / ``apply_action_id``), and the Actions
(``legal_actions`` / ``apply``), each Action made once and shared, picked in C in the pure engine's order and
an offered one applied by its id. Every hand's lots and deal are drawn from the state's
:class:`~muggins.core.chance.Chance` as the pure engine draws them (:mod:`muggins.dominoes.deals`; a fresh
draw from its generator is made in C with the same draws, ``NativeDominoes.deal_fresh``).
The views (:meth:`NativeDominoState.view`) are made from the C data too (hand sizes, the seat's own tiles, the
layout's geometry, the window). :meth:`NativeDominoState.to_pure` gives the equal pure
:class:`~muggins.dominoes.state.DominoState` (the same deals, the same moves), the reference for everything
else (sampling, notation).
"""

from __future__ import annotations

import random
from typing import Any, NoReturn, cast

from muggins.core.action_ids import id_mask, space_of
from muggins.core.chance import Chance
from muggins.core.claims import check_points
from muggins.core.engine import refusing_type
from muggins.core.errors import ClaimError, GameOver, IllegalAction, NotYourTurn, RecordError, shown
from muggins.core.protocol import Action, Event, check_action, check_seat
from muggins.dominoes.deals import draw_deal, draw_lot, fresh, lot_tied
from muggins.dominoes.rules import DominoRules
from muggins.dominoes.tiles import Tile, full_set, parse_tile, pips
from muggins.dominoes.views import DominoView, LayoutTile, OpenEnd, move_text

# the native log's record codes and the names its small ints stand for (native.pyx, "event log")
(EV_ACT, EV_LOT, EV_DEAL, EV_PLAY, EV_DRAW, EV_PASS, EV_CLAIM, EV_OVER, EV_SCORE, EV_VOID, EV_MISSED, EV_MUGGINS,
 EV_HAND_END, EV_TIE, EV_END, EV_KNOCK) = range(16)
_LENGTH = {EV_ACT: 3, EV_PLAY: 5, EV_DRAW: 4, EV_PASS: 2, EV_CLAIM: 4, EV_OVER: 5, EV_SCORE: 5, EV_VOID: 6,
           EV_MISSED: 4, EV_MUGGINS: 7, EV_HAND_END: 3, EV_TIE: 2, EV_END: 6, EV_KNOCK: 3}
_REASONS = ("play", "domino", "over-claim penalty", "own pips", "blocked", "mugged", "false call", "muggins")
#: what an over-claim names, by the reason of its step's window (a muggable bonus is claimed with its play)
_WHAT = ("play", "play and its domino bonus")
_OUTCOMES = ("steal", "forfeit", "steal_and_deduct", "false_call")
_NONDOUBLE, _CROSS, _SPINNER = 0, 2, 3  # the layout tile kinds of the native scope (state.py's numbers)
_DRAW_SECRET = ("tile", "forced")
_MOVES = (Action("draw"), Action("pass"), Action("knock"))  # the moves numbered after the plays, in order
_new_tuple = tuple.__new__

#: where a native log starts: hands (tile indices in hand order), layout tiles, their (kind, v0, v1), masks,
#: free places in the pure engine's order as (node, slot bit, value), the spinner, the hand number
Start = tuple[list[list[int]], list[int], list[tuple[int, int, int]], list[int], list[tuple[int, int, int]], int,
              int]


def log_start(state: Any) -> Start:
    """What the decoder must know of the pure ``state`` a native log starts from."""
    return ([[t.index for t in h] for h in state.hands], [t.index for t in state._ltile],
            [(x[0], x[1], x[2]) for x in state._linfo], list(state._lmask),
            [(x[4], x[5], x[2]) for x in state._posall], state._spinner, state.hand_no)


class LogDecoder:
    """Turns the native int log into the pure engine's Events, in order, keeping what the events need that
    the ints leave out: the order of each hand, the layout tiles and the free places in the pure engine's
    order (draw and pass events list the open ends so). Also collects the history and the chance outcomes."""

    def __init__(self, rules: DominoRules, n: int, start: Start | None) -> None:
        self.rules = rules
        self.n = n
        self.tiles: list[Tile] = full_set(rules.tile_set)
        self.manual = rules.claims == "manual"
        self.spins = rules.spinner != "none"
        self.all_doubles = rules.spinner == "all_doubles"
        self.fill_first = bool(rules.spinner_fill_first)
        teams = bool(rules.partnerships) and n == 4
        self.side = [s % 2 if teams else s for s in range(n)]
        self.nsides = 2 if teams else n
        self.pos = 0  # ints decoded
        self.evs: list[Event] = []
        self.hist: list[tuple[int, int]] = []
        #: the actions applied, as the pure engine's history keeps them (a play's place is known from its
        #: play record, which follows its action record)
        self.acts: list[tuple[int, Action]] = []
        self._play_claim: int | None = None
        space = space_of("muggins.dominoes.action_ids", rules, n)
        play = space.by_kind["play"]
        self._width, self._play_stop = play.width, play.stop
        mug = space.by_kind.get("muggins")
        self._mug = mug.start if mug is not None else space.size
        claim = space.by_kind.get("claim")
        self._claim = claim.start if claim is not None else space.size
        self.outcomes: list[dict[str, Any]] = []
        if start is None:
            start = ([[] for _ in range(n)], [], [], [], [], -1, 0)
        hands, ltile, info, mask, places, spinner, hand_no = start
        self.hands = [h[:] for h in hands]
        self.ltile = ltile[:]
        self.info = info[:]
        self.mask = mask[:]
        self.places = places[:]
        self.spinner = spinner
        self.hand_no = hand_no

    # --- the layout, as the pure engine keeps it ------------------------------------------------------
    def _positions(self, node: int) -> list[tuple[int, int, int]]:
        kind, v0, v1 = self.info[node]
        m = self.mask[node]
        out = []
        if kind == _NONDOUBLE:
            if not m & 1:
                out.append((node, 1, v0))
            if not m & 2:
                out.append((node, 2, v1))
            return out
        line = m & 3
        if line != 3:
            out.append((node, 2 if line & 1 else 1, v0))
        if kind == _CROSS:
            return out
        branch = m & 12
        if branch != 12 and (line == 3 or not self.rules.spinner_sides_first):
            out.append((node, 8 if branch & 4 else 4, v0))
        return out

    def _place(self, t: Tile, k: int) -> tuple[int, int, int] | None:
        """Lay ``t`` on numbered free place ``k`` (-1: the lead), as ``DominoState._place``; returns that
        place (node, bit, value) or None for the lead."""
        nid = len(self.ltile)
        places = self.places
        double_kind = _SPINNER if self.all_doubles else _CROSS if not self.spins or self.spinner >= 0 else _SPINNER
        where = None
        if k < 0:
            kind, v0, v1 = (double_kind, t.hi, t.hi) if t.double else (_NONDOUBLE, t.hi, t.lo)
            m = 0
        else:
            where = sorted(places)[k]
            node, bit, v = where
            i = places.index(where)
            pk = self.info[node][0]
            self.mask[node] |= bit
            outer = t.other(v)
            if pk == _NONDOUBLE and not t.double and not self.fill_first:
                places[i] = (nid, 2, outer)
                self.ltile.append(t.index)
                self.info.append((_NONDOUBLE, v, outer))
                self.mask.append(1)
                return where
            if pk == _NONDOUBLE:
                del places[i]
            else:
                places[:] = [y for y in places if y[0] != node]
                places.extend(self._positions(node))
            kind, v0, v1 = (double_kind, v, v) if t.double else (_NONDOUBLE, v, outer)
            m = 1
        if self.spinner < 0 and self.spins and kind == _SPINNER:
            self.spinner = nid
        self.ltile.append(t.index)
        self.info.append((kind, v0, v1))
        self.mask.append(m)
        if kind == _NONDOUBLE and m == 1:
            places.append((nid, 2, v1))
        else:
            places.extend(self._positions(nid))
        return where

    def open_values(self) -> list[int]:
        """The values of the free places where a tile may go now, as ``DominoState._posflat``: under
        ``spinner_fill_first`` the spinner's while it has any."""
        if self.fill_first and self.spinner >= 0:
            sp = self.spinner
            on = [x[2] for x in self.places if x[0] == sp]
            if on:
                return on
        return [x[2] for x in self.places]

    # --- decoding -----------------------------------------------------------------------------------
    def _decode(self, ints: list[int]) -> None:
        tiles, n, evs, r = self.tiles, self.n, self.evs, self.rules
        i, end = 0, len(ints)
        while i < end:
            code = ints[i]
            if code == EV_LOT:
                mask, k = ints[i + 1], ints[i + 2]
                seats = [s for s in range(n) if mask >> s & 1]
                texts = [tiles[x].text for x in ints[i + 3:i + 3 + k]]
                self.outcomes.append({"kind": "lot", "seats": seats, "tiles": texts})
                evs.append(Event("lot", None, {"seats": list(seats), "tiles": list(texts)}))
                i += 3 + k
                continue
            if code == EV_DEAL:
                hand, leader, nbone = ints[i + 1], ints[i + 2], ints[i + 3]
                perm = ints[i + 4:i + 4 + len(tiles)]
                each = (len(tiles) - nbone) // n
                self.hands = [perm[s * each:(s + 1) * each] for s in range(n)]
                bone = perm[n * each:]
                self.outcomes.append({"kind": "deal", "hands": [[tiles[x].text for x in h] for h in self.hands],
                                      "boneyard": [tiles[x].text for x in reversed(bone)]})
                self.hand_no = hand
                self.ltile, self.info, self.mask, self.places, self.spinner = [], [], [], [], -1
                evs.append(Event("hand_start", None, {"hand": hand, "leader": leader, "boneyard": nbone}))
                for s in range(n):
                    evs.append(Event("dealt", s, {"tiles": [tiles[x].text for x in self.hands[s]], "count": each},
                                     ("tiles",)))
                i += 4 + len(tiles)
                continue
            a = ints[i + 1]
            b = ints[i + 2] if code != EV_PASS and code != EV_TIE else 0
            if code == EV_ACT:
                self.hist.append((a, b))
                self._act(a, b)
            elif code == EV_PLAY:
                t = tiles[b]
                self.hands[a].remove(b)
                where = self._place(t, ints[i + 3])
                data: dict[str, Any] = {"tile": t.text if where is None else t.touch[where[2]],
                                        "on": None if where is None else tiles[self.ltile[where[0]]].text}
                if where is not None and where[1] >= 4:
                    data["part"] = "end"
                if not self.manual:
                    data["count"] = ints[i + 4]
                evs.append(Event("play", a, data))
                self.acts.append((a, _new_tuple(Action, (
                    "play", t, None if where is None else tiles[self.ltile[where[0]]],
                    "end" if where is not None and where[1] >= 4 else None, self._play_claim))))
            elif code == EV_DRAW:
                self.hands[a].append(b)
                evs.append(Event("draw", a, {"tile": tiles[b].text, "ends": self.open_values(),
                                             "forced": bool(ints[i + 3]), "lead": not self.ltile}, _DRAW_SECRET))
            elif code == EV_PASS:
                evs.append(Event("pass", a, {"ends": self.open_values(), "lead": not self.ltile}))
            elif code == EV_KNOCK:
                evs.append(Event("knock", a, {"ends": self.open_values(), "partner": bool(b)}))
            elif code == EV_CLAIM:
                evs.append(Event("claim", a, {"points": b, "late": True} if ints[i + 3] else {"points": b}))
            elif code == EV_OVER:
                penalty = r.over_claim == "opponent_scores"
                what = _WHAT[ints[i + 4]]
                message = (f"announced {b}, more than the {what} is worth: the claim is void and "
                           + (f"the next opponent scores {b} as a penalty" if penalty else "scores nothing"))
                evs.append(Event("over_claim", a, {"points": b, "true": ints[i + 3], "what": what,
                                                   "message": message}, ("true",)))
            elif code == EV_SCORE:
                evs.append(Event("score", None if a < 0 else a, {"side": b, "points": ints[i + 3],
                                                                 "reason": _REASONS[ints[i + 4]]}))
            elif code == EV_VOID:
                why = ints[i + 5]
                text = (f"the first score must be at least {r.entry_threshold}" if why == 0 else
                        "it would pass the target" if why == 1 else "the winning points cannot come from the lead")
                evs.append(Event("void", None if a < 0 else a, {"side": b, "points": ints[i + 3],
                                                                "reason": _REASONS[ints[i + 4]], "why": text}))
            elif code == EV_MISSED:
                evs.append(Event("missed", a, {"side": self.side[a], "points": b, "reason": _REASONS[ints[i + 3]]}))
            elif code == EV_MUGGINS:
                named = ints[i + 5]
                how, why = ints[i + 3] & 3, ints[i + 3] >> 2
                evs.append(Event("muggins", a, {"on": b, "outcome": _OUTCOMES[how], "points": ints[i + 4],
                                                "named": None if named < 0 else named, "missed": ints[i + 6],
                                                "reason": _REASONS[why]}))
            elif code == EV_HAND_END:
                hands = [[tiles[x] for x in h] for h in self.hands]
                evs.append(Event("hand_end", None if a < 0 else a, {
                    "hand": self.hand_no, "reason": "domino" if b == 0 else "blocked",
                    "hands": [[t.text for t in h] for h in hands],
                    "pips": [pips(h, r.hand_double_counts_once) for h in hands]}))
            elif code == EV_TIE:
                evs.append(Event("tie_break", None, {"hands": a}))
            elif code == EV_END:
                evs.append(Event("game_end", None, {"winners": [s for s in range(n) if a >> self.side[s] & 1],
                                                    "scores": ints[i + 2:i + 2 + self.nsides]}))
            else:  # pragma: no cover - a log out of step with this decoder
                raise RuntimeError(f"unknown native log record {code} at int {self.pos + i}")
            i += _LENGTH[code]
        self.pos += end

    def _act(self, seat: int, i: int) -> None:
        """Action ``i`` of ``seat`` into the history (a play when its play record is decoded)."""
        if i < self._play_stop:
            code = i % self._width
            self._play_claim = code - 1 if code else None
        elif i < self._mug:
            self.acts.append((seat, _MOVES[i - self._play_stop]))
        elif i < self._claim:
            code = i - self._mug
            self.acts.append((seat, Action("muggins", claim=code - 1 if code else None)))
        else:
            self.acts.append((seat, Action("claim", claim=i - self._claim)))

    def events(self, ints: list[int], start: int = 0) -> list[Event]:
        """Decode ``ints`` (the log from :attr:`pos` on) and give the events from ``start``."""
        if ints:
            self._decode(ints)
        return self.evs[start:]

    def history(self, ints: list[int]) -> list[tuple[int, int]]:
        if ints:
            self._decode(ints)
        return list(self.hist)


class _ToC:
    """A method of a native state that is the C engine's own: reading it gives the native game's bound
    method, so a caller that keeps it calls C with no Python frame between."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, state: Any, owner: Any = None) -> Any:
        if state is None:
            return self
        return getattr(state._nat, self.name)


class NativeDominoState:
    """A game of dominoes played by the native engine, spoken to through the whole protocol: what
    ``spec.new`` gives for rules in the native scope (:meth:`unsupported`) unless ``MUGGINS_ENGINE=pure``.

    The moves (:meth:`legal_action_ids`, :meth:`apply_action_id`, :meth:`legal_actions`, :meth:`apply`,
    :meth:`waiting_for`, :meth:`is_over`) call the C engine directly; :attr:`log` and the scores are made from
    its C data at this edge, and so are the views (:meth:`view`). Every hand's lots and deal are drawn from
    :attr:`chance` by the same code as the pure engine's (:mod:`muggins.dominoes.deals`), so a seed or a
    record deals the same tiles on both. What else the protocol offers (history, notation, sampling frames,
    the hands and layout as tiles) is read from the equal pure :class:`~muggins.dominoes.state.DominoState`,
    kept in step with the native game move by move only once asked for (:meth:`to_pure`); a sampled world
    (:meth:`sample_hidden`) and an undone game are native states again."""

    game = "dominoes"
    action_ids = "muggins.dominoes.action_ids"
    #: its engine game (:attr:`native`) is played out as it is by a search's native rollout (copied), no
    #: pure copy of it read
    plays_out_its_game = True

    def __init__(self, rules: DominoRules, num_players: int, seed: int = 0) -> None:
        """A new game dealt by the native engine's own generator from ``seed`` (``muggins bench``, the
        native tests): its lots and deals are known as chance outcomes afterwards."""
        self._setup(_engine().NativeDominoes.new(rules, num_players, seed, log=True), rules, num_players, None,
                    None)

    @staticmethod
    def unsupported(rules: Any, num_players: int) -> str | None:
        """Why native states cannot play ``rules`` with ``num_players`` (the engine is not built or stale,
        or the rules are outside its scope: ``native.unsupported``); None when they can."""
        key = (id(rules), num_players)
        hit = _SCOPE.get(key)
        if hit is not None and hit[0] is rules:
            return hit[1]
        mod, why = _native()
        if mod is None:
            return f"muggins.dominoes.native {why}"
        out: str | None = mod.unsupported(rules, num_players)
        if out is not None:
            out = f"the native engine does not play {out}"
        if len(_SCOPE) > 256:
            _SCOPE.clear()
        _SCOPE[key] = (rules, out)
        return out

    @classmethod
    def new(cls, rules: DominoRules, num_players: int, chance: Chance) -> NativeDominoState:
        """As ``DominoState.new``: a new game whose lots and deals come from ``chance``."""
        s = cls.__new__(cls)
        s._setup(_engine().NativeDominoes.new(rules, num_players, 0, log=True, external=True), rules, num_players,
                 None, chance)
        s._deal()
        return s

    @classmethod
    def from_pure(cls, state: Any, seed: int | None = None) -> NativeDominoState:
        """The game of the pure ``state`` from here on (its log and history are kept in front); the next
        hands are dealt from a copy of its chance, or with ``seed`` by the native engine's generator."""
        s = cls.__new__(cls)
        external = seed is None
        nat = _engine().NativeDominoes.from_state(state, seed or 0, log=True, external=external)
        s._setup(nat, state.rules, state.num_players, state.clone(), state.chance.copy() if external else None)
        return s

    def _setup(self, nat: Any, rules: DominoRules, n: int, start: Any, chance: Chance | None) -> None:
        self._nat = nat
        self.rules = rules
        self.num_players = n
        self._start = start
        #: where the lots and deals come from (None: a game dealt by the native engine's generator)
        self.chance = chance
        self._twin_cache: Any = None
        #: the layout's view entries this hand: (hand number, entries, their tiles, their kinds)
        self._layout_cache: tuple[int, list[dict[str, Any]], list[int], list[int]] | None = None
        self._twin_at_cache = 0  # the native log's size the twin has caught up with
        self._twin_moves_cache = 0  # the native history the twin has played
        if chance is not None:
            nat.on_deal = self._deal
        nat.on_other = self._apply_other
        self._side = [x % 2 if rules.partnerships and n == 4 else x for x in range(n)]
        self._tiles = full_set(rules.tile_set)
        self._each = rules.tiles_each(n)
        space = space_of("muggins.dominoes.action_ids", rules, n)
        self._space = space
        play = space.by_kind["play"]
        self._width = play.width
        self._slots = space.slots  # type: ignore[attr-defined]
        self._play_stop = play.stop
        self._draw = space.by_kind["draw"].start
        mug = space.by_kind.get("muggins")
        self._mug = mug.start if mug is not None else space.size
        claim = space.by_kind.get("claim")
        self._claim = claim.start if claim is not None else space.size

    def _deal(self) -> None:
        """Deal the hand the native game waits for: its lots and deal drawn from :attr:`chance`."""
        nat, rules, n = self._nat, self.rules, self.num_players
        chance = self.chance
        assert chance is not None
        if fresh(chance):  # drawn natively, as deals.py draws them (the same draws, the same outcomes)
            nat.deal_fresh(chance)
            return
        tiles = self._tiles
        feed: list[int] = []
        mask, lightest = nat.lot_seats()
        seats = [s for s in range(n) if mask >> s & 1] if mask else []
        while seats:
            drawn = draw_lot(chance, tiles, rules.tile_set, seats)
            feed.extend(t.index for t in drawn)
            tied = lot_tied(drawn, seats, rules.lot_tie == "high_end", lightest)
            seats = tied if len(tied) > 1 else []
        hands, bone = draw_deal(chance, tiles, rules.tile_set, n, self._each)
        if len(hands) * self._each + len(bone) != len(tiles):
            raise RecordError("the native engine deals every tile of the set (hands and boneyard); this deal "
                              "leaves tiles out: replay it with MUGGINS_ENGINE=pure")
        for h in hands:
            feed.extend(t.index for t in h)
        feed.extend(t.index for t in bone)
        nat.deal_hand(feed)

    # --- the protocol -------------------------------------------------------------------------------
    @property
    def native(self) -> Any:
        """The :class:`~muggins.dominoes.native.NativeDominoes` game underneath."""
        return self._nat

    def _outcomes(self) -> list[dict[str, Any]]:
        """Every lot and deal drawn so far, in the order drawn."""
        if self.chance is not None:
            return self.chance.outcomes[:self.chance.position]
        before = self._start.chance.outcomes[:self._start.chance.position] if self._start is not None else []
        drawn: list[dict[str, Any]] = before + self._nat.chance_outcomes()
        return drawn

    # the integer protocol: the C engine's own methods (``_ToC``); a refused id raises the exception type the
    # pure engine raises (NoSuchSeat, GameOver, UnknownAction, IllegalAction), in the native engine's words
    legal_action_ids: Any = _ToC("legal_action_ids")
    apply_action_id: Any = _ToC("apply_action_id")
    waiting_for: Any = _ToC("waiting_for")
    is_over: Any = _ToC("is_over")
    # the Actions too: ``legal_actions`` as the pure engine lists them (the same, in the same order), each
    # made once per game family and shared; ``apply`` of one just offered goes by its id, any other Action
    # through :meth:`_apply_other` (the protocol's checks)
    legal_actions: Any = _ToC("legal_actions")
    apply: Any = _ToC("apply")


    def to_act(self) -> frozenset[int]:
        return frozenset(self._nat.to_act())

    def winners(self) -> frozenset[int]:
        return frozenset(self._nat.winners())

    def side_scores(self) -> list[int]:
        return list(self._nat.side_scores())

    def scores(self) -> list[int]:
        """Score of each seat (a partner shows the side's score)."""
        s = self._nat.side_scores()
        return [s[x] for x in self._side]

    def side_of(self, seat: int) -> int:
        return self._side[seat]

    @property
    def num_sides(self) -> int:
        return max(self._side) + 1

    def max_step_points(self) -> int:
        return int(self.rules.max_step_points)

    def num_distinct_actions(self) -> int:
        return int(self._space.size)

    @property
    def log(self) -> list[Event]:
        """The event log: the pure start's (if any), then the native engine's, made into Events now."""
        evs: list[Event] = self._nat.events()
        return list(self._start.log) + evs if self._start is not None else evs

    def events_for(self, seat: int | str | None, start: int = 0) -> list[dict[str, Any]]:
        if self._start is None:
            return [e.to_dict(seat) for e in self._nat.events(start)]
        return [e.to_dict(seat) for e in self.log[start:]]

    def _apply_other(self, seat: object, action: object) -> None:
        """``apply`` of an Action not just offered by :meth:`legal_actions` (``NativeDominoes.apply`` sends
        it here): validated as ``GameState.apply`` does and applied natively; a move refused raises what the
        pure engine raises (its type and words) and changes nothing."""
        try:
            self._apply(seat, action)
        except IllegalAction as e:
            self._refused(e, seat, action)

    def _refused(self, error: IllegalAction, seat: object, action: object) -> NoReturn:
        """Raise the reference engine's refusal of ``action`` (the native engine refused it with ``error``):
        a move of the game's own (``_apply`` words it with the pure engine's ``_why_illegal``) as it is, a
        call or a late claim as the pure twin refuses it."""
        if not isinstance(action, Action) or action.kind not in ("muggins", "claim"):
            raise error
        self.to_pure().clone().apply(seat, action)
        raise error  # pragma: no cover - refused by the native engine alone

    def _why_illegal(self, seat: int, action: Action) -> str:
        """Why ``action`` (no claim) is not a legal move of ``seat``, the seat to move: the pure engine's own
        words (``DominoState._why_illegal``), read from a pure state holding what that code reads of this
        position (the hands, the layout, the knock, the lead that is forced, the boneyard's size)."""
        nat, tiles, r = self._nat, self._tiles, self.rules
        from muggins.dominoes.state import DominoState

        blank = self._notation(refusing_type(DominoState))
        blank.hands = [[tiles[t] for t in nat.hand_of(s)] for s in range(self.num_players)]
        blank.boneyard = [None] * nat.table()[1]
        blank.phase = self.phase
        nat.history_ids()  # decodes the log so far
        dec = nat.decoder()
        blank._spinner = dec.spinner
        places = blank._posall
        blank._posflat = places
        if r.spinner_fill_first and any(x[4] == dec.spinner for x in places):
            blank._posflat = [x for x in places if x[4] == dec.spinner]
        blank._forced_lead = None
        if self.hand_no == 1 and r.first_lead == "highest_double_forced":  # the hands chose the lead
            from muggins.dominoes.state import _hands_leader

            deal = next(o for o in reversed(self._outcomes()) if o.get("kind") == "deal")
            blank._forced_lead = _hands_leader([[parse_tile(x, r.tile_set) for x in h] for h in deal["hands"]],
                                               True)[1]
        blank._knock = None  # a partner's knock stands until the next move: he must score or knock too
        last = next((e for e in reversed(self.log) if e.kind in _MOVE_KINDS), None)
        if last is not None and last.kind == "knock" and not last.data["partner"]:
            blank._knock = ("partner", last.seat)
        blank.legal = self._nat.offered
        return str(blank._why_illegal(seat, action))

    def _apply(self, seat: object, action: object) -> None:
        nat = self._nat
        if nat.is_over():
            raise GameOver("the game is over")
        action = check_action(action)
        seat = check_seat(seat, self.num_players)
        kind, claim = action.kind, action.claim
        manual = self.rules.claims == "manual"
        if kind == "muggins" or kind == "claim":
            if claim is not None:
                check_points(claim, self.max_step_points(), "a muggins call" if kind == "muggins" else "a claim")
            if not manual:
                raise ClaimError("there is no muggins in this game: points are scored automatically" if
                                 kind == "muggins" else "there is nothing for you to claim now")
            if kind == "muggins":
                nat.apply_id(seat, self._mug + (0 if claim is None else claim + 1))
                return
            w = nat.window()
            if w is None or w[0] != seat or not w[2]:
                raise ClaimError("there is nothing for you to claim now")
            if claim is None:
                raise ClaimError("a claim names its points, like 'claim 2'")
            nat.apply_id(seat, self._claim + claim)
            return
        if claim is not None:
            if not manual:
                raise ClaimError("points are scored automatically in this game; do not announce them "
                                 "(the option claims=manual turns the muggins rule on)")
            if kind != "play":
                raise ClaimError(f"only a play can carry a claim, not {kind!r}")
            check_points(claim, self.max_step_points(), "a claim")
        turn = nat.to_move()
        if seat != turn:
            raise NotYourTurn(f"it is seat {turn}'s turn, not seat {seat}'s")
        base = action if claim is None else action._replace(claim=None)
        i = self._nat.offered_id(seat, base)
        if i < 0:
            raise IllegalAction(self._why_illegal(seat, base))
        nat.apply_id(seat, i + (claim + 1 if claim is not None else 0))

    # --- copies, undo, sampling -------------------------------------------------------------------------
    def clone(self) -> NativeDominoState:
        c = NativeDominoState.__new__(NativeDominoState)
        c._setup(self._nat.clone(log=True), self.rules, self.num_players, self._start,
                 self.chance.copy() if self.chance is not None else None)
        if self._twin_cache is not None and self._twin_at_cache == self._nat.log_size:
            c._twin_cache, c._twin_at_cache = self._twin_cache.clone(), self._twin_at_cache
            c._twin_moves_cache = self._twin_moves_cache
        return c

    def undo(self, steps: object = 1) -> None:
        """Take back the last ``steps`` actions: the game played again from its start with the same chance
        (``GameState.undo``), natively by its action ids; only a game dealt by the native generator, or one
        read from a pure game undone past that point, is undone on the pure twin and read natively again."""
        ids = self._nat.history_ids()
        made = len(ids) + (len(self._start.history) if self._start is not None else 0)
        if type(steps) is not int or not 0 <= steps <= made:
            raise IllegalAction(f"cannot undo {shown(steps)} action(s); {made} made")
        if self.chance is not None and steps <= len(ids):
            fresh = (NativeDominoState.new(self.rules, self.num_players, self.chance.rewound())
                     if self._start is None else NativeDominoState.from_pure(self._start))
            for seat, i in ids[:len(ids) - steps]:
                fresh._nat.apply_id(seat, i)
        else:
            pure = self.to_pure()
            pure.undo(steps)
            if self.chance is not None:  # deals past the recorded ones come from this game's generator
                pure.chance.rng = self.chance.copy().rng
            fresh = NativeDominoState.from_pure(pure)
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)
        self._nat.on_other = self._apply_other
        if self.chance is not None:
            self._nat.on_deal = self._deal

    def sample_hidden(self, seat: int, rng: random.Random) -> NativeDominoState:
        """A native game consistent with everything ``seat`` has seen: ``DominoState.sample_hidden``'s own code
        (``sample_worlds``) run on this state, so the same numbers are drawn from ``rng`` for the same world,
        its future deals drawn from ``rng`` as there; the world replayed natively (:meth:`with_deal`). A game
        dealt by the native generator or read from a pure one is sampled by the pure engine, and so is a game
        with extra turns (Seven-Toed Pete): whether a seat kept the turn after a double or a scoring play says
        whether it could play again, which the sampler does not take into account, so a world replayed move by
        move could hand the turn on where the game kept it; the pure sample keeps the position's turn."""
        check_seat(seat, self.num_players)
        chance = self.chance
        if chance is None or self._start is not None or self.rules.extra_turn != "none":
            world = self.to_pure().sample_hidden(seat, rng)
            sample = NativeDominoState.from_pure(world)
            if sample.chance is not None:
                sample.chance.rng = world.chance.rng  # (its next deals drawn from ``rng`` itself, as there)
            return sample
        from muggins.dominoes.state import sample_worlds

        sample = sample_worlds(self, self._shell(), seat, rng)
        assert isinstance(sample, NativeDominoState)
        return sample

    def _shell(self) -> Any:
        """A pure state of these rules at this game's public turn, holding nothing of its tiles: what the
        sampler's frame code reads (the rules, the turn, a layout it lays on a copy of it). Made once for
        the rules; only its turn is set here (that code changes nothing of it)."""
        from muggins.dominoes.state import DominoState

        key = (id(self.rules), self.num_players)
        hit = _SHELLS.get(key)
        if hit is None or hit[0] is not self.rules:
            if len(_SHELLS) > 64:
                _SHELLS.clear()
            hit = _SHELLS[key] = (self.rules, DominoState.new(self.rules, self.num_players, Chance(0)))
        shell = hit[1]
        shell._over = self._nat.is_over()
        shell.turn = self._nat.to_move()
        return shell

    def with_deal(self, made: list[dict[str, Any]]) -> NativeDominoState:
        """This game with the outcomes of its current hand (its lots and deal) replaced by ``made`` and its
        moves replayed natively by their ids: the sample ``sample_worlds`` makes of a native template."""
        assert self.chance is not None and self._start is None
        outs = self.chance.outcomes[:self.chance.position]
        sample = NativeDominoState.new(self.rules, self.num_players,
                                       Chance(outcomes=[*outs[:len(outs) - len(made)], *made]))
        apply_id = sample._nat.apply_id
        for seat, i in self._nat.history_ids():
            apply_id(seat, i)
        return sample

    @property
    def phase(self) -> str:
        """"lead" while the hand waits for its lead, else "play" (``DominoState.phase``)."""
        return "lead" if self._nat.table()[4] else "play"

    def view(self, seat: int | None) -> DominoView:
        """What ``seat`` may see (None: a spectator), equal to ``DominoState.view`` of the equal pure state,
        made from the native game's C data: the seat's own tiles, the others' as counts, the boneyard as a
        count. NoSuchSeat for a seat the game does not have."""
        nat, r = self._nat, self.rules
        if seat is not None:
            check_seat(seat, self.num_players)
        sizes, nbone, scores, turn, lead, count, hand, nnodes, over, won, w = nat.table()
        tiles = self._tiles
        window: Any = None
        if w is not None:
            window = {"scorer": w[0], "claimed": None if w[1] < 0 else w[1], "reason": _REASONS[w[2]],
                      "scorer_may_claim": w[3]}
        return DominoView(
            game=self.game, preset=r.preset, seat=seat, players=self.num_players, sides=list(self._side),
            scores=scores, target=r.target, hand=hand, turn=None if over else turn,
            phase="lead" if lead else "play", to_act=nat.to_act(), layout=self._layout(hand, nnodes),
            open_ends=self._open_ends(), hand_sizes=list(sizes), boneyard=nbone,
            drawable=max(0, nbone - r.boneyard_reserve) if r.draw != "none" else 0, claims=r.claims,
            window=window, over=over, winners=[x for x in range(self.num_players) if won >> self._side[x] & 1],
            count=count if r.claims == "auto" else None,
            my_hand=None if seat is None else [tiles[t].text for t in nat.hand_of(seat)],
            legal=None if seat is None else [_text(a) for a in nat.offered(seat)],
        )

    def _layout(self, hand: int, nnodes: int) -> list[LayoutTile]:
        """The view's layout (``DominoState.layout``): each placed tile's entry is made once a hand, from
        the native geometry, and copied into every view."""
        return [cast("LayoutTile", dict(e)) for e in self._laid(hand, nnodes)[1]]

    def _laid(self, hand: int, nnodes: int) -> tuple[int, list[dict[str, Any]], list[int], list[int]]:
        """The layout cache brought up to date: (hand, each tile's view entry, its tile, its kind)."""
        lay = self._layout_cache
        if lay is None or lay[0] != hand or len(lay[1]) > nnodes:
            lay = self._layout_cache = (hand, [], [], [])
        _, entries, ids, kinds = lay
        tiles = self._tiles
        for t, parent, slot, kind, v0 in self._nat.layout_tiles(len(entries)):
            tile = tiles[t]
            entry: dict[str, Any]
            if parent < 0:
                entry = {"tile": tile.text, "on": None, "double": tile.double}
            else:
                entry = {"tile": tile.touch[v0], "on": tiles[ids[parent]].text, "double": tile.double,
                         "part": "half" if kinds[parent] == _NONDOUBLE else "end" if slot >= 4 else "side",
                         "slot": slot.bit_length() - 1}
            entry["spinner"] = kind == _SPINNER
            entry["inline"] = False
            entry["stub"] = False
            entries.append(entry)
            ids.append(t)
            kinds.append(kind)
        return lay

    def _open_ends(self) -> list[OpenEnd]:
        """The view's open ends (``DominoState.open_ends``): every free place, by layout tile then slot."""
        assert self._layout_cache is not None  # made by _layout first
        ids, kinds, tiles = self._layout_cache[2], self._layout_cache[3], self._tiles
        return [{"on": tiles[ids[node]].text,
                 "part": "half" if kinds[node] == _NONDOUBLE else "end" if bit >= 4 else "side", "value": v}
                for node, bit, v in self._nat.places()]

    @property
    def _posall(self) -> list[tuple[Tile, str | None, int, None, int, int]]:
        """The free places as ``DominoState._posall`` holds them (the layout tile, the part of it, the value
        it shows, -, the layout tile's number, the slot bit), from the native geometry: what the action
        numbering (``action_ids.free_places``) and the notation read of the layout."""
        nat, tiles = self._nat, self._tiles
        table = nat.table()
        ids = self._laid(table[6], table[7])[2]
        return [(tiles[ids[node]], None if bit < 4 else "end", v, None, node, bit) for node, bit, v in nat.places()]

    @property
    def _ver(self) -> int:
        """A number that changes with every move (the native log grows with each): what a cache of answers
        about the position is keyed by (``GameState._ver``)."""
        return int(self._nat.log_size)

    @property
    def count(self) -> int:
        """The count of the open ends (``DominoState.count``)."""
        return int(self._nat.count)

    def layout(self) -> list[LayoutTile]:
        """The placed tiles in order, each with where it sits (``DominoState.layout``)."""
        table = self._nat.table()
        return self._layout(table[6], table[7])

    @property
    def hand_no(self) -> int:
        """The number of the hand being played (``DominoState.hand_no``)."""
        return int(self._nat.hand_no)

    def inventory(self) -> dict[str, list[str]]:
        """Every tile by where it lies (``DominoState.inventory``): each hand in the order its tiles came,
        the boneyard, the layout in the order laid."""
        nat, tiles = self._nat, self._tiles
        nat.history_ids()  # decodes the log so far: the decoder keeps the hands and the layout in order
        dec = nat.decoder()
        out = {f"hand {s}": [tiles[t].text for t in h] for s, h in enumerate(dec.hands)}
        out["stock"] = [tiles[t].text for t in nat.boneyard()]
        out["layout"] = [tiles[t].text for t in dec.ltile]
        return out

    def legal_action_mask(self, seat: object, numpy: bool = False) -> Any:
        """One byte per action id, 1 where ``seat`` may take that action now (``GameState.legal_action_mask``)."""
        return id_mask(self._space.size, self._nat.legal_ids(check_seat(seat, self.num_players)), numpy)

    def action_from_id(self, seat: object, i: object) -> Action:
        """The action numbered ``i`` if ``seat`` may take it now (``GameState.action_from_id``: the same
        numbering read natively, the same refusals)."""
        state: Any = self  # (read through the protocol, as a pure state is)
        action: Action = self._space.action_from_id(state, check_seat(seat, self.num_players), i)
        return action

    def history_ids(self) -> list[tuple[int, int]]:
        """Every action applied to the native game: (seat, action id)."""
        return list(self._nat.history_ids())

    @property
    def history(self) -> list[tuple[int, Action]]:
        """Every action applied, as (seat, Action) (``GameState.history``): the pure start's, then the native
        game's, read from its log (a new list)."""
        nat = self._nat
        nat.history_ids()  # decodes the log so far
        acts: list[tuple[int, Action]] = nat.decoder().acts
        return list(self._start.history) + acts if self._start is not None else list(acts)

    # the questions bots and the server ask on every move, answered from the C data; anything else (a move
    # not offered now, text in another spelling) is left to the pure twin, whose answer or error is the
    # reference
    def claim_for(self, seat: int, action: Action) -> int:
        """The points ``action`` would score for ``seat`` now (``GameState.claim_for``)."""
        nat = self._nat
        if nat.is_over():
            return 0
        if type(seat) is int and 0 <= seat < self.num_players and isinstance(action, Action):
            kind = action.kind
            if kind == "claim":
                ids = nat.legal_action_ids(seat)
                return ids[-1] - self._claim if ids and ids[-1] >= self._claim else 0
            if kind != "play":
                return 0
            i = nat.offered_id(seat, action if action.claim is None else action._replace(claim=None))
            if i >= 0:
                return int(nat.points_of(i))
        return int(self.to_pure().claim_for(seat, action))

    def muggable(self, seat: int) -> int:
        """Points ``seat`` could take by calling muggins now (``GameState.muggable``)."""
        check_seat(seat, self.num_players)
        w = self._nat.window()
        if w is None or self._nat.is_over() or self._side[seat] == self._side[w[0]]:
            return 0
        return int(w[1])

    def action_id(self, action: Action) -> int:
        """The id of ``action`` (``GameState.action_id``)."""
        nat, space = self._nat, self._space
        if isinstance(action, Action) and isinstance(action.kind, str) and not nat.is_over():
            kind = action.kind
            if kind == "muggins" or kind == "claim":
                block = space.by_kind.get(kind)
                if block is not None and action.subject is None and action.target is None and action.part is None:
                    return int(block.start + space._code(block, action.claim))
            else:
                i = nat.offered_id(nat.to_move(), action if action.claim is None else action._replace(claim=None))
                if i >= 0:
                    return int(i + space._code(space.by_kind[kind], action.claim))
        state: Any = self  # (read through the protocol, as a pure state is)
        return int(space.action_id(state, check_action(action)))  # as GameState.action_id

    def parse_action(self, text: object, seat: int | None = None) -> Action:
        """The move ``text`` names (``DominoState.parse_action``): a move of ``seat`` written as the view's
        ``legal`` writes it is read here."""
        if type(text) is str and type(seat) is int and 0 <= seat < self.num_players:
            for a in self._nat.offered(seat):
                if a.kind != "muggins" and a.kind != "claim" and _text(a) == text:
                    return cast("Action", a)
        parsed: Action = self._notation().parse_action(text, seat)
        return parsed

    def _notation(self, kind: Any = None) -> Any:
        """A pure state (of ``kind``, a ``DominoState`` by default) of these rules holding only what
        ``DominoState.parse_action`` reads of the position (the layout tiles, their kinds, the free places):
        its own code reads the text."""
        from muggins.dominoes.state import DominoState

        kind = kind or DominoState
        blank = kind.__new__(kind)
        blank.rules = self.rules
        blank.num_players = self.num_players
        places = self._posall
        assert self._layout_cache is not None  # made by _posall
        ids, kinds = self._layout_cache[2], self._layout_cache[3]
        tiles = self._tiles
        blank._node_of = {tiles[t]: node for node, t in enumerate(ids)}
        blank._linfo = [(k, 0, 0) for k in kinds]
        blank._posall = places
        return blank

    def format_action(self, action: Action) -> str:
        """How ``action`` is written (``DominoState.format_action``)."""
        return move_text(action)

    def action_to_json(self, seat: int, action: Action) -> dict[str, Any]:
        """``action`` of ``seat`` as JSON (``GameState.action_to_json``)."""
        d: dict[str, Any] = {"seat": seat, "move": move_text(action)}
        if action.claim is not None:
            d["claim"] = action.claim
        return d

    def to_pure(self) -> Any:
        """The equal pure ``DominoState``, kept in step with the native game: its chance outcomes and every
        action replayed by id (its view, history, notation and sampling are then the reference engine's).
        Read it, do not change it (:meth:`clone` it first)."""
        nat = self._nat
        size = nat.log_size
        twin = self._twin_cache
        if twin is not None and self._twin_at_cache == size:
            return twin
        outcomes = self._outcomes()
        if twin is None:
            from muggins.dominoes.state import DominoState

            if self._start is None:
                twin = DominoState.new(self.rules, self.num_players, Chance(outcomes=outcomes))
            else:
                twin = self._start.clone()
                twin.chance = twin.chance.fork()
                twin.chance.rng = None
            self._twin_cache, self._twin_moves_cache = twin, 0
        known = twin.chance.outcomes
        known.extend(outcomes[len(known):])
        history = nat.history_ids()
        for seat, i in history[self._twin_moves_cache:]:
            twin.apply_action_id(seat, i)
        self._twin_moves_cache = len(history)
        self._twin_at_cache = size
        return twin

    def __getattr__(self, name: str) -> Any:
        """The rest of the protocol (and of ``DominoState``'s reading methods), from the pure twin."""
        if name.startswith("__") or name in _OWN:
            raise AttributeError(name)
        return getattr(self.to_pure(), name)


#: the attributes a native state keeps itself (never read from its twin, even before they are set)
_OWN = frozenset(("_nat", "_twin_cache", "_twin_at_cache", "_twin_moves_cache", "_start", "chance", "_side",
                  "_space", "rules", "num_players", "_layout_cache", "_tiles"))
#: the text of each move offered (Actions are made once and shared: see ``NativeDominoes.legal_actions``)
_TEXTS: dict[Any, str] = {}


def _text(action: Any) -> str:
    """``move_text`` of ``action``, kept."""
    text = _TEXTS.get(action)
    if text is None:
        if len(_TEXTS) > 65536:
            _TEXTS.clear()
        text = _TEXTS[action] = move_text(action)
    return text


def _unused(rng: random.Random) -> dict[str, Any]:  # pragma: no cover - every outcome is recorded
    raise AssertionError("a recorded outcome was asked to be drawn")


_MOVE_KINDS = frozenset(("hand_start", "play", "draw", "pass", "knock"))
#: (id of the rules, players) -> (the rules, a pure state of them: see ``NativeDominoState._shell``)
_SHELLS: dict[tuple[int, int], tuple[Any, Any]] = {}
_LOADED: list[tuple[Any, str | None]] = []
#: (id of the rules, players) -> (the rules, why native states cannot play them or None)
_SCOPE: dict[tuple[int, int], tuple[Any, str | None]] = {}


def _native() -> tuple[Any, str | None]:
    """The native domino engine module and None, or None and why it cannot be used (not built, stale);
    looked up once a process."""
    if not _LOADED:
        from muggins._accel import load_native

        _LOADED.append(load_native("muggins.dominoes.native"))
    return _LOADED[0]


def _engine() -> Any:
    """The native domino engine module, or RuntimeError saying why it cannot be used (not built, stale)."""
    mod, why = _native()
    if mod is None:
        raise RuntimeError(f"the native domino engine is not usable: {why}")
    return mod
