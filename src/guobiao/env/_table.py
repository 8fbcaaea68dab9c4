"""What the environments share: one hand of guobiao, the four seats' observation buffers and
masks, and the step from an action index to the engine.

Compiled by mypyc in the compiled build (hatch_build.py), with :mod:`guobiao.env.spaces` and
:mod:`guobiao.env.observation`: a compiled function checks its arguments' declared types, so an
action index is any ``SupportsInt`` (a numpy integer from a policy) and a seed anything
``random.Random`` takes. The Gymnasium spaces live in :mod:`guobiao.env._gym_spaces`."""

from __future__ import annotations

import random
from typing import Any, Final, SupportsInt

import numpy as np
import numpy.typing as npt

from guobiao.env.observation import GATHER, Board
from guobiao.env.spaces import _ENGINE_ACTION, N_ACTIONS, MaskBuilder
from guobiao.table.game import Action, Game, IllegalActionError
from guobiao.table.rules import COMPETITION, TableRules
from guobiao.table.wall import Deal

__all__ = ["AGENTS", "ILLEGAL_ACTIONS", "Table"]

AGENTS: Final = ("player_0", "player_1", "player_2", "player_3")
"""The agents by seat: ``player_0`` is East (the dealer), then South, West, North."""

ILLEGAL_ACTIONS: Final = ("raise", "forfeit")
"""What an action outside the mask does: raise :class:`~guobiao.table.game.IllegalActionError`, or end
the hand as a forfeit by that seat (``Game.forfeit(seat, "illegal action")``: it pays
``rules.forfeit_payment`` to each other seat, as the Botzone judge rules)."""

Observation = dict[str, npt.NDArray[Any]]


class Table:
    """One hand being played, with per-seat buffers filled in place."""

    def __init__(self, rules: TableRules = COMPETITION, illegal_action: str = "raise") -> None:
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(
                f"illegal_action must be one of {ILLEGAL_ACTIONS}, not {illegal_action!r}"
            )
        self.rules = rules
        self.illegal_action = illegal_action
        self.game = Game(rules, 0)
        self.board = Board()
        # each seat's two masks (spaces.MaskBuilder): its mask to act, within the board's
        # ``held`` (its discards the kinds the board keeps), and its mask at other moments
        held = memoryview(self.board.held)
        to_act = np.frombuffer(self.board.held, dtype=np.int8)
        self.masks = [bytearray(N_ACTIONS) for _ in range(4)]
        self.mask_arrays = [
            (np.frombuffer(m, dtype=np.int8), to_act[N_ACTIONS * s : N_ACTIONS * (s + 1)])
            for s, m in enumerate(self.masks)
        ]  # by seat: the other mask's array, the mask to act's (as builder.acting indexes)
        self.builders = [
            MaskBuilder(held[N_ACTIONS * s : N_ACTIONS * (s + 1)], m)
            for s, m in enumerate(self.masks)
        ]
        self.filled = [-1, -1, -1, -1]  # the state version each seat's buffers were filled at
        self.version = 0
        self.seeds = random.Random()

    def __reduce__(self) -> tuple[Any, ...]:
        # a copy starts afresh from the game (its board and masks share buffers, which are
        # read again: no pickle keeps a view of another object's memory)
        return (_restored, (self.rules, self.illegal_action, self.game, self.seeds, self.version))

    def seed(self, seed: int | float | str | bytes | bytearray | None) -> None:
        """Reseed the generator of hand seeds (``None``: from the operating system)."""
        self.seeds = random.Random(seed)

    def new_hand(self, seed: int | None = None, deal_: Deal | None = None) -> int:
        """Deal a new hand: with ``seed``, or the next seed of the generator; or play the given
        deal (``deal_``, e.g. ``wall.deal_botzone(tiles)``). Returns the seed."""
        if seed is None:
            seed = self.seeds.randrange(2**63)
        self.game = Game(self.rules, seed, deal_=deal_)
        self.board.reset()
        self.version += 1
        return seed

    def refresh(self, seat: int) -> None:
        """Fill ``seat``'s mask, unless it is current (the legal actions as indices)."""
        version = self.version
        if self.filled[seat] == version:
            return
        board = self.board  # first the board: its kinds held are the discards of a mask
        if board.state != version:
            board.sync(self.game)
            board.state = version
        self.builders[seat].fill(self.game, seat)
        self.filled[seat] = version

    def mask_array(self, seat: int) -> npt.NDArray[np.int8]:
        """``seat``'s mask as last filled (:meth:`refresh`): the array itself, not a copy."""
        return self.mask_arrays[seat][self.builders[seat].acting]

    def observation(self, seat: int) -> npt.NDArray[np.int16]:
        """``seat``'s observation now, a new array: the same as from ``game.view(seat)``
        (``Board.observe``: from the engine's live public state, without building the view)."""
        return self.board.observe(self.game, seat, self.version)

    def observe(self, seat: int) -> Observation:
        """A copy of ``seat``'s observation and mask now."""
        game = self.game
        version = self.version
        board = self.board  # board.observe(game, seat, version), inline
        if board.state != version:
            board.sync(game)
            board.state = version
        builder = self.builders[seat]
        if self.filled[seat] != version:  # refresh(seat), inline (after the board's sync)
            builder.fill(game, seat)
            self.filled[seat] = version
        return {
            "observation": board.array.take(GATHER[seat << 2 | game.current], None, None, "wrap"),
            "action_mask": self.mask_arrays[seat][builder.acting].copy(),
        }

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        self.refresh(seat)
        return self.mask_array(seat).copy()

    def play(self, seat: int, index: SupportsInt) -> int:
        """Apply ``seat``'s action by index (an index outside its mask: see ``illegal_action``).
        Returns the seat to act next (the first of ``game.to_act``), -1 once the hand is over."""
        if self.filled[seat] != self.version:
            self.refresh(seat)
        game = self.game
        i = index if type(index) is int else int(index)
        builder = self.builders[seat]
        # builder.action(i), inline for the usual fill: the mask tells the engine's action
        if builder.direct and 0 <= i < N_ACTIONS and builder.mask[i]:
            action: Action | None = _ENGINE_ACTION[i]
        else:
            action = builder.action(i)
        if action is None:
            if self.illegal_action == "raise" or seat not in game.to_act:
                legal = sorted(self.builders[seat].actions)
                raise IllegalActionError(
                    f"action {index} is not legal for seat {seat} now (legal: {legal})"
                )
            game.forfeit(seat, "illegal action")
        else:  # one of the seat's legal actions (its mask's): not checked again
            game.act_legal(seat, action)
        self.version += 1
        to_act = game.to_act
        return to_act[0] if to_act else -1

    def rewards(self) -> tuple[int, int, int, int]:
        result = self.game.result
        return result.deltas if result is not None else (0, 0, 0, 0)


def _restored(
    rules: TableRules, illegal_action: str, game: Game, seeds: random.Random, version: int
) -> Table:
    """The table of :meth:`Table.__reduce__`: a new one playing on ``game``."""
    table = Table(rules, illegal_action)
    table.game = game
    table.seeds = seeds
    table.version = version
    return table
