"""The fixed action space of the environments: 235 discrete actions.

==========  =====  ===========================================================================
indices     count  action
==========  =====  ===========================================================================
0-33        34     discard tile ``t`` (tile ids 0-33: W1-W9, B1-B9, T1-T9, F1-F4, J1-J3)
34-96       63     chow ``34 + 3·c + p``: chow ``c`` (0-20) with the claimed tile at position
                   ``p`` (0 low, 1 middle, 2 high)
97-130      34     pung of tile ``t`` (``97 + t``)
131-164     34     kong of a discard (明杠) of tile ``t`` (``131 + t``)
165-198     34     concealed kong (暗杠) of tile ``t`` (``165 + t``)
199-232     34     added kong (加杠) of tile ``t`` (``199 + t``)
233         1      win (和)
234         1      pass
==========  =====  ===========================================================================

The 21 chows: suit ``s`` (0 万 W, 1 饼 B, 2 条 T) and lowest rank ``r`` (0-6, i.e. 1-7) give
``c = 7·s + r``; the chow is tiles ``9·s + r``, ``+1``, ``+2``. A guobiao chow
:class:`~guobiao.table.game.Action` names only its lowest tile, so its index needs the claimed tile
too (the discard on the table, ``SeatView.last_discard``); the index names both.

:func:`action_index` maps an action to its index, :func:`index_action` maps back, and
:class:`MaskBuilder` turns ``Game.legal_actions(seat)`` into the ``int8`` mask (and remembers
which engine action each set index stands for, so acting passes the engine its own object).
"""

from __future__ import annotations

from operator import index as _as_index
from typing import Final, SupportsIndex

from guobiao.core.tiles import TILES
from guobiao.table import game as _game
from guobiao.table.game import Action, ActionKind, Game, Phase

__all__ = [
    "ADDED_KONG",
    "CHOW",
    "CONCEALED_KONG",
    "DISCARD",
    "KONG",
    "N_ACTIONS",
    "PASS_INDEX",
    "PUNG",
    "WIN_INDEX",
    "action_index",
    "chow_index",
    "describe",
    "index_action",
]

DISCARD: Final = 0
CHOW: Final = 34
PUNG: Final = CHOW + 63
KONG: Final = PUNG + 34
CONCEALED_KONG: Final = KONG + 34
ADDED_KONG: Final = CONCEALED_KONG + 34
WIN_INDEX: Final = ADDED_KONG + 34
PASS_INDEX: Final = WIN_INDEX + 1
N_ACTIONS: Final = PASS_INDEX + 1
"""235 actions in all."""

_BASE: Final = {
    ActionKind.DISCARD: DISCARD,
    ActionKind.PUNG: PUNG,
    ActionKind.KONG: KONG,
    ActionKind.CONCEALED_KONG: CONCEALED_KONG,
    ActionKind.ADDED_KONG: ADDED_KONG,
}

# every tile action but chows, and win and pass, by value (equal actions hash equal)
_INDEX: Final[dict[Action, int]] = {
    Action(kind, TILES[t]): base + t for kind, base in _BASE.items() for t in range(34)
}
_INDEX[Action(ActionKind.WIN)] = WIN_INDEX
_INDEX[Action(ActionKind.PASS)] = PASS_INDEX
# a chow's lowest tile -> the index of its chow with the claimed tile lowest (p = 0)
_CHOW_LOW: Final[dict[Action, int]] = {
    Action(ActionKind.CHOW, TILES[9 * s + r]): CHOW + 3 * (7 * s + r)
    for s in range(3)
    for r in range(7)
}

_ACTIONS: Final[tuple[Action, ...]] = (
    *(Action(ActionKind.DISCARD, TILES[t]) for t in range(34)),
    *(Action(ActionKind.CHOW, TILES[9 * (c // 7) + c % 7]) for c in range(21) for _ in range(3)),
    *(Action(kind, TILES[t]) for kind in list(_BASE)[1:] for t in range(34)),
    Action(ActionKind.WIN),
    Action(ActionKind.PASS),
)
assert len(_ACTIONS) == N_ACTIONS


def chow_index(low: SupportsIndex, claimed: SupportsIndex) -> int:
    """The index of the chow with lowest tile ``low`` claiming ``claimed`` (ValueError if none).
    Any integer will do (a tile, a numpy integer), here and for every index below."""
    lo = _as_index(low)
    tile = _as_index(claimed)
    if not 0 <= lo < 27 or lo % 9 > 6 or not 0 <= tile - lo <= 2:
        raise ValueError(f"no chow from {low} claims {claimed}")
    return CHOW + 3 * (7 * (lo // 9) + lo % 9) + tile - lo


def action_index(action: Action, claimed: SupportsIndex | None = None) -> int:
    """The index of ``action``; a chow needs ``claimed``, the discard it takes (ValueError if it
    is missing or does not fit the chow)."""
    index = _INDEX.get(action)
    if index is not None:
        return index
    base = _CHOW_LOW.get(action)
    if base is None:
        raise ValueError(f"{action} is not in the action space")
    assert action.tile is not None
    tile = None if claimed is None else _as_index(claimed)
    if tile is None or not 0 <= tile - action.tile <= 2:
        raise ValueError(f"{action} needs the claimed tile (a tile of the chow), not {claimed}")
    return base + tile - int(action.tile)


def index_action(index: SupportsIndex) -> Action:
    """The guobiao action of an index (a chow's position of the claimed tile is dropped: the
    engine's chow names only its lowest tile)."""
    i = _as_index(index)
    if not 0 <= i < N_ACTIONS:
        raise ValueError(f"action index {index} is not in 0-{N_ACTIONS - 1}")
    return _ACTIONS[i]


def describe(index: SupportsIndex) -> str:
    """A readable name: ``discard W5``, ``chow W3W4W5 claiming W4``, ``pung F1``, ``win``."""
    action = index_action(index)
    if action.kind is ActionKind.CHOW:
        assert action.tile is not None
        claimed = int(action.tile) + (_as_index(index) - CHOW) % 3
        return f"{action} claiming {TILES[claimed]}"
    return str(action)


class MaskBuilder:
    """Fills one seat's ``int8`` action mask from its legal actions (``Game.legal_actions``)
    and remembers, per set index, the engine's own action object.

    A seat has two masks, each kept from one fill to the next (a fill clears only what the last
    fill of the same mask set): ``to_act``, its mask while it is to discard or declare, whose
    discards are kept equal to the kinds of tile it holds by someone else (the table's board,
    :attr:`guobiao.env.observation.Board.held`), a fill writing the other actions (a win,
    kongs); and ``other``, its mask at any other moment (claims and a pass, or nothing).
    ``mask`` is the one the last fill wrote, ``acting`` tells which.

    Actions are looked up by identity first (the engine hands out the same objects every time;
    each one is kept referenced here, so its id cannot be reused), by value otherwise.
    """

    __slots__ = (
        "_by_id",
        "_indices",
        "_legal",
        "_other",
        "_other_set",
        "_to_act",
        "_to_act_set",
        "acting",
        "direct",
        "mask",
    )

    def __init__(self, to_act: memoryview, other: bytearray) -> None:
        self._by_id: dict[int, tuple[Action, int]] = {}
        self._legal: tuple[Action, ...] = ()  # the last fill's actions, when _indices is set
        # their indices, or None when they are all the engine's own objects (chows too): then
        # the mask itself tells which are set, and _ENGINE_ACTION which action each one is
        self._indices: list[int] | None = []
        self._to_act = to_act
        self._other = other
        self._to_act_set: list[int] = []  # what the last fills set, to clear (never a discard
        self._other_set: list[int] = []  # of the mask to act: those are the board's)
        self.mask: memoryview | bytearray = other
        self.acting = False
        # True when the last fill's actions are all the engine's own: a set index ``i`` of the
        # mask is then the action ``_ENGINE_ACTION[i]`` (what :meth:`action` returns)
        self.direct = False

    @property
    def actions(self) -> dict[int, Action]:
        """The set indices of the last fill -> the engine's action."""
        if self._indices is None:
            mask = self.mask
            return {i: a for i, a in enumerate(_ENGINE_ACTION) if mask[i] and a is not None}
        return dict(zip(self._indices, self._legal, strict=True))

    def action(self, index: int) -> Action | None:
        """The engine's action of a set index of the last fill, or None if it is not set."""
        if self._indices is None:
            if 0 <= index < N_ACTIONS and self.mask[index]:
                return _ENGINE_ACTION[index]
            return None
        try:
            return self._legal[self._indices.index(index)]
        except ValueError:
            return None

    def index(self, action: Action, claimed: int | None) -> int:
        if action.kind is ActionKind.CHOW:
            return action_index(action, claimed)
        hit = self._by_id.get(id(action))
        if hit is not None:
            return hit[1]
        index = action_index(action)
        if len(self._by_id) < 4096:
            self._by_id[id(action)] = (action, index)
        return index

    def fill(self, game: Game, seat: int) -> None:
        """Set the mask of ``game.legal_actions(seat)`` now: the mask to act (its discards
        kept by the board, read the same moment) or the other one."""
        legal = game.legal_actions(seat, False)  # the discards apart: any kind held, in ACT
        self._indices = None
        self.direct = True
        mask: memoryview | bytearray
        if seat == game.current and game.phase is _ACT:
            mask = self._to_act
            done = self._to_act_set
            self.acting = True
        else:
            mask = self._other
            done = self._other_set
            self.acting = False
        self.mask = mask
        while done:
            mask[done.pop()] = 0
        engine = _ENGINE_INDEX  # read directly (not a bound .get): compiled, a C dict look-up
        for action in legal:
            index = engine.get(id(action), -1)
            if index < 0:  # the engine's chow: its index needs the claimed tile too
                claimed = game.claimable_tile
                shift = _ENGINE_CHOW.get(id(action), -1)
                if shift >= 0 and claimed is not None:
                    index = shift + claimed
            if index < 0:  # not the engine's object: every legal action by value
                self._fill_by_value(game, seat, claimed)
                return
            mask[index] = 1
            done.append(index)

    def _fill_by_value(self, game: Game, seat: int, claimed: int | None) -> None:
        legal = game.legal_actions(seat)
        indices = [self.index(a, claimed) for a in legal]
        other = self._other
        other[:] = _ZEROS
        for index in indices:
            other[index] = 1
        self._other_set[:] = indices
        self.mask = other
        self.acting = False
        self._legal = legal
        self._indices = indices
        self.direct = False


_ZEROS: Final = bytes(N_ACTIONS)
_ACT: Final = Phase.ACT  # an Enum member read once (3.11: a slow look-up)

# The engine's own action objects (module constants, alive as long as guobiao.table.game is): their
# indices by identity, the mask's usual look-up. Chows are left out: their index needs the
# claimed tile too.
_ENGINE_INDEX: Final[dict[int, int]] = {
    id(action): action_index(action)
    for table in (
        _game._DISCARD,
        _game._PUNG,
        _game._KONG,
        _game._CONCEALED_KONG,
        _game._ADDED_KONG,
    )
    for action in table
}
_ENGINE_INDEX[id(_game.WIN)] = WIN_INDEX
_ENGINE_INDEX[id(_game.PASS)] = PASS_INDEX
# The engine's chows by identity: their index less the claimed tile
_CHOW_LOWS: Final = tuple(low for low in range(27) if low % 9 < 7)
_ENGINE_CHOW: Final[dict[int, int]] = {
    id(_game._CHOW[low]): chow_index(low, low) - low for low in _CHOW_LOWS
}
# index -> that engine object (a chow's three indices, one for each claimed tile: its chow)
_ENGINE_ACTION: Final[list[Action | None]] = [None] * N_ACTIONS

for _low in _CHOW_LOWS:
    for _claimed in (_low, _low + 1, _low + 2):
        _ENGINE_ACTION[chow_index(_low, _claimed)] = _game._CHOW[_low]
for _table in (
    _game._DISCARD,
    _game._PUNG,
    _game._KONG,
    _game._CONCEALED_KONG,
    _game._ADDED_KONG,
    (_game.WIN, _game.PASS),
):
    for _action in _table:
        _ENGINE_ACTION[action_index(_action)] = _action
