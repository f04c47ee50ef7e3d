"""The chance of a domino hand's start, drawn alike by every engine: the lots for the lead and the deal, each
an outcome of a :class:`~muggins.core.chance.Chance` (from its seeded generator, or replayed from a record),
so that the pure and the native state deal the same tiles from the same seed or record."""

from __future__ import annotations

import random
from typing import Any

from muggins.core.chance import Chance, shuffle
from muggins.core.errors import RecordError, UnknownAction
from muggins.dominoes.tiles import Tile, parse_tile


def draw_lot(chance: Chance, tiles: list[Tile], tile_set: int, seats: list[int]) -> list[Tile]:
    """One round of lots: a tile for each of ``seats``, from ``tiles`` (the whole set)."""
    k = len(seats)

    def make(rng: random.Random) -> dict[str, Any]:
        return {"seats": list(seats), "tiles": [t.text for t in rng.sample(tiles, k)]}

    out = chance.next("lot", make)
    try:
        drawn = [parse_tile(x, tile_set) for x in out["tiles"]]
        if list(out["seats"]) != list(seats) or len(set(drawn)) != k:
            raise ValueError
    except (KeyError, TypeError, ValueError, UnknownAction):
        raise RecordError(f"lot outcome {out!r} does not fit seats {seats}") from None
    return drawn


def lot_tied(drawn: list[Tile], seats: list[int], high_end: bool, lightest: bool) -> list[int]:
    """The seats that drew the best tile of a round of lots (one seat: the lot is decided): the heaviest
    (``lightest``: the lightest), a tie broken by the higher end when ``high_end``."""
    keys = [t.weight_key() for t in drawn] if high_end else [(t.pips, 0) for t in drawn]
    best = min(keys) if lightest else max(keys)
    return [s for s, key in zip(seats, keys, strict=True) if key == best]


def fresh(chance: Chance) -> bool:
    """Whether ``chance`` draws its next outcome now (no recorded one is left and it has a generator): a
    native engine may then shuffle the deal itself, exactly as :func:`draw_deal` does."""
    return chance.drawn_here and chance.rng is not None and chance.position >= len(chance.outcomes)


def draw_deal(chance: Chance, tiles: list[Tile], tile_set: int, n: int, each: int
              ) -> tuple[list[list[Tile]], list[Tile]]:
    """The hands (``each`` tiles for each of ``n`` seats, in the order dealt) and the boneyard, its last tile
    drawn first."""
    made: list[Any] = []  # the hands and the boneyard, when drawn now

    def make(rng: random.Random) -> dict[str, Any]:
        deck = tiles[:]
        shuffle(deck, rng)
        made.append([deck[i * each:(i + 1) * each] for i in range(n)])
        made.append(deck[n * each:])
        return {"hands": [[t.text for t in h] for h in made[0]], "boneyard": [t.text for t in made[1]]}

    out = chance.next("deal", make)
    if made:  # drawn just now: the tiles are at hand and right by construction
        return made[0], made[1][::-1]
    try:
        hands = [[parse_tile(x, tile_set) for x in h] for h in out["hands"]]
        bone = [parse_tile(x, tile_set) for x in out.get("boneyard", [])]
    except (KeyError, TypeError, UnknownAction) as e:
        raise RecordError(f"bad deal outcome: {e}") from None
    seen = [t for h in hands for t in h] + bone
    if len(hands) != n or any(len(h) != each for h in hands):
        raise RecordError(f"a deal must give {n} hands of {each} tiles")
    if len(set(seen)) != len(seen) or (bone and len(seen) != len(tiles)):
        raise RecordError("a deal must hold every tile of the set exactly once")
    return hands, bone[::-1]  # drawn with pop(): the first listed tile is drawn first
