"""What a bot reads of its seat's view: counts, visible and unseen tiles, the hand after a
claim or kong, and defence (who looks ready, how dangerous a discard is).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from guobiao.table.game import Action, ActionKind, SeatView

_DISCARD, _CHOW, _PUNG, _KONG = (
    ActionKind.DISCARD,
    ActionKind.CHOW,
    ActionKind.PUNG,
    ActionKind.KONG,
)
_CONCEALED_KONG, _ADDED_KONG = ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG

LATE_WALL: Final = 20
"""With this many tiles or fewer left in the wall, every other seat is treated as ready."""


# Reading the view


def hand_counts(view: SeatView) -> list[int]:
    counts = [0] * 34
    for t in view.hand:
        counts[t] += 1
    return counts


def _visible(view: SeatView) -> list[int]:
    """Copies on the table this seat can see (:meth:`SeatView.visible_counts`)."""
    return view.visible_counts()


def unseen_counts(view: SeatView, counts: Sequence[int]) -> list[int]:
    """Copies of each kind this seat has not seen: neither in its hand nor on the table.

    Discarding or claiming moves tiles between the hand and the table, so this stays the same
    for every action the seat considers.
    """
    seen = _visible(view)
    return [max(0, 4 - counts[t] - seen[t]) for t in range(34)]


def counts_after_claim(counts: Sequence[int], action: Action, tile: int) -> list[int]:
    """The standing tiles after claiming ``tile`` with a chow, pung or kong."""
    after = list(counts)
    assert action.tile is not None
    if action.kind is _CHOW:
        for u in range(action.tile, action.tile + 3):
            if u != tile:
                after[u] -= 1
    else:
        after[tile] -= 3 if action.kind is _KONG else 2
    return after


def counts_after_kong(counts: Sequence[int], action: Action) -> list[int]:
    """The standing tiles after a concealed kong (four tiles) or an added kong (one tile)."""
    assert action.tile is not None
    after = list(counts)
    after[action.tile] -= 4 if action.kind is _CONCEALED_KONG else 1
    return after


# Defence


def threats(view: SeatView) -> tuple[int, ...]:
    """Seats that look ready: three or more declared melds (face-down kongs included), or every
    other seat late in the wall."""
    late = view.wall_remaining <= LATE_WALL
    return tuple(
        s
        for s in range(4)
        if s != view.seat and (late or len(view.melds[s]) + view.concealed_kongs[s] >= 3)
    )


def danger(tile: int, view: SeatView, against: Sequence[int], seen: Sequence[int]) -> float:
    """How likely discarding ``tile`` feeds one of ``against`` (0 safe .. 1 per threatening seat).

    MCR has no furiten, so even a seat's own discards (genbutsu) are only fairly safe; honours
    with three copies seen (``seen`` includes this hand) can hardly complete anything; suji
    (a tile three ranks from one the seat discarded) is safe against two-sided waits only.
    """
    total = 0.0
    for seat in against:
        pool = view.discards[seat]
        if tile in pool:
            total += 0.1
        elif tile >= 27:
            total += (1.0, 0.8, 0.5, 0.05, 0.0)[min(seen[tile], 4)]
        else:
            rank = tile % 9
            low = rank < 3 or tile - 3 in pool
            high = rank > 5 or tile + 3 in pool
            base = 0.75 if rank in (0, 8) else 1.0
            total += base * (0.45 if low and high else 0.8 if low or high else 1.0)
    return total
