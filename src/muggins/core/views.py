"""Typed per-seat views: what one seat (or a spectator) may see of a game.

Each game declares its view as a frozen dataclass whose fields are exactly the keys of the view's JSON
form, so the fields and their types are written once and :mod:`muggins.core.schemas` derives the JSON
Schema from them. A view is also a read-only ``Mapping`` over its JSON form (``v["hand"]``, ``v.get``,
``dict(v)``, ``"my_hand" in v``), and compares equal to a dict holding that form: consumers written
against plain dicts keep working. ``to_json()`` gives the plain dict, for ``json.dumps`` and the wire.
"""

# No ``from __future__ import annotations``: TypedDict must see NotRequired[...] as a type, not a string.
import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Literal, TypedDict

__all__ = ["ClaimMode", "View", "WindowView"]

ClaimMode = Literal["auto", "manual"]


class WindowView(TypedDict):
    """An open muggins window as everybody may see it (``Window.public()``): not how much was missed."""

    scorer: int
    claimed: int | None
    reason: str
    scorer_may_claim: bool


_KEYS: dict[type, tuple[str, ...]] = {}


class View(Mapping[str, Any]):
    """Base of the per-game view dataclasses (``@dataclass(frozen=True, kw_only=True, slots=True,
    eq=False)``). A field named in ``OPTIONAL`` is left out of the JSON form while it is None (a key that
    only a seated player's view has, or only one claim mode)."""

    __slots__ = ()
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def keys_declared(cls) -> tuple[str, ...]:
        """Every key the view may hold, in the order of its JSON form."""
        keys = _KEYS.get(cls)
        if keys is None:
            keys = _KEYS[cls] = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
        return keys

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON-able data: a new dict (its lists are the view's own)."""
        optional = self.OPTIONAL
        out: dict[str, Any] = {}
        for k in self.keys_declared():
            v = getattr(self, k)
            if v is not None or k not in optional:
                out[k] = v
        return out

    # --- the read-only Mapping over the JSON form ---------------------------------------------------
    def __getitem__(self, key: str) -> Any:
        if key not in self.keys_declared():
            raise KeyError(key)
        v = getattr(self, key)
        if v is None and key in self.OPTIONAL:
            raise KeyError(key)
        return v

    def __iter__(self) -> Iterator[str]:
        optional = self.OPTIONAL
        return (k for k in self.keys_declared() if k not in optional or getattr(self, k) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self.keys_declared() and (
            key not in self.OPTIONAL or getattr(self, key) is not None)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, View):
            return self.to_json() == other.to_json()
        if isinstance(other, Mapping):
            return self.to_json() == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]
