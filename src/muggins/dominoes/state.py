"""The domino state machine: one class for every Fives-family preset.

Layout geometry (RULES.md §1.5-§1.6). Every placed tile is a *node* with up to four slots, kept as a bit
mask of covered slots:

* a non-double has two halves, slot 0 and slot 1 (the touching half of a played tile is slot 0);
* a double has two *line* slots (bits 0 and 1: where the line runs through it) and two *branch* slots
  (bits 2 and 3). A crosswise double's line slots are its long sides and its branches its short ends
  (only a spinner may use them). An inline (endwise) double - the UK sniff - is the other way round.

Node kinds:
  0 non-double, 1 non-double that can never be extended (a sniff stub),
  2 crosswise double, 3 crosswise spinner, 4 inline sniff with stub sides, 5 inline spinner,
  6 crosswise double that can never be extended (a double laid as a stub).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from muggins.core.chance import Chance, shuffle
from muggins.core.claims import Window, check_points, parse_points, resolve_call, settle_claim
from muggins.core.errors import (
    ClaimError,
    GameOver,
    IllegalAction,
    NotYourTurn,
    RecordError,
    UnknownAction,
    shown,
)
from muggins.core.protocol import _BASE_FIELDS, Action, Event, GameState, check_action, check_seat
from muggins.dominoes.rules import DominoRules
from muggins.dominoes.scoring import per_unit, prime_at_most, round_nearest, score_table
from muggins.dominoes.tiles import Tile, full_set, parse_tile, pips

Position = tuple[Tile, str | None, int, dict[Tile, Action], int, int]

NONDOUBLE, STUB, CROSS, SPINNER, SNIFF_STUB, INLINE_SPINNER, STUB_DOUBLE = range(7)
_POP2 = (0, 1, 1, 2)
_DOUBLE_KINDS = (CROSS, SPINNER, SNIFF_STUB, INLINE_SPINNER, STUB_DOUBLE)
_INLINE = (SNIFF_STUB, INLINE_SPINNER)

DRAW = Action("draw")
PASS = Action("pass")
KNOCK = Action("knock")
MUGGINS = Action("muggins")
CLAIM = Action("claim")

_ACTIONS: dict[tuple[Tile, Tile | None, str | None], Action] = {}


def _play(tile: Tile, target: Tile | None, part: str | None) -> Action:
    key = (tile, target, part)
    a = _ACTIONS.get(key)
    if a is None:
        a = _ACTIONS[key] = Action("play", tile, target, part)
    return a


_EMPTY: frozenset[int] = frozenset()
_DRAW_SECRET = ("tile", "forced")  # whether the drawer could have played is his own business
_MAX_MOVE_TEXT = 200  # no move is longer; longer text is refused before it is read
_SINGLE = tuple(frozenset((i,)) for i in range(16))
def contribution(kind: int, mask: int, v0: int, v1: int, sniff_ends: bool) -> int:
    """What one layout tile adds to the count (the reference algorithm of RULES.md §1.6)."""
    if kind <= STUB:
        return (0 if mask & 1 else v0) + (0 if mask & 2 else v1)
    if kind == CROSS or kind == STUB_DOUBLE:
        return v0 + v0 if _POP2[mask & 3] <= 1 else 0
    if kind == SPINNER:
        if _POP2[mask & 3] <= 1:
            return v0 + v0
        return v0 * (2 - _POP2[(mask >> 2) & 3]) if sniff_ends else 0
    return v0 * (2 - _POP2[mask & 3])  # inline: each bare end shows one half


class DominoState(GameState):
    game = "dominoes"

    # A compiled build makes this class an extension type; its fields are declared in state.pxd, and
    # clone() and _become() copy them one by one (_FIELDS lists them all).
    if TYPE_CHECKING:
        rules: DominoRules
        hands: list[list[Tile]]
        boneyard: list[Tile]
        turn: int
        phase: str
        count: int
        hand_no: int
        _side: list[int]
        _nsides: int
        _teams: bool
        _scores: list[int]
        _entered: list[bool]
        _over: bool
        _winners: frozenset[int]
        _table: tuple[int, ...]
        _sniff_ends: bool
        _fill_first: bool
        _manual: bool
        _extra: bool
        _both_out: bool
        _voluntary: bool
        _draw_limit: int
        _spins: bool
        _sniff_option: bool
        _all_tiles: list[Tile]
        _each: int
        _window: Window | None
        _tiebreak_left: int
        _leader: int
        _last_out: int
        _ver: int
        _legal_cache: tuple[int, list[Action]] | None
        _forced_lead: Tile | None
        _draws: int
        _dead_passes: int
        _knock: tuple[str, int] | None
        _out: list[bool]
        _ltile: list[Tile]
        _linfo: list[tuple[int, int, int, int, int]]
        _lmask: list[int]
        _node_of: dict[Tile, int]
        _posall: list[Position]
        _posflat: list[Position]
        _spinner: int
        _hand_log_start: int

    # ------------------------------------------------------------------------------------ set-up ----
    @classmethod
    def new(cls, rules: DominoRules, num_players: int, chance: Chance) -> DominoState:
        s = cls.__new__(cls)
        s.rules = rules
        s.num_players = n = num_players
        s.chance = chance
        s.history = []
        s.log = []
        teams = rules.partnerships and n == 4
        s._side = [i % 2 for i in range(n)] if teams else list(range(n))
        s._nsides = 2 if teams else n
        s._teams = teams
        s._scores = [0] * s._nsides
        s._entered = [rules.entry_threshold == 0] * s._nsides
        s._over = False
        s._winners = frozenset()
        s._table = score_table(rules.score_fn)
        s._sniff_ends = rules.spinner_count == "sniff_ends"
        s._fill_first = rules.spinner_fill_first
        s._manual = rules.claims == "manual"
        s._extra = rules.extra_turn == "double_or_scoring"
        s._both_out = rules.partnership_both_out
        s._voluntary = rules.voluntary_draw
        s._draw_limit = rules.draw_limit
        s._spins = rules.spinner != "none"
        s._sniff_option = rules.spinner == "sniff_option"
        s._all_tiles = full_set(rules.tile_set)
        each = rules.tiles_each(n)
        if each * n > len(s._all_tiles):
            from muggins.core.errors import RulesError

            raise RulesError(f"{n} players with {each} tiles each need more than a double-{rules.tile_set} set")
        s._each = each
        s.hand_no = 0
        s._window = None
        s._tiebreak_left = 0
        s._leader = -1
        s._last_out = -1
        s._ver = 0
        s._legal_cache = None
        s._start_hand()
        return s

    def _lot(self, seats: list[int], lightest: bool) -> int:
        """Each of ``seats`` draws a tile; the heaviest (or lightest) leads. Ties are redrawn or broken by
        the higher end, as the rules say."""
        while True:
            k = len(seats)

            def make(rng: random.Random, k: int = k, seats: list[int] = seats) -> dict[str, Any]:
                tiles = rng.sample(self._all_tiles, k)
                return {"seats": list(seats), "tiles": [t.text for t in tiles]}

            out = self.chance.next("lot", make)
            try:
                tiles = [parse_tile(x, self.rules.tile_set) for x in out["tiles"]]
                if list(out["seats"]) != list(seats) or len(set(tiles)) != k:
                    raise ValueError
            except (KeyError, TypeError, ValueError, UnknownAction):
                raise RecordError(f"lot outcome {out!r} does not fit seats {seats}") from None
            self.log.append(Event("lot", None, {"seats": list(seats), "tiles": [t.text for t in tiles]}))
            if self.rules.lot_tie == "high_end":
                keys = [t.weight_key() for t in tiles]
            else:
                keys = [(t.pips, 0) for t in tiles]
            best = min(keys) if lightest else max(keys)
            tied = [s for s, key in zip(seats, keys, strict=True) if key == best]
            if len(tied) == 1:
                return tied[0]
            seats = tied

    def _deal(self) -> None:
        n, each = self.num_players, self._each
        made: list[Any] = []  # the hands and the boneyard, when drawn now

        def make(rng: random.Random) -> dict[str, Any]:
            tiles = self._all_tiles[:]
            shuffle(tiles, rng)
            made.append([tiles[i * each:(i + 1) * each] for i in range(n)])
            made.append(tiles[n * each:])
            return {"hands": [[t.text for t in h] for h in made[0]], "boneyard": [t.text for t in made[1]]}

        out = self.chance.next("deal", make)
        if made:  # drawn just now: the tiles are at hand and right by construction
            self.hands, bone = made
            self.boneyard = bone[::-1]
            return
        try:
            hands = [[parse_tile(x, self.rules.tile_set) for x in h] for h in out["hands"]]
            bone = [parse_tile(x, self.rules.tile_set) for x in out.get("boneyard", [])]
        except (KeyError, TypeError, UnknownAction) as e:
            raise RecordError(f"bad deal outcome: {e}") from None
        seen = [t for h in hands for t in h] + bone
        if len(hands) != n or any(len(h) != each for h in hands):
            raise RecordError(f"a deal must give {n} hands of {each} tiles")
        if len(set(seen)) != len(seen) or (bone and len(seen) != len(self._all_tiles)):
            raise RecordError("a deal must hold every tile of the set exactly once")
        self.hands = hands
        self.boneyard = bone[::-1]  # draw with pop(): the first listed tile is drawn first

    def _start_hand(self) -> None:
        r, n = self.rules, self.num_players
        self.hand_no += 1
        first = self.hand_no == 1
        leader: int | None = None
        lot_seats: list[int] | None = None
        lightest = False
        if first:
            if r.first_lead in ("lot_heaviest", "lot_lightest", "must_set_double"):
                lot_seats = list(range(n))
                lightest = r.first_lead == "lot_lightest"
        elif r.next_lead == "winner_else_lot":
            if self._last_out >= 0:
                leader = self._last_out
            else:
                lot_seats = list(range(n))
                lightest = r.first_lead == "lot_lightest"
        elif r.next_lead in ("rotate_left", "alternate"):
            leader = (self._leader + 1) % n
        else:  # lowest_score
            low = min(self._scores)
            cands = [s for s in range(n) if self._scores[self._side[s]] == low]
            if len(cands) == 1:
                leader = cands[0]
            else:
                lot_seats = cands
        if lot_seats is not None:
            leader = self._lot(lot_seats, lightest)
        self._deal()
        self._forced_lead = None
        if leader is None:  # highest double rules
            holder, best = 0, None
            for s in range(n):
                for t in self.hands[s]:
                    if t.double and (best is None or t.hi > best.hi):
                        holder, best = s, t
            if best is None:
                if r.first_lead == "highest_double_forced":  # the heavier hand leads any tile (GAMBIT)
                    leader = max(range(n), key=lambda s: (pips(self.hands[s]), -s))
                else:  # the heaviest single tile leads (S1-W)
                    leader = max((t.weight_key(), s) for s in range(n) for t in self.hands[s])[1]
            else:
                leader = holder
                if r.first_lead == "highest_double_forced":
                    self._forced_lead = best
        self._leader = leader
        self.turn = leader
        self.phase = "lead"
        self._draws = 0
        self._dead_passes = 0
        self._knock = None
        self._out = [False] * n
        self._last_out = -1
        # layout
        self._ltile = []
        self._linfo = []  # kind, v0, v1, parent, parent slot
        self._lmask = []
        self._node_of = {}
        # every free playable part of the layout: (tile, part, value, actions onto it, node, slot bit)
        self._posall = []
        self._posflat = self._posall  # where a tile may go now (Merry-Go-Round restricts)
        self._spinner = -1
        self.count = 0
        self._hand_log_start = len(self.log)
        self.log.append(Event("hand_start", None, {"hand": self.hand_no, "leader": leader,
                                                    "boneyard": len(self.boneyard)}))
        for s in range(n):
            self.log.append(Event("dealt", s, {"tiles": [t.text for t in self.hands[s]],
                                               "count": len(self.hands[s])}, ("tiles",)))
        self._ver += 1

    # -------------------------------------------------------------------------------- geometry ----
    def _positions(self, node: int) -> list[tuple[str | None, int, int]]:
        """Free playable parts of a layout tile: (part, slot bit, value). Equivalent slots appear once."""
        return [(x[1], x[5], x[2]) for x in self._posall if x[4] == node]

    def _compute_positions(self, node: int) -> list[tuple[str | None, int, int]]:
        kind = self._linfo[node][0]
        mask = self._lmask[node]
        v0 = self._linfo[node][1]
        out: list[tuple[str | None, int, int]] = []
        if kind == NONDOUBLE:
            if not mask & 1:
                out.append((None, 1, v0))
            if not mask & 2:
                out.append((None, 2, self._linfo[node][2]))
            return out
        if kind == STUB or kind == STUB_DOUBLE:
            return out
        line = mask & 3
        if line != 3:
            out.append((None, 2 if line & 1 else 1, v0))
        if kind == CROSS:
            return out
        branch = mask & 12
        if branch != 12 and (kind == SNIFF_STUB or line == 3 or not self.rules.spinner_sides_first):
            out.append(("side" if kind in _INLINE else "end", 8 if branch & 4 else 4, v0))
        return out

    def _double_kind(self, inline: bool) -> int:
        sp = self.rules.spinner
        if sp == "all_doubles":
            return SPINNER
        if sp == "none" or self._spinner >= 0:
            return CROSS
        if sp == "sniff_stub":
            return SNIFF_STUB
        if sp == "sniff_option" and inline:
            return INLINE_SPINNER
        return SPINNER

    def _find_slot(self, node: int, part: str | None, tile: Tile) -> tuple[int, int] | None:
        for p, bit, v in self._positions(node):
            if p == part and (v == tile.hi or v == tile.lo):
                return bit, v
        return None

    def _count_after(self, tile: Tile, target: Tile | None, part: str | None) -> int:
        """The count if ``tile`` were played there (no change to the state)."""
        se = self._sniff_ends
        inline = part is not None and part.endswith("inline")
        if target is None:
            if tile.double:
                return contribution(self._double_kind(inline), 0, tile.hi, tile.hi, se)
            return tile.pips
        node = self._node_of[target]
        spart = None if part is None or part == "inline" else part.split()[0]
        found = self._find_slot(node, spart, tile)
        assert found is not None
        bit, v = found
        kind, mask, v0, v1 = self._linfo[node][0], self._lmask[node], self._linfo[node][1], self._linfo[node][2]
        c = self.count - contribution(kind, mask, v0, v1, se) + contribution(kind, mask | bit, v0, v1, se)
        terminal = kind == SNIFF_STUB and bit >= 4
        if tile.double:
            nk = STUB_DOUBLE if terminal else self._double_kind(inline)
            return c + contribution(nk, 1, v, v, se)
        return c + tile.other(v)

    def _place(self, tile: Tile, target: Tile | None, part: str | None) -> int:
        """Lay ``tile``; returns the value of the end it was laid on (-1 for the lead)."""
        se = self._sniff_ends
        inline = part is not None and part.endswith("inline")
        nid = len(self._ltile)
        if target is None:
            if tile.double:
                kind = self._double_kind(inline)
                v0 = v1 = tile.hi
            else:
                kind, v0, v1 = NONDOUBLE, tile.hi, tile.lo
            mask, parent, pslot, v = 0, -1, 0, -1
        else:
            spart = part if part is None or not inline else (None if part == "inline" else part.split()[0])
            hi, lo = tile.hi, tile.lo
            posall = self._posall
            i = 0
            for x in posall:
                if x[0] is target and x[1] == spart and (x[2] == hi or x[2] == lo):
                    break
                i += 1
            else:
                raise IllegalAction(f"{tile} does not fit on {target}")
            v = x[2]
            parent = x[4]
            pslot = x[5]
            pk, pm = self._linfo[parent][0], self._lmask[parent]
            self._lmask[parent] = pm | pslot
            if pk == NONDOUBLE and not tile.double and not self._fill_first:
                # the common case: a tile in line on a tile in line
                outer = lo if v == hi else hi
                self.count += outer - v
                posall[i] = (tile, None, outer, tile.on[None], nid, 2)
                self._ltile.append(tile)
                self._linfo.append((NONDOUBLE, v, outer, parent, pslot))
                self._lmask.append(1)
                self._node_of[tile] = nid
                return v
            if pk == NONDOUBLE:
                self.count -= v
                del posall[i]
            else:
                pv0, pv1 = self._linfo[parent][1], self._linfo[parent][2]
                self.count += contribution(pk, pm | pslot, pv0, pv1, se) - contribution(pk, pm, pv0, pv1, se)
                posall[:] = [y for y in posall if y[4] != parent]
                posall.extend((target, p, pv, target.on[p], parent, bit)
                              for p, bit, pv in self._compute_positions(parent))
            if tile.double:
                kind = STUB_DOUBLE if pk == SNIFF_STUB and pslot >= 4 else self._double_kind(inline)
                v0 = v1 = v
            else:
                kind, v0, v1 = (STUB if pk == SNIFF_STUB and pslot >= 4 else NONDOUBLE), v, lo if v == hi else hi
            mask = 1
        if self._spinner < 0 and self._spins and kind in (SPINNER, SNIFF_STUB, INLINE_SPINNER):
            self._spinner = nid
        self._ltile.append(tile)
        self._linfo.append((kind, v0, v1, parent, pslot))
        self._lmask.append(mask)
        self._node_of[tile] = nid
        posall = self._posall
        if kind == NONDOUBLE and mask == 1:
            posall.append((tile, None, v1, tile.on[None], nid, 2))
            self.count += v1
        else:
            posall.extend((tile, p, pv, tile.on[p], nid, bit) for p, bit, pv in self._compute_positions(nid))
            self.count += contribution(kind, mask, v0, v1, se)
        if self._fill_first:
            sp = self._spinner
            on_spinner = [x for x in posall if x[4] == sp]
            self._posflat = on_spinner if on_spinner else posall
        return v

    def open_values(self) -> list[int]:
        """Values of the free ends where a tile may be played now (one per distinct playable part)."""
        return [x[2] for x in self._posflat]

    # ------------------------------------------------------------------------------ legal moves ----
    def _plays(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        option = self._sniff_option and self._spinner < 0
        if self.phase == "lead":
            r = self.rules
            out = []
            for t in hand:
                if self._forced_lead is not None and t is not self._forced_lead:
                    continue
                if r.lead_must_be == "double" and not t.double:
                    continue
                if (r.lead_must_be == "double_or_scoring" and not t.double
                        and self._table[t.pips] == 0):
                    continue
                out.append(_play(t, None, None))
                if option and t.double:
                    out.append(_play(t, None, "inline"))
            return out
        out = []
        if option:
            for t in hand:
                for target, p, v, _, _, _ in self._posflat:
                    if v == t.hi or v == t.lo:
                        out.append(_play(t, target, p))
                        if t.double:
                            out.append(_play(t, target, "inline" if p is None else p + " inline"))
            return out
        posflat = self._posflat
        pm = 0
        for x in posflat:
            pm |= 1 << x[2]
        for t in hand:
            tm = t.mask
            if tm & pm:
                for target, p, v, acts, _, _ in posflat:
                    if tm >> v & 1:
                        a = acts.get(t)
                        if a is None:
                            a = acts[t] = _play(t, target, p)
                        out.append(a)
        return out

    def _can_draw(self) -> bool:
        r = self.rules
        if len(self.boneyard) <= r.boneyard_reserve:
            return False
        if self.phase == "lead":
            return r.first_lead == "must_set_double" or (r.lead_must_be == "double" and r.draw != "none")
        return self._draws < self._draw_limit

    def _regular(self, seat: int) -> list[Action]:
        """Legal moves of the seat whose turn it is (claims aside)."""
        cache = self._legal_cache
        if cache is not None and cache[0] == self._ver:
            return cache[1]
        plays = self._plays(seat)
        knock = self._knock
        if knock is not None and knock[0] == "partner":
            plays = [a for a in plays if self._table[self._count_after(a.subject, a.target, a.part)] > 0]
            out = plays if plays else [KNOCK]
        elif plays:
            out = plays + [DRAW] if self._voluntary and self._can_draw() else plays
        elif self._can_draw():
            out = [DRAW]
            if (self.rules.knocking and self._teams and knock is None and self._draws == 0
                    and self.phase == "play"):
                out.append(KNOCK)
        else:
            out = [PASS]
        self._legal_cache = (self._ver, out)
        return out

    def legal_actions(self, seat: int) -> list[Action]:
        if self._over:
            return []
        w = self._window
        if seat == self.turn:
            cache = self._legal_cache
            reg = cache[1] if cache is not None and cache[0] == self._ver else self._regular(seat)
            if w is None:
                return reg[:]
            if w.scorer_side != self._side[seat]:
                return reg + [MUGGINS]
            out = reg[:]
        else:
            out = []
        if w is not None:
            if self._side[seat] != w.scorer_side:
                out.append(MUGGINS)
            elif seat == w.scorer and w.may_claim:
                out.append(CLAIM)
        return out

    def to_act(self) -> frozenset[int]:
        if self._over:
            return frozenset()
        w = self._window
        if w is None:
            return frozenset((self.turn,))
        seats = {s for s in range(self.num_players) if self._side[s] != w.scorer_side}
        seats.add(self.turn)
        if w.may_claim:
            seats.add(w.scorer)
        return frozenset(seats)

    def waiting_for(self) -> frozenset[int]:
        return _EMPTY if self._over else _SINGLE[self.turn]

    def claim_for(self, seat: int, action: Action) -> int:
        """The points ``action`` scores for ``seat`` now: what a perfect player announces with it."""
        if self._over:
            return 0
        if action.kind == "claim":
            w = self._window
            return w.missed if w is not None and w.scorer == seat and w.may_claim else 0
        if action.kind != "play":
            return 0
        return self._table[self._count_after(action.subject, action.target, action.part)]

    def muggable(self, seat: int) -> int:
        w = self._window
        if w is None or self._over or self._side[seat] == w.scorer_side:
            return 0
        return w.missed

    # ------------------------------------------------------------------------------------ apply ----
    def apply(self, seat: object, action: Action) -> None:
        # ``seat`` and amounts are checked here, untyped: a compiled build must not coerce 1.0 or True first
        if self._over:
            raise GameOver("the game is over")
        action = check_action(action)
        seat = check_seat(seat, self.num_players)
        kind = action[0]
        if kind == "muggins" or kind == "claim":
            if action[4] is not None:
                what = "a muggins call" if kind == "muggins" else "a claim"
                check_points(action[4], self.rules.max_step_points, what)
            if kind == "muggins":
                self._call(seat, action[4])
            else:
                self._late_claim(seat, action[4])
            return
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        claim = action[4]
        base = action if claim is None else action._replace(claim=None)
        cache = self._legal_cache
        legal = cache[1] if cache is not None and cache[0] == self._ver else self._regular(seat)
        if base not in legal:
            raise IllegalAction(self._why_illegal(seat, base))
        if claim is not None:
            if self.rules.claims == "auto":
                raise ClaimError("points are scored automatically in this game; do not announce them")
            if kind != "play":
                raise ClaimError(f"only a play can carry a claim, not {kind!r}")
            check_points(claim, self.rules.max_step_points, "a claim")
        if self._window is not None:
            self._close_window()
        self.history.append((seat, action))
        self._ver += 1
        if kind == "play":
            self._do_play(seat, base[1], base[2], base[3], claim)
        elif kind == "draw":
            self._do_draw(seat)
        elif kind == "pass":
            self._do_pass(seat)
        else:
            self._do_knock(seat)

    def _why_illegal(self, seat: int, a: Action) -> str:
        legal = self._regular(seat)
        if a.kind == "play":
            t = a.subject
            if not isinstance(t, Tile) or not (a.target is None or isinstance(a.target, Tile)) \
                    or not (a.part is None or isinstance(a.part, str)):
                return "a play names a tile, and where it goes: a tile on the table and a part of it"
            if t not in self.hands[seat]:
                return f"seat {seat} does not hold {t}"
            if self._knock is not None and self._knock[0] == "partner":
                return "your partner knocked: you must make a scoring play, or knock if you cannot"
            if self.phase == "lead":
                if a.target is not None:
                    return "the layout is empty: lead a tile"
                if self._forced_lead is not None:
                    return f"you must lead {self._forced_lead}"
                return f"the lead must be a {self.rules.lead_must_be.replace('_', ' ')}"
            if a.target is None:
                return "name where the tile goes, like 5-3 on 5-5"
            if a.target not in self._node_of:
                return f"{a.target} is not on the table"
            node = self._node_of[a.target]
            if not self._positions(node):
                return f"{a.target} has no free end"
            if self.rules.spinner_fill_first and self._posflat is not self._posall \
                    and node != self._spinner:
                return "every face of the spinner must be played before anything else"
            if a.part is not None and "end" in a.part.split():
                if self._linfo[node][0] == SPINNER:
                    return f"the ends of {a.target} open only once both its sides are covered"
                return f"{a.target} is not a spinner: its ends cannot be played on"
            return f"{t} does not match the free end of {a.target}"
        if a.kind == "draw":
            if any(x.kind == "play" for x in legal):
                return "you hold a playable tile: you must play it (drawing is not allowed while you can play)"
            if self.rules.draw == "none":
                return "there is no drawing in this game"
            if len(self.boneyard) <= self.rules.boneyard_reserve:
                return "nothing left to draw from the boneyard"
            return "you have drawn as many tiles as this turn allows"
        if a.kind == "pass":
            if any(x.kind == "play" for x in legal):
                return "you cannot pass while you can play"
            return "you must draw before passing"
        if a.kind == "knock":
            return "you may knock only when you cannot play, instead of drawing, in the knocking partnership game"
        return f"unknown move {shown(a.kind)}"

    # ---------------------------------------------------------------------------------- scoring ----
    def _award(self, side: int, points: int, seat: int | None, reason: str, check: bool = True,
               down: bool = False) -> bool:
        if points == 0:
            return False
        r = self.rules
        if points > 0 and not self._entered[side]:
            if points < r.entry_threshold:
                self.log.append(Event("void", seat, {"side": side, "points": points, "reason": reason,
                                                     "why": f"the first score must be at least {r.entry_threshold}"}))
                return False
            self._entered[side] = True
        new = self._scores[side] + points
        if points > 0 and r.exact_target and new > r.target:
            self.log.append(Event("void", seat, {"side": side, "points": points, "reason": reason,
                                                 "why": "it would pass the target"}))
            return False
        if points > 0 and down and r.no_win_on_down and new >= r.target:
            self.log.append(Event("void", seat, {"side": side, "points": points, "reason": reason,
                                                 "why": "the winning points cannot come from the lead"}))
            return False
        self._scores[side] = new
        self.log.append(Event("score", seat, {"side": side, "points": points, "reason": reason}))
        if check:
            self._check_win(side)
        return True

    def _check_win(self, side: int) -> None:
        r = self.rules
        if not self._over and r.win_check == "immediate" and self._scores[side] >= r.target:
            self._finish([side])

    def _finish(self, sides: list[int]) -> None:
        self._over = True
        self._winners = frozenset(s for s in range(self.num_players) if self._side[s] in sides)
        self._close_window()  # points still unclaimed when the game ends are logged as missed
        self.log.append(Event("game_end", None, {"winners": sorted(self._winners),
                                                 "scores": list(self._scores)}))

    def _close_window(self) -> None:
        w = self._window
        if w is not None:
            if w.missed > 0:
                self.log.append(Event("missed", w.scorer, {"side": w.scorer_side, "points": w.missed,
                                                           "reason": w.reason}))
            self._window = None

    def _call(self, seat: int, amount: int | None) -> None:
        w = self._window
        if w is None:
            raise ClaimError("no muggins window is open: a call must come before the next player acts")
        if self._side[seat] == w.scorer_side:
            raise ClaimError("you cannot call muggins on your own side")
        r = self.rules
        res = resolve_call(w, amount, r.muggins, r.false_call_penalty, r.false_call_points)
        self.history.append((seat, Action("muggins", claim=amount)))
        self._ver += 1
        self._window = None
        self.log.append(Event("muggins", seat, {"on": w.scorer, "outcome": res.outcome,
                                                "points": res.caller_gain, "named": amount,
                                                "missed": w.missed}))
        cside = self._side[seat]
        if res.scorer_loss:
            self._award(w.scorer_side, -res.scorer_loss, w.scorer, "mugged")
        if res.caller_penalty:
            self._award(cside, -res.caller_penalty, seat, "false call")
        if res.scorer_award:
            self._award(w.scorer_side, res.scorer_award, w.scorer, "false call")
        if res.caller_gain:
            self._award(cside, res.caller_gain, seat, "muggins")
        if res.outcome != "false_call" and w.missed > res.caller_gain and res.outcome != "forfeit":
            self.log.append(Event("missed", w.scorer, {"side": w.scorer_side,
                                                       "points": w.missed - res.caller_gain,
                                                       "reason": w.reason}))

    def _late_claim(self, seat: int, amount: int | None) -> None:
        w = self._window
        if w is None or seat != w.scorer or not w.may_claim:
            raise ClaimError("there is nothing for you to claim now")
        if amount is None:
            raise ClaimError("a claim names its points, like 'claim 10'")
        self.history.append((seat, Action("claim", claim=amount)))
        self._ver += 1
        w.may_claim = False
        w.claimed = amount
        self.log.append(Event("claim", seat, {"points": amount, "late": True}))
        if amount <= w.missed:
            w.missed -= amount
            self._award(w.scorer_side, amount, seat, w.reason)
        else:
            self._over_claim(seat, amount, w.missed, "play" if w.reason == "play" else "play and its domino bonus")

    # ------------------------------------------------------------------------------------ moves ----
    def _next_seat(self, seat: int) -> int:
        n = self.num_players
        nxt = (seat + 1) % n
        if self.rules.partnership_both_out:
            for _ in range(n):
                if self.hands[nxt]:
                    break
                nxt = (nxt + 1) % n
        return nxt

    def _do_play(self, seat: int, tile: Tile, target: Tile | None, part: str | None,
                 claim: int | None) -> None:
        r = self.rules
        hand = self.hands[seat]
        hand.remove(tile)
        lead = target is None
        v = self._place(tile, target, part)
        count = self.count
        pts = self._table[count]
        data: dict[str, Any] = {"tile": tile.text if lead else tile.touch[v],
                                "on": None if target is None else target.text}
        if part is not None:
            data["part"] = part
        manual = self._manual
        if not manual:
            data["count"] = count
        self.log.append(Event("play", seat, data))
        if lead:
            self.phase = "play"
        self._draws = 0
        self._dead_passes = 0
        side = self._side[seat]
        if not manual:
            awarded, missed, over = pts, 0, False
        elif claim is None:
            awarded, missed, over = 0, pts, False
        else:
            awarded, missed, over = settle_claim(pts, claim)
            self.log.append(Event("claim", seat, {"points": claim}))
        going_out = not hand
        if over:
            self._over_claim(seat, claim or 0, pts, "play")
            if self._over:
                return
        if going_out and (not r.partnership_both_out or not self._teams
                          or not self.hands[(seat + 2) % self.num_players]):
            self._end_by_domino(seat, awarded, missed, claim, lead)
            return
        if going_out:
            self._out[seat] = True
        if awarded:
            self._award(side, awarded, seat, "play", down=lead)
        if self._over:  # the game ended on this play: what it left unclaimed is missed for good
            if missed:
                self.log.append(Event("missed", seat, {"side": side, "points": missed, "reason": "play"}))
            return
        if manual:
            self._window = Window(seat, side, missed, claim, "play",
                                  r.claim_timing == "lenient" and claim is None)
        if self._knock is not None:
            self._knock = None
            self.turn = self._next_seat(seat)
        elif self._extra and (tile.double or pts > 0) and hand and self._plays(seat):
            self.turn = seat
        elif self._both_out:
            self.turn = self._next_seat(seat)
        else:
            self.turn = (seat + 1) % self.num_players

    def _do_draw(self, seat: int) -> None:
        lead = self.phase == "lead"
        forced = not (self._voluntary and not lead and self._plays(seat))
        tile = self.boneyard.pop()
        self.hands[seat].append(tile)
        self._draws += 1
        self.log.append(Event("draw", seat, {"tile": tile.text, "ends": [x[2] for x in self._posflat],
                                             "forced": forced, "lead": lead}, _DRAW_SECRET))

    def _do_pass(self, seat: int) -> None:
        r = self.rules
        dead = len(self.boneyard) <= r.boneyard_reserve or (
            r.draw == "none" and not (self.phase == "lead" and r.first_lead == "must_set_double"))
        self.log.append(Event("pass", seat, {"ends": self.open_values(), "lead": self.phase == "lead"}))
        self._draws = 0
        if self._knock is not None and self._knock[1] == seat:
            self._knock = None
        if dead:
            self._dead_passes += 1
            active = sum(1 for h in self.hands if h)
            if self._dead_passes >= active:
                self._end_blocked()
                return
        else:
            self._dead_passes = 0
        self.turn = self._next_seat(seat)

    def _do_knock(self, seat: int) -> None:
        self.log.append(Event("knock", seat, {"ends": self.open_values(), "partner": self._knock is not None}))
        if self._knock is None:
            self._knock = ("partner", seat)
            self.turn = (seat + 2) % self.num_players
        else:
            knocker = self._knock[1]
            self._knock = ("forced", knocker)
            self.turn = knocker

    # ------------------------------------------------------------------------------ end of hand ----
    def _hand_pips(self, seat: int) -> int:
        return pips(self.hands[seat], self.rules.hand_double_counts_once)

    def _rounded(self, p: int) -> int:
        return round_nearest(p, self.rules.round_to)

    def _reveal(self, reason: str, seat: int | None) -> list[int]:
        p = [self._hand_pips(s) for s in range(self.num_players)]
        self.log.append(Event("hand_end", seat, {"hand": self.hand_no, "reason": reason,
                                                 "hands": [[t.text for t in h] for h in self.hands],
                                                 "pips": p}))
        return p

    def _end_by_domino(self, seat: int, play_points: int, missed: int, claim: int | None, lead: bool) -> None:
        r = self.rules
        n = self.num_players
        side = self._side[seat]
        self._last_out = seat
        p = self._reveal("domino", seat)
        opp = [s for s in range(n) if self._side[s] != side]
        rd = self._rounded
        unit = r.round_to
        bonus = 0
        others: list[tuple[int, int]] = []  # (side, points) awarded to other sides
        ob = r.out_bonus
        if ob == "per_opponent_round5":
            bonus = sum(rd(p[s]) for s in opp)
        elif ob == "total_round5":
            bonus = rd(sum(p[s] for s in opp))
        elif ob == "raw":
            bonus = sum(p[s] for s in opp)
        elif ob == "per5":
            bonus = sum(rd(p[s]) for s in opp) // unit
        elif ob == "largest_hand_per5":
            bonus = rd(max((p[s] for s in opp), default=0)) // unit
        elif ob == "chip_out_1":
            bonus = 1
        elif ob == "heaviest_tile_prime":
            bonus = prime_at_most(max((t.pips for s in opp for t in self.hands[s]), default=0))
        elif ob == "subtract_own":
            for s in range(n):
                if p[s]:
                    others.append((self._side[s], -rd(p[s])))
        if r.partner_pips_deducted and self._teams:
            partner = (seat + 2) % n
            bonus -= p[partner] if r.round_mode == "none" else rd(p[partner])
        manual = r.claims == "manual"
        mug_bonus = manual and r.mug_bonus and bonus > 0
        step = play_points + (0 if mug_bonus else bonus)
        if step > 0 and r.exact_target and self._scores[side] + step > r.target:
            self.log.append(Event("void", seat, {"side": side, "points": step, "reason": "domino",
                                                 "why": "it would pass the target"}))
        else:
            if play_points:
                self._award(side, play_points, seat, "play", check=False, down=lead)
            if bonus and not mug_bonus:
                self._award(side, bonus, seat, "domino", check=False)
            self._check_win(side)
        for oside, pts in others:
            if not self._over:
                self._award(oside, pts, None, "own pips")
        unclaimed = missed + (bonus if mug_bonus else 0)
        if manual and not self._over:
            self._window = Window(seat, side, unclaimed, claim, "domino" if mug_bonus else "play",
                                  mug_bonus or (r.claim_timing == "lenient" and claim is None))
        elif unclaimed:
            self.log.append(Event("missed", seat, {"side": side, "points": unclaimed, "reason": "play"}))
        self._after_hand()

    def _end_blocked(self) -> None:
        r = self.rules
        n = self.num_players
        self._last_out = -1
        p = self._reveal("blocked", None)
        rd = self._rounded
        div = r.round_to if per_unit(r.score_fn) else 1
        mode = r.round_mode
        low = min(p)
        lightest = [s for s in range(n) if p[s] == low]

        def take(s: int, against: list[int], difference: bool) -> int:
            if mode == "per_hand":
                v = sum(rd(p[o]) for o in against) - (rd(p[s]) if difference else 0)
            elif mode == "net":
                v = rd(sum(p[o] for o in against) - (p[s] if difference else 0))
            else:
                v = sum(p[o] for o in against) - (p[s] if difference else 0)
            return max(v, 0) // div

        b = r.blocked
        if b in ("lightest_takes_opponents", "lightest_takes_difference"):
            diff = b == "lightest_takes_difference"
            if len(lightest) == 1 or (r.blocked_tie == "nobody" and len({self._side[s] for s in lightest}) == 1):
                s = lightest[0]
                self._award(self._side[s], take(s, [o for o in range(n) if self._side[o] != self._side[s]], diff),
                            s, "blocked")
            elif r.blocked_tie == "split":
                s = lightest[0]
                heavier = [o for o in range(n) if p[o] > low]
                share = take(s, heavier, diff) // len(lightest)
                for s in lightest:
                    if not self._over:
                        self._award(self._side[s], share, s, "blocked")
            elif r.blocked_tie == "all_tied_score":
                heavier = [o for o in range(n) if p[o] > low]
                for s in lightest:
                    if not self._over:
                        self._award(self._side[s], take(s, heavier, diff), s, "blocked")
        elif b == "cascade":
            order = sorted(range(n), key=lambda s: p[s])
            for s in order:
                for o in order:
                    if p[o] > p[s] and self._side[o] != self._side[s] and not self._over:
                        self._award(self._side[s], (p[o] - p[s]) // div, s, "blocked")
        elif b == "subtract_own":
            for s in range(n):
                if p[s] and not self._over:
                    self._award(self._side[s], -rd(p[s]), s, "own pips")
        self._after_hand()

    def _after_hand(self) -> None:
        if self._over:
            return
        r = self.rules
        if r.win_check == "end_of_hand":
            if self._tiebreak_left > 0:
                self._tiebreak_left -= 1
            if self._tiebreak_left == 0:
                top = max(self._scores)
                if top >= r.target:
                    leaders = [s for s in range(self._nsides) if self._scores[s] == top]
                    if len(leaders) == 1 or not r.tie_break_hands:
                        self._finish(leaders)
                        return
                    self._tiebreak_left = self.num_players
                    self.log.append(Event("tie_break", None, {"hands": self.num_players}))
        self._start_hand()


    # --------------------------------------------------------------------------------- copies ----
    def clone(self) -> DominoState:
        c = DominoState.__new__(DominoState)
        self._clone_base(c)
        # shared: immutable or never changed in place
        c.turn = self.turn
        c.phase = self.phase
        c.count = self.count
        c.hand_no = self.hand_no
        c._nsides = self._nsides
        c._teams = self._teams
        c._table = self._table
        c._sniff_ends = self._sniff_ends
        c._fill_first = self._fill_first
        c._manual = self._manual
        c._extra = self._extra
        c._both_out = self._both_out
        c._voluntary = self._voluntary
        c._draw_limit = self._draw_limit
        c._spins = self._spins
        c._sniff_option = self._sniff_option
        c._all_tiles = self._all_tiles
        c._each = self._each
        c._tiebreak_left = self._tiebreak_left
        c._leader = self._leader
        c._last_out = self._last_out
        c._ver = self._ver
        c._forced_lead = self._forced_lead
        c._draws = self._draws
        c._dead_passes = self._dead_passes
        c._knock = self._knock
        c._spinner = self._spinner
        c._hand_log_start = self._hand_log_start
        # copied: changed in place
        c._linfo = self._linfo[:]
        c._entered = self._entered[:]
        c.hands = [h[:] for h in self.hands]
        c.boneyard = self.boneyard[:]
        c._out = self._out[:]
        c._ltile = self._ltile[:]
        c._lmask = self._lmask[:]
        c._node_of = dict(self._node_of)
        c._posall = self._posall[:]
        c._posflat = c._posall if self._posflat is self._posall else self._posflat[:]
        c._window = self._window.copy() if self._window is not None else None
        c._legal_cache = None
        return c

    def _become(self, other: DominoState) -> None:
        for name in _FIELDS:
            setattr(self, name, getattr(other, name))

    def sample_hidden(self, seat: int, rng: random.Random) -> DominoState:
        """Deal the tiles ``seat`` cannot see to the other hands and the boneyard at random, keeping
        what ``seat`` has learned: a player who drew, passed or knocked because he could not play held no
        tile matching the open ends then; a leader who drew or passed held no permitted lead."""
        c = self.clone()
        c.chance = self.chance.fork(rng)
        n = self.num_players
        r = self.rules
        tiles = self._all_tiles
        by_value = [sum(1 << t.index for t in tiles if t.has(v)) for v in range(r.tile_set + 1)]
        doubles = sum(1 << t.index for t in tiles if t.double)
        if r.lead_must_be == "double_or_scoring":
            no_lead = doubles | sum(1 << t.index for t in tiles if self._table[t.pips] > 0)
        elif r.lead_must_be == "double" or r.first_lead == "must_set_double":
            no_lead = doubles
        else:
            no_lead = 0
        # one forbidden-tile set (a bit per tile index) for every tile each other seat holds unseen
        slots: list[list[int]] = [[] for _ in range(n)]
        for e in self.log[self._hand_log_start:]:
            s = e.seat
            if s is None or s == seat:
                continue
            k = e.kind
            if k == "dealt":
                slots[s] = [0] * int(e.data["count"])
            elif k in ("draw", "pass", "knock"):
                d = e.data
                # what every seat knows: a pass or a first knock, and a draw where drawing is allowed only
                # to a player who cannot play (never whether a voluntary draw was forced)
                if not d.get("partner") and (k != "draw" or d.get("lead") or not r.voluntary_draw):
                    if d.get("lead"):
                        m = no_lead
                    else:
                        m = 0
                        for v in d.get("ends") or ():
                            m |= by_value[v]
                    if m:
                        slots[s] = [f | m for f in slots[s]]
                if k == "draw":
                    slots[s].append(0)
            elif k == "play":
                bit = 1 << parse_tile(e.data["tile"]).index
                held = slots[s]
                ok = [i for i, f in enumerate(held) if not f & bit]
                # the tile came from the most constrained slot that allowed it: the others stay loosest
                i = max(ok, key=lambda i: held[i].bit_count()) if ok else 0
                if held:
                    held.pop(i)
        visible = set(self.hands[seat]) | set(self._ltile)
        unknown = [t for t in tiles if t not in visible]
        shuffle(unknown, rng)
        owners: list[tuple[int, int]] = []
        for s in range(n):
            if s == seat:
                continue
            if len(slots[s]) == len(self.hands[s]):
                owners.extend((s, f) for f in slots[s])
            else:  # cannot happen from a real log; keep the counts exact regardless
                owners.extend((s, 0) for _ in self.hands[s])
        shuffle(owners, rng)
        match = _assign([f for _, f in owners], unknown)
        hands: list[list[Tile]] = [[] for _ in range(n)]
        used = set()
        for (s, _), ti in zip(owners, match, strict=True):
            hands[s].append(unknown[ti])
            used.add(ti)
        for s in range(n):
            if s != seat:
                c.hands[s] = hands[s]
        c.boneyard = [t for i, t in enumerate(unknown) if i not in used]
        c._legal_cache = None
        c._ver += 1
        return c

    # -------------------------------------------------------------------------------- notation ----
    def format_action(self, action: Action) -> str:
        k = action.kind
        if k != "play":
            return k
        t: Tile = action.subject
        target: Tile | None = action.target
        if target is None:
            text = t.text
        else:
            v = target.hi if t.has(target.hi) else target.lo
            text = f"{t.touching(v)} on {target.text}"
        return f"{text} {action.part}" if action.part else text

    def parse_action(self, text: object, seat: int | None = None) -> Action:
        if not isinstance(text, str) or len(text) > _MAX_MOVE_TEXT:
            raise UnknownAction(f"a move is text of at most {_MAX_MOVE_TEXT} characters; got {shown(text)}")
        words = text.strip().lower().replace(",", " ").split()
        if not words:
            raise UnknownAction("empty move")
        if words[0] in ("draw", "pass", "knock", "muggins", "claim"):
            claim = None
            if len(words) == 2 and words[0] in ("muggins", "claim"):
                claim = parse_points(words[0], words[1], self.rules.max_step_points)
            elif len(words) != 1:
                raise UnknownAction(f"cannot read {text!r}; '{words[0]}' takes nothing after it"
                                    if words[0] not in ("muggins", "claim") else
                                    f"cannot read {text!r}; write '{words[0]}' or '{words[0]} 10'")
            return Action(words[0], claim=claim)
        if words[0] in ("lead", "play"):
            words = words[1:]
        if not words:
            raise UnknownAction("name a tile, like 5-3 or 5-3 on 5-5")
        top = self.rules.tile_set
        tile = parse_tile(words[0], top)
        inline = "inline" in words
        words = [w for w in words if w != "inline"]
        if len(words) == 1:
            return _play(tile, None, "inline" if inline else None)
        if len(words) < 3 or words[1] != "on" or len(words) > 4:
            raise UnknownAction(f"cannot read {text!r}; write a play like 5-3 on 5-5")
        target = parse_tile(words[2], top)
        word = words[3] if len(words) == 4 else None
        if word not in (None, "side", "end", "half"):
            raise UnknownAction(f"{word!r} is not a part of a tile; say side or end")
        part: str | None = None
        node = self._node_of.get(target)
        if target.double and node is not None:
            kind = self._linfo[node][0]
            branch = "side" if kind in _INLINE else "end"
            free = {p for p, _, _ in self._positions(node)}
            if word == branch or (word is None and None not in free and branch in free):
                part = branch
        elif target.double and word == "end":
            part = "end"
        if inline:
            part = "inline" if part is None else part + " inline"
        return _play(tile, target, part)

    # ------------------------------------------------------------------------------------ views ----
    def layout(self) -> list[dict[str, Any]]:
        """The placed tiles in order, each with where it sits: enough to draw the true geometry."""
        out = []
        for i, t in enumerate(self._ltile):
            kind = self._linfo[i][0]
            parent = self._linfo[i][3]
            entry: dict[str, Any] = {"tile": t.text if parent < 0 else t.touching(self._linfo[i][1]),
                                     "on": None if parent < 0 else self._ltile[parent].text,
                                     "double": t.double}
            if parent >= 0:
                pk = self._linfo[parent][0]
                slot = self._linfo[i][4]
                if pk in _DOUBLE_KINDS:
                    entry["part"] = ("end" if pk not in _INLINE else "side") if slot >= 4 else \
                        ("side" if pk not in _INLINE else "end")
                else:
                    entry["part"] = "half"
                entry["slot"] = slot.bit_length() - 1
            entry["spinner"] = kind in (SPINNER, SNIFF_STUB, INLINE_SPINNER)
            entry["inline"] = kind in _INLINE
            entry["stub"] = kind in (STUB, STUB_DOUBLE)
            out.append(entry)
        return out

    def open_ends(self) -> list[dict[str, Any]]:
        return [{"on": self._ltile[node].text, "part": p or ("half" if not self._ltile[node].double else
                 ("end" if self._linfo[node][0] in _INLINE else "side")), "value": v}
                for node in sorted({x[4] for x in self._posall}) for p, _, v in self._positions(node)]

    def view(self, seat: int | None) -> dict[str, Any]:
        r = self.rules
        v: dict[str, Any] = {
            "game": self.game, "preset": r.preset, "seat": seat, "players": self.num_players,
            "sides": list(self._side), "scores": list(self._scores), "target": r.target,
            "hand": self.hand_no, "turn": None if self._over else self.turn, "phase": self.phase,
            "to_act": sorted(self.to_act()), "layout": self.layout(), "open_ends": self.open_ends(),
            "hand_sizes": [len(h) for h in self.hands], "boneyard": len(self.boneyard),
            "drawable": max(0, len(self.boneyard) - r.boneyard_reserve) if r.draw != "none" else 0,
            "claims": r.claims, "window": self._window.public() if self._window is not None else None,
            "over": self._over, "winners": sorted(self._winners),
        }
        if r.claims == "auto":
            v["count"] = self.count
        if seat is not None:
            v["my_hand"] = [t.text for t in sorted(self.hands[seat], key=lambda t: t.index)]
            v["legal"] = [self.action_to_json(seat, a)["move"] for a in self.legal_actions(seat)]
        return v

    def inventory(self) -> dict[str, list[str]]:
        """Every tile by where it lies: each hand, the boneyard (``stock``) and the layout."""
        out = {f"hand {s}": [t.text for t in h] for s, h in enumerate(self.hands)}
        out["stock"] = [t.text for t in self.boneyard]
        out["layout"] = [t.text for t in self._ltile]
        return out


# Every field of a DominoState (state.pxd declares each for the compiled build, beyond GameState's).
_FIELDS = _BASE_FIELDS + (
    "hands", "boneyard", "turn", "phase", "count", "hand_no", "_nsides", "_teams", "_entered", "_table",
    "_sniff_ends", "_fill_first", "_manual", "_extra", "_both_out", "_voluntary", "_draw_limit", "_spins",
    "_sniff_option", "_all_tiles", "_each", "_window", "_tiebreak_left", "_leader", "_last_out", "_ver",
    "_legal_cache", "_forced_lead", "_draws", "_dead_passes", "_knock", "_out", "_ltile", "_linfo",
    "_lmask", "_node_of", "_posall", "_posflat", "_spinner", "_hand_log_start",
)


def _assign(forbidden: list[int], tiles: list[Tile]) -> list[int]:
    """Match every slot to a distinct tile it allows (Kuhn's augmenting paths over shuffled inputs).
    Falls back to ignoring a slot's constraint when no perfect matching exists."""
    n = len(forbidden)
    owner = [-1] * len(tiles)
    match = [-1] * n

    def fits(i: int, j: int) -> bool:
        return not forbidden[i] >> tiles[j].index & 1

    def augment(i: int, seen: list[bool]) -> bool:
        for j in range(len(tiles)):
            if not seen[j] and fits(i, j):
                seen[j] = True
                if owner[j] < 0 or augment(owner[j], seen):
                    owner[j] = i
                    match[i] = j
                    return True
        return False

    for i in range(n):
        # fast path: the first free fitting tile
        for j in range(len(tiles)):
            if owner[j] < 0 and fits(i, j):
                owner[j] = i
                match[i] = j
                break
        else:
            if not augment(i, [False] * len(tiles)):
                forbidden[i] = 0
                for j in range(len(tiles)):
                    if owner[j] < 0:
                        owner[j] = i
                        match[i] = j
                        break
    return match
