"""The observation of one seat: a fixed-length ``int16`` vector built only from its
:class:`~guobiao.game.SeatView` (``Game.view(seat)``): never another seat's hand or the wall.

Seats are relative to the observer: ``r = 0`` itself, ``1`` the next player (下家), ``2`` the
opposite (对家), ``3`` the previous player (上家); absolute seat ``(seat + r) % 4``. Tiles are the
ids 0-33 (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3); ``tile + 1`` where 0 must mean "none".

================  =====  ==========================================================================
offsets           size   feature
================  =====  ==========================================================================
0-33              34     own concealed tiles, counts 0-4 (the drawn tile included)
34-67             34     the tile just drawn by this seat (1 at that tile; ACT after a draw only)
68-101            34     the tile open to claims now (1: a discard in RESPOND, the added-kong tile
                         in ROB)
102-237           4×34   tiles in the declared melds of relative seat r (counts; ``102 + 34r``):
                         others' concealed kongs lie face down and are not shown
238-373           4×34   tiles in the discard pool of relative seat r (counts; ``238 + 34r``)
374-407           34     unseen copies: 4 - own tiles - every tile shown (melds and pools)
408-471           4×4×4  the melds of relative seat r in declaration order, up to 4 slots of 4
                         (``408 + 16r + 4i``): kind (0 none, 1 chow, 2 pung, 3 kong, 4 concealed
                         kong), lowest tile + 1, ``Meld.offered_by`` (who gave the claimed tile,
                         relative to the meld's owner: 1 next, 2 opposite, 3 previous; 0 none),
                         the claimed tile of a chow + 1 (0 otherwise)
472-599           4×32   discard pool of relative seat r in discard order, tile + 1, 0 empty
                         (``472 + 32r``; claimed discards leave the pool for the claimer's meld;
                         only the latest 32 are kept, which only a 144-tile hand could exceed)
600               1      own seat wind (0 East … 3 North; 0 is the dealer)
601               1      round wind (0-3)
602               1      phase: 0 act, 1 respond (a discard may be claimed), 2 rob (an added
                         kong may be robbed), 3 over
603               1      relative seat whose turn it is (the discarder or konger while others
                         respond)
604-607           4      flowers shown by relative seat r
608-611           4      concealed kongs of relative seat r still face down (not in its melds)
612               1      tiles left in the wall
613-616           4      Botzone wall: tiles left in relative seat r's segment (-1 otherwise)
617-620           4      the hand's score deltas of relative seat r (0 until the hand is over)
================  =====  ==========================================================================

:class:`Encoder` fills a preallocated buffer in place (an ``array('h')`` shared with a numpy view)
and hands out copies: from a :class:`~guobiao.game.SeatView` (:meth:`Encoder.encode`), or, the
environments' fast path, straight from the engine's public live state (:meth:`Encoder.encode_game`:
``Game.live_seat``, ``drawn_tile``, ``claimable_tile``, ``segments_left``), which reads the same
information without building a view; both give the same vector (tests/test_env_fast_path.py).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from ..game import Game, LiveSeat, Phase, SeatView
from ..melds import Meld, MeldKind

__all__ = [
    "DISCARD_SLOTS",
    "OBS_SIZE",
    "Encoder",
    "observation_bounds",
]

HAND: Final = 0
DRAWN: Final = 34
CLAIMABLE: Final = 68
MELD_TILES: Final = 102
POOL_TILES: Final = 238
UNSEEN: Final = 374
MELDS: Final = 408
DISCARD_SLOTS: Final = 32
POOLS: Final = 472
SEAT_WIND: Final = 600
ROUND_WIND: Final = 601
PHASE: Final = 602
CURRENT: Final = 603
FLOWERS: Final = 604
FACE_DOWN: Final = 608
WALL: Final = 612
SEGMENTS: Final = 613
SCORES: Final = 617
OBS_SIZE: Final = 621

_PHASE: Final = {Phase.ACT: 0, Phase.RESPOND: 1, Phase.ROB: 2, Phase.OVER: 3}
_KIND: Final = {
    MeldKind.CHOW: 1,
    MeldKind.PUNG: 2,
    MeldKind.KONG: 3,
    MeldKind.CONCEALED_KONG: 4,
}
_EMPTY: Final = array("h", bytes(2 * OBS_SIZE))
_NO_SEGMENTS: Final = array("h", [-1, -1, -1, -1])


def observation_bounds() -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """Per-element ``low`` and ``high`` of the observation (for a ``Box`` space)."""
    low = np.zeros(OBS_SIZE, dtype=np.int16)
    high = np.zeros(OBS_SIZE, dtype=np.int16)
    high[:MELDS] = 4
    high[DRAWN:MELD_TILES] = 1
    for r in range(4):
        for i in range(4):
            at = MELDS + 16 * r + 4 * i
            high[at : at + 4] = (4, 34, 3, 34)
    high[POOLS:SEAT_WIND] = 34
    high[SEAT_WIND : CURRENT + 1] = 3
    high[FLOWERS:FACE_DOWN] = 8
    high[FACE_DOWN:WALL] = 4
    high[WALL] = 144
    low[SEGMENTS:SCORES] = -1
    high[SEGMENTS:SCORES] = 34
    low[SCORES:] = np.iinfo(np.int16).min
    high[SCORES:] = np.iinfo(np.int16).max
    return low, high


class Encoder:
    """One seat's observation buffer, refilled from its :class:`SeatView` by :meth:`encode`.

    The buffer is updated in place: the hand, the scalars and the unseen counts are rewritten
    every time; a seat's melds only when they changed; a discard pool only by its new end (pools
    only grow, or lose their last tile to a claim). :meth:`reset` starts a new hand.
    """

    __slots__ = (
        "_drawn_at",
        "_hand",
        "_held",
        "_hidden",
        "_hidden_array",
        "_meld_keys",
        "_melds",
        "_pools",
        "_seat",
        "_source",
        "_unseen",
        "array",
        "buffer",
    )

    def __init__(self) -> None:
        self.buffer = array("h", _EMPTY)
        self.array: npt.NDArray[np.int16] = np.frombuffer(self.buffer, dtype=np.int16)
        self._hand = self.array[HAND:DRAWN]
        self._unseen = self.array[UNSEEN:MELDS]
        # 4 - copies shown in melds and pools, per tile (the unseen counts before the own hand)
        self._hidden = array("h", _FOUR)
        self._hidden_array: npt.NDArray[np.int16] = np.frombuffer(self._hidden, dtype=np.int16)
        self._seat = -1
        self._melds: list[tuple[Meld, ...]] = [(), (), (), ()]
        self._pools: list[Sequence[int]] = [(), (), (), ()]
        # encode_game: the observer's live record, the melds written (version, shown all), the
        # drawn and claimable positions set to 1
        self._source: LiveSeat | None = None
        self._meld_keys = [-1, -1, -1, -1]
        self._drawn_at = [-1, -1]
        self._held = b""

    def reset(self) -> None:
        """Forget the previous hand: the next :meth:`encode` writes everything."""
        self.buffer[:] = _EMPTY
        self._hidden[:] = _FOUR
        self._seat = -1
        self._melds = [(), (), (), ()]
        self._pools = [(), (), (), ()]
        self._source = None
        self._meld_keys = [-1, -1, -1, -1]
        self._drawn_at = [-1, -1]
        self._held = b""

    def encode_game(self, game: Game, seat: int) -> npt.NDArray[np.int16]:
        """The fast path: update the buffer to what ``seat`` sees of ``game`` now, read from the
        engine's live public state (no :class:`SeatView`); the same vector as
        ``encode(game.view(seat))``. A new hand (or a rebuilt one) is noticed by itself."""
        buf = self.buffer
        live = game.live_seat(seat)
        if live is not self._source or seat != self._seat:
            self.reset()
            self._seat = seat
            self._source = live
        held = bytes(live.counts[:34])
        if held != self._held:  # a claimant's hand has not changed since it last acted
            self._held = held
            self._hand[:] = np.frombuffer(held, dtype=np.uint8)
        phase = game.phase
        current = game.current
        drawn_at = self._drawn_at
        tile = game.drawn_tile if current == seat else None
        at = -1 if tile is None else DRAWN + tile
        if at != drawn_at[0]:
            if drawn_at[0] >= 0:
                buf[drawn_at[0]] = 0
            if at >= 0:
                buf[at] = 1
            drawn_at[0] = at
        tile = game.claimable_tile
        at = -1 if tile is None else CLAIMABLE + tile
        if at != drawn_at[1]:
            if drawn_at[1] >= 0:
                buf[drawn_at[1]] = 0
            if at >= 0:
                buf[at] = 1
            drawn_at[1] = at
        over = phase is Phase.OVER
        keys = self._meld_keys
        pools = self._pools
        hidden = self._hidden
        for r, other in _OTHERS[seat]:
            st = game.live_seat(other)
            shows_all = r == 0 or over
            # what changes seldom: the melds, whether they are all shown, the flowers
            key = (st.melds_version << 5 | len(st.flowers)) << 1 | shows_all
            if key != keys[r]:
                keys[r] = key
                melds = st.melds
                if shows_all:
                    self._write_melds(r, tuple(melds))
                    buf[FACE_DOWN + r] = 0
                else:
                    shown = tuple(m for m in melds if m.kind is not MeldKind.CONCEALED_KONG)
                    self._write_melds(r, shown)
                    buf[FACE_DOWN + r] = len(melds) - len(shown)
                buf[FLOWERS + r] = len(st.flowers)
            river = st.river
            prev = pools[r]
            n = len(river)
            m = len(prev)
            # a river only grows or loses its last tile (to a claim): its length and last tile
            # tell whether it changed, and the usual change is one more tile
            if n != m or (n and river[-1] != prev[-1]):
                if n == m + 1 and n <= DISCARD_SLOTS and (not m or river[m - 1] == prev[-1]):
                    t = river[m]
                    buf[POOL_TILES + 34 * r + t] += 1
                    hidden[t] -= 1
                    buf[POOLS + DISCARD_SLOTS * r + m] = t + 1
                    if isinstance(prev, list):  # our own copy of the river
                        prev.append(t)
                    else:
                        pools[r] = river.copy()
                else:
                    self._write_pool(r, river.copy())
        if over:
            result = game.result
            if result is not None:
                scores = result.deltas
                for r in range(4):
                    buf[SCORES + r] = scores[(seat + r) & 3]
        np.subtract(self._hidden_array, self._hand, out=self._unseen)
        buf[SEAT_WIND] = seat
        buf[ROUND_WIND] = game.round_wind
        buf[PHASE] = 3 if over else 0 if phase is Phase.ACT else 1 if phase is Phase.RESPOND else 2
        buf[CURRENT] = (current - seat) & 3
        buf[WALL] = game.wall_remaining
        segments = game.segments_left
        if segments is None:
            buf[SEGMENTS : SEGMENTS + 4] = _NO_SEGMENTS
        else:
            buf[SEGMENTS] = segments[seat]
            buf[SEGMENTS + 1] = segments[(seat + 1) & 3]
            buf[SEGMENTS + 2] = segments[(seat + 2) & 3]
            buf[SEGMENTS + 3] = segments[(seat + 3) & 3]
        return self.array

    def encode(self, view: SeatView) -> npt.NDArray[np.int16]:
        """Update the buffer to ``view`` (a view of the same hand as the last call, or of a new
        hand after :meth:`reset`); returns the shared numpy view of it (not a copy)."""
        buf = self.buffer
        seat = view.seat
        if seat != self._seat or self._source is not None:
            self.reset()
            self._seat = seat
        buf[HAND:MELD_TILES] = _EMPTY_TILES
        for t in view.hand:
            buf[t] += 1
        if view.drawn is not None:
            buf[DRAWN + view.drawn] = 1
        if view.last_discard is not None:
            buf[CLAIMABLE + view.last_discard] = 1
        melds = view.melds
        discards = view.discards
        flowers = view.flowers
        concealed = view.concealed_kongs
        scores = view.scores
        old_melds = self._melds
        old_pools = self._pools
        for r in range(4):
            s = (seat + r) & 3
            shown = melds[s]
            if shown != old_melds[r]:
                self._write_melds(r, shown)
            pool = discards[s]
            if pool != old_pools[r]:
                self._write_pool(r, pool)
            buf[FLOWERS + r] = flowers[s]
            down = concealed[s]
            if down:
                down -= sum(1 for m in shown if m.kind is MeldKind.CONCEALED_KONG)
            buf[FACE_DOWN + r] = down
            buf[SCORES + r] = scores[s]
        np.subtract(self._hidden_array, self._hand, out=self._unseen)
        buf[SEAT_WIND] = seat
        buf[ROUND_WIND] = view.round_wind
        buf[PHASE] = _PHASE[view.phase]
        buf[CURRENT] = (view.current - seat) & 3
        buf[WALL] = view.wall_remaining
        segments = view.segment_remaining
        if segments is None:
            buf[SEGMENTS : SEGMENTS + 4] = _NO_SEGMENTS
        else:
            buf[SEGMENTS] = segments[seat]
            buf[SEGMENTS + 1] = segments[(seat + 1) & 3]
            buf[SEGMENTS + 2] = segments[(seat + 2) & 3]
            buf[SEGMENTS + 3] = segments[(seat + 3) & 3]
        return self.array

    def _write_melds(self, r: int, shown: tuple[Meld, ...]) -> None:
        buf = self.buffer
        hidden = self._hidden
        base = MELD_TILES + 34 * r
        old = self._melds[r]
        self._melds[r] = shown
        start = len(old)
        if shown[:start] != old:  # not just melds added (an added kong, a robbed kong, a reveal)
            for meld in old:  # take the old melds off the shown counts
                for t in meld.tiles:
                    hidden[t] += 1
            buf[base : base + 34] = _EMPTY_PLANE
            slot = MELDS + 16 * r
            buf[slot : slot + 16] = _EMPTY_SLOTS
            start = 0
        slot = MELDS + 16 * r + 4 * start
        for meld in shown[start:4]:
            low = meld.tile
            kind = meld.kind
            if kind is MeldKind.CHOW:
                buf[base + low] += 1
                buf[base + low + 1] += 1
                buf[base + low + 2] += 1
                hidden[low] -= 1
                hidden[low + 1] -= 1
                hidden[low + 2] -= 1
                claimed = meld.claimed
                buf[slot + 3] = 0 if claimed is None else claimed + 1
            else:
                n = 3 if kind is MeldKind.PUNG else 4
                buf[base + low] += n
                hidden[low] -= n
            buf[slot] = _KIND[kind]
            buf[slot + 1] = low + 1
            buf[slot + 2] = meld.offered_by or 0
            slot += 4

    def _write_pool(self, r: int, pool: Sequence[int]) -> None:
        buf = self.buffer
        hidden = self._hidden
        prev = self._pools[r]
        self._pools[r] = pool
        counts = POOL_TILES + 34 * r
        order = POOLS + DISCARD_SLOTS * r
        n, m = len(pool), len(prev)
        k = min(n, m)
        if k and pool[k - 1] != prev[k - 1]:  # the last tile was claimed, others discarded
            k -= 1
        if n > DISCARD_SLOTS or m > DISCARD_SLOTS or pool[:k] != prev[:k]:
            for t in prev:
                hidden[t] += 1
            buf[counts : counts + 34] = _EMPTY_PLANE
            buf[order : order + DISCARD_SLOTS] = _EMPTY_ORDER
            for t in pool:
                buf[counts + t] += 1
                hidden[t] -= 1
            for i, t in enumerate(pool[-DISCARD_SLOTS:]):
                buf[order + i] = t + 1
            return
        for i in range(k, m):
            t = prev[i]
            buf[counts + t] -= 1
            hidden[t] += 1
            buf[order + i] = 0
        for i in range(k, n):
            t = pool[i]
            buf[counts + t] += 1
            hidden[t] -= 1
            buf[order + i] = t + 1


_OTHERS: Final = tuple(tuple((r, (seat + r) & 3) for r in range(4)) for seat in range(4))
"""An observer's seat -> (relative seat, absolute seat) of every seat, itself first."""
_EMPTY_TILES: Final = array("h", bytes(2 * (MELD_TILES - HAND)))
_EMPTY_PLANE: Final = array("h", bytes(2 * 34))
_EMPTY_SLOTS: Final = array("h", bytes(2 * 16))
_EMPTY_ORDER: Final = array("h", bytes(2 * DISCARD_SLOTS))
_FOUR: Final = array("h", [4] * 34)
