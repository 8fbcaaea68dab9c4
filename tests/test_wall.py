"""The wall and the deal (第六条五): the tile set, the four walls, the two dice throws, the break,
the deal in blocks of four with the dealer's jump (跳牌), replacements from the far end.

Seats are numbered by seat wind: 0 East (the dealer), 1 South, 2 West, 3 North. A wall in "live
order" lists its tiles as they are dealt and drawn: position 0 first; the far end (replacements) is
the other end, the top tile of the last stack first.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from guobiao.table.game import Game
from guobiao.table.rules import COMPETITION, TableRules
from guobiao.table.wall import (
    Deal,
    Wall,
    deal,
    deal_from,
    deal_from_build,
    second_thrower,
    shuffled_tiles,
)

NO_FLOWERS = TableRules(flowers=False)
FULL_SET = Counter({**{t: 4 for t in range(34)}, **{t: 1 for t in range(34, 42)}})
PLAYING_SET = Counter({t: 4 for t in range(34)})

# 第六条五(五)2: 「莊為東，占數為5、9點；莊下家為南，點2、6、10點；莊以門為西，點3、7、11點；莊上家為北，占4、8、12點」
SECOND_THROWER = {5: 0, 9: 0, 2: 1, 6: 1, 10: 1, 3: 2, 7: 2, 11: 2, 4: 3, 8: 3, 12: 3}


class FixedDice(random.Random):
    """A seeded shuffle with the dice chosen by the test (``deal`` throws four dice in order)."""

    def __init__(self, seed: int, dice: tuple[int, int, int, int]) -> None:
        super().__init__(seed)
        self._dice = list(dice)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6), "dice have six faces"
        return self._dice.pop(0)


def expected_live_order(tiles: list[int], dice: tuple[int, int, int, int]) -> list[int]:
    """An independent model of 第六条五(四)(五)4.

    Player ``w`` builds wall ``w`` from ``tiles[36w : 36w + 36]`` (stacks top, bottom), stack 0 at
    the right end as its builder sees it. Counting from the right end of the second thrower's wall
    to the left runs clockwise, onto the wall of the player on the thrower's left (上家, seat - 1).
    The counted stacks stay at the far end; the deal starts with the next stack.
    """
    per_wall = len(tiles) // 8
    walls = [
        [
            (tiles[2 * (w * per_wall + s)], tiles[2 * (w * per_wall + s) + 1])
            for s in range(per_wall)
        ]
        for w in range(4)
    ]
    thrower = SECOND_THROWER[dice[0] + dice[1]]
    clockwise = [stack for k in range(4) for stack in walls[(thrower - k) % 4]]
    count = sum(dice)
    stacks = clockwise[count:] + clockwise[:count]
    return [tile for stack in stacks for tile in stack]


# -- the tile set (第三条, 第六条五(四)) ----------------------------------------------------------


def test_a_set_is_144_tiles_with_flowers_and_136_without() -> None:
    rng = random.Random(1)
    with_flowers = shuffled_tiles(rng, flowers=True)
    without = shuffled_tiles(rng, flowers=False)
    assert Counter(with_flowers) == FULL_SET
    assert len(with_flowers) == 144 == COMPETITION.tile_count
    assert Counter(without) == PLAYING_SET
    assert len(without) == 136 == NO_FLOWERS.tile_count


@pytest.mark.parametrize("flowers", [True, False])
def test_the_shuffle_is_pythons_shuffle_written_out(flowers: bool) -> None:
    """``shuffled_tiles`` gives what ``random.Random(seed).shuffle`` gives the set in order (the
    deals of a seed stay as they were, on every Python version)."""
    for seed in range(300):
        tiles = [t for t in range(34) for _ in range(4)] + (list(range(34, 42)) if flowers else [])
        random.Random(seed).shuffle(tiles)
        assert shuffled_tiles(random.Random(seed), flowers) == tiles


@pytest.mark.parametrize(("rules", "stacks"), [(COMPETITION, 18), (NO_FLOWERS, 17)])
def test_four_walls_of_stacks_of_two(rules: TableRules, stacks: int) -> None:
    """第六条五(四): 「每人碼36張牌，兩張牌上下摞在一起為一墩，各自為18墩」 (17 stacks without flowers)."""
    d = deal(random.Random(3), rules)
    assert len(d.wall) == rules.tile_count == 4 * stacks * 2
    assert Counter(d.wall) == (FULL_SET if rules.flowers else PLAYING_SET)


# -- the two dice throws (第六条五(五)2-4) -----------------------------------------------------


@pytest.mark.parametrize(("first_throw", "seat"), sorted(SECOND_THROWER.items()))
def test_the_first_throw_picks_the_second_thrower(first_throw: int, seat: int) -> None:
    """第六条五(五)2: counting counter-clockwise from the dealer as 1."""
    assert second_thrower(first_throw) == seat
    d = Deal((first_throw - first_throw // 2, first_throw // 2, 1, 1), (), ((),) * 4, 0)
    assert d.second_thrower == seat


DICE = [
    (d1, d2, d3, d4)
    for d1 in range(1, 7)
    for d2 in range(d1, 7)
    for d3, d4 in ((1, 1), (3, 4), (6, 6))
]


@pytest.mark.parametrize("rules", [COMPETITION, NO_FLOWERS], ids=["144", "136"])
@pytest.mark.parametrize("dice", DICE)
def test_the_break_is_counted_from_the_right_end_of_the_second_throwers_wall(
    dice: tuple[int, int, int, int], rules: TableRules
) -> None:
    """第六条五(五)3-4: 「兩次擲骰的點數相加之和作為開牌依據」, 「在第二次擲骰者所碼的牌墻，從右向左
    依次數到與點數相同的那一墩，由莊家開始抓下兩墩牌」; sums above the wall's length run on, clockwise,
    onto the next wall."""
    seed = sum(dice) * 1000 + dice[0] * 10 + dice[1]
    tiles = shuffled_tiles(random.Random(seed), rules.flowers)
    d = deal(FixedDice(seed, dice), rules)
    assert d.dice == dice
    assert d.break_count == sum(dice)
    assert d.second_thrower == SECOND_THROWER[dice[0] + dice[1]]
    assert list(d.wall) == expected_live_order(tiles, dice)


def stack_of(tiles: list[int], wall: int, stack: int, per_wall: int = 18) -> tuple[int, int]:
    at = 2 * (wall * per_wall + stack)
    return tiles[at], tiles[at + 1]


@pytest.mark.parametrize(
    ("dice", "first_wall", "first_stack", "last_wall", "last_stack"),
    [
        # 2+3 = 5: East throws again; 5+1+1 = 7 stacks of East's wall stay, the deal takes its 8th.
        ((2, 3, 1, 1), 0, 7, 0, 6),
        # 1+1 = 2: South; 2+5+6 = 13: South's 14th stack.
        ((1, 1, 5, 6), 1, 13, 1, 12),
        # 3+4 = 7: West; 7+6+5 = 18: all of West's wall is counted, the deal starts on South's.
        ((3, 4, 6, 5), 1, 0, 2, 17),
        # 6+6 = 12: North; 12+6+6 = 24: the count runs 6 stacks onto West's wall (North's 上家).
        ((6, 6, 6, 6), 2, 6, 2, 5),
        # 5+6 = 11: West; 11+5+4 = 20: 2 stacks onto South's wall.
        ((5, 6, 5, 4), 1, 2, 1, 1),
    ],
)
def test_break_examples(
    dice: tuple[int, int, int, int],
    first_wall: int,
    first_stack: int,
    last_wall: int,
    last_stack: int,
) -> None:
    """Worked examples of 第六条五(五)4: the first stack dealt and the last stack (the far end)."""
    tiles = shuffled_tiles(random.Random(99), True)
    d = deal(FixedDice(99, dice), COMPETITION)
    assert d.wall[:2] == stack_of(tiles, first_wall, first_stack)
    assert d.wall[-2:] == stack_of(tiles, last_wall, last_stack)


# -- the deal (第六条五(五)4) ---------------------------------------------------------------------


@pytest.mark.parametrize("n", [144, 136])
def test_the_deal_takes_blocks_of_four_then_the_dealers_jump(n: int) -> None:
    """「由莊家開始抓下兩墩牌，再按順時針方向順序抓牌，直到每個人抓3次共12張牌，再由莊家跳牌(隔一墩)
    抓上層兩牌，其他人依次各抓一張。莊家共有14張牌，其他人各有13張牌」.

    Positions are the live order: stacks a, b, c follow the twelve blocks (48-53); the dealer jumps
    to a-top (48) and c-top (52), South takes a-bottom (49), West b-top (50), North b-bottom (51);
    c-bottom (53) is the first tile drawn in play.
    """
    d = deal_from(list(range(n)), (1, 2, 3, 4))

    def blocks(seat: int) -> list[int]:
        return [16 * r + 4 * seat + i for r in range(3) for i in range(4)]

    assert list(d.hands[0]) == [*blocks(0), 48, 52]
    assert list(d.hands[1]) == [*blocks(1), 49]
    assert list(d.hands[2]) == [*blocks(2), 50]
    assert list(d.hands[3]) == [*blocks(3), 51]
    assert [len(h) for h in d.hands] == [14, 13, 13, 13]
    assert d.front == 53
    assert sorted(t for h in d.hands for t in h) == list(range(53))


def test_a_dealt_hand_and_the_wall_hold_the_whole_set() -> None:
    d = deal(random.Random(11), COMPETITION)
    dealt = Counter(t for h in d.hands for t in h)
    assert dealt == Counter(d.wall[: d.front])
    assert dealt + Counter(d.wall[d.front :]) == FULL_SET


# -- drawing: the live end and the far end (第六条五(六), 第七条七) -----------------------------------


@pytest.mark.parametrize("n", [144, 136])
def test_play_draws_from_the_live_end_replacements_from_the_far_end_top_first(n: int) -> None:
    """第七条七 「報開槓後應即在牌墻最後補進一張牌」: the far end, the top tile of the last stack first."""
    wall = Wall(list(range(n)), 53)
    assert [wall.draw() for _ in range(3)] == [53, 54, 55]
    assert [wall.draw_replacement() for _ in range(5)] == [n - 2, n - 1, n - 4, n - 3, n - 6]
    assert wall.draw() == 56
    assert wall.remaining == n - 53 - 9


@pytest.mark.parametrize("n", [144, 136])
def test_the_wall_runs_out_after_the_last_tile(n: int) -> None:
    """All tiles are used: 荒牌 comes after the last tile (第五条三十)."""
    wall = Wall(list(range(n)), 53)
    drawn = [wall.draw() for _ in range(n - 53)]
    assert drawn == list(range(53, n))
    assert wall.remaining == 0
    with pytest.raises(IndexError):
        wall.draw()
    with pytest.raises(IndexError):
        wall.draw_replacement()
    wall = Wall(list(range(n)), 53)
    replaced = [wall.draw_replacement() for _ in range(n - 53)]
    assert sorted(replaced) == list(range(53, n))
    with pytest.raises(IndexError):
        wall.draw_replacement()


def test_the_far_end_skips_the_top_tile_the_live_end_took() -> None:
    """The ends meet inside a stack whose top tile the live end drew: the replacement is its bottom."""
    wall = Wall(list(range(10)), 0)
    assert [wall.draw() for _ in range(9)] == list(range(9))
    assert wall.draw_replacement() == 9
    assert wall.remaining == 0


def test_the_live_end_skips_the_top_tile_the_far_end_took() -> None:
    """The ends meet inside a stack whose top tile was a replacement: the live end gets its bottom."""
    wall = Wall(list(range(10)), 0)
    assert [wall.draw() for _ in range(8)] == list(range(8))
    assert wall.draw_replacement() == 8  # the top of the last stack
    assert wall.draw() == 9  # the engine returns 8 again


@settings(max_examples=300, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(
    flowers=st.booleans(),
    front=st.integers(0, 60),
    ends=st.lists(st.booleans(), min_size=144, max_size=144),
)
def test_the_wall_never_hands_out_a_tile_twice(flowers: bool, front: int, ends: list[bool]) -> None:
    """Any mix of live draws and replacements hands out every remaining position exactly once."""
    n = 144 if flowers else 136
    wall = Wall(list(range(n)), front)
    out = []
    for replacement in ends[: n - front]:
        out.append(wall.draw_replacement() if replacement else wall.draw())
    assert sorted(out) == list(range(front, n))
    assert wall.remaining == 0
    with pytest.raises(IndexError):
        wall.draw()


@settings(max_examples=200, deadline=None)
@given(
    front=st.integers(0, 60),
    replacements=st.integers(0, 40),
)
def test_replacements_taken_before_the_ends_meet_are_distinct(
    front: int, replacements: int
) -> None:
    """Replacements first, then live draws up to the far end's stacks: no tile twice."""
    n = 144
    wall = Wall(list(range(n)), front)
    out = [wall.draw_replacement() for _ in range(replacements)]
    room = n - front - replacements - (replacements % 2)  # stop short of a half-taken stack
    out += [wall.draw() for _ in range(room)]
    assert len(set(out)) == len(out)
    assert wall.remaining == replacements % 2


# -- seeded deals (replays) ----------------------------------------------------------------------


def test_a_seeded_deal_is_reproducible() -> None:
    for seed in range(20):
        assert deal(random.Random(seed), COMPETITION) == deal(random.Random(seed), COMPETITION)
        assert Game(seed=seed).deal == Game(seed=seed).deal


def test_seeded_deals_differ_across_seeds() -> None:
    walls = {deal(random.Random(seed), COMPETITION).wall for seed in range(200)}
    assert len(walls) == 200
    dice = {deal(random.Random(seed), COMPETITION).dice for seed in range(200)}
    assert len(dice) > 100


def test_deal_from_rebuilds_a_deal_from_its_wall() -> None:
    for seed in range(10):
        d = deal(random.Random(seed), COMPETITION)
        assert d.build is not None
        assert deal_from(list(d.wall), d.dice) == replace(d, build=None)
        assert deal_from_build(list(d.build), d.dice) == d  # the walls as built and the dice


def test_other_dice_break_the_same_walls_elsewhere() -> None:
    d = deal(random.Random(3), COMPETITION)
    assert d.build is not None
    other = (d.dice[0], d.dice[1], d.dice[2], d.dice[3] % 6 + 1)
    assert deal_from_build(list(d.build), other).wall != d.wall


def test_dice_are_two_throws_of_two_dice() -> None:
    seen: Counter[int] = Counter()
    for seed in range(500):
        d = deal(random.Random(seed), COMPETITION)
        assert all(1 <= x <= 6 for x in d.dice)
        seen[d.second_thrower] += 1
    assert set(seen) == {0, 1, 2, 3}
