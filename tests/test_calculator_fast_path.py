"""The fan calculator's fast paths against the slow ones they replace.

The calculator reads each suit of a hand from a table made ahead of time
(``scoring/_suit_table.py``; ``calculator._Suit`` works a suit out the slow way), and decides from
what it holds which special shapes to try, whether four of a tile or five are held, the
tile classes, the decompositions and the unique wait (独听). Each of those is checked here against
the plain computation from the hand's counts: the shapes module's ``decompose``, the waits
module's ``is_unique_wait_of_winning``, and every special shape tried with no filter at all.
"""

from __future__ import annotations

import pickle
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

import handgen
from guobiao.cli.jsonio import hand_from_json
from guobiao.core.context import WinContext
from guobiao.core.hand import Hand
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.shapes import KNITTED_STRAIGHTS, THIRTEEN_ORPHANS, decompose
from guobiao.core.tiles import TILES
from guobiao.core.waits import is_unique_wait_of_winning
from guobiao.scoring import calculator as calc
from guobiao.scoring.fans import Fan
from guobiao.scoring.result import CountedFan, FanResult, InvalidHandError, winning_result


def _read(hand: Hand, context: WinContext) -> calc._Ctx:
    return calc._Ctx(hand, context, True)


def generated(n: int, seed: int) -> list[tuple[Hand, WinContext]]:
    """Hands of every family, the special shapes' families oversampled."""
    return [hand_from_json(obj) for obj in handgen.generate_with_specials(n, n // 10, seed)]


# Random hands, most of them no winning shape at all, drawn from pools that make the special
# shapes likely: knitted tiles and honours, terminals and honours, one suit, few kinds.
POOLS = (
    tuple(range(34)),
    (*KNITTED_STRAIGHTS[0], *range(27, 34)),
    (*KNITTED_STRAIGHTS[3], *range(27, 34)),
    THIRTEEN_ORPHANS,
    tuple(range(9)),
    tuple(range(18, 27)),
    (0, 3, 6, 10, 13, 16, 20, 23, 26, 5, 14, 30),
    (1, 2, 11, 12, 21, 22, 27, 31),
)


def random_hand(seed: int) -> tuple[Hand, WinContext]:
    """14 standing tiles, or 11 beside one declared set, from one of the pools (never more than
    four of a tile)."""
    rng = random.Random(seed)
    pool = rng.choice(POOLS)
    meld: Meld | None = None
    counts = [0] * 34
    if rng.random() < 0.4:
        kind = rng.choice(list(MeldKind))
        if kind is MeldKind.CHOW:
            low = rng.choice([s * 9 + r for s in range(3) for r in range(7)])
            for t in (low, low + 1, low + 2):
                counts[t] += 1
        else:
            low = rng.randrange(34)
            counts[low] += 3 if kind is MeldKind.PUNG else 4
        meld = Meld(kind, TILES[low], None if kind is MeldKind.CONCEALED_KONG else 1)
    tiles: list[int] = []
    size = 14 if meld is None else 11
    while len(tiles) < size:
        t = rng.choice(pool)
        if counts[t] < 4:
            counts[t] += 1
            tiles.append(t)
    win = tiles.pop(rng.randrange(size))
    hand = Hand(tuple(TILES[t] for t in tiles), (meld,) if meld else ())
    return hand, WinContext(TILES[win], self_drawn=rng.random() < 0.5)


def slow_special(ctx: calc._Ctx, fixed: tuple[Meld, ...]) -> dict[int, int] | None:
    """Every special shape tried in the calculator's order, each by its own full check alone."""
    if len(fixed) > 1:
        return None
    standing = ctx.standing
    held = [k for k in range(34) if standing[k]]
    if not fixed:
        if all(n % 2 == 0 for n in standing):
            return calc._seven_pairs_fans(ctx, None)
        found = calc._honors_and_knitted_fans(held, ctx)
        if found is None:
            found = calc._thirteen_orphans_fans(held, ctx)
        if found is not None:
            return found
    knitted = calc._knitted_straight_fans(fixed, standing, ctx.total, ctx, None, False)
    if knitted is not None:
        return knitted[0]
    return calc._nine_gates_fans(standing, ctx) if not fixed else None


def fast_special(ctx: calc._Ctx, fixed: tuple[Meld, ...]) -> dict[int, int] | None:
    """The calculator's own path: the gate in ``calculate``, then ``_special_shape``."""
    if calc._special_counts(ctx, fixed):
        found = calc._special_shape(ctx, fixed, None, False)
        return None if found is None else found[0]
    return None


def check_hand(hand: Hand, context: WinContext) -> None:
    ctx = _read(hand, context)
    standing, total = ctx.standing, ctx.total
    # The counts read per suit are the hand's counts.
    assert ctx.kinds == 34 - standing.count(0)
    assert ctx.fours == total.count(4)
    bits = 0
    for k in range(34):
        if total[k]:
            bits |= calc._TILE_CLASS[k]
    assert ctx.bits == bits
    suits = ctx.suits
    assert sum(s.odd for s in suits) == standing.count(1) + standing.count(3)
    # The special shapes: the cheap filter never skips one the full checks find.
    assert fast_special(ctx, hand.melds) == slow_special(ctx, hand.melds), hand
    # The decompositions joined from the suits are shapes.decompose's.
    fast = sorted(calc._encoded(split) for split in calc._decompositions(suits))
    assert fast == sorted(decompose(standing)), hand
    # The unique wait read from the winning suit is the waits module's.
    if fast:
        assert calc._unique_wait(ctx) == is_unique_wait_of_winning(standing, ctx.win), hand


def test_generated_hands_take_the_fast_paths_exactly() -> None:
    for hand, context in generated(3000, 20260):
        check_hand(hand, context)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_hands_take_the_fast_paths_exactly(seed: int) -> None:
    # Hypothesis picks the seeds; each seed, 20 hands (most of them no winning shape at all).
    for i in range(20):
        check_hand(*random_hand(seed * 20 + i))


def test_the_suit_counts_are_the_pattern_s() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        base = rng.choice((0, 9, 18, 27))
        size = 9 if base < 27 else 7
        pattern = tuple(rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(size))
        suit = calc._Suit(pattern, base)
        held = [r for r in range(size) if pattern[r]]
        assert suit.most == max(pattern)
        assert suit.fours == pattern.count(4)
        assert suit.kinds == len(held)
        assert suit.odd == sum(1 for n in pattern if n % 2)
        bits = 0
        for r in held:
            bits |= calc._TILE_CLASS[base + r]
        assert suit.bits == bits
        knit = [r for r in range(3) if base < 27 and all(pattern[r + 3 * i] for i in range(3))]
        assert suit.knit == sum(1 << r for r in knit)


def test_five_of_a_tile_is_refused_whatever_holds_it() -> None:
    cases = [
        ("W1W1W1W1W1W2W3W4W5W6W7W8W9", None, TILES[0]),  # five standing
        ("W1W1W2W3W4W5W6W7W8W9", Meld(MeldKind.PUNG, TILES[0], 1), TILES[1]),  # pung + 2
        ("W1W1W1W5W6W7B1B1B1T1", Meld(MeldKind.CHOW, TILES[0], 3), TILES[0]),  # chow + 3 + win
    ]
    for text, meld, win in cases:
        concealed = tuple(TILES[t] for t in Hand.parse(text).concealed)
        hand = Hand(concealed, (meld,) if meld else ())
        with pytest.raises(InvalidHandError, match="more than four"):
            calc.calculate(hand, WinContext(win))


def test_four_of_each_tile_is_taken_and_five_refused() -> None:
    # The count check reads every rank of every suit at once (count + 3 reaching 8): each tile,
    # held four or five times between a declared meld, the standing tiles and the winning tile.
    for k in range(34):
        others = [t for t in range(34) if t != k][:4]
        filler = others[:3] * 3 + others[3:]  # ten tiles, none held more than three times
        for kind, standing, win_k, refused in (
            (MeldKind.PUNG, 1, False, False),  # 3 + 1
            (MeldKind.PUNG, 2, False, True),  # 3 + 2
            (MeldKind.PUNG, 1, True, True),  # 3 + 1 + the winning tile
            (MeldKind.CONCEALED_KONG, 1, False, True),  # 4 + 1
            (MeldKind.KONG, 0, True, True),  # 4 + the winning tile
            (MeldKind.KONG, 0, False, False),  # 4
        ):
            concealed = tuple(TILES[t] for t in [k] * standing + filler[: 10 - standing])
            win = TILES[k] if win_k else TILES[others[3]]
            offered = None if kind is MeldKind.CONCEALED_KONG else 1
            hand = Hand(concealed, (Meld(kind, TILES[k], offered),))
            if refused:
                with pytest.raises(InvalidHandError, match="more than four"):
                    calc.calculate(hand, WinContext(win))
            else:
                calc.calculate(hand, WinContext(win))  # no error: four is a real hand's most


def test_winning_result_is_the_dataclass_s() -> None:
    fans = (CountedFan(Fan.SEVEN_PAIRS), CountedFan(Fan.TILE_HOG, 2))
    fast, slow = winning_result(fans), FanResult(fans)
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
    assert type(fast) is FanResult and fast.total == slow.total
    assert pickle.loads(pickle.dumps(fast)) == slow
    with pytest.raises(AttributeError):
        fast.is_winning = False  # type: ignore[misc]


def test_implications_apply_in_fan_number_order() -> None:
    # _apply_implied takes the implying fans a table holds in fan-number order: _IMPLIED's own.
    implying = [fan for fan, _ in calc._IMPLIED]
    assert implying == sorted(set(implying))


def test_counts_of_reads_two_ranks_a_look_up() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        keys = (
            rng.randrange(1 << 45),
            rng.randrange(1 << 45),
            rng.randrange(1 << 45),
            rng.randrange(1 << 35),
        )
        assert calc._counts_of(keys) == [keys[t // 9] >> 5 * (t % 9) & 31 for t in range(34)]
