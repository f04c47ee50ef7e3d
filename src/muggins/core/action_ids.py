"""Integer actions: every action a seat can ever take in a game, numbered 0 .. size - 1 (docs/actions.md).

The text notation is for people; the integer is for machines (a learning library's fixed-size action
head, a mask of legal moves). A game's numbering depends only on the game, its rules and the number of
players, and is a list of *blocks*, one per kind of move, laid end to end. A block holds ``bases`` moves
(cards, tiles x places, ...), each followed by the claim codes it may carry:

* ``none``: the move carries no claim: one id;
* ``optional``: a scoring move or a muggins call in a manual-claim game: ``None`` (said nothing) and every
  amount 0 .. ``max_step_points``: ``max_step_points + 2`` ids, code 0 for ``None`` and ``c + 1`` for ``c``;
* ``required``: a late claim, which always names its points: ``max_step_points + 1`` ids, code ``c``.

Each game's package supplies the numbering of its own moves (its ``action_ids`` module, named by the state
class's ``action_ids`` attribute); the claim codes, the muggins call and the late claim are common.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from muggins.core.claims import check_points
from muggins.core.errors import ClaimError, IllegalAction, UnknownAction, shown

if TYPE_CHECKING:
    from muggins.core.protocol import Action, GameState

Claims = Literal["none", "optional", "required"]


class Block(NamedTuple):
    """One kind of move in the numbering: ids ``start`` .. ``start + bases * width - 1``."""

    kind: str
    start: int
    bases: int
    width: int
    claims: Claims

    @property
    def stop(self) -> int:
        return self.start + self.bases * self.width


class ActionSpace:
    """The numbering of one game's actions under fixed rules and player count.

    A game subclasses it and provides :meth:`context` (what the position tells, computed once per call),
    :meth:`base_of` (a move without its claim -> its block kind and index in the block) and
    :meth:`action_of` (the reverse, in a position). Muggins calls and late claims are handled here."""

    def __init__(self, rules: Any, num_players: int, moves: list[tuple[str, int, bool]]) -> None:
        """``moves``: (kind, how many moves of that kind, whether it may carry a claim), in id order; the
        muggins call and the late claim follow in a manual-claim game."""
        self.rules = rules
        self.num_players = num_players
        self.manual = rules.claims == "manual"
        self.bound = int(rules.max_step_points)
        blocks: list[Block] = []
        start = 0
        specs: list[tuple[str, int, Claims]] = [
            (kind, n, "optional" if claims and self.manual else "none") for kind, n, claims in moves]
        if self.manual:
            specs += [("muggins", 1, "optional"), ("claim", 1, "required")]
        for kind, n, claims in specs:
            width = {"none": 1, "optional": self.bound + 2, "required": self.bound + 1}[claims]
            blocks.append(Block(kind, start, n, width, claims))
            start += n * width
        self.blocks: tuple[Block, ...] = tuple(blocks)
        self.by_kind: dict[str, Block] = {b.kind: b for b in blocks}
        self.size = start

    # --- the game's part ----------------------------------------------------------------------------
    def context(self, state: GameState) -> Any:
        """What :meth:`base_of` needs to know of the position (computed once per mask)."""
        return None

    def base_of(self, state: GameState, action: Action, ctx: Any) -> tuple[str, int]:
        """(block kind, index in the block) of ``action`` (its claim aside), or UnknownAction /
        IllegalAction when it is no move of this game / has no place in this position."""
        raise UnknownAction(f"{shown(action.kind)} is not a move of this game")

    def action_of(self, state: GameState, kind: str, base: int) -> Action:
        """The move (without claim) numbered ``base`` in block ``kind`` in this position."""
        raise NotImplementedError

    # --- common -------------------------------------------------------------------------------------
    def _base(self, state: GameState, action: Action, ctx: Any) -> tuple[Block, int]:
        kind = action.kind
        if kind in ("muggins", "claim"):
            block = self.by_kind.get(kind)
            if block is None:
                raise UnknownAction(f"{kind!r} is not a move of this game: its points are scored automatically")
            if action.subject is not None or action.target is not None or action.part is not None:
                raise UnknownAction(f"{kind!r} names only an amount of points")
            return block, 0
        name, base = self.base_of(state, action, ctx)
        return self.by_kind[name], base

    def _code(self, block: Block, claim: object) -> int:
        if claim is None:
            if block.claims == "required":
                raise ClaimError("a late claim names its points, like 'claim 10'; its id carries the amount")
            return 0
        if block.claims == "none":
            if not self.manual:
                raise ClaimError("points are scored automatically in this game; a move carries no claim")
            raise ClaimError(f"a {block.kind!r} move carries no claim")
        amount = check_points(claim, self.bound, "a muggins call" if block.kind == "muggins" else "a claim")
        return amount + 1 if block.claims == "optional" else amount

    def action_id(self, state: GameState, action: Action) -> int:
        block, base = self._base(state, action, self.context(state))
        return block.start + base * block.width + self._code(block, action.claim)

    def legal_ranges(self, state: GameState, seat: int) -> list[tuple[int, int]]:
        """The ids ``seat`` may use now, as (start, stop) ranges: every legal move with every claim it may
        carry (a late claim with every amount: ``legal_actions`` lists it with its true one)."""
        ctx = self.context(state)
        out = []
        for a in state.legal_actions(seat):
            block, base = self._base(state, a, ctx)
            start = block.start + base * block.width
            out.append((start, start + block.width))
        return out

    def mask(self, state: GameState, seat: int) -> bytearray:
        m = bytearray(self.size)
        for start, stop in self.legal_ranges(state, seat):
            m[start:stop] = b"\x01" * (stop - start)
        return m

    def action_from_id(self, state: GameState, seat: int, i: object) -> Action:
        if type(i) is not int:
            raise UnknownAction(f"an action id is a whole number from 0 to {self.size - 1}; got {shown(i)}")
        if not 0 <= i < self.size:
            raise UnknownAction(f"there is no action id {shown(i)}: this game numbers its actions from 0 to "
                                f"{self.size - 1}")
        block = next(b for b in self.blocks if i < b.stop)
        base, code = divmod(i - block.start, block.width)
        if block.claims == "none":
            claim = None
        elif block.claims == "optional":
            claim = None if code == 0 else code - 1
        else:
            claim = code
        action = self.action_of(state, block.kind, base)
        if claim is not None:
            action = action._replace(claim=claim)
        if not any(start <= i < stop for start, stop in self.legal_ranges(state, seat)):
            text = state.format_action(action) + ("" if claim is None else f", claim {claim}")
            raise IllegalAction(f"action id {i} ({text}) is not a legal move of seat {seat} now")
        return action


def id_mask(size: int, ids: Any, numpy: bool = False) -> Any:
    """The mask of ``size`` action ids with a 1 at each of ``ids``: bytes, or with ``numpy`` a numpy array of
    bools (as ``GameState.legal_action_mask`` gives it)."""
    mask = bytearray(size)
    for i in ids:
        mask[i] = 1
    if numpy:
        import numpy as np

        return np.frombuffer(mask, dtype=np.bool_)  # shares the fresh bytearray: writable, no copy
    return bytes(mask)


_SPACES: dict[tuple[str, int, int], tuple[Any, ActionSpace]] = {}


def space_of(module: str, rules: Any, num_players: int) -> ActionSpace:
    """The numbering of ``module`` (a game's ``action_ids`` module: its ``numbering(rules, num_players)``),
    built once per rules object and player count."""
    key = (module, id(rules), num_players)
    hit = _SPACES.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_SPACES) > 256:  # rules objects come and go; keep the cache small
        _SPACES.clear()
    space: ActionSpace = importlib.import_module(module).numbering(rules, num_players)
    _SPACES[key] = (rules, space)
    return space
