"""The hand read as one int (issue 14, third cut): what the calculator reads from it is the hand's.

The standing tiles are counted in one int, five bits a tile (``_Ctx.tiles``; ``totals`` with the
declared melds), each suit's counts a field of it; the only decomposition of a hand whose suits
split one way each is read with the hand (``_Ctx.split``), and so is whether a special shape can
be made (``_Ctx.special``). Each is checked here against the plain computation from the hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import handgen
from guobiao.cli.jsonio import hand_from_json
from guobiao.core.shapes import decompose
from guobiao.scoring import calculator as calc


def test_the_counts_read_as_one_int_are_the_hand_s() -> None:
    for obj in handgen.generate_with_specials(1500, 150, 3303):
        hand, context = hand_from_json(obj)
        ctx = calc._Ctx(hand, context, True)
        standing = [0] * 34
        for t in (*hand.concealed, context.win_tile):
            standing[t] += 1
        total = list(standing)
        for meld in hand.melds:
            for t in meld.tiles:
                total[t] += 1
        assert [ctx.standing_of(t) for t in range(34)] == standing == ctx.standing
        assert [ctx.total_of(t) for t in range(34)] == total == ctx.total
        for suit in range(4):
            size = 9 if suit < 3 else 7
            expected = sum(standing[9 * suit + r] << 5 * r for r in range(size))
            assert ctx.key(suit) == expected
        assert ctx.odd == sum(n % 2 for n in standing)
        assert ctx.fours == total.count(4)
        assert ctx.hogs == ctx.fours - ctx.melded_kongs - ctx.concealed_kongs
        # The only decomposition read with the hand is the one decompose finds.
        splits = decompose(standing)
        if ctx.split is not None:
            assert len(splits) == 1
            assert sorted(calc._encoded(ctx.split)) == sorted(splits[0])
            assert calc._splits(ctx) == [ctx.split]
        else:
            assert len(calc._splits(ctx)) == len(splits) != 1
