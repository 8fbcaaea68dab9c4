"""A bounded memo table: the one way the core's lazily filled tables keep a long run's memory flat.

Every table of shanten, waits, the fan calculator and the bots is a pure function of its key,
filled when first asked, so dropping an entry loses only time. :class:`Bounded` drops the oldest.
"""

from __future__ import annotations

from typing import Generic, TypeVar

__all__ = ["Bounded"]

_K = TypeVar("_K")
_V = TypeVar("_V")


class Bounded(dict[_K, _V], Generic[_K, _V]):
    """A dict filled through :meth:`put`, which keeps it to a limit (hits stay plain dict
    lookups): once full, each new entry takes the place of the oldest one (first in, first out),
    so a full table keeps its size, and its memory, for the rest of the run. A table emptied
    when full instead would swing between empty and full, and several such tables would sooner
    or later be full at the same moment: a peak that grows with the length of the run.

    Limits are best a third of a power of two, ``(1 << k) // 3``: CPython gives a dict that
    needs room the power of two above three times its entries, so a table that keeps that many
    while entries come and go settles on ``1 << k`` slots as soon as it is full, where another
    limit would let its slots double once more later in the run."""

    __slots__ = ("_next", "_order")

    def __init__(self) -> None:
        super().__init__()
        self._order: list[_K] = []  # the keys, oldest first from _next on (a ring once full)
        self._next = 0

    def put(self, key: _K, value: _V, limit: int) -> None:
        """``self[key] = value``, dropping the oldest entry when ``limit`` are held."""
        if key not in self:
            order = self._order
            if len(order) < limit:
                order.append(key)
            else:
                i = self._next % len(order)
                self.pop(order[i], None)
                order[i] = key
                self._next = i + 1
        self[key] = value

    def clear(self) -> None:
        super().clear()
        self._order.clear()
        self._next = 0
