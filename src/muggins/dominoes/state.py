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

import functools
import math
import random
from typing import TYPE_CHECKING, Any, cast

from muggins.core.chance import Chance, shuffle
from muggins.core.errors import (
    IllegalAction,
    NotYourTurn,
    UnknownAction,
    shown,
)
from muggins.core.fields import DICT, LIST, LISTS, RESET, StateField
from muggins.core.protocol import Action, Event, GameState, Seat, check_seat
from muggins.core.sampling import primary_events, redeal_events, resample
from muggins.core.views import WindowView
from muggins.dominoes.deals import draw_deal, draw_lot, lot_tied
from muggins.dominoes.rules import DominoRules
from muggins.dominoes.scoring import per_unit, prime_at_most, round_nearest, score_table
from muggins.dominoes.tiles import Tile, full_set, parse_tile, pips, tile_weight
from muggins.dominoes.views import DominoView, LayoutTile, OpenEnd, move_text

Position = tuple[Tile, str | None, int, "list[Action]", int, int]  # target, part, value, row, node, slot bit
#: A hand's sampling frame: slots (seat, j) -> [forbidden tiles, tile], each seat's slots, the seat's own
#: dealt tiles, the tiles drawn in order, who drew each, the tiles unplaced, whether a generator chose any.
_Frame = tuple[dict[tuple[int, int], list[Any]], list[list[tuple[int, int]]], list[str], list[Tile | None],
               list[int], list[Tile], bool]

NONDOUBLE, STUB, CROSS, SPINNER, SNIFF_STUB, INLINE_SPINNER, STUB_DOUBLE = range(7)
_POP2 = (0, 1, 1, 2)
_DOUBLE_KINDS = (CROSS, SPINNER, SNIFF_STUB, INLINE_SPINNER, STUB_DOUBLE)
_INLINE = (SNIFF_STUB, INLINE_SPINNER)

DRAW = Action("draw")
PASS = Action("pass")
KNOCK = Action("knock")



_new_tuple = tuple.__new__


def _play(tile: Tile, target: Tile | None, part: str | None) -> Action:
    """A play action, made afresh: no table remembers the moves of a game (nor an opponent's tiles).
    Built as the tuple it is (twice as fast as ``Action(...)``, whose constructor is a Python function)."""
    return _new_tuple(Action, ("play", tile, target, part, None))


_ROWS: dict[tuple[Tile, str | None], list[Action]] = {}


def _play_row(target: Tile, part: str | None, tiles: list[Tile]) -> list[Action]:
    """Every play of a tile of the set onto ``part`` of ``target``, indexed by tile index: one table per
    place for the whole process, made whole the first time the place is used. It is the same whatever
    the hands hold, so it tells nothing of a game's tiles (a sampled world shares it and learns nothing)
    and its making takes the same time whoever holds what; the hot loop of :meth:`DominoState._plays`
    picks its actions from it instead of making tuples."""
    key = (target, part)
    row = _ROWS.get(key)
    if row is None or len(row) < len(tiles):
        row = [_new_tuple(Action, ("play", t, target, part, None)) for t in tiles]  # tiles in index order
        _ROWS[key] = row
    return row


_EMPTY: frozenset[int] = frozenset()
_EXP_ROOM = 600.0  # the largest power ``choice_evidence`` raises e to (exp overflows past 709)
_DRAW_SECRET = ("tile", "forced")  # whether the drawer could have played is his own business
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


# Every field of a DominoState beyond GameState's, declared once: muggins.core.fields generates from this table
# the hints of DominoState, _FIELDS, state.pxd (typed fields of the compiled build) and clone().
# called on every move: C calls in the compiled build
PXD_METHODS = """
cpdef list _regular(self, long seat)
cpdef _apply_move(self, long seat, action)
"""

# fields-target: DominoState FIELDS _FIELDS base=core/protocol.py pxd="DominoState, typed"
FIELDS = (
    StateField("rules", "object", "DominoRules"),
    StateField("hands", "list", "list[list[Tile]]", LISTS),
    StateField("boneyard", "list", "list[Tile]", LIST),
    StateField("turn", "long", "int"),
    StateField("phase", "str", "str"),
    StateField("count", "long", "int"),
    StateField("hand_no", "long", "int"),
    StateField("_nsides", "long", "int"),
    StateField("_teams", "bint", "bool"),
    StateField("_entered", "list", "list[bool]", LIST),
    StateField("_table", "tuple", "tuple[int, ...]"),
    StateField("_sniff_ends", "bint", "bool"),
    StateField("_fill_first", "bint", "bool"),
    StateField("_extra", "bint", "bool"),
    StateField("_both_out", "bint", "bool"),
    StateField("_voluntary", "bint", "bool"),
    StateField("_draw_limit", "long", "int"),
    StateField("_spins", "bint", "bool"),
    StateField("_sniff_option", "bint", "bool"),
    StateField("_all_tiles", "list", "list[Tile]"),
    StateField("_each", "long", "int"),
    StateField("_tiebreak_left", "long", "int"),
    StateField("_leader", "long", "int"),
    StateField("_last_out", "long", "int"),
    StateField("_legal_cache", "object", "tuple[int, list[Action]] | None", RESET),
    StateField("_down", "bint", "bool", doc="the step being scored is the lead's own (no_win_on_down)"),
    StateField("_forced_lead", "object", "Tile | None"),
    StateField("_draws", "long", "int"),
    StateField("_dead_passes", "long", "int"),
    StateField("_knock", "object", "tuple[str, int] | None"),
    StateField("_out", "list", "list[bool]", LIST),
    StateField("_ltile", "list", "list[Tile]", LIST),
    StateField("_linfo", "list", "list[tuple[int, int, int, int, int]]", LIST),
    StateField("_lmask", "list", "list[int]", LIST),
    StateField("_node_of", "dict", "dict[Tile, int]", DICT),
    StateField("_posall", "list", "list[Position]", LIST),
    StateField("_posflat", "list", "list[Position]", LIST, same_as="_posall"),
    StateField("_spinner", "long", "int"),
    StateField("_hand_log_start", "long", "int"),
)


class DominoState(GameState):
    game = "dominoes"
    action_ids = "muggins.dominoes.action_ids"  # numbers the moves: docs/actions.md

    # A compiled build makes this class an extension type with typed fields (state.pxd).
    if TYPE_CHECKING:
        # >>> generated by python -m muggins.core.fields from FIELDS: do not edit (hints)
        rules: DominoRules
        hands: list[list[Tile]]
        boneyard: list[Tile]
        turn: int
        phase: str
        count: int
        hand_no: int
        _nsides: int
        _teams: bool
        _entered: list[bool]
        _table: tuple[int, ...]
        _sniff_ends: bool
        _fill_first: bool
        _extra: bool
        _both_out: bool
        _voluntary: bool
        _draw_limit: int
        _spins: bool
        _sniff_option: bool
        _all_tiles: list[Tile]
        _each: int
        _tiebreak_left: int
        _leader: int
        _last_out: int
        _legal_cache: tuple[int, list[Action]] | None
        _down: bool  # the step being scored is the lead's own (no_win_on_down)
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
        # <<< end of generated hints

    # ------------------------------------------------------------------------------------ set-up ----
    @classmethod
    def new(cls, rules: DominoRules, num_players: int, chance: Chance) -> DominoState:
        n = num_players
        teams = rules.partnerships and n == 4
        s = cls._blank(rules, n, chance, [i % 2 for i in range(n)] if teams else list(range(n)))
        s._nsides = 2 if teams else n
        s._teams = teams
        s._entered = [rules.entry_threshold == 0] * s._nsides
        s._table = score_table(rules.score_fn)
        s._sniff_ends = rules.spinner_count == "sniff_ends"
        s._fill_first = rules.spinner_fill_first
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
        s._tiebreak_left = 0
        s._leader = -1
        s._last_out = -1
        s._legal_cache = None
        s._down = False
        s._start_hand()
        return s

    def _lot(self, seats: list[int], lightest: bool) -> int:
        """Each of ``seats`` draws a tile; the heaviest (or lightest) leads. Ties are redrawn or broken by
        the higher end, as the rules say."""
        high_end = self.rules.lot_tie == "high_end"
        while True:
            tiles = draw_lot(self.chance, self._all_tiles, self.rules.tile_set, seats)
            self.log.append(Event("lot", None, {"seats": list(seats), "tiles": [t.text for t in tiles]}))
            tied = lot_tied(tiles, seats, high_end, lightest)
            if len(tied) == 1:
                return tied[0]
            seats = tied

    def _deal(self) -> None:
        self.hands, self.boneyard = draw_deal(self.chance, self._all_tiles, self.rules.tile_set,
                                              self.num_players, self._each)

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
        self._clear_layout()
        self._hand_log_start = len(self.log)
        self.log.append(Event("hand_start", None, {"hand": self.hand_no, "leader": leader,
                                                    "boneyard": len(self.boneyard)}))
        for s in range(n):
            self.log.append(Event("dealt", s, {"tiles": [t.text for t in self.hands[s]],
                                               "count": len(self.hands[s])}, ("tiles",)))
        self._ver += 1

    def _clear_layout(self) -> None:
        """No tile laid: the layout of a hand's start."""
        self._ltile = []
        self._linfo = []  # kind, v0, v1, parent, parent slot
        self._lmask = []
        self._node_of = {}
        # every free playable part of the layout: (tile, part, value, actions onto it, node, slot bit)
        self._posall = []
        self._posflat = self._posall  # where a tile may go now (Merry-Go-Round restricts)
        self._spinner = -1
        self.count = 0

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
                posall[i] = (tile, None, outer, _play_row(tile, None, self._all_tiles), nid, 2)
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
                tiles = self._all_tiles
                posall.extend((target, p, pv, _play_row(target, p, tiles), parent, bit)
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
            posall.append((tile, None, v1, _play_row(tile, None, self._all_tiles), nid, 2))
            self.count += v1
        else:
            tiles = self._all_tiles
            posall.extend((tile, p, pv, _play_row(tile, p, tiles), nid, bit)
                          for p, bit, pv in self._compute_positions(nid))
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
                i = t.index
                for x in posflat:
                    if tm >> x[2] & 1:
                        out.append(x[3][i])
        return out

    def _can_draw(self) -> bool:
        r = self.rules
        if len(self.boneyard) <= r.boneyard_reserve:
            return False
        if self.phase == "lead":
            return r.first_lead == "must_set_double" or (r.lead_must_be == "double" and r.draw != "none")
        return self._draws < self._draw_limit

    def _regular(self, seat: Seat) -> list[Action]:
        """Legal moves of ``seat`` (claims aside): none unless it is his turn. A cached list."""
        if seat != self.turn:
            return []
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

    def waiting_for(self) -> frozenset[int]:
        return _EMPTY if self._over else _SINGLE[self.turn]

    def _points_of(self, seat: int, action: Action) -> int:
        """The points of a play now: what a perfect player announces with it."""
        if action.kind != "play":
            return 0
        return self._table[self._count_after(action.subject, action.target, action.part)]

    # ------------------------------------------------------------------------------------ apply ----
    def _apply_move(self, seat: Seat, action: Action) -> None:
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        kind = action.kind
        claim = action.claim
        base = action if claim is None else action._replace(claim=None)
        cache = self._legal_cache
        legal = cache[1] if cache is not None and cache[0] == self._ver else self._regular(seat)
        if base not in legal:
            raise IllegalAction(self._why_illegal(seat, base))
        self.history.append((seat, action))
        self._ver += 1
        if kind == "play":
            self._do_play(seat, base.subject, base.target, base.part, claim)
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
        """Credit ``points`` (entry threshold, exact target, no win on the lead); ``down`` marks the lead's
        own points (set for a step scored through the window by ``_down``)."""
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
        if points > 0 and (down or (self._down and reason == "play")) and r.no_win_on_down and new >= r.target:
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
        self._end_window()  # points still unclaimed when the game ends are logged as missed
        self.log.append(Event("game_end", None, {"winners": sorted(self._winners),
                                                 "scores": list(self._scores)}))

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
        if not self._manual:
            data["count"] = count
        self.log.append(Event("play", seat, data))
        if lead:
            self.phase = "play"
        self._draws = 0
        self._dead_passes = 0
        if not hand and (not r.partnership_both_out or not self._teams
                         or not self.hands[(seat + 2) % self.num_players]):
            self._end_by_domino(seat, pts, claim, lead)
            return
        if not hand:
            self._out[seat] = True
        self._down = lead
        self._score_step(seat, pts, claim, "play")
        self._down = False
        if self._over:
            return
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

    def _end_by_domino(self, seat: int, pts: int, claim: int | None, lead: bool) -> None:
        """Going out: the play's points as claimed, the out bonus (a muggable bonus with ``mug_bonus``, which
        the scorer may claim late), then one window on all that is unclaimed; the window outlives the hand."""
        r = self.rules
        play_points, missed = self._settle_step(seat, pts, claim, "play") if self._manual else (pts, 0)
        if self._over:  # an over-claim penalty ended the game
            self._open_window(seat, missed, claim, "play")
            return
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
        if manual:
            unclaimed = missed + (bonus if mug_bonus else 0)
            if mug_bonus and not self._over:
                self._open_window(seat, unclaimed, claim, "domino", "play and its domino bonus", unclaimed)
            else:  # once the game is over, all of it is missed as the play's
                self._open_window(seat, unclaimed, claim, "play")
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
        c: DominoState = DominoState.__new__(DominoState)
        # >>> generated by python -m muggins.core.fields from FIELDS: do not edit (clone)
        self._clone_base(c)
        c.hands = [v[:] for v in self.hands]
        c.boneyard = self.boneyard[:]
        c.turn = self.turn
        c.phase = self.phase
        c.count = self.count
        c.hand_no = self.hand_no
        c._nsides = self._nsides
        c._teams = self._teams
        c._entered = self._entered[:]
        c._table = self._table
        c._sniff_ends = self._sniff_ends
        c._fill_first = self._fill_first
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
        c._legal_cache = None
        c._down = self._down
        c._forced_lead = self._forced_lead
        c._draws = self._draws
        c._dead_passes = self._dead_passes
        c._knock = self._knock
        c._out = self._out[:]
        c._ltile = self._ltile[:]
        c._linfo = self._linfo[:]
        c._lmask = self._lmask[:]
        c._node_of = dict(self._node_of)
        c._posall = self._posall[:]
        c._posflat = c._posall if self._posflat is self._posall else self._posflat[:]
        c._spinner = self._spinner
        c._hand_log_start = self._hand_log_start
        # <<< end of generated clone
        return c

    def _become(self, other: DominoState) -> None:
        for name in _FIELDS:
            setattr(self, name, getattr(other, name))

    def sample_hidden(self, seat: int, rng: random.Random) -> DominoState:
        """A game of its own that ``seat`` cannot tell from this one: every deal rebuilt from what ``seat``
        saw (the current hand's unseen tiles drawn from ``rng``, ended hands one canonical way) and the
        public history replayed on it (see :mod:`muggins.core.sampling`). What the play shows is kept: a
        player who drew, passed or knocked because he could not play held no tile matching the open
        ends; a leader who drew or passed held no permitted lead; a partner who knocked held no scoring
        play; a player who lost an extra turn held nothing playable, one who kept it something playable;
        the holder of the highest double led. All but the last two are forbidden-tile masks on the
        slots of the hand's frame (``sampling_frame``), derived from the log before any world is drawn."""
        check_seat(seat, self.num_players)
        sample = sample_worlds(self, self, seat, rng)
        assert isinstance(sample, DominoState)
        return sample

    def _frame(self, seat: int, segment: list[tuple[int, dict[str, Any]]], learned: dict[int, int],
               pick: random.Random | None) -> _Frame:
        """What the hand's log fixes: the slots with their constraints and the tiles known to be in
        them, who drew each tile, the tiles still unplaced; and whether ``pick`` chose any of it."""
        r = self.rules
        tiles = self._all_tiles
        n = self.num_players
        by_value, no_lead, tile_of = _sample_masks(r.tile_set, r.lead_must_be, r.first_lead, r.score_fn)
        inferred = self._layout_inferences(segment)
        if learned:
            inferred = {i: inferred.get(i, 0) | learned.get(i, 0) for i in inferred.keys() | learned.keys()}
        # one slot per tile another seat holds or held: [forbidden tiles (a bit per index), tile]
        slots: dict[tuple[int, int], list[Any]] = {}
        held: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        mine: list[str] = []
        drawn: list[Tile | None] = []  # the tiles drawn this hand, in order (None: someone else's)
        revealed: list[list[str]] | None = None
        lead_mask = 0
        revealed_at = next((i for i, d in segment if d["kind"] == "hand_end"), None)
        picked = False
        for i, d in segment:
            k = d["kind"]
            s = d.get("seat")
            if k == "hand_start":
                lead_mask = 0
                if d.get("hand") == 1 and d.get("leader") == seat and r.first_lead.startswith("highest_double"):
                    # the seat leads by its highest double: nobody was dealt a higher one
                    own = [tile_of[x] for x in next(e["tiles"] for _, e in segment
                                                           if e["kind"] == "dealt" and e.get("seat") == seat)]
                    best = max((t.hi for t in own if t.double), default=-1)
                    lead_mask = sum(1 << t.index for t in tiles if t.double and t.hi > best)
            elif k == "dealt" and s is not None:
                if s == seat:
                    mine = list(d["tiles"])
                else:
                    for j in range(int(d["count"])):
                        slots[(s, j)] = [lead_mask, None]
                        held[s].append((s, j))
            elif k in ("draw", "pass", "knock") and s is not None:
                if s != seat and not d.get("partner") and (k != "draw" or d.get("lead") or not r.voluntary_draw):
                    m = no_lead if d.get("lead") else 0
                    if not d.get("lead"):
                        for v in d.get("ends") or ():
                            m |= by_value[v]
                    for key in held[s]:
                        slots[key][0] |= m
                if k == "draw":
                    if s == seat:
                        drawn.append(tile_of[d["tile"]])
                    else:
                        key = (s, -1 - len(drawn))
                        slots[key] = [0, None]
                        held[s].append(key)
                        drawn.append(None)
            elif k == "play" and s != seat and s is not None:
                bit = 1 << tile_of[d["tile"]].index
                ok = [key for key in held[s] if not slots[key][0] & bit]
                # the tile came from the most constrained slot that allowed it: slots held longer are
                # more constrained (constraints only grow), so this never blocks a later tile
                if pick is not None and not ok:
                    ok = held[s]
                if pick is not None and (revealed_at is not None or self.rules.first_lead.startswith("highest")):
                    # a retry of an ended hand, or a deal the lead tells about: any slot that allows it
                    key = pick.choice(ok)
                    picked = True
                else:
                    key = max(ok, key=lambda key: slots[key][0].bit_count()) if ok else held[s][0]
                slots[key][1] = tile_of[d["tile"]]
                held[s].remove(key)
            elif k == "hand_end":
                revealed = d["hands"]
            if i in inferred and s is not None and s != seat:
                for key in held[s]:
                    slots[key][0] |= inferred[i]
        known = {tile_of[x] for x in mine} | {t for t in drawn if t is not None}
        known.update(v[1] for v in slots.values() if v[1] is not None)
        if revealed is not None:  # an ended hand: every remaining tile is known
            for s in range(n):
                if s == seat:
                    continue
                # a hand keeps its tiles in the order they came (dealt, then drawn): so does the reveal
                shown = [tile_of[x] for x in revealed[s]]
                for key, t in zip(held[s], shown, strict=False):
                    slots[key][1] = t
                known.update(shown)
        unknown = [t for t in tiles if t not in known]
        drawers = [-1 if t is not None else _drawer(segment, g) for g, t in enumerate(drawn)]
        return slots, held, mine, drawn, drawers, unknown, picked

    def _layout_inferences(self, segment: list[tuple[int, dict[str, Any]]]) -> dict[int, int]:
        """What a hand's public play shows of a hand beyond the ends its holder could not match, each by the
        log index of the event that shows it, for that event's seat (the tiles he cannot hold, a bit per
        index): a partner who knocked held no tile that scored anywhere; a player who did not keep an extra
        turn he would have kept with a playable tile (Seven-Toed Pete) held none that fitted the layout after
        his play. Both read the layout, which is replayed from the hand's plays, and ask the engine's own
        move rules, so that they hold before any replay of the hand: the knock itself is legal only in a
        world that keeps its inference."""
        r = self.rules
        knocking = r.knocking and self._teams
        extra = r.extra_turn == "double_or_scoring"
        if not extra and not (knocking and any(d["kind"] == "knock" and d.get("partner") for _, d in segment)):
            return {}
        _, _, tile_of = _sample_masks(r.tile_set, r.lead_must_be, r.first_lead, r.score_fn)
        n = self.num_players
        lay = self.clone()  # the layout of the hand's plays only: its hands are set one tile at a time
        lay._clear_layout()
        lay.phase = "lead"
        lay._forced_lead = None
        lay._legal_cache = None
        ended = any(d["kind"] in ("hand_end", "game_end") for _, d in segment)
        size = [0] * n
        knocker: int | None = None  # a knock that stands: its knocker (a play, or his pass, ends it)
        out: dict[int, int] = {}
        for pos, (i, d) in enumerate(segment):
            k = d["kind"]
            s = d.get("seat")
            if s is None:
                continue
            if k == "dealt":
                size[s] = int(d["count"])
            elif k == "draw":
                size[s] += 1
            elif k == "pass" and s == knocker:
                knocker = None
            elif k == "knock":
                if d.get("partner") and knocking:
                    out[i] = _holdable(lay, s, scoring=True)
                knocker = (s + 2) % n if d.get("partner") else s
            elif k == "play":
                tile = tile_of[d["tile"]]
                lay._place(tile, None if d.get("on") is None else tile_of[d["on"]], d.get("part"))
                lay.phase = "play"
                size[s] -= 1
                stood, knocker = knocker is not None, None
                if not extra or stood or size[s] <= 0 or not (tile.double or lay._table[lay.count] > 0):
                    continue  # this play never keeps the turn, whatever its player holds
                # who moved next: the next move of the hand, or the seat to move now (the turn is public)
                nxt = next((e.get("seat") for _, e in segment[pos + 1:] if e["kind"] in _MOVES), None)
                if nxt is None and not ended and not self._over:
                    nxt = self.turn
                if nxt is not None and nxt != s:
                    out[i] = _holdable(lay, s, scoring=False)
        return out

    def sampling_frame(self, seat: int) -> tuple[list[list[int]], list[int]]:
        """What ``seat`` knows of the hidden tiles of the current hand, as ``sample_hidden`` derives it from
        the seat's view of the hand's log (for a native sampler): for every seat the forbidden-tile masks
        (a bit per tile index) of the tiles it holds unseen (empty for ``seat``), and the indices of the
        tiles ``seat`` has not seen, which fill those slots and the boneyard. Every inference the sampler
        keeps as a mask is in it (a pass, a knock, a draw, a partner's knock, an extra turn lost, a lead
        rule); of what the first hand's leader tells, when the hands chose him, only that nobody was dealt a
        higher double than the seat that led by its own."""
        check_seat(seat, self.num_players)
        start = max(i for i, e in enumerate(self.log) if e.kind == "hand_start")
        segment = [(i, self.log[i].to_dict(seat)) for i in range(start, len(self.log))]
        slots, held, _, _, _, unknown, _ = self._frame(seat, segment, {}, None)
        masks = [[] if s == seat else [int(slots[key][0]) for key in held[s]] for s in range(self.num_players)]
        return masks, [t.index for t in unknown]

    def choice_evidence(self, seat: int, sharpness: float, heavy: float = 0.0
                        ) -> tuple[list[int], list[float], list[list[float]]]:
        """What the other seats' plays of this hand tell ``seat`` of their hands, for a sampler that weighs its
        worlds (the native search's ``infer``). A player is taken to choose each legal move with a weight
        exp(``sharpness`` * its points + ``heavy`` * the weight of its tile), a tile's weight being the greedy
        tie-break's (its pips, and for a double the set's top number again: players shed heavy tiles, doubles
        first). A decision's weights are scaled down together when they would overflow (only their ratios
        count).

        For every play another seat made this hand: the slots of ``sampling_frame`` he held then (a bit per
        slot, the slots numbered seat by seat in that frame's order; a tile drawn after the play was not yet
        his); the summed weight of the moves that his then-held tiles now known (the tile played, those he
        played later) gave him; and per tile index the summed weight of the moves that tile would have given
        him there (0: it did not fit). From ``seat``'s view only: the layout is public, replayed from the
        hand's plays."""
        check_seat(seat, self.num_players)
        start = max(i for i, e in enumerate(self.log) if e.kind == "hand_start")
        segment = [(i, self.log[i].to_dict(seat)) for i in range(start, len(self.log))]
        slots, held, _, _, _, _, _ = self._frame(seat, segment, {}, None)
        _, _, tile_of = _sample_masks(self.rules.tile_set, self.rules.lead_must_be, self.rules.first_lead,
                                      self.rules.score_fn)
        tiles = self._all_tiles
        # the log index each slot came at (a dealt one at the hand's start, a drawn one at its draw) and, for a
        # tile played since, the index of its play
        draws = [i for i, d in segment if d["kind"] == "draw"]
        plays = [(i, d) for i, d in segment if d["kind"] == "play"]
        played_at = {(d["seat"], tile_of[d["tile"]].index): i for i, d in plays}
        flat = [(s, key) for s in range(self.num_players) if s != seat for key in held[s]]
        came = {key: start if key[1] >= 0 else draws[-1 - key[1]] for key in slots}
        c = self.clone()
        c._clear_layout()
        c.phase = "lead"
        c._forced_lead = None
        out_held: list[int] = []
        out_known: list[float] = []
        out_z: list[list[float]] = []
        for i, d in plays:
            s = d["seat"]
            tile = tile_of[d["tile"]]
            target = None if d.get("on") is None else tile_of[d["on"]]
            if s != seat:
                c.turn = s
                powers: dict[int, list[float]] = {}
                for t in tiles:
                    c.hands[s] = [t]
                    wt = heavy * tile_weight(t, self.rules.tile_set)  # greedy's tie-break
                    powers[t.index] = [sharpness * c._points_of(s, a) + wt for a in c._plays(s)]
                top = max((p for ps in powers.values() for p in ps), default=0.0)
                shift = top - _EXP_ROOM if top > _EXP_ROOM else 0.0
                z = [0.0] * len(tiles)
                for index, ps in powers.items():
                    z[index] = sum(math.exp(p - shift) for p in ps)
                out_held.append(sum(1 << j for j, (who, key) in enumerate(flat) if who == s and came[key] < i))
                out_known.append(sum(z[v[1].index] for key, v in slots.items() if key[0] == s and v[1] is not None
                                     and came[key] < i <= played_at[(s, v[1].index)]))
                out_z.append(z)
            c._place(tile, target, d.get("part"))
            c.phase = "play"
        return out_held, out_known, out_z

    # -------------------------------------------------------------------------------- notation ----
    def format_action(self, action: Action) -> str:
        return move_text(action)

    def parse_action(self, text: object, seat: int | None = None) -> Action:
        words = [w.lower() for w in self._words(text)]
        if words[0] in ("muggins", "claim"):
            return self._parse_call(words, text, 10)
        if words[0] in ("draw", "pass", "knock"):
            if len(words) != 1:
                raise UnknownAction(f"cannot read {text!r}; '{words[0]}' takes nothing after it")
            return Action(words[0])
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

    def view(self, seat: object) -> DominoView:
        # typed object: a compiled build would make True or 1.0 a seat before the check; -1 would
        # read the last seat's hand
        return self._view(None if seat is None else check_seat(seat, self.num_players))

    def _view(self, seat: int | None) -> DominoView:
        r = self.rules
        return DominoView(
            game=self.game, preset=r.preset, seat=seat, players=self.num_players,
            sides=list(self._side), scores=list(self._scores), target=r.target,
            hand=self.hand_no, turn=None if self._over else self.turn, phase=self.phase,
            to_act=sorted(self.to_act()), layout=cast("list[LayoutTile]", self.layout()),
            open_ends=cast("list[OpenEnd]", self.open_ends()),
            hand_sizes=[len(h) for h in self.hands], boneyard=len(self.boneyard),
            drawable=max(0, len(self.boneyard) - r.boneyard_reserve) if r.draw != "none" else 0,
            claims=r.claims, window=cast("WindowView", self._window.public()) if self._window is not None else None,
            over=self._over, winners=sorted(self._winners),
            count=self.count if r.claims == "auto" else None,
            my_hand=None if seat is None else [t.text for t in sorted(self.hands[seat], key=lambda t: t.index)],
            legal=None if seat is None else [self.action_to_json(seat, a)["move"] for a in self.legal_actions(seat)],
        )

    def inventory(self) -> dict[str, list[str]]:
        """Every tile by where it lies: each hand, the boneyard (``stock``) and the layout."""
        out = {f"hand {s}": [t.text for t in h] for s, h in enumerate(self.hands)}
        out["stock"] = [t.text for t in self.boneyard]
        out["layout"] = [t.text for t in self._ltile]
        return out


# >>> generated by python -m muggins.core.fields from FIELDS: do not edit (names)
_FIELDS = (
    "rules", "num_players", "chance", "history", "log", "_over", "_winners", "_scores", "_side", "_manual",
    "_window", "_ver", "hands", "boneyard", "turn", "phase", "count", "hand_no", "_nsides", "_teams",
    "_entered", "_table", "_sniff_ends", "_fill_first", "_extra", "_both_out", "_voluntary", "_draw_limit",
    "_spins", "_sniff_option", "_all_tiles", "_each", "_tiebreak_left", "_leader", "_last_out",
    "_legal_cache", "_down", "_forced_lead", "_draws", "_dead_passes", "_knock", "_out", "_ltile", "_linfo",
    "_lmask", "_node_of", "_posall", "_posflat", "_spinner", "_hand_log_start",
)
# <<< end of generated names


def sample_worlds(state: Any, shell: DominoState, seat: int, rng: random.Random) -> Any:
    """``DominoState.sample_hidden`` of ``state`` for ``seat`` (a pure state, or a native one read through the
    protocol: the same draws from ``rng``, the same world). ``shell`` is a pure state of the same rules and
    players at the same public turn (``state`` itself when pure): the frame of each hand is derived by its
    code from the log as ``seat`` saw it. A world is swapped into a pure template; a native template gives
    its sample with ``with_deal`` (its record replayed natively on the deal drawn)."""
    r = shell.rules
    n, each, top = shell.num_players, shell._each, r.tile_set
    _, _, tile_of = _sample_masks(top, r.lead_must_be, r.first_lead, r.score_fn)

    def frame(segment: list[tuple[int, dict[str, Any]]], learned: dict[int, int],
              pick: random.Random | None) -> _Frame:
        return shell._frame(seat, segment, learned, pick)

    def build(segment: list[tuple[int, dict[str, Any]]], outcomes: list[dict[str, Any]],
              learned: dict[int, int], pick: random.Random | None,
              memo: dict[str, Any] | None = None) -> list[dict[str, Any]] | None:
        if memo is not None and "frame" in memo:  # the same log and inferences: the same frame
            slots0, held, mine, drawn, drawers, unknown, _ = memo["frame"]
            slots = {key: v[:] for key, v in slots0.items()}
            unknown = unknown[:]
        else:
            slots, held, mine, drawn, drawers, unknown, picked = frame(segment, learned, pick)
            if memo is not None and not picked:
                memo["frame"] = ({key: v[:] for key, v in slots.items()}, held, mine, drawn, drawers,
                                 unknown[:], picked)
        if pick is not None:
            shuffle(unknown, pick)
        keys = [key for s in range(n) for key in held[s] if slots[key][1] is None]
        if keys:
            match = _assign([slots[key][0] for key in keys], unknown)
            used = set(match)
            for key, ti in zip(keys, match, strict=True):
                slots[key][1] = unknown[ti]
            unknown = [t for i, t in enumerate(unknown) if i not in used]
        for m, t in slots.values():
            if m >> t.index & 1:  # no world fits these choices: a tile its holder was shown not to hold
                return None
        hands = [mine if s == seat else [slots[(s, j)][1].text for j in range(each)] for s in range(n)]
        bone = [(t if t is not None else slots[(drawers[g], -1 - g)][1]).text for g, t in enumerate(drawn)]
        bone.extend(t.text for t in unknown)
        return [*(dict(o) for o in outcomes if o.get("kind") != "deal"),
                {"kind": "deal", "hands": hands, "boneyard": bone}]

    hands_lead = r.first_lead not in ("lot_heaviest", "lot_lightest", "must_set_double")
    forced_rule = r.first_lead == "highest_double_forced"

    def swap(t: Any, segment: list[tuple[int, dict[str, Any]]], made: list[dict[str, Any]],
             seat: int) -> Any:
        # the template's hand with the deal of ``made``: hands, boneyard and the events that show them
        deal = made[-1]
        dealt = [[tile_of[x] for x in h] for h in deal["hands"]]
        forced_lead = t._forced_lead if isinstance(t, DominoState) else None
        if hands_lead and t.hand_no == 1:  # the hands chose the leader (and maybe his lead)
            leader, best = _hands_leader(dealt, forced_rule)
            if isinstance(t, DominoState):
                was, was_forced = t._leader, t._forced_lead
            else:  # as the template's own deal chose them
                was, was_forced = _hands_leader([[tile_of[x] for x in h] for h in t.chance.outcomes[-1]["hands"]],
                                                forced_rule)
            if leader != was or (t.phase != "lead" and best is not was_forced):
                return None
            forced_lead = best
        if not isinstance(t, DominoState):  # a native template: its record replayed on the deal made
            return t.with_deal(made)
        bone = [tile_of[x] for x in deal["boneyard"]]
        c = t.clone()
        c._forced_lead = forced_lead
        held = [h[:] for h in dealt]

        def forced(s: int, d: dict[str, Any], hand: list[Tile]) -> dict[str, Any]:
            if not c._voluntary or d["lead"]:  # as _do_draw: could he have played?
                return {"forced": True}
            pm = 0
            for v in d["ends"]:
                pm |= 1 << v
            return {"forced": not any(x.mask & pm for x in hand)}

        g = redeal_events(c.log, segment, seat, held, bone, deal["hands"], tile_of, "tile", forced)
        c.hands = held
        c.boneyard = bone[g:][::-1]
        return c

    # with a voluntary draw, a player who kept the turn may draw: that he held a playable tile is no
    # constraint a draw can hold, so those games check every sample by its replay
    return resample(state, seat, rng, start_kind="hand_start", primary=_primary, build=build,
                    swap=None if r.extra_turn == "double_or_scoring" and r.voluntary_draw else swap)


@functools.cache
def _sample_masks(top: int, lead_must_be: str, first_lead: str, score_fn: str
                  ) -> tuple[list[int], int, dict[str, Tile]]:
    """For sampling: the tiles holding each value, the tiles a leader who drew or passed cannot hold
    (a bit per tile index), and every tile by its text either way round (events write a played tile
    as it touches). Rules data only, the same for every game of a set."""
    tiles = full_set(top)
    by_value = [sum(1 << t.index for t in tiles if t.has(v)) for v in range(top + 1)]
    doubles = sum(1 << t.index for t in tiles if t.double)
    tile_of = {text: t for t in tiles for text in (t.text, *t.touch.values())}
    if lead_must_be == "double_or_scoring":
        table = score_table(score_fn)
        return by_value, doubles | sum(1 << t.index for t in tiles if table[t.pips] > 0), tile_of
    if lead_must_be == "double" or first_lead == "must_set_double":
        return by_value, doubles, tile_of
    return by_value, 0, tile_of


def _hands_leader(hands: list[list[Tile]], forced: bool) -> tuple[int, Tile | None]:
    """Who leads the first hand when the hands choose (as ``_start_hand``): the holder of the highest
    double, with that double when it must be led; with no double the heavier hand (forced variant) or
    the heaviest single tile."""
    holder, best = 0, None
    for s, h in enumerate(hands):
        for t in h:
            if t.double and (best is None or t.hi > best.hi):
                holder, best = s, t
    if best is not None:
        return holder, best if forced else None
    n = len(hands)
    if forced:
        return max(range(n), key=lambda s: (pips(hands[s]), -s)), None
    return max((t.weight_key(), s) for s in range(n) for t in hands[s])[1], None


_MOVES = ("play", "draw", "pass", "knock")
_primary = primary_events(*_MOVES)


def _holdable(c: DominoState, seat: int, scoring: bool) -> int:
    """The tiles (a bit per index) that would give ``seat`` a play on ``c``'s layout, or with ``scoring``
    a scoring play: what a player who could not play (or score) there did not hold."""
    m = 0
    saved = c.hands[seat]
    for t in c._all_tiles:
        c.hands[seat] = [t]
        if any(not scoring or c._points_of(seat, a) > 0 for a in c._plays(seat)):
            m |= 1 << t.index
    c.hands[seat] = saved
    return m


def _drawer(segment: list[tuple[int, dict[str, Any]]], g: int) -> int:
    """The seat that made the ``g``-th draw of a hand."""
    for _, d in segment:
        if d["kind"] == "draw":
            if g == 0:
                return int(d["seat"])
            g -= 1
    return -1


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
