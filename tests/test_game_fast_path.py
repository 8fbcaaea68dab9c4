"""The engine's fast path (``Game.live_seat``, ``drawn_tile``, ``claimable_tile``,
``segments_left``) says exactly what ``Game.view`` says, and the cached state behind the speed-ups
(``to_act``, the waits skipped by the shanten bound) is what the full computation gives, for every
seat at every step of many random hands of both rule variants."""

from __future__ import annotations

import random

import pytest

from guobiao.core.melds import MeldKind
from guobiao.core.shanten import shanten, waits
from guobiao.core.tiles import TILES
from guobiao.table.game import Action, ActionKind, Game, Phase, SeatView
from guobiao.table.rules import BOTZONE, COMPETITION, TableRules

VARIANTS = [pytest.param(COMPETITION, id="competition"), pytest.param(BOTZONE, id="botzone")]


def view_from_live(game: Game, seat: int) -> SeatView:
    """A SeatView built only from the fast path's public pieces."""
    over = game.phase is Phase.OVER
    live = [game.live_seat(s) for s in range(4)]
    own = live[seat].counts
    segments = game.segments_left
    drawn = game.drawn_tile if game.current == seat else None
    claimable = game.claimable_tile
    result = game.result
    return SeatView(
        seat=seat,
        round_wind=game.round_wind,
        phase=game.phase,
        current=game.current,
        hand=tuple(TILES[t] for t in range(34) for _ in range(own[t])),
        drawn=None if drawn is None else TILES[drawn],
        melds=tuple(
            tuple(m for m in x.melds if i == seat or over or m.kind is not MeldKind.CONCEALED_KONG)
            for i, x in enumerate(live)
        ),
        discards=tuple(tuple(TILES[t] for t in x.river) for x in live),
        flowers=tuple(len(x.flowers) for x in live),
        wall_remaining=game.wall_remaining,
        last_discard=None if claimable is None else TILES[claimable],
        legal_actions=game.legal_actions(seat),
        scores=result.deltas if result is not None else (0, 0, 0, 0),
        concealed_kongs=tuple(
            sum(1 for m in x.melds if m.kind is MeldKind.CONCEALED_KONG) for x in live
        ),
        segment_remaining=None if segments is None else tuple(segments),
    )


def check(game: Game) -> None:
    for seat in range(4):
        assert view_from_live(game, seat) == game.view(seat)
        live = game.live_seat(seat)
        # the flag that spares the look for a concealed kong: set whenever four are held
        assert live.may_hold_four or 4 not in live.counts[:34], (seat, live)
        melds = len(live.melds)
        standing = sum(live.counts[:34])
        if standing == 13 - 3 * melds:  # a 13-form hand: its waits are the exact ones
            assert live.waits == frozenset(waits(live.counts[:34], melds)), (seat, live)
            # the bound that lets the engine skip the waits: never above the hand's shanten
            assert live.floor_melds == melds, (seat, live)
            assert live.floor <= shanten(bytes(live.counts[:34]), melds), (seat, live)
    acting = [s for s in range(4) if game.legal_actions(s)]
    assert sorted(game.to_act) == acting
    order = [(s - game.current) % 4 for s in game.to_act]
    assert order == sorted(order)  # turn order from the current seat (the discarder first)


def play(rules: TableRules, seed: int, *, false_wins: bool) -> Game:
    rng = random.Random(seed)
    game = Game(rules, seed, false_wins=false_wins)
    check(game)
    while not game.is_over:
        seat = game.to_act[rng.randrange(len(game.to_act))]
        legal = game.legal_actions(seat)
        wins = [a for a in legal if a.kind is ActionKind.WIN]
        if wins and rng.random() < 0.7:
            action = wins[0]
        elif false_wins and rng.random() < 0.01:
            action = Action(ActionKind.WIN)  # a value-equal copy: maybe a false win
        else:
            action = rng.choice(legal)
            if rng.random() < 0.2:  # a value-equal copy, not the engine's own object
                action = Action(action.kind, action.tile)
        game.act(seat, action)
        check(game)
    return game


@pytest.mark.parametrize("rules", VARIANTS)
def test_fast_path_is_the_view_at_every_step(rules: TableRules) -> None:
    for seed in range(150):
        game = play(rules, seed, false_wins=seed % 3 == 0)
        replayed = Game.replay(game.record())
        assert replayed.record() == game.record()
        check(replayed)


def test_live_state_after_undo_is_rebuilt() -> None:
    game = play(BOTZONE, 11, false_wins=False)
    while game.history:
        game.undo()
        check(game)


def _snapshot(game: Game) -> list[tuple[list[int], tuple[object, ...], int, tuple[int, ...]]]:
    return [
        (
            list(game.live_seat(s).counts[:34]),
            tuple(game.live_seat(s).melds),
            len(game.live_seat(s).flowers),
            tuple(game.live_seat(s).river),
        )
        for s in range(4)
    ]


@pytest.mark.parametrize("rules", VARIANTS)
def test_changes_account_for_every_change(rules: TableRules) -> None:
    """``Game.changes``: replaying its new entries on the state before an action gives the state
    after it: draws and discards move exactly their tile; every other change of a seat's
    table state (melds, flowers, a claimed discard) names the seat; nothing is left out."""
    rng = random.Random(11)
    for seed in range(80):
        game = Game(rules, seed)
        changes = game.changes
        while not game.is_over:
            before = _snapshot(game)
            start = len(changes)
            seat = game.to_act[0]
            game.act(seat, rng.choice(game.legal_actions(seat)))
            assert game.changes is changes  # the same live list all hand long
            after = _snapshot(game)
            counts = [list(b[0]) for b in before]
            rivers = [list(b[3]) for b in before]
            named: set[int] = set()
            for e in changes[start:]:
                if e > 3:  # a draw
                    counts[e & 3][(e >> 2) - 1] += 1
                elif e < 0:  # a discard
                    d = ~e
                    counts[d & 3][d >> 2] -= 1
                    rivers[d & 3].append(d >> 2)
                else:
                    named.add(e)
            for s in range(4):
                if s in named or game.is_over:  # read again (the end is not an entry)
                    continue
                assert after[s][0] == counts[s], (seed, s)
                assert list(after[s][3]) == rivers[s], (seed, s)
                assert after[s][1:3] == before[s][1:3], (seed, s)


def test_changes_start_again_when_the_hand_is_rebuilt() -> None:
    for rules in (COMPETITION, BOTZONE):
        game = Game(rules, 3)
        for _ in range(5):
            seat = game.to_act[0]
            game.act(seat, game.legal_actions(seat)[-1])
        old = game.changes
        assert old
        game.undo()
        assert game.changes is not old
        assert Game.replay(game.record()).changes == game.changes
