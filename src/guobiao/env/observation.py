"""The observation of one seat: a fixed-length ``int16`` vector built only from its
:class:`~guobiao.table.game.SeatView` (``Game.view(seat)``): never another seat's hand or the wall.

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

:class:`Encoder` fills one seat's preallocated buffer (an ``array('h')`` shared with a numpy view)
from a :class:`~guobiao.table.game.SeatView` (:meth:`Encoder.encode`). The environments' fast path is a
:class:`Board`: one buffer for the whole table, following the engine's change log
(``Game.changes``) and its public live state (``Game.live_seat``, ``drawn_tile``,
``claimable_tile``, ``segments_left``) without building a view; a seat's observation is one
numpy gather from it. Both give the same vector (tests/test_env_fast_path.py).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from guobiao.core.melds import Meld, MeldKind
from guobiao.env.spaces import N_ACTIONS
from guobiao.table.game import Game, LiveSeat, Phase, SeatView

__all__ = [
    "DISCARD_SLOTS",
    "OBS_SIZE",
    "Board",
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
# Enum members as constants for the hot paths (an Enum class attribute is a slow look-up, 3.11)
_ACT: Final = Phase.ACT
_RESPOND: Final = Phase.RESPOND
_OVER: Final = Phase.OVER
_CHOW_KIND: Final = MeldKind.CHOW
_PUNG_KIND: Final = MeldKind.PUNG
_HIDDEN_KONG: Final = MeldKind.CONCEALED_KONG


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
        "_board",
        "_hand",
        "_hidden",
        "_hidden_array",
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
        # encode_game: its board, and the observer's live record (the buffer holds a copy)
        self._board: Board | None = None
        self._source: LiveSeat | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (Encoder, ())  # a copy starts afresh: the next encode writes everything

    def reset(self) -> None:
        """Forget the previous hand: the next :meth:`encode` writes everything."""
        self.buffer[:] = _EMPTY
        self._hidden[:] = _FOUR
        self._seat = -1
        self._melds = [(), (), (), ()]
        self._pools = [(), (), (), ()]
        self._source = None

    def encode_game(self, game: Game, seat: int) -> npt.NDArray[np.int16]:
        """Update the buffer to what ``seat`` sees of ``game`` now, read from the engine's live
        public state (a :class:`Board`, no :class:`SeatView`); the same vector as
        ``encode(game.view(seat))``. A new hand (or a rebuilt one) is noticed by itself."""
        if self._board is None:
            self._board = Board()
        self.array[:] = self._board.observe(game, seat)
        self._seat = seat
        self._source = game.live_seat(seat)  # the next encode(view) starts afresh
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


# -- Board: every seat's observation from one shared source -------------------------------------
# The source holds what the four observations are made of, by absolute seat: a seat's hand and
# unseen counts (private), its melds as it sees them (all) and as the others do (concealed kongs
# face down), its discard pool, flowers, face-down kongs, segment and score; the claimable tile,
# the tile just drawn, the round wind, the phase and the wall. An observation is one gather
# (``take``) by an index chosen by the observer and the seat whose turn it is: it rotates the
# seats, shows the drawn tile to the current seat alone and points at the relative current seat.
_S_HAND: Final = 0  # 4×34, by absolute seat
_S_UNSEEN: Final = 136  # 4×34
_S_PRIV: Final = 272  # 4×34 meld tile counts, every meld
_S_PUB: Final = 408  # 4×34 meld tile counts as others see them
_S_POOLC: Final = 544  # 4×34
_S_POOLO: Final = 680  # 4×32
_S_SLOTS_PRIV: Final = 808  # 4×16
_S_SLOTS_PUB: Final = 872  # 4×16
_S_FLOWERS: Final = 936  # 4
_S_FACE_DOWN: Final = 940  # 4
_S_SEG: Final = 944  # 4
_S_SCORES: Final = 948  # 4
_S_CLAIM: Final = 952  # 34
_S_ROUND: Final = 986
_S_PHASE: Final = 987
_S_WALL: Final = 988
_S_SEATS: Final = 989  # the constants 0, 1, 2, 3 (the observer's seat wind; relative seats)
_S_ZERO: Final = 993  # always 0
_S_DRAWN: Final = 994  # 34: the tile the current seat just drew (only the current seat sees it)
_S_SIZE: Final = 1028


def _gather(seat: int, current: int) -> npt.NDArray[np.intp]:
    """The gather of ``seat``'s observation while ``current`` is the seat whose turn it is."""
    index = np.full(OBS_SIZE, _S_ZERO, dtype=np.intp)
    index[HAND:DRAWN] = np.arange(34) + _S_HAND + 34 * seat
    if current == seat:
        index[DRAWN:CLAIMABLE] = np.arange(34) + _S_DRAWN
    index[CLAIMABLE:MELD_TILES] = np.arange(34) + _S_CLAIM
    index[UNSEEN:MELDS] = np.arange(34) + _S_UNSEEN + 34 * seat
    for r in range(4):
        a = (seat + r) & 3
        meld_counts = (_S_PRIV if r == 0 else _S_PUB) + 34 * a
        index[MELD_TILES + 34 * r : MELD_TILES + 34 * r + 34] = np.arange(34) + meld_counts
        index[POOL_TILES + 34 * r : POOL_TILES + 34 * r + 34] = np.arange(34) + _S_POOLC + 34 * a
        slots = (_S_SLOTS_PRIV if r == 0 else _S_SLOTS_PUB) + 16 * a
        index[MELDS + 16 * r : MELDS + 16 * r + 16] = np.arange(16) + slots
        order = _S_POOLO + DISCARD_SLOTS * a
        index[POOLS + DISCARD_SLOTS * r : POOLS + DISCARD_SLOTS * r + DISCARD_SLOTS] = (
            np.arange(DISCARD_SLOTS) + order
        )
        index[FLOWERS + r] = _S_FLOWERS + a
        if r:  # one's own concealed kongs are in one's melds: 0 face down
            index[FACE_DOWN + r] = _S_FACE_DOWN + a
        index[SEGMENTS + r] = _S_SEG + a
        index[SCORES + r] = _S_SCORES + a
    index[SEAT_WIND] = _S_SEATS + seat
    index[ROUND_WIND] = _S_ROUND
    index[PHASE] = _S_PHASE
    index[CURRENT] = _S_SEATS + ((current - seat) & 3)
    index[WALL] = _S_WALL
    return index


GATHER: Final = tuple(_gather(seat, current) for seat in range(4) for current in range(4))
"""By ``seat << 2 | current``: the gather of a :class:`Board`'s ``array`` giving that observation
(``take(..., mode="wrap")``). Its own drawn-tile plane and relative current seat are in the
gather, so that it needs no writing after."""
_S_EMPTY: Final = array("h", bytes(2 * _S_SIZE))
_S_START: Final = array("h", _S_EMPTY)
_S_START[_S_UNSEEN : _S_UNSEEN + 136] = array("h", [4] * 136)
_S_START[_S_SEATS : _S_SEATS + 4] = array("h", [0, 1, 2, 3])
_S_START[_S_SEG : _S_SEG + 4] = _NO_SEGMENTS


class Board:
    """The four seats' observations of one hand, kept up to date from the engine's live public
    state (``Game.live_seat``, ``drawn_tile``, ``claimable_tile``, ``segments_left``) and handed
    out as fresh arrays: ``observe(game, seat)`` equals ``Encoder().encode(game.view(seat))``.

    What is on the table (melds, pools, flowers, the wall, the phase) is updated once per state
    (:meth:`sync`), only where it changed; a seat's hand only when that seat is observed; the
    observation itself is one numpy gather from the shared buffer. A new hand, or a rebuilt one
    (``Game.undo``), is noticed by itself.
    """

    __slots__ = (
        "_keys",
        "_melds",
        "_over",
        "_phase",
        "_pools",
        "_seen",
        "_segments",
        "_source",
        "_stale",
        "_tile_at",
        "array",
        "buffer",
        "data",
        "held",
        "state",
    )

    def __init__(self) -> None:
        # the source as int16 cells written one by one through a memoryview (cheaper per item
        # than an array('h'), which parses each value it stores), read by numpy without a copy
        data = bytearray(_S_START.tobytes())
        self.buffer = memoryview(data).cast("h")
        # the same cells as bytes: the hot paths write a count (0-255) as the cell's low byte
        # (_byte), cheaper than an int16 item; a cell written so never holds a negative value
        self.data = data
        self.array: npt.NDArray[np.int16] = np.frombuffer(data, dtype=np.int16)
        # Each seat's mask to act (N_ACTIONS bytes a seat, seat by seat): 1 at each kind of
        # tile the seat holds, its discards, kept with the hand sections; the mask's other
        # actions (a win, kongs) are the masks' own to write (spaces.MaskBuilder).
        self.held = bytearray(4 * N_ACTIONS)
        self._source: list[int] | None = None  # the game's public_changes (its identity)
        # a token of the game state the buffer holds (observe's ``state``), None: unknown
        self.state: object = None
        self.reset()

    def __reduce__(self) -> tuple[Any, ...]:
        return (Board, ())  # a copy starts afresh: the next observation reads the game whole

    def reset(self) -> None:
        """Forget the hand: the next :meth:`sync` writes everything."""
        self.buffer[:] = _S_START
        self.held[:] = _NO_HELD
        self._source = None
        self.state = None
        self._segments: list[int] | None = None
        self._stale: set[int] = set()  # seats whose hands are to be read again
        self._keys = [-1, -1, -1, -1]
        self._melds: list[tuple[tuple[Meld, ...], tuple[Meld, ...]]] = [((), ())] * 4
        self._pools: list[list[int]] = [[], [], [], []]
        self._tile_at = -1  # the low byte of the one tile plane cell set (drawn or claimable)
        self._phase = 0  # the phase cell's value
        self._over = False
        self._seen = 0

    def observe(self, game: Game, seat: int, state: object = None) -> npt.NDArray[np.int16]:
        """``seat``'s observation of ``game`` now, a new array. ``state``: a token that changes
        whenever the game does (the table's version); the default, None, syncs every time."""
        if state is None or state != self.state:
            self.sync(game)
            self.state = state
        # all in range: "wrap" keeps them, unchecked
        return self.array.take(GATHER[seat << 2 | game.current], None, None, "wrap")

    def sync(self, game: Game) -> None:
        """Update the buffer to ``game`` now, by the engine's :attr:`~guobiao.table.game.Game.changes`
        since the last sync (everything for a new hand, every seat again at its end)."""
        buf = self.buffer
        changes = game.changes
        phase = game.phase
        if changes is not self._source:
            self.reset()
            self._source = changes
            buf[_S_ROUND] = game.round_wind
            self._segments = game.segments_left
            hands = bytearray()
            for a in (0, 1, 2, 3):  # everything read whole
                st = game.live_seat(a)
                self._keys[a] = (st.melds_version << 5 | len(st.flowers)) << 1
                if st.melds:
                    self._write_melds(a, st.melds, False)
                buf[_S_FLOWERS + a] = len(st.flowers)
                if st.river:
                    self._write_pool(a, st.river)
                hands += st.counts[:34]
                self._held_again(st, a)
            held = np.frombuffer(hands, dtype=np.uint8)  # (no int made of each count)
            self.array[_S_HAND : _S_HAND + 136] = held
            self.array[_S_UNSEEN : _S_UNSEEN + 136] -= held
            self._seen = len(changes)
            self._sync_wall(game)
        data = self.data
        seen = self._seen
        end = len(changes)
        if end != seen:
            self._seen = end
            stale = self._stale
            kinds = self.held
            while seen < end:  # (no slice of the list made)
                e = changes[seen]
                seen += 1
                if e > 3:  # a draw: (tile + 1) << 2 | seat; the hand's count, its unseen count
                    at, unseen, kind = _DRAW_AT[e]
                    count = data[at] + 1
                    data[at] = count
                    if count == 1:  # a kind the seat did not hold
                        kinds[kind] = 1
                    data[unseen] -= 1
                    data[_WALL_BYTE] -= 1  # one tile drawn (flowers: the wall is read again)
                    segments = self._segments
                    if segments is not None:  # Botzone: from the seat's own segment
                        data[_SEG_BYTE[e & 3]] = segments[e & 3]
                elif e < 0:  # a discard: ~(tile << 2 | seat), from the hand to the pool
                    a, code, at, pooled, order, u1, u2, u3, kind = _DISCARD_AT[~e]
                    count = data[at] - 1  # the discarder's unseen count does not change
                    data[at] = count
                    if not count:  # its last one
                        kinds[kind] = 0
                    prev = self._pools[a]
                    m = len(prev)
                    if m < DISCARD_SLOTS:
                        data[pooled] += 1
                        data[order + 2 * m] = code
                        prev.append(code - 1)
                        data[u1] -= 1
                        data[u2] -= 1
                        data[u3] -= 1
                    else:  # the pool is rewritten (the latest 32), below
                        buf[_S_UNSEEN + (at >> 1)] += 1
                        stale.add(a)
                else:  # anything else: the seat is read again once the batch is in
                    stale.add(e)
            if stale:  # read now, the hands have every draw and discard of the batch
                reread = False
                keys = self._keys
                for a in stale:
                    key = keys[a]
                    if not self._sync_seat(game, a, False):
                        self._sync_hand(game, a)
                        reread = True
                    if keys[a] != key:  # melds or flowers: the hand changed without a change entry
                        self._held_again(game.live_seat(a), a)
                stale.clear()
                if reread:
                    self._sync_wall(game)  # a flower shown (1998) is a tile drawn
        # the one tile plane set: the drawn tile (ACT after a draw) or the claimable one
        if phase is _ACT:
            tile = game.drawn_tile
            at = -1 if tile is None else _DRAWN_BYTE[tile]
            code = 0
        elif phase is _OVER:
            at = -1
            code = 3
            if not self._over:
                self._end(game)
        else:
            at = _CLAIM_BYTE[game.claimable_tile or 0]
            code = 1 if phase is _RESPOND else 2
        if code != self._phase:
            data[_PHASE_BYTE] = code
            self._phase = code
        old = self._tile_at
        if at != old:
            if old >= 0:
                data[old] = 0
            if at >= 0:
                data[at] = 1
            self._tile_at = at

    def _sync_wall(self, game: Game) -> None:
        buf = self.buffer
        buf[_S_WALL] = game.wall_remaining
        segments = self._segments
        if segments is not None:
            buf[_S_SEG] = segments[0]
            buf[_S_SEG + 1] = segments[1]
            buf[_S_SEG + 2] = segments[2]
            buf[_S_SEG + 3] = segments[3]

    def _end(self, game: Game) -> None:
        """The hand is over: every meld is shown, the winner's hand takes the winning tile."""
        buf = self.buffer
        self._over = True
        for a in (0, 1, 2, 3):
            self._sync_seat(game, a, True)
            self._sync_hand(game, a)
        self._sync_wall(game)
        result = game.result
        if result is not None:
            for a, delta in enumerate(result.deltas):
                buf[_S_SCORES + a] = delta

    def _held_again(self, st: LiveSeat, a: int) -> None:
        """Seat ``a``'s kinds held (:attr:`held`) read again."""
        at = N_ACTIONS * a
        self.held[at : at + 34] = st.counts[:34].translate(_HELD)

    def _sync_hand(self, game: Game, a: int) -> None:
        """Seat ``a``'s hand section (and its unseen counts) to its concealed tiles."""
        buf = self.buffer
        hand = 34 * a
        counts = game.live_seat(a).counts
        held = array("h", list(counts[:34]))  # a bytearray would be read as raw bytes
        now = held.tobytes()
        was = buf[hand : hand + 34].tobytes()
        if now == was:
            return
        old = array("h", was)
        unseen = _S_UNSEEN + hand
        x = int.from_bytes(now, "little") ^ int.from_bytes(was, "little")
        while x:  # the tiles whose counts differ (2 bytes a tile)
            t = ((x & -x).bit_length() - 1) >> 4
            buf[unseen + t] -= held[t] - old[t]
            buf[hand + t] = held[t]
            x &= ~(0xFFFF << (t << 4))

    def _sync_seat(self, game: Game, a: int, over: bool) -> bool:
        """Seat ``a``'s melds, flowers and pool to the game's. True when its hand section is
        then exact too: only melds were added (claims, concealed kongs), whose tiles it takes
        off the hand; False when the hand is to be read again (:meth:`_sync_hand`)."""
        buf = self.buffer
        st = game.live_seat(a)
        # what changes seldom: the melds, whether they are all shown, the flowers
        key = (st.melds_version << 5 | len(st.flowers)) << 1 | over
        exact = True
        old_key = self._keys[a]
        if key != old_key:
            self._keys[a] = key
            # the usual change: melds added, the flowers and the end of the hand as they were
            if over or (key ^ old_key) & 63 or not self._add_melds(a, st.melds):
                self._write_melds(a, st.melds, over)
                buf[_S_FLOWERS + a] = len(st.flowers)
                exact = False
        river = st.river
        prev = self._pools[a]
        n = len(river)
        m = len(prev)
        # discards were added as they came: the usual change left is the last one claimed
        if n == m - 1 and m <= DISCARD_SLOTS and (not n or river[-1] == prev[-2]):
            t = prev.pop()
            buf[_S_POOLC + 34 * a + t] -= 1
            buf[_S_POOLO + DISCARD_SLOTS * a + n] = 0
            buf[_S_UNSEEN + t] += 1
            buf[_S_UNSEEN + 34 + t] += 1
            buf[_S_UNSEEN + 68 + t] += 1
            buf[_S_UNSEEN + 102 + t] += 1
        elif n != m or (n and river[-1] != prev[-1]):
            self._write_pool(a, river)
        return exact

    def _add_melds(self, a: int, melds: Sequence[Meld]) -> bool:
        """Seat ``a`` declared melds after those written (claims, concealed kongs): write them
        and take their tiles off its hand, but a claimed tile (it came from a discard pool, which
        :meth:`_sync_seat` takes it off). False, writing nothing, for any other change."""
        every = tuple(melds)
        old_every, old_shown = self._melds[a]
        k = len(old_every)
        if len(every) <= k or len(every) > 4:
            return False
        for i in range(k):
            if every[i] is not old_every[i]:  # a meld changed (an added or a robbed kong)
                return False
        added = every[k:]
        for meld in added:
            kind = meld.kind
            if kind is not _HIDDEN_KONG and (
                meld.offered_by is None or (kind is _CHOW_KIND and meld.claimed is None)
            ):
                return False  # not a claim from a discard
        buf = self.buffer
        hand = 34 * a
        own = _S_PRIV + 34 * a
        public = _S_PUB + 34 * a
        unseen = _S_UNSEEN + 34 * a
        u1, u2, u3 = _UNSEEN_OF_OTHERS[a]
        slot = _S_SLOTS_PRIV + 16 * a + 4 * k
        shown = list(old_shown)
        for meld in added:
            kind = meld.kind
            low = int(meld.tile)
            if kind is _HIDDEN_KONG:  # from the hand to its own melds: the others see no tile
                buf[slot] = 4
                buf[slot + 1] = low + 1
                buf[own + low] += 4
                buf[hand + low] -= 4  # its unseen count: four more in a meld, four less held
                slot += 4
                continue
            offered = meld.offered_by or 0
            at = _S_SLOTS_PUB + 16 * a + 4 * len(shown)
            code = _code(kind)
            buf[slot] = code
            buf[at] = code
            buf[slot + 1] = low + 1
            buf[at + 1] = low + 1
            buf[slot + 2] = offered
            buf[at + 2] = offered
            # the hand's counts below are its unseen counts too: a tile in a meld is one less
            # held; the claimed tile came not from the hand but from a pool
            if code == 1:
                claimed = int(meld.claimed or 0)
                buf[slot + 3] = claimed + 1
                buf[at + 3] = claimed + 1
                for t in (low, low + 1, low + 2):
                    buf[own + t] += 1
                    buf[public + t] += 1
                    buf[hand + t] -= 1
                    buf[u1 + t] -= 1
                    buf[u2 + t] -= 1
                    buf[u3 + t] -= 1
                buf[hand + claimed] += 1
            else:  # n of the claimed tile, n - 1 of them from the hand
                claimed = low
                n = code + 1
                buf[own + low] += n
                buf[public + low] += n
                buf[hand + low] -= n - 1
                buf[u1 + low] -= n
                buf[u2 + low] -= n
                buf[u3 + low] -= n
            buf[unseen + claimed] -= 1
            shown.append(meld)
            slot += 4
        self._melds[a] = (every, tuple(shown))
        buf[_S_FACE_DOWN + a] = len(every) - len(shown)
        return True

    def _write_melds(self, a: int, melds: Sequence[Meld], over: bool) -> None:
        """Rewrite seat ``a``'s melds: every one (as ``a`` sees them), and those the others see."""
        buf = self.buffer
        every = tuple(melds)
        shown = every if over else tuple(m for m in every if m.kind is not _HIDDEN_KONG)
        old_every, old_shown = self._melds[a]
        self._melds[a] = (every, shown)
        buf[_S_FACE_DOWN + a] = len(every) - len(shown)
        for old, new, counts, slots, unseen in (
            (old_every, every, _S_PRIV + 34 * a, _S_SLOTS_PRIV + 16 * a, _UNSEEN_OF_SELF[a]),
            (old_shown, shown, _S_PUB + 34 * a, _S_SLOTS_PUB + 16 * a, _UNSEEN_OF_OTHERS[a]),
        ):
            if old == new:
                continue
            # the unseen counts: ``a``'s own melds for ``a``, the shown ones for the others
            start = len(old)
            if new[:start] != old:  # not only melds added: take the old ones off
                for meld in old:
                    for t in meld.tiles:
                        buf[counts + t] -= 1
                        for u in unseen:
                            buf[u + t] += 1
                buf[slots : slots + 16] = _EMPTY_SLOTS
                start = 0
            slot = slots + 4 * start
            for meld in new[start:4]:
                low = meld.tile
                kind = meld.kind
                buf[slot] = _code(kind)
                buf[slot + 1] = low + 1
                buf[slot + 2] = meld.offered_by or 0
                if kind is _CHOW_KIND:
                    claimed = meld.claimed
                    buf[slot + 3] = 0 if claimed is None else claimed + 1
                slot += 4
            for meld in new[start:]:
                for t in meld.tiles:
                    buf[counts + t] += 1
                    for u in unseen:
                        buf[u + t] -= 1

    def _write_pool(self, a: int, river: Sequence[int]) -> None:
        """Rewrite seat ``a``'s pool (the usual changes, a tile more or less, are done inline)."""
        buf = self.buffer
        counts = _S_POOLC + 34 * a
        order = _S_POOLO + DISCARD_SLOTS * a
        for t in self._pools[a]:
            buf[counts + t] -= 1
            for b in (0, 34, 68, 102):
                buf[_S_UNSEEN + b + t] += 1
        buf[order : order + DISCARD_SLOTS] = _EMPTY_ORDER
        pool = list(river)
        self._pools[a] = pool
        for t in pool:
            buf[counts + t] += 1
            for b in (0, 34, 68, 102):
                buf[_S_UNSEEN + b + t] -= 1
        for i, t in enumerate(pool[-DISCARD_SLOTS:]):
            buf[order + i] = t + 1


def _code(kind: MeldKind) -> int:
    """A meld's kind as the observation codes it (``_KIND``), by identity: an Enum's hash is a
    Python call."""
    if kind is _CHOW_KIND:
        return 1
    if kind is _PUNG_KIND:
        return 2
    return 4 if kind is _HIDDEN_KONG else 3


_LOW: Final = 0 if sys.byteorder == "little" else 1


def _byte(cell: int) -> int:
    """The index in :attr:`Board.data` of a cell's low byte."""
    return 2 * cell + _LOW


_DRAW_AT: Final = tuple(
    (
        _byte(34 * (e & 3) + (e >> 2) - 1),
        _byte(_S_UNSEEN + 34 * (e & 3) + (e >> 2) - 1),
        N_ACTIONS * (e & 3) + (e >> 2) - 1,
    )
    for e in range(4 * 43)
)
"""A draw entry of ``Game.changes`` -> the bytes of the tile's cells in the seat's hand section
and in its unseen counts, and its byte in :attr:`Board.held`."""
_DISCARD_AT: Final = tuple(
    (
        a,
        t + 1,
        _byte(34 * a + t),
        _byte(_S_POOLC + 34 * a + t),
        _byte(_S_POOLO + DISCARD_SLOTS * a),
        *(_byte(_S_UNSEEN + 34 * b + t) for b in range(4) if b != a),
        N_ACTIONS * a + t,
    )
    for t in range(34)
    for a in range(4)
)
"""A discard entry ``~(t << 2 | a)`` inverted -> the seat ``a``, the tile's code in a pool
(``t + 1``) and the bytes of: the tile's cell in the seat's hand section and in its pool counts,
the seat's first pool order cell (2 bytes a cell), the tile's cells in the three other seats'
unseen counts, and its byte in :attr:`Board.held`."""
_NO_HELD: Final = bytes(4 * N_ACTIONS)
_HELD: Final = bytes([0] + [1] * 255)  # a count -> 1 if any is held (bytes.translate)
_DRAWN_BYTE: Final = tuple(_byte(_S_DRAWN + t) for t in range(34))
_CLAIM_BYTE: Final = tuple(_byte(_S_CLAIM + t) for t in range(34))
_SEG_BYTE: Final = tuple(_byte(_S_SEG + a) for a in range(4))
_WALL_BYTE: Final = _byte(_S_WALL)
_PHASE_BYTE: Final = _byte(_S_PHASE)
_UNSEEN_OF_SELF: Final = tuple((_S_UNSEEN + 34 * a,) for a in range(4))
_UNSEEN_OF_OTHERS: Final = tuple(
    tuple(_S_UNSEEN + 34 * b for b in range(4) if b != a) for a in range(4)
)

_EMPTY_TILES: Final = array("h", bytes(2 * (MELD_TILES - HAND)))
_EMPTY_PLANE: Final = array("h", bytes(2 * 34))
_EMPTY_SLOTS: Final = array("h", bytes(2 * 16))
_EMPTY_ORDER: Final = array("h", bytes(2 * DISCARD_SLOTS))
_FOUR: Final = array("h", [4] * 34)
