"""The names bots go by at a table: level and a name of their own, distinct, stable for the same seats."""

from __future__ import annotations

from muggins.bots.names import BOT_NICKNAMES, table_names


def test_bots_at_one_table_have_distinct_readable_names() -> None:
    names = table_names([None, "casual", "casual", "casual"])
    assert names == [None, "Casual Otter", "Casual Wren", "Casual Fox"]
    assert table_names([None, "casual", "casual", "casual"]) == names  # the same seats, the same names
    mixed = table_names(["club:forget=0.1", None, "expert", "beginner"])
    assert mixed == ["Club Otter", None, "Expert Wren", "Beginner Fox"]


def test_more_bots_than_nicknames_still_differ() -> None:
    many = table_names(["casual"] * (2 * len(BOT_NICKNAMES) + 1))
    assert len(set(many)) == len(many) and all(isinstance(n, str) and n.startswith("Casual ") for n in many)
