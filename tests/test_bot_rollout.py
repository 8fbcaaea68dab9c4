"""Rollouts (guobiao.bots.rollout): a determinization deals exactly the tiles the seat has not
seen into exactly the places it cannot see; a rollout pays as the settlement does (第十条: the
points sum to zero, a win is worth the reference calculator's fan), ends on an empty wall, and is
a pure function of its generator."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from MahjongGB import MahjongFanCalculator

from guobiao.bots import FanBot
from guobiao.bots.rollout import Determinization, Seat, rollout, sample, standing_size
from guobiao.bots.strong import StrongBot
from guobiao.bots.view import hand_counts, unseen_counts
from guobiao.botzone.protocol import BOTZONE_RULES
from guobiao.core.context import Wind
from guobiao.core.tiles import TILES
from guobiao.table.game import Game, Phase, SeatView
from guobiao.table.rules import BOTZONE
from guobiao.table.wall import deal_botzone, shuffled_tiles
from test_bot_strong import _same_view_other_tiles, _strong_decisions


def _views(seed: int, botzone: bool = True) -> Iterator[tuple[Game, SeatView]]:
    """Every view of a seat that must act in a hand of four fan bots, with its game."""
    rng = random.Random(seed)
    if botzone:
        wall = shuffled_tiles(rng, flowers=False)
        game = Game(BOTZONE, seed, deal_=deal_botzone(wall), round_wind=Wind(rng.randrange(4)))
        bots = [FanBot(seed * 4 + s, rules=BOTZONE_RULES) for s in range(4)]
    else:
        game = Game(seed=seed)
        bots = [FanBot(seed * 4 + s) for s in range(4)]
    while not game.is_over:
        s = game.to_act[0]
        view = game.view(s)
        yield game, view
        game.act(s, bots[s].choose(view))


def _tiles(names: str) -> list[int]:
    return [int(TILES[i]) for name in names.split() for i in range(34) if str(TILES[i]) == name]


def _counts(names: str) -> tuple[int, ...]:
    counts = [0] * 34
    for t in _tiles(names):
        counts[t] += 1
    return tuple(counts)


def _reference_points(hand: str, win: str, self_drawn: bool) -> int:
    """Fan points of a concealed hand by PyMahjongGB (the mil profile), East seat, East round."""
    fans = MahjongFanCalculator(
        (), tuple(hand.split()), win, 0, self_drawn, False, False, False, 0, 0, verbose=True
    )
    return sum(points * count for points, count, _, _ in fans)


# -- determinizations --------------------------------------------------------------------------


def _check_consistent(view: SeatView, det: Determinization) -> None:
    total = hand_counts(view)
    for t, c in enumerate(view.visible_counts()):
        total[t] += c
    for s in range(4):
        if s == view.seat:
            assert det.hands[s] == tuple(hand_counts(view))
            assert det.kongs[s] == ()
            continue
        assert sum(det.hands[s]) == standing_size(view, s)
        assert len(det.kongs[s]) == view.concealed_kongs[s]
        for t, c in enumerate(det.hands[s]):
            total[t] += c
        for kind in det.kongs[s]:
            total[kind] += 4
    for wall in det.walls:
        for t in wall:
            total[t] += 1
    assert max(total) <= 4


def test_a_botzone_determinization_deals_every_unseen_tile_where_the_seat_cannot_see() -> None:
    checked = 0
    for seed in range(6):
        for game, view in _views(seed):
            det = sample(view, unseen_counts(view, hand_counts(view)), random.Random(checked))
            _check_consistent(view, det)
            # the Botzone wall is known in size, segment by segment: every tile is placed
            assert view.segment_remaining is not None
            assert [len(w) for w in det.walls] == list(view.segment_remaining)
            assert list(game.segments_left or ()) == list(view.segment_remaining)
            placed = [0] * 34
            for s in range(4):
                for t in range(34):
                    placed[t] += det.hands[s][t] if s != view.seat else 0
                for kind in det.kongs[s]:
                    placed[kind] += 4
            for wall in det.walls:
                for t in wall:
                    placed[t] += 1
            assert placed == unseen_counts(view, hand_counts(view))
            checked += 1
    assert checked > 300


def test_a_determinization_on_the_competition_wall_is_consistent() -> None:
    for seed in range(3):
        for number, (_, view) in enumerate(_views(seed, botzone=False)):
            det = sample(view, unseen_counts(view, hand_counts(view)), random.Random(number))
            _check_consistent(view, det)
            assert len(det.walls) == 1 and len(det.walls[0]) <= view.wall_remaining


def test_sampling_is_a_function_of_the_generator() -> None:
    _, view = next(v for i, v in enumerate(_views(3)) if i == 40)
    unseen = unseen_counts(view, hand_counts(view))
    first = sample(view, unseen, random.Random(9))
    assert first == sample(view, unseen, random.Random(9))
    assert first != sample(view, unseen, random.Random(10))


# -- rollouts ----------------------------------------------------------------------------------

_READY = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 B5 B6"  # waits B4 and B7
_CALM = (0.0,) * 34


def _seat(risk: tuple[float, ...] = _CALM) -> Seat:
    return Seat(0, 0, "mil", 8, (), risk, 12, hazard=0.0)  # the others never win by themselves


def _table(walls: list[str], hands: list[str]) -> Determinization:
    return Determinization(
        tuple(_counts(h) for h in hands), ((),) * 4, tuple(tuple(_tiles(w)) for w in walls)
    )


def test_a_self_drawn_win_pays_three_times_fan_plus_eight() -> None:
    others = "F1 F1 F2 F2 F3 F3 F4 F4 J1 J1 J2 J2 J3"
    det = _table(["B4", "F1", "F2", "F3"], [_READY, others, others, others])
    points = rollout(det, _seat(), _counts(_READY), (), (0, 0, 0, 0), [4] * 34, random.Random(1))
    fan = _reference_points(_READY, "B4", True)
    assert fan >= 8
    assert points == (3 * (fan + 8), -(fan + 8), -(fan + 8), -(fan + 8))


def test_a_win_on_a_discard_is_paid_by_the_discarder_plus_eight_from_each_other() -> None:
    det = _table(["T9", "B7", "F2", "F3"], [_READY, "B7", "J1", "J2"])
    points = rollout(det, _seat(), _counts(_READY), (), (0, 0, 0, 0), [4] * 34, random.Random(1))
    fan = _reference_points(_READY, "B7", False)
    assert points == (fan + 24, -(fan + 8), -8, -8)


def test_a_deal_in_pays_the_others_fan_plus_eight() -> None:
    det = _table(["J3 J3", "F1 F1", "F2 F2", "F3 F3"], [_READY, "J1", "J1", "J1"])
    points = rollout(
        det, _seat((1.0,) * 34), _counts(_READY), (), (0, 0, 0, 0), [4] * 34, random.Random(1)
    )
    assert points[0] == -(12 + 8)  # fed to each other seat alike: 1/3 (12 + 24) - 2/3 8
    assert points[1:] == pytest.approx([(36 - 16) / 3] * 3)


def test_an_empty_wall_is_a_drawn_hand() -> None:
    det = _table(["J3 J3", "F1 F1", "F2 F2", ""], [_READY, "J1", "J1", "J1"])
    points = rollout(det, _seat(), _counts(_READY), (), (0, 0, 0, 0), [4] * 34, random.Random(1))
    assert points == (0, 0, 0, 0)  # North had no tile to draw


def test_rollouts_from_real_views_settle_to_zero_and_repeat_for_a_seed() -> None:
    outcomes: set[float] = set()
    for seed in range(3):
        for number, (_, view) in enumerate(_views(seed)):
            if view.phase is not Phase.ACT or number % 3:
                continue
            counts = hand_counts(view)
            unseen = unseen_counts(view, counts)
            counts[max(range(34), key=lambda t: (counts[t] > 0, -t))] -= 1
            det = sample(view, unseen, random.Random(number))
            player = Seat(view.seat, int(view.round_wind), "botzone", 8, (), (0.01,) * 34, 12)
            turns = [float(len(d)) for d in view.discards]
            args = (det, player, counts, view.melds[view.seat], turns, unseen)
            points = rollout(*args, random.Random(number))
            assert points == rollout(*args, random.Random(number))
            assert sum(points) == pytest.approx(0, abs=1e-9)
            outcomes.add(round(points[view.seat], 6))
    assert len(outcomes) > 10
    assert min(outcomes) < 0 < max(outcomes)  # wins of many sizes, and losses


# -- in the strong bot -------------------------------------------------------------------------


def test_the_rollouts_decide_some_discards_of_the_strong_bot() -> None:
    differ = compared = 0
    for seed in range(2):
        for number, (_, view) in enumerate(_views(seed)):
            if view.phase is not Phase.ACT or number % 2:
                continue
            searched = StrongBot(seed, rules=BOTZONE_RULES, rollouts=8, reach=3).choose(view)
            analytic = StrongBot(seed, rules=BOTZONE_RULES, rollouts=0).choose(view)
            assert searched in view.legal_actions
            differ += searched != analytic
            compared += 1
    assert compared > 20
    assert 0 < differ < compared


def test_the_rollouts_read_only_the_view() -> None:
    """The same decisions with rollouts when every tile the seat cannot see is dealt anew (the
    determinizations are drawn from the view, never from the table)."""
    rng = random.Random(7)
    compared = 0
    for seed, seat in ((1, 0), (2, 3)):
        for number, (game, view) in enumerate(_strong_decisions(seed, seat)):
            if number % 3 or view.phase is not Phase.ACT:
                continue
            other = _same_view_other_tiles(game, seat, rng)
            assert other.view(seat) == view
            first = StrongBot(seed, rules=BOTZONE_RULES, rollouts=8, reach=3).choose(view)
            again = StrongBot(seed, rules=BOTZONE_RULES, rollouts=8, reach=3)
            assert first == again.choose(other.view(seat)), (seed, seat, number)
            compared += 1
    assert compared >= 8


def test_strong_bots_with_rollouts_finish_hands_on_both_walls() -> None:
    for seed in range(2):  # the competition wall (flowers, one wall shared by the four seats)
        bots = [StrongBot(seed * 4 + s, rollouts=4, reach=3) for s in range(4)]
        game = Game(seed=seed)
        while not game.is_over:
            s = game.to_act[0]
            view = game.view(s)
            action = bots[s].choose(view)
            assert action in view.legal_actions
            game.act(s, action)
        assert game.result is not None
