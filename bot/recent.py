"""A small memory of the most recently used entries (a bounded least-recently-used map)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

__all__ = ["Recent"]

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most ``size`` entries; past that, the least recently used is forgotten."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a memory of {size} entries")
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The entry (now the most recently used, even one that is None), or None."""
        value = self._items.get(key)
        if value is not None or key in self._items:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        """Remember ``value``, forgetting the least recently used entry if full."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def pop(self, key: K) -> V | None:
        """Forget the entry and return it (None if there was none)."""
        return self._items.pop(key, None)

    def clear(self) -> None:
        """Forget every entry."""
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items
