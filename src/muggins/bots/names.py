"""The names bots go by at a table: the level and a name of its own, distinct at the table ("Casual Otter",
"Casual Wren", "Club Fox"), the same every time for the same seats."""

from __future__ import annotations

__all__ = ["BOT_NICKNAMES", "table_names"]

#: Given to the bots of a table in seat order; a table has at most this many bots.
BOT_NICKNAMES = ("Otter", "Wren", "Fox", "Heron", "Lynx", "Robin", "Hare", "Crow")


def table_names(levels: list[str | None]) -> list[str | None]:
    """A distinct name for each bot seat, from its level (``"casual"``, ``"club:forget=0.1"``) and its
    place among the table's bots: ``[None, "casual", "casual"]`` -> ``[None, "Casual Otter", "Casual
    Wren"]``; None for a person's seat."""
    out: list[str | None] = []
    k = 0
    for level in levels:
        if level is None:
            out.append(None)
            continue
        base = level.split(":")[0].strip().capitalize() or "Bot"
        nick = BOT_NICKNAMES[k % len(BOT_NICKNAMES)] + (f" {k // len(BOT_NICKNAMES) + 1}"
                                                        if k >= len(BOT_NICKNAMES) else "")
        out.append(f"{base} {nick}")
        k += 1
    return out
