"""The table engine: one hand (盘) of MCR as 第六条 to 第八条 and 第十四条 run it.

A :class:`Game` is a state with its legal actions, like a chess board: ask who must act
(:attr:`Game.to_act`) and what each may do (:meth:`Game.legal_actions`), apply one
(:meth:`Game.act`), take the last back (:meth:`Game.undo`), or rebuild a hand from its record
(:meth:`Game.replay`). Draws, flower replacements (补花) and kong replacements happen by
themselves; every decision a player makes is an :class:`Action`.

Phases:

- ``ACT``: the current player holds 14 - 3·melds tiles (after a draw or a claim) and must win,
  declare a kong (after a draw only) or discard.
- ``RESPOND``: the other players may claim the discard: win > pung/kong > chow (第七条五-七);
  several wins: the first counter-clockwise from the discarder (第八条二(三)). Seats with no
  choice pass by themselves.
- ``ROB``: the others may rob an added kong (抢杠和); otherwise the konger draws a replacement.
- ``OVER``: a win, an exhaustive draw (荒牌: the last tile is drawn and its discard not won) or a
  forfeit (:meth:`Game.forfeit`, or a wrong win under ``wrong_win="end_hand"``).

With the Botzone rules (:data:`guobiao.table.rules.BOTZONE`, docs/rules.md §20) the wall is four
segments (:class:`guobiao.table.wall.SegmentWall`): each seat draws from its own, the hand is drawn when
the seat due to draw has an empty segment, and the last tile is the one after which the next
seat's segment is empty.

Seats are numbered by seat wind: 0 East (the dealer), 1 South, 2 West, 3 North; ``(s + 1) % 4``
is the next player (下家). Internally tiles are ints and hands counts of 34.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from itertools import compress
from typing import Any, Final

from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.shanten import ready_waits, shanten
from guobiao.core.tiles import TILES, Tile, TileParseError
from guobiao.scoring.calculator import calculate
from guobiao.scoring.result import FanResult
from guobiao.table.fields import (
    LogError,
    array,
    clip,
    expect,
    optional,
    required,
    show,
    table_rules,
)
from guobiao.table.fields import seat as _seat
from guobiao.table.rules import COMPETITION, FORFEIT_REASONS, TableRules
from guobiao.table.settlement import HandOutcome, Penalty, PenaltyKind, settle
from guobiao.table.wall import (
    SEGMENT,
    Deal,
    SegmentWall,
    Wall,
    deal,
    deal_botzone,
    deal_from,
    deal_from_build,
    is_tile_set,
)

__all__ = [
    "PASS",
    "WIN",
    "Action",
    "ActionKind",
    "Game",
    "HandResult",
    "IllegalActionError",
    "LiveSeat",
    "Phase",
    "SeatView",
    "record_actions",
    "record_forfeit",
]

RECORD_VERSION = 1


class IllegalActionError(ValueError):
    """An action that is not legal in this state; the state is unchanged."""


class ActionKind(Enum):
    DISCARD = "discard"
    CHOW = "chow"  # 吃: ``tile`` is the lowest tile of the chow
    PUNG = "pung"  # 碰
    KONG = "kong"  # 明杠 on a discard
    CONCEALED_KONG = "concealed_kong"  # 暗杠
    ADDED_KONG = "added_kong"  # 加杠: a drawn tile added to one's exposed pung
    WIN = "win"  # 和
    PASS = "pass"


def _by_fields(obj: Any) -> tuple[Any, ...]:
    """``__reduce__`` of a dataclass: its class and its fields. Pickling and copying then work
    alike in both builds (hatch_build.py: a compiled class has no instance dictionary)."""
    return (type(obj), tuple(getattr(obj, f.name) for f in fields(obj)))


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. ``tile``: the discard, the claimed/kong tile, or a chow's lowest tile."""

    kind: ActionKind
    tile: Tile | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return _by_fields(self)

    def __str__(self) -> str:
        if self.tile is None:
            return self.kind.value
        if self.kind is ActionKind.CHOW:
            return f"chow {''.join(str(TILES[self.tile + i]) for i in range(3))}"
        return f"{self.kind.value} {self.tile}"

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read ``str(action)`` back: ``discard W5``, ``chow W3W4W5``, ``pung F1``, ``win``, ``pass``."""
        word, _, rest = text.strip().partition(" ")
        try:
            kind = ActionKind(word)
        except ValueError:
            kinds = ", ".join(k.value for k in ActionKind)
            raise ValueError(f"not an action: {text!r} (actions: {kinds})") from None
        rest = rest.strip()
        if kind in (ActionKind.WIN, ActionKind.PASS):
            if rest:
                raise ValueError(f"{kind.value} takes no tile: {text!r}")
            return cls(kind)
        if not rest:
            raise ValueError(f"{kind.value} needs a tile: {text!r}")
        try:
            tile = Tile.parse(rest[:2] if kind is ActionKind.CHOW else rest)
        except TileParseError as err:
            raise ValueError(f"{text!r}: {err}") from None
        return cls(kind, tile)


PASS: Final = Action(ActionKind.PASS)
WIN: Final = Action(ActionKind.WIN)

# One instance of every tile action, made once: the game loop only picks from these tables.
_DISCARD: Final = tuple(Action(ActionKind.DISCARD, TILES[t]) for t in range(34))
_PUNG: Final = tuple(Action(ActionKind.PUNG, TILES[t]) for t in range(34))
_KONG: Final = tuple(Action(ActionKind.KONG, TILES[t]) for t in range(34))
_CONCEALED_KONG: Final = tuple(Action(ActionKind.CONCEALED_KONG, TILES[t]) for t in range(34))
_ADDED_KONG: Final = tuple(Action(ActionKind.ADDED_KONG, TILES[t]) for t in range(34))
_CHOW: Final = tuple(Action(ActionKind.CHOW, TILES[t]) for t in range(34))


def _chows_with(tile: int) -> tuple[tuple[int, int, int], ...]:
    """The chows a discard completes: (lowest tile, the two other tiles), lowest first."""
    if tile >= 27:
        return ()
    first = tile - tile % 9  # the suit's 1
    out = []
    for low in (tile - 2, tile - 1, tile):
        if first <= low and low + 2 <= first + 8:
            a, b = (u for u in (low, low + 1, low + 2) if u != tile)
            out.append((low, a, b))
    return tuple(out)


_CHOW_WITH: Final = tuple(_chows_with(t) for t in range(34))

# One instance of every meld a claim or a kong declares (frozen values, shared): the game loop
# picks its meld from these tables instead of building and checking a new one. ``offered``
# 0-3 (0: nobody, ``offered_by`` None); a chow by ``low * 12 + offered * 3 + claimed - low``.
_PUNG_MELDS: Final = tuple(
    tuple(Meld(MeldKind.PUNG, TILES[t], o or None) for o in range(4)) for t in range(34)
)
_KONG_MELDS: Final = tuple(
    tuple(Meld(MeldKind.KONG, TILES[t], o or None) for o in range(4)) for t in range(34)
)
_CONCEALED_KONG_MELDS: Final = tuple(Meld(MeldKind.CONCEALED_KONG, TILES[t]) for t in range(34))
_CHOW_MELDS: Final = {
    low * 12 + o * 3 + p: Meld(MeldKind.CHOW, TILES[low], o or None, TILES[low + p])
    for low in range(27)
    if low % 9 < 7
    for o in range(4)
    for p in range(3)
}


_PLAIN: Final = tuple(range(34))  # a tile as a plain int

_NEAR: Final = tuple(
    tuple(u for u in range(t - 2, t + 3) if u != t and 0 <= u < 27 and u // 9 == t // 9)
    if t < 27
    else ()
    for t in range(34)
)
"""The tiles within two ranks of a tile in its suit (none for an honour)."""


def _isolated(counts: bytearray, drawn: int, discarded: int) -> bool:
    """Whether the tile ``drawn`` (then ``discarded`` another) met no copy of itself and no tile
    within two ranks in its suit in the hand it joined: it is then in no set, partial set or pair
    of any reading of the hand, so that the regular shape is no nearer to ready with it, the only
    shape with two melds or more (:func:`guobiao.core.shanten.shanten`)."""
    if counts[drawn] != 1:
        return False
    for u in _NEAR[drawn]:  # noqa: SIM110 (a loop: a generator in all() is a call, 3.11)
        if counts[u] or u == discarded:
            return False
    return True


class Phase(Enum):
    ACT = "act"
    RESPOND = "respond"
    ROB = "rob"
    OVER = "over"


# Enum members as module constants for the game loop: ``Phase.ACT`` is a slow look-up (3.11);
# Final, so that the compiled build (hatch_build.py) reads them as C globals. For that build
# too: list items are updated by plain assignment (``c[t] = c[t] + 1``; compiled, an item's
# ``+=`` is a generic operation) and tiles read as ``int`` (``tile: int = action.tile``, no
# call of ``int()``).
_ACT: Final = Phase.ACT
_RESPOND: Final = Phase.RESPOND
_ROB: Final = Phase.ROB
_OVER: Final = Phase.OVER
_K_DISCARD: Final = ActionKind.DISCARD
_K_CHOW: Final = ActionKind.CHOW
_K_PUNG: Final = ActionKind.PUNG
_K_KONG: Final = ActionKind.KONG
_K_CONCEALED_KONG: Final = ActionKind.CONCEALED_KONG
_K_ADDED_KONG: Final = ActionKind.ADDED_KONG
_K_WIN: Final = ActionKind.WIN
_M_PUNG: Final = MeldKind.PUNG
_M_KONG: Final = MeldKind.KONG
_M_CONCEALED_KONG: Final = MeldKind.CONCEALED_KONG


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what each seat scores (penalties included)."""

    winner: int | None
    discarder: int | None  # None for a self-drawn win or a draw
    fans: FanResult | None
    deltas: tuple[int, int, int, int]
    outcome: HandOutcome
    win_tile: Tile | None = None
    winning_hand: Hand | None = None  # the winner's concealed tiles (winning tile apart) and melds
    forfeit_seat: int | None = None  # the seat whose foul ended the hand (Game.forfeit)
    forfeit_reason: str | None = None  # one of rules.FORFEIT_REASONS

    def __reduce__(self) -> tuple[Any, ...]:
        return _by_fields(self)

    @property
    def is_draw(self) -> bool:
        """荒牌: no one won and no one forfeited."""
        return self.winner is None and self.forfeit_seat is None

    @property
    def is_forfeit(self) -> bool:
        """The hand ended by a foul: a wrong win (``wrong_win="end_hand"``), an illegal action, a
        time-out or a crash."""
        return self.forfeit_seat is not None

    @property
    def penalties(self) -> tuple[Penalty, ...]:
        return self.outcome.penalties

    def summary(self) -> dict[str, Any]:
        """The settlement as plain data (logs, replays)."""
        fans = self.fans.fans if self.fans is not None else ()
        out: dict[str, Any] = {
            "winner": self.winner,
            "discarder": self.discarder,
            "win_tile": str(self.win_tile) if self.win_tile is not None else None,
            "deltas": list(self.deltas),
            "total": self.fans.total if self.fans is not None else 0,
            "fans": [
                {"zh": f.fan.zh, "en": f.fan.en, "points": f.points, "count": f.count} for f in fans
            ],
            "penalties": [
                {"seat": p.seat, "kind": p.kind.name.lower(), "amount": p.amount}
                for p in self.penalties
            ],
        }
        if self.forfeit_seat is not None:  # only then, so older records compare equal
            out["forfeit"] = {"seat": self.forfeit_seat, "reason": self.forfeit_reason}
        return out

    @property
    def self_drawn(self) -> bool:
        return self.winner is not None and self.discarder is None


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may see (第七条): its own hand, everything exposed, the wall's size."""

    seat: int
    round_wind: Wind
    phase: Phase
    current: int  # whose turn it is (the discarder while others respond)
    hand: tuple[Tile, ...]  # this seat's concealed tiles, sorted (the drawn tile included)
    drawn: Tile | None  # the tile this seat just drew, if it is to act after a draw
    melds: tuple[tuple[Meld, ...], ...]  # declared melds; others' concealed kongs lie face down
    discards: tuple[tuple[Tile, ...], ...]  # every seat's discards still in the pool
    flowers: tuple[int, ...]  # flowers each seat has shown
    wall_remaining: int
    last_discard: Tile | None  # the tile others may claim now (RESPOND/ROB), if any
    legal_actions: tuple[Action, ...]  # this seat's choices now (empty if it need not act)
    scores: tuple[int, int, int, int] = (0, 0, 0, 0)  # the hand's deltas once over
    concealed_kongs: tuple[int, ...] = (0, 0, 0, 0)  # each seat's face-down kongs (第七条七(二))
    segment_remaining: tuple[int, ...] | None = None  # Botzone: tiles left in each seat's segment

    def __reduce__(self) -> tuple[Any, ...]:
        return _by_fields(self)

    @property
    def seat_wind(self) -> Wind:
        return Wind(self.seat)

    def visible_counts(self) -> list[int]:
        """Copies of each tile (34 counts) this seat can see on the table: every discard pool and
        every meld it is shown (its own concealed kongs; not the others', which lie face down)."""
        seen = [0] * 34
        for pool in self.discards:
            for t in pool:
                seen[t] += 1
        for melds in self.melds:
            for meld in melds:
                for t in meld.tiles:
                    seen[t] += 1
        return seen


_NO_WAITS: Final[frozenset[int]] = frozenset()
# The usual state in ACT, shared (never mutate them): a seat alone to act, with only discards
_ALONE: Final = ((0,), (1,), (2,), (3,))
_ONLY_DISCARDS: Final[tuple[dict[int, tuple[Action, ...]], ...]] = tuple({s: ()} for s in range(4))


@dataclass(slots=True)
class LiveSeat:
    """The engine's own record of one seat (:meth:`Game.live_seat`): live and read-only.

    Tiles are ints 0-33 (flowers 34-41). ``counts`` (42 counts, a bytearray: sliced and read as
    bytes at C speed) is the concealed hand, private to the seat; everything else is on the
    table, but ``melds`` holds the seat's concealed kongs too (others see them face down until
    the hand ends). ``melds_version`` changes whenever ``melds``
    does (a claim, a kong, a robbed kong); ``river`` only grows, or loses its last tile to a claim.
    """

    counts: bytearray = field(default_factory=lambda: bytearray(42))  # flowers only while dealt
    melds: list[Meld] = field(default_factory=list)
    flowers: list[int] = field(default_factory=list)
    river: list[int] = field(default_factory=list)  # discards not claimed
    waits: frozenset[int] = frozenset()  # tiles completing the 13-form hand (any shape)
    melds_version: int = 0
    floor: int = 0  # a lower bound of the 13-form hand's shanten (0: compute it)
    floor_melds: int = 0  # the melds when ``floor`` was computed
    may_hold_four: bool = True  # False once no tile is held four times, until a draw makes four

    def __reduce__(self) -> tuple[Any, ...]:
        return _by_fields(self)


class Game:
    """One hand of MCR. ``Game(seed=7)`` deals a fresh hand; ``Game(deal=...)`` replays one.

    ``false_wins=True`` lets a seat declare a win that is not legal (for bots and protocols that
    can declare anything): it is judged as 第十四条六 says (错和, 诈和, 有意诈和), the penalty is
    recorded and play goes on; with ``rules.wrong_win == "end_hand"`` (Botzone) it ends the hand
    as a forfeit instead: at once on one's own draw; on a discard or an added kong once every seat
    has answered, the HUs being judged in seat order from the discarder (the first decides).

    ``Game(BOTZONE, seed=...)`` deals a shuffled Botzone wall; ``Game(BOTZONE,
    deal_=deal_botzone(wall_tiles))`` plays a given one (the judge's ``walltiles``).
    """

    def __init__(
        self,
        rules: TableRules = COMPETITION,
        seed: int | None = None,
        *,
        round_wind: Wind = Wind.EAST,
        deal_: Deal | None = None,
        false_wins: bool = False,
    ) -> None:
        self.rules = rules
        self.round_wind = round_wind
        self.false_wins = false_wins
        self.seed = seed
        self.deal = deal_ if deal_ is not None else deal(random.Random(seed), rules)
        if self.deal.layout != rules.wall_build:
            raise ValueError(
                f"a {self.deal.layout!r} deal does not fit rules with wall_build={rules.wall_build!r}"
            )
        self._segmented = rules.wall_build == "botzone"
        self._lenient_kongs = rules.lenient_kongs
        self.history: list[tuple[int, Action]] = []
        self._forfeit: tuple[int, str] | None = None  # applied after the history (Game.forfeit)
        self._reset()

    def __reduce__(self) -> tuple[Any, ...]:
        """A game pickles (for worker processes, Ray) and copies as its deal, settings and
        actions, and is rebuilt by playing them again: the same in both builds (hatch_build.py:
        a compiled class has no instance dictionary to copy)."""
        return (
            _rebuilt,
            (
                self.rules,
                self.seed,
                self.round_wind,
                self.deal,
                self.false_wins,
                tuple(self.history),
                self._forfeit,
            ),
        )

    # -- public state --------------------------------------------------------------------------
    def legal_actions(self, seat: int, discards: bool = True) -> tuple[Action, ...]:
        """Every legal action of ``seat`` now (empty if it need not act): in ``ACT`` a win and
        kongs, then a discard of each kind held, in tile order. ``discards=False`` leaves the
        discards out (the fast path's masks: in ``ACT`` the ``current`` seat, and only it, may
        discard any kind it holds, ``live_seat(seat).counts``)."""
        if seat in self._responses:
            return ()
        pending = self._pending.get(seat)
        if pending is None:
            return ()
        if discards and self.phase is _ACT:
            return (*pending, *compress(_DISCARD, self._seats[seat].counts))
        return pending

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def result(self) -> HandResult | None:
        return self._result

    @property
    def wall_remaining(self) -> int:
        """Tiles not yet drawn (Botzone: in all four segments together)."""
        return self._wall.remaining

    def segment_remaining(self, seat: int) -> int:
        """Botzone: tiles left in ``seat``'s segment of the wall (ValueError for other walls)."""
        if not isinstance(self._wall, SegmentWall):
            raise ValueError("only the botzone wall has segments")
        return self._wall.left[seat]

    def hand_of(self, seat: int) -> Hand:
        """A seat's concealed tiles and melds (for referees, logs and tests: not a player view)."""
        s = self._seats[seat]
        tiles = [TILES[t] for t in range(34) for _ in range(s.counts[t])]
        return Hand(tuple(tiles), tuple(s.melds), None, tuple(TILES[f] for f in s.flowers))

    def view(self, seat: int) -> SeatView:
        s = self._seats[seat]
        hand = tuple(TILES[t] for t in range(34) for _ in range(s.counts[t]))
        drawn = (
            TILES[self._last_tile]
            if self.phase is _ACT and self.current == seat and self.drawn_tile is not None
            else None
        )
        claimable = TILES[self._last_tile] if self.phase in (_RESPOND, _ROB) else None
        result = self._result
        over = self.phase is _OVER  # concealed kongs are shown when the hand ends
        return SeatView(
            seat=seat,
            round_wind=self.round_wind,
            phase=self.phase,
            current=self.current,
            hand=hand,
            drawn=drawn,
            melds=tuple(
                tuple(m for m in x.melds if i == seat or over or m.kind is not _M_CONCEALED_KONG)
                for i, x in enumerate(self._seats)
            ),
            concealed_kongs=tuple(
                sum(1 for m in x.melds if m.kind is _M_CONCEALED_KONG) for x in self._seats
            ),
            discards=tuple(tuple(TILES[t] for t in x.river) for x in self._seats),
            flowers=tuple(len(x.flowers) for x in self._seats),
            wall_remaining=self._wall.remaining,
            last_discard=claimable,
            legal_actions=self.legal_actions(seat),
            scores=result.deltas if result is not None else (0, 0, 0, 0),
            segment_remaining=(
                tuple(self._wall.left) if isinstance(self._wall, SegmentWall) else None
            ),
        )

    # -- the fast path (the RL environment): the same public information, no SeatView built ----
    def live_seat(self, seat: int) -> LiveSeat:
        """The engine's own record of ``seat`` (live: it changes as the hand goes on; never
        mutate it). A player's view shows only its own ``counts``; for the others it shows the
        melds but their concealed kongs (until the hand is over), the river, the flowers.
        :meth:`view` is built from exactly these, with :attr:`drawn_tile`,
        :attr:`claimable_tile` and :attr:`segments_left`; tests/test_game_fast_path.py checks it."""
        return self._seats[seat]

    @property
    def segments_left(self) -> list[int] | None:
        """Botzone: the tiles left in each seat's segment (live; never mutate it), else None."""
        return self._segment_left

    def tile_census(self) -> dict[str, int]:
        """Where every tile is: the wall, hands, melds, discard pools, flowers (sums to the set)."""
        return {
            "wall": self._wall.remaining,
            "hands": sum(sum(s.counts) for s in self._seats),
            "melds": sum(len(m.tiles) for s in self._seats for m in s.melds),
            "discards": sum(len(s.river) for s in self._seats),
            "flowers": sum(len(s.flowers) for s in self._seats),
        }

    # -- acting -------------------------------------------------------------------------------
    def act(self, seat: int, action: Action) -> None:
        """Apply ``seat``'s action; an illegal one raises :class:`IllegalActionError`.

        The state changes only if the action is applied whole: should anything fail midway, the
        hand is rebuilt as it was and the error raised.
        """
        phase = self.phase
        pending = self._pending.get(seat)
        if pending is None or seat in self._responses:
            false_win = True
        elif phase is _ACT and action.kind is _K_DISCARD:  # any kind held (legal_actions)
            tile = action.tile
            false_win = tile is None or tile >= 34 or not self._seats[seat].counts[tile]
        else:
            for candidate in pending:  # the engine's own objects: identity first, value otherwise
                if candidate is action:
                    false_win = False
                    break
            else:
                false_win = action not in pending
        if false_win and not (action.kind is _K_WIN and self.false_wins and seat in self.to_act):
            raise IllegalActionError(self._why_illegal(seat, action, self.legal_actions(seat)))
        self._apply(seat, action, false_win)

    def act_legal(self, seat: int, action: Action) -> None:
        """:meth:`act` for an action known to be one of ``legal_actions(seat)`` now (the RL
        environment's, read off a mask filled from them): the same change of state, without
        checking the action again. Anything else is the caller's error, and corrupts the hand."""
        self._apply(seat, action, False)

    def _apply(self, seat: int, action: Action, false_win: bool) -> None:
        """Apply a checked action whole, or rebuild the hand as it was and raise."""
        try:
            if false_win:
                self._false_win(seat)
            elif self.phase is _ACT:
                self._act_own(seat, action)
            else:
                self._respond(seat, action)
                if not self.to_act:
                    self._resolve_claims()
        except Exception:
            self._rebuild(self.history)
            raise
        self.history.append((seat, action))

    def forfeit(self, seat: int, reason: str) -> None:
        """End the hand by ``seat``'s foul: ``reason`` is one of :data:`FORFEIT_REASONS` ("wrong
        win", "illegal action", "time-out", "crash"). The seat pays ``rules.forfeit_payment`` to
        each other player (Botzone: -30 / +10 each); penalties already incurred are settled too.

        For an arena or a judge: the engine itself only forfeits a wrong win under
        ``wrong_win="end_hand"``. :meth:`undo` takes a forfeit back; :meth:`record` keeps it.
        """
        if reason not in FORFEIT_REASONS:
            raise ValueError(f"reason must be one of {', '.join(FORFEIT_REASONS)}, not {reason!r}")
        if seat not in range(4):
            raise ValueError(f"seat {seat} is not a seat 0-3")
        if self.phase is _OVER:
            raise IllegalActionError("the hand is over")
        self._end_forfeit(seat, reason)
        self._forfeit = (seat, reason)

    def undo(self) -> None:
        """Take back the last action (the hand is rebuilt from its deal and history), or the
        forfeit that ended the hand."""
        if self._forfeit is not None:
            self._forfeit = None
            self._rebuild(self.history)
            return
        if not self.history:
            raise IllegalActionError("nothing to undo")
        self._rebuild(self.history[:-1])

    def _rebuild(self, history: list[tuple[int, Action]]) -> None:
        self.history = []
        self._reset()
        for seat, action in history:
            self.act(seat, action)

    def record(self) -> dict[str, Any]:
        """Everything needed to rebuild this hand (rules, winds, the walls as built, the dice,
        every action) and, once over, its result to check a replay against."""
        d = self.deal
        out: dict[str, Any] = {
            "version": RECORD_VERSION,
            "seed": self.seed,
            "rules": {k: getattr(self.rules, k) for k in self.rules.__slots__},
            "round_wind": self.round_wind.letter,
            "false_wins": self.false_wins,
        }
        if d.layout == "botzone":  # the 136-tile wall string; no dice
            out["wall"] = [str(TILES[t]) for t in d.wall]
        else:
            out["dice"] = list(d.dice)
            if d.build is not None:
                out["build"] = [str(TILES[t]) for t in d.build]
            else:
                out["wall"] = [str(TILES[t]) for t in d.wall]
        out["actions"] = [[seat, str(action)] for seat, action in self.history]
        if self._forfeit is not None:
            out["forfeit"] = {"seat": self._forfeit[0], "reason": self._forfeit[1]}
        if self._result is not None:
            out["result"] = self._result.summary()
        return out

    @classmethod
    def replay(cls, record: Mapping[str, Any], *, actions: bool = True) -> Game:
        """Rebuild a hand from :meth:`record`; a record that does not replay, or whose result
        differs from what the replay gives, raises ValueError saying where. A record it cannot
        read (another version, a field of the wrong type, a seat out of range, a round wind that
        is none) raises :class:`~guobiao.table.fields.LogError`, a ValueError naming the field."""
        record = expect(record, dict, "the hand record")
        version = record.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version != RECORD_VERSION:
            raise LogError(f"unsupported record version {show(version)}")
        rules = table_rules(required(record, "rules", dict), "rules")
        botzone = rules.wall_build == "botzone"
        seed = optional(record, "seed", int, "", None)
        wind_text = required(record, "round_wind", str)
        try:
            round_wind = Wind.parse(wind_text)
        except ValueError:
            raise LogError(f"round_wind must be E, S, W or N, not {show(wind_text)}") from None
        false_wins = optional(record, "false_wins", bool, "", False)
        dice_list = [] if botzone else array(required(record, "dice", list), int, "dice")
        key = "build" if "build" in record else "wall"
        walls = array(required(record, key, list), str, key)
        expected = optional(record, "result", dict, "", None)
        foul = record_forfeit(record)
        moves = record_actions(record) if actions else []
        if len(walls) != rules.tile_count:
            raise ValueError(f"the record's {key} has {len(walls)} tiles, not {rules.tile_count}")
        tiles = []
        for index, name in enumerate(walls):
            try:
                tiles.append(int(Tile.parse(name)))
            except ValueError:
                raise ValueError(
                    f"the record's {key}[{index}] is not a tile: {show(name)}"
                ) from None
        if not botzone and (len(dice_list) != 4 or not all(1 <= d <= 6 for d in dice_list)):
            raise ValueError(f"the record's dice {show(dice_list)} are not four throws of 1-6")
        if not is_tile_set(tiles, rules.flowers):
            raise ValueError("the record's wall is not one set of tiles for its rules (第三条)")
        if botzone:
            dealt = deal_botzone(tiles)
        else:
            dice = (dice_list[0], dice_list[1], dice_list[2], dice_list[3])
            dealt = deal_from_build(tiles, dice) if key == "build" else deal_from(tiles, dice)
        game = cls(rules, seed, round_wind=round_wind, deal_=dealt, false_wins=false_wins)
        if actions:
            for number, (seat, action) in enumerate(moves, start=1):
                try:
                    game.act(seat, action)
                except ValueError as err:
                    raise ValueError(
                        f"action {number} ({seat} {action}) does not replay: {err}"
                    ) from None
            if foul is not None:
                try:
                    game.forfeit(*foul)
                except ValueError as err:
                    raise ValueError(
                        f"the record's forfeit {show(foul)} does not replay: {err}"
                    ) from None
            if expected is not None:
                got = game.result.summary() if game.result is not None else None
                if got != expected:
                    raise ValueError(
                        f"the replayed result {got} differs from the record's {show(expected)}"
                    )
        return game

    # -- internals: setting up -----------------------------------------------------------------
    def _reset(self) -> None:
        d = self.deal
        self._wall: Wall | SegmentWall = (
            SegmentWall(list(d.wall)) if self._segmented else Wall(list(d.wall), d.front)
        )
        # Botzone: the wall's own per-seat counts (updated in place as it is drawn), else None
        self._segment_left: list[int] | None = (
            self._wall.left if isinstance(self._wall, SegmentWall) else None
        )
        self._seats = [LiveSeat() for _ in range(4)]
        seats = self._seats  # by seat: the seats after it (下家, 对家, 上家), the claims' order
        self._after = tuple(
            (seats[(s + 1) & 3], seats[(s + 2) & 3], seats[(s + 3) & 3]) for s in range(4)
        )
        # What changed, one entry per change, in order, since the hand was dealt (read it, never
        # mutate it), for observers that follow the hand incrementally (the RL environment):
        # ``(t + 1) << 2 | s`` (4 and up): seat ``s`` drew tile ``t`` (``counts[t]`` went up by
        # one); ``~(t << 2 | s)`` (negative): seat ``s`` discarded ``t`` (from ``counts`` to the
        # end of its ``river``); ``s`` (0-3): anything else of seat ``s`` on the table changed (a
        # meld declared, a kong added or robbed, a flower shown, the last discard claimed from
        # its river), with its ``counts``. A new list whenever the hand is (re)built (undo,
        # replay); the end of the hand (concealed kongs shown, the winning tile joining the
        # winner's hand) is not an entry. A plain attribute, like ``to_act``: read every step.
        self.changes: list[int] = []
        # the seats to choose and their actions; in ACT without the discards (legal_actions)
        self._pending: dict[int, tuple[Action, ...]] = {}
        self._responses: dict[int, Action] = {}
        # the seats that must choose an action now (empty when the hand is over): those of
        # _pending not in _responses (read it, never assign it)
        self.to_act: tuple[int, ...] = ()
        self._barred: set[int] = set()  # may not win this hand (第十四条六)
        self._false_claims: set[int] = set()  # wrong wins declared on a discard (end_hand)
        self._penalties: list[Penalty] = []
        self._result: HandResult | None = None
        self.phase = _ACT
        self.current = 0
        # plain attributes, like ``to_act``, read every step (the fast path; never assign them):
        # the tile ``current`` just drew, while it is to act after the draw (``SeatView.drawn``
        # of that seat), else None; the discard (RESPOND) or added-kong tile (ROB) open to
        # claims (``SeatView.last_discard``), else None. Set with the phase. (A Game has 29
        # attributes: from 30 on, CPython 3.11 stops sharing its instances' dict keys, and every
        # attribute read slows.)
        self.drawn_tile: int | None = None
        self.claimable_tile: int | None = None
        self._last_tile = -1
        self._kong_replacement = False
        self._just_chowed = False
        self._exhausted = False
        for seat, tiles in enumerate(d.hands):
            held = self._seats[seat].counts
            for t in tiles:
                held[t] = held[t] + 1
        if self._segmented:  # Botzone: 13 each, no flowers; the dealer draws its 14th
            for seat in range(4):
                self._update_waits(seat)
            self._draw(0, False)
            return
        # 第六条五(六): flowers are replaced dealer first, then South, West, North.
        last = d.hands[0][-1]
        for seat in range(4):
            got = self._replace_flowers(seat)
            if seat == 0 and got is not None:
                last = got
            if self._exhausted:
                self._end_draw()
                return
        for seat in range(1, 4):
            self._update_waits(seat)
        # the dealer's 14 are judged as if ``last`` had been drawn: its waits are those of the
        # 13 others, and the 14 are a complete hand when ``last`` is one of them
        dealer = self._seats[0]
        dealer.counts[last] = dealer.counts[last] - 1
        self._update_waits(0)
        dealer.counts[last] = dealer.counts[last] + 1
        if last in dealer.waits:  # a complete hand dealt names its winning tile
            best = self._best_dealt_win(last)
            if best != last:
                last = best
                dealer.counts[last] = dealer.counts[last] - 1
                self._update_waits(0)
                dealer.counts[last] = dealer.counts[last] + 1
        self._last_tile = last
        self._enter_act(0, True, False)

    def _best_dealt_win(self, last: int) -> int:
        """A dealer dealt a complete hand names its winning tile: the one that scores most."""
        best, best_points = last, -1
        for tile in [last, *(t for t in range(34) if self._seats[0].counts[t] and t != last)]:
            self._last_tile = tile
            result = self._win_result(0, tile, self_drawn=True)
            if result is not None and result.total > best_points:
                best, best_points = tile, result.total
        return best

    def _replace_flowers(self, seat: int) -> int | None:
        """Expose a seat's flowers, drawing replacements until none is left; the last drawn."""
        s = self._seats[seat]
        last = None
        while True:
            found = [t for t in range(34, 42) if s.counts[t]]
            if not found:
                return last
            for t in found:
                s.counts[t] -= 1
                s.flowers.append(t)
                self.changes.append(seat)
                if self._wall.remaining == 0:
                    self._exhausted = True
                    return last
                wall = self._wall
                assert isinstance(wall, Wall)
                last = wall.draw_replacement()
                s.counts[last] += 1

    # -- internals: turns ---------------------------------------------------------------------
    def _draw(self, seat: int, replacement: bool) -> None:
        """Draw for ``seat`` (a kong replacement from the far end); flowers are replaced."""
        wall = self._wall
        left = self._segment_left
        if left is not None:  # Botzone: from one's own segment, replacements too
            n = left[seat] - 1
            if n < 0:  # 荒牌: the seat due to draw has none left
                self._end_draw()
                return
            # SegmentWall.draw_for, inline: the segment's last tile
            left[seat] = n
            wall.remaining -= 1
            tile = wall.tiles[SEGMENT * seat + n]
            kong = replacement  # no flowers
        else:
            assert isinstance(wall, Wall)
            if wall.remaining == 0:
                self._end_draw()
                return
            tile = wall.draw_replacement() if replacement else wall.draw()
            kong = replacement
            while tile >= 34:  # a flower: show it and draw a replacement (补花)
                self._seats[seat].flowers.append(tile)
                self.changes.append(seat)
                kong = False  # a win on a flower replacement is 自摸, not 杠上开花 (#81)
                if wall.remaining == 0:
                    self._end_draw()
                    return
                tile = wall.draw_replacement()
        counts = self._seats[seat].counts
        counts[tile] = counts[tile] + 1
        self.changes.append((tile + 1) << 2 | seat)  # a draw (Game.changes)
        self._last_tile = tile
        self._enter_act(seat, True, kong)

    def _enter_act(self, seat: int, after_draw: bool, kong: bool) -> None:
        self.phase = _ACT
        self.drawn_tile = self._last_tile if after_draw else None
        self.claimable_tile = None
        self.current = seat
        self._kong_replacement = kong
        if self._responses:  # a new one only when used (most are empty)
            self._responses = {}
        s = self._seats[seat]
        counts = s.counts
        actions: list[Action] = []  # those before the discards: a win, kongs
        if after_draw:
            tile = self._last_tile
            if counts[tile] == 4:  # the only way to a fourth copy held: a draw (or the deal)
                s.may_hold_four = True
            if tile in s.waits and self._can_win(seat, tile, self_drawn=True):  # cheap test first
                actions.append(WIN)
            # 第七条七: kongs need a replacement tile; none right after a chow. Botzone: from
            # one's own segment, and none on the last tile (the next seat's segment is empty).
            # (Only a seat that may hold four or has a pung to add to can declare one.)
            if (s.may_hold_four or s.melds) and not self._just_chowed:
                segments = self._segment_left
                if segments is None:
                    can_kong = self._wall.remaining > 0
                else:
                    can_kong = segments[seat] > 0 and segments[(seat + 1) & 3] > 0
                if can_kong:
                    if s.may_hold_four:  # the 34 counts looked through only then
                        if 4 in counts:
                            actions.extend(_CONCEALED_KONG[t] for t in range(34) if counts[t] == 4)
                        else:
                            s.may_hold_four = False
                    for meld in s.melds:  # 第七条七(一): 抓進一張與已經碰的刻子牌相同
                        if meld.kind is _M_PUNG and (
                            meld.tile == tile
                            # the Botzone judge (BUGANG X): the fourth tile may be any one held
                            or (self._lenient_kongs and counts[meld.tile])
                        ):
                            actions.append(_ADDED_KONG[meld.tile])
        # the discards are not listed: legal_actions adds them (the fast path never needs them)
        self._pending = {seat: tuple(actions)} if actions else _ONLY_DISCARDS[seat]
        self.to_act = _ALONE[seat]

    def _act_own(self, seat: int, action: Action) -> None:
        s = self._seats[seat]
        kind = action.kind
        self._just_chowed = False
        if kind is _K_DISCARD:
            assert action.tile is not None
            # a plain int from here on (every pool, claim and observer reads it): the
            # interpreter's fast paths of indexing and arithmetic take no int subclass (a Tile)
            tile = _PLAIN[action.tile]
            s.counts[tile] = s.counts[tile] - 1
            s.river.append(tile)
            self.changes.append(~(tile << 2 | seat))  # a discard (Game.changes)
            if tile != self.drawn_tile:
                # The waits after a discard, the hand having changed by one tile in (a draw or
                # a claim) and one out since they were last computed: one tile in lowers the
                # shanten by at most one, one out never lowers it, so a hand that was 2 or more
                # from ready is not ready now and its waits need no computing until the bound
                # reaches 0. A claim (a chow or a pung: every other meld recomputes the waits)
                # is one tile in as well: the claimed set is one way to read the hand with that
                # tile, so the hand with the meld declared is no nearer to ready than that.
                floor = s.floor - 1
                melds = len(s.melds)
                if floor > 0 and melds - s.floor_melds <= 1:  # its waits are empty already
                    s.floor = floor
                    s.floor_melds = melds
                elif not (
                    floor == 0
                    and melds >= 2
                    and melds == s.floor_melds
                    and self.drawn_tile is not None
                    and _isolated(s.counts, self.drawn_tile, tile)
                ):  # (else the bound stands: the tile drawn was of no use)
                    self._update_waits(seat)
            # else the tile just drawn: the hand is as before the draw, and so are its waits
            self._last_tile = tile
            self._open_claims(seat, tile)
        elif kind is _K_WIN:
            self._finish_win(seat, None, self._last_tile, robbed=False)
        elif kind is _K_CONCEALED_KONG:
            assert action.tile is not None
            tile = action.tile
            s.counts[tile] = s.counts[tile] - 4
            s.melds.append(_CONCEALED_KONG_MELDS[tile])
            s.melds_version += 1
            self.changes.append(seat)
            self._update_waits(seat)
            self._draw(seat, True)
        elif kind is _K_ADDED_KONG:
            assert action.tile is not None
            tile = action.tile
            s.counts[tile] = s.counts[tile] - 1
            at = next(i for i, m in enumerate(s.melds) if m.kind is _M_PUNG and m.tile == tile)
            old = s.melds[at]
            s.melds[at] = _KONG_MELDS[tile][old.offered_by or 0]
            s.melds_version += 1
            self.changes.append(seat)
            self._last_tile = tile
            self._update_waits(seat)
            self._open_robbing(seat, tile)

    def _open_claims(self, discarder: int, tile: int) -> None:
        """After a discard: what each other seat may claim (第七条五-七, 第八条)."""
        segments = self._segment_left
        # the last discard may only be won (Botzone: the next seat's segment is empty)
        if segments is None:
            wall_left = self._wall.remaining > 0
        else:
            wall_left = segments[(discarder + 1) & 3] > 0
        s1, s2, s3 = self._after[discarder]
        chows: Sequence[Action] = ()
        if wall_left and tile < 27:  # 吃 only from 上家, only suits
            counts = s1.counts
            for low, a, b in _CHOW_WITH[tile]:  # a loop: a comprehension is a call (3.11)
                if counts[a] and counts[b]:
                    chows = (*chows, _CHOW[low])
        self.current = discarder
        # cheap tests first: most discards can be neither won, punged nor chowed
        if not (
            chows
            or self.false_wins
            or tile in s1.waits
            or tile in s2.waits
            or tile in s3.waits
            or (wall_left and (s1.counts[tile] > 1 or s2.counts[tile] > 1 or s3.counts[tile] > 1))
        ):  # no one may claim: the next turn (_next_turn, inline)
            self._just_chowed = False
            if self._wall.remaining == 0:  # the last tile's discard was not won: 荒牌
                self._end_draw()
            else:
                self._draw((discarder + 1) & 3, False)
            return
        pending: dict[int, tuple[Action, ...]] = {}
        barred = self._barred
        false_wins = self.false_wins
        seats = self._seats
        for step in (1, 2, 3):
            seat = (discarder + step) & 3
            s = seats[seat]
            n = s.counts[tile]
            win = tile in s.waits and seat not in barred
            if not (win or (wall_left and n >= 2) or (step == 1 and chows)):
                if false_wins:
                    pending[seat] = (PASS,)  # asked anyway: it may declare a (false) win
                continue
            actions: list[Action] = []
            if win and self._win_result(seat, tile, self_drawn=False) is not None:
                actions.append(WIN)
            if wall_left:
                if n >= 2:
                    actions.append(_PUNG[tile])
                # a replacement is needed from one's own segment; the Botzone judge accepts the
                # kong anyway and the hand is then drawn (荒牌)
                if n == 3 and (segments is None or segments[seat] or self._lenient_kongs):
                    actions.append(_KONG[tile])
                if step == 1:
                    actions += chows
            if actions:
                actions.append(PASS)
                pending[seat] = tuple(actions)
            elif false_wins:
                pending[seat] = (PASS,)  # asked anyway: it may declare a (false) win
        self.phase = _RESPOND
        self.drawn_tile = None
        self.claimable_tile = tile
        self._pending = pending
        if self._responses:  # a new one only when used (most are empty)
            self._responses = {}
        if pending:
            self.to_act = tuple(pending)
        else:  # no one may claim after all (a win under 8 points): the next turn
            self.to_act = ()
            self._next_turn(discarder)

    def _open_robbing(self, konger: int, tile: int) -> None:
        pending: dict[int, tuple[Action, ...]] = {}
        for step in (1, 2, 3):
            seat = (konger + step) % 4
            if self._can_win(seat, tile, self_drawn=False, robbing=True):
                pending[seat] = (WIN, PASS)
            elif self.false_wins:
                pending[seat] = (PASS,)
        self.phase = _ROB
        self.drawn_tile = None
        self.claimable_tile = tile
        self.current = konger
        self._pending = pending
        if self._responses:  # a new one only when used (most are empty)
            self._responses = {}
        self.to_act = tuple(pending)
        if not pending:
            self._draw(konger, True)

    def _resolve_claims(self) -> None:
        origin = self.current
        tile = self._last_tile
        responses = self._responses
        for step in (
            1,
            2,
            3,
        ):  # 第八条二(三): the first winner counter-clockwise from the discarder
            seat = (origin + step) % 4
            response = responses.get(seat)
            if response is not None and response.kind is _K_WIN:  # == WIN, without __eq__
                if seat in self._false_claims:  # end_hand: the first HU decides, right or wrong
                    self._end_forfeit(seat, "wrong win")
                    return
                self._finish_win(seat, origin, tile, robbed=self.phase is _ROB)
                return
        if self.phase is _ROB:
            self._draw(origin, True)
            return
        claim: tuple[int, Action] | None = None
        for seat, action in responses.items():
            if action.kind in (_K_PUNG, _K_KONG):  # 碰/杠 beat 吃
                claim = (seat, action)
        if claim is None:
            claim = next(((s, a) for s, a in responses.items() if a.kind is _K_CHOW), None)
        if claim is None:
            self._next_turn(origin)
            return
        seat, action = claim
        self._claim(seat, origin, tile, action)

    def _claim(self, seat: int, discarder: int, tile: int, action: Action) -> None:
        s = self._seats[seat]
        self._seats[discarder].river.pop()
        self.changes.append(discarder)
        self.changes.append(seat)  # its melds, below
        offered = (discarder - seat) % 4  # 1 next, 2 opposite, 3 previous
        if action.kind is _K_CHOW:
            assert action.tile is not None
            low: int = action.tile
            for u in (low, low + 1, low + 2):
                if u != tile:
                    s.counts[u] = s.counts[u] - 1
            s.melds.append(_CHOW_MELDS[low * 12 + offered * 3 + tile - low])
            s.melds_version += 1
            self._just_chowed = True
            self._enter_act(seat, False, False)
        elif action.kind is _K_PUNG:
            s.counts[tile] = s.counts[tile] - 2
            s.melds.append(_PUNG_MELDS[tile][offered])
            s.melds_version += 1
            self._just_chowed = False
            self._enter_act(seat, False, False)
        else:
            s.counts[tile] = s.counts[tile] - 3
            s.melds.append(_KONG_MELDS[tile][offered])
            s.melds_version += 1
            self._just_chowed = False
            self._update_waits(seat)
            self._draw(seat, True)

    def _next_turn(self, discarder: int) -> None:
        self._just_chowed = False
        if self._wall.remaining == 0:  # the last tile's discard was not won: 荒牌
            self._end_draw()
            return
        self._draw((discarder + 1) & 3, False)

    def _update_waits(self, seat: int) -> None:
        s = self._seats[seat]
        counts = bytes(s.counts[:34])  # a bytearray's slice: C speed (a list's costs 3x)
        melds = len(s.melds)
        # ``waits`` is empty unless the hand is ready: the shanten alone (a few table lookups)
        # settles the usual case, a hand one or more tiles from ready.
        distance = shanten(counts, melds)
        s.waits = _NO_WAITS if distance else frozenset(ready_waits(counts, melds))
        s.floor = distance
        s.floor_melds = melds

    # -- internals: winning -------------------------------------------------------------------
    def _win_context(self, seat: int, tile: int, *, self_drawn: bool, robbing: bool) -> WinContext:
        visible = self._shown(tile)
        # 和绝张: the other three copies are on the table (a discarded winning tile is one of them).
        fourth = visible == (3 if self_drawn else 4) and not robbing
        # 妙手回春 / 海底捞月 (Botzone: the segment of the seat after the drawer or discarder is
        # empty; both are ``current`` while a win is judged)
        segments = self._segment_left
        if segments is None:
            last = self._wall.remaining == 0
        else:
            last = segments[(self.current + 1) % 4] == 0
        kong = self._kong_replacement if self_drawn else robbing
        flowers = len(self._seats[seat].flowers) if self.rules.flowers else 0
        return WinContext(
            TILES[tile],
            self_drawn=self_drawn,
            fourth_tile=fourth,
            kong=kong,
            last_tile=last and not robbing,
            seat_wind=Wind(seat),
            round_wind=self.round_wind,
            flowers=flowers,
        )

    def _shown(self, tile: int) -> int:
        """The copies of ``tile`` on the table: in the discard pools and the exposed melds."""
        shown = 0
        for s in self._seats:
            shown += s.river.count(tile)
            for meld in s.melds:
                if meld.kind is not _M_CONCEALED_KONG:
                    shown += meld.tiles.count(TILES[tile])
        return shown

    def _win_hand(self, seat: int, tile: int, self_drawn: bool) -> Hand:
        s = self._seats[seat]
        counts = list(s.counts[:34])
        if self_drawn:
            counts[tile] -= 1
        tiles = [TILES[t] for t in range(34) for _ in range(counts[t])]
        return Hand(tuple(tiles), tuple(s.melds))

    def _can_win(self, seat: int, tile: int, *, self_drawn: bool, robbing: bool = False) -> bool:
        """A legal win: the tile completes the hand (cheap test first) with 8 points."""
        if seat in self._barred or tile not in self._seats[seat].waits:
            return False
        return self._win_result(seat, tile, self_drawn=self_drawn, robbing=robbing) is not None

    def win_fans(
        self, seat: int, tile: int, *, self_drawn: bool, robbing: bool = False
    ) -> FanResult:
        """The calculator's reading of ``seat`` winning on ``tile`` now, 8 points or not: the
        engine's hand and flags (和绝张, the last tile, a kong). ``is_winning`` is False when the
        tile does not complete the hand; a hand the tiles cannot be raises
        :class:`~guobiao.scoring.result.InvalidHandError`."""
        hand = self._win_hand(seat, tile, self_drawn)
        context = self._win_context(seat, tile, self_drawn=self_drawn, robbing=robbing)
        return calculate(hand, context, self.rules.fan_profile)

    def _win_result(
        self, seat: int, tile: int, *, self_drawn: bool, robbing: bool = False
    ) -> FanResult | None:
        """The fans of a win by ``seat`` on ``tile``, or None if it is not a valid win (8 points)."""
        result = self.win_fans(seat, tile, self_drawn=self_drawn, robbing=robbing)
        if not result.is_winning or result.points_without_flowers < self.rules.minimum:
            return None
        return result

    def _finish_win(self, seat: int, discarder: int | None, tile: int, *, robbed: bool) -> None:
        self_drawn = discarder is None
        fans = self._win_result(seat, tile, self_drawn=self_drawn, robbing=robbed)
        assert fans is not None, "a legal win always scores"
        if not self_drawn:
            self._seats[seat].counts[tile] += 1  # the claimed tile joins the winner's hand
            assert discarder is not None
            if robbed:
                # the robbed kong goes back to being a pung
                s = self._seats[discarder]
                at = next(i for i, m in enumerate(s.melds) if m.kind is _M_KONG and m.tile == tile)
                old = s.melds[at]
                s.melds[at] = _PUNG_MELDS[tile][old.offered_by or 0]
                s.melds_version += 1
            else:
                self._seats[discarder].river.pop()
            self.changes.append(discarder)
        flowers = fans.flower_points
        outcome = HandOutcome(
            winner=seat,
            discarder=discarder,
            fan_points=fans.points_without_flowers,
            flowers=flowers,
            penalties=tuple(self._penalties),
        )
        deltas = settle(outcome, base=self.rules.base, minimum=self.rules.minimum)
        held = self._win_hand(seat, tile, True)  # the winning tile now sits in counts
        shown = tuple(TILES[f] for f in self._seats[seat].flowers)
        winning_hand = Hand(held.concealed, held.melds, None, shown)
        self._end(HandResult(seat, discarder, fans, deltas, outcome, TILES[tile], winning_hand))

    def _end_draw(self) -> None:
        outcome = HandOutcome(
            winner=None, discarder=None, fan_points=0, flowers=0, penalties=tuple(self._penalties)
        )
        deltas = settle(outcome, base=self.rules.base, minimum=self.rules.minimum)
        self._end(HandResult(None, None, None, deltas, outcome))

    def _end(self, result: HandResult) -> None:
        self._result = result
        self.phase = _OVER
        self.drawn_tile = None
        self.claimable_tile = None
        self._pending = {}
        self._responses = {}
        self.to_act = ()

    def _respond(self, seat: int, action: Action) -> None:
        """Record a claim or a pass; the seat leaves ``to_act``."""
        self._responses[seat] = action
        to_act = self.to_act
        if to_act and to_act[0] == seat:  # the usual case: seats answer in turn
            self.to_act = to_act[1:]
        else:
            self.to_act = tuple(s for s in to_act if s != seat)

    def _end_forfeit(self, seat: int, reason: str) -> None:
        """A foul ends the hand: the seat pays ``forfeit_payment`` to each other player (settled
        as a 错和-kind penalty; the result names the seat and the reason)."""
        penalty = Penalty(seat, PenaltyKind.FALSE_WIN, self.rules.forfeit_payment)
        outcome = HandOutcome(penalties=(*self._penalties, penalty))
        deltas = settle(outcome, base=self.rules.base, minimum=self.rules.minimum)
        self._end(
            HandResult(None, None, None, deltas, outcome, forfeit_seat=seat, forfeit_reason=reason)
        )

    def _false_win(self, seat: int) -> None:
        """第十四条六: judge a declared win that is not legal; penalise; play on (or, with
        ``wrong_win="end_hand"``, end the hand as a forfeit)."""
        if self.rules.wrong_win == "end_hand":
            if self.phase is _ACT:
                self._end_forfeit(seat, "wrong win")
                return
            # On a discard or an added kong the HUs are judged in seat order from the discarder
            # (as the Botzone judge does): a legal win nearer the discarder still takes it.
            self._false_claims.add(seat)
            self._respond(seat, WIN)
            if not self.to_act:
                self._resolve_claims()
            return
        s = self._seats[seat]
        melds = len(s.melds)
        counts = list(s.counts[:34])  # the hand as declared: 14 - 3·melds tiles
        if self.phase is not _ACT:
            counts[self._last_tile] += 1
        declared_on = (
            self._last_tile if self.phase is not _ACT or self.drawn_tile is not None else None
        )
        if shanten(counts, melds) == -1:
            distance = -1  # a winning shape: below 8 points, or the seat may not win: 错和
        elif declared_on is not None:
            before = list(counts)  # how far the hand was from ready before the declared tile
            before[declared_on] -= 1
            distance = shanten(before, melds)
        else:  # right after a claim there is no declared tile: judge the best 13 of the 14
            distance = shanten(counts, melds)
        if distance <= 0:
            kind = PenaltyKind.FALSE_WIN  # 错和 / 和错牌 (ready, wrong tile)
        elif distance == 1:
            kind = PenaltyKind.FAKE_WIN  # 诈和
        else:
            kind = PenaltyKind.INTENTIONAL_FAKE_WIN  # 有意诈和: disqualified (HandOutcome)
        amount = {
            PenaltyKind.FALSE_WIN: self.rules.false_win_penalty,
            PenaltyKind.FAKE_WIN: self.rules.fake_win_penalty,
        }.get(kind, 0)
        self._penalties.append(Penalty(seat, kind, amount))
        self._barred.add(seat)
        pending = self._pending.get(seat, ())
        self._pending = dict(self._pending)  # it may be shared (_ONLY_DISCARDS)
        self._pending[seat] = tuple(a for a in pending if a.kind is not _K_WIN)
        if self.phase is not _ACT:  # in ACT the seat is still to discard
            self._respond(seat, PASS)
            if not self.to_act:
                self._resolve_claims()

    def _why_illegal(self, seat: int, action: Action, legal: Iterable[Action]) -> str:
        if self.phase is _OVER:
            return "the hand is over"
        if seat not in self.to_act:
            waiting = ", ".join(Wind(s).letter for s in self.to_act) or "nobody"
            return f"seat {Wind(seat).letter} is not to act now (waiting for {waiting})"
        options = ", ".join(str(a) for a in legal)
        return f"{action} is not legal for seat {Wind(seat).letter}; legal: {options}"


def record_actions(record: Mapping[str, Any]) -> list[tuple[int, Action]]:
    """A hand record's ``actions``: ``[seat, action text]`` pairs read into actions (LogError
    for a wrong type or seat, ValueError for a text that is no action)."""
    out: list[tuple[int, Action]] = []
    for number, entry in enumerate(array(required(record, "actions", list), list, "actions"), 1):
        where = f"actions[{number - 1}]"
        if len(entry) != 2:
            raise LogError(f"{where} must be [seat, action], not {len(entry)} values")
        who = _seat(entry[0], f"{where}[0]")
        text = expect(entry[1], str, f"{where}[1]")
        try:
            out.append((who, Action.parse(text)))
        except ValueError as err:
            raise ValueError(
                f"action {number} ({who} {clip(text)}) cannot be read: {clip(str(err))}"
            ) from None
    return out


def record_forfeit(record: Mapping[str, Any]) -> tuple[int, str] | None:
    """A hand record's ``forfeit`` (seat, reason), None if it has none; LogError if ill-typed."""
    foul = optional(record, "forfeit", dict, "", None)
    if foul is None:
        return None
    return _seat(foul.get("seat"), "forfeit.seat"), required(foul, "reason", str, "forfeit.")


def _rebuilt(
    rules: TableRules,
    seed: int | None,
    round_wind: Wind,
    deal_: Deal,
    false_wins: bool,
    history: tuple[tuple[int, Action], ...],
    forfeit: tuple[int, str] | None,
) -> Game:
    """The game of :meth:`Game.__reduce__`: dealt again, its actions and forfeit played again."""
    game = Game(rules, seed, round_wind=round_wind, deal_=deal_, false_wins=false_wins)
    for seat, action in history:
        game.act(seat, action)
    if forfeit is not None:
        game.forfeit(*forfeit)
    return game
