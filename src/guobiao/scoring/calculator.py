"""The fan calculator (第九条, 第十条一(五)): every fan of a winning hand, under a rules profile.

:func:`calculate` validates the input, finds every winning shape and decomposition of the hand,
counts fans for each and keeps the highest (就高不就低), then adds flowers. Fans are counted into a
plain list indexed by fan number (see ``_fan_ids``); explanations are gathered only on request.

The regular shape is scored in two steps. Fans that do not depend on how the standing tiles split
(tile classes, win flags, declared kongs, 门前清/不求人/全求人, 四归一) are counted once per hand
into a base table; each decomposition copies it and adds the fans of its own sets. Tile classes
are read from one int of bits (the OR of a per-tile table) whose fans are memoised; per-set facts
(全带幺, 全带五, 全双刻, 箭刻, 幺九刻) are sums of a per-set table.

Profiles: ``"1998"`` (the rules text, default) and ``"mil"`` (the reference calculator's reading);
they differ only in 明暗杠 (docs/rules.md).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from functools import cache, lru_cache, reduce
from itertools import compress
from operator import itemgetter, mul, or_

from guobiao.core.context import WinContext
from guobiao.core.hand import Hand, duplicate_flower
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.shapes import (
    CHOW,
    KNITTED_STRAIGHTS,
    KONG,
    PAIR,
    PUNG,
    THIRTEEN_ORPHANS,
    decompose,
)
from guobiao.core.tiles import TILES
from guobiao.core.waits import is_unique_wait_of_winning
from guobiao.scoring._fan_ids import FAN_TABLE_SIZE, F
from guobiao.scoring._tables import (
    EAST,
    GREEN,
    IS_DRAGON,
    IS_HONOR,
    IS_TERMINAL,
    IS_TERMINAL_OR_HONOR,
    IS_WIND,
    RANK,
    REVERSIBLE,
    SUIT,
)
from guobiao.scoring.combinations import chow_fans, pung_combinations, terminal_chows
from guobiao.scoring.explain import SetView
from guobiao.scoring.explain import explain as explain_fans
from guobiao.scoring.fans import Fan
from guobiao.scoring.result import CountedFan, ExcludedFan, FanResult, InvalidHandError

__all__ = ["PROFILES", "calculate"]

PROFILES = ("1998", "mil")

_FANS_BY_NUMBER: tuple[Fan | None, ...] = (None, *Fan)

# The reference's tile order (万 条 饼 then honours): it decides which of equal-scoring
# decompositions the reference reports, so decompositions are tried in that order.
_REF_ORDER = tuple(t if t < 9 or t >= 27 else (t + 9 if t < 18 else t - 9) for t in range(34))

_SLOTS = tuple(range(FAN_TABLE_SIZE))
_KINDS = tuple(range(34))


class _Ctx:
    """A validated hand, read once: counts, declared melds in short, win flags, and the facts
    every decomposition shares."""

    __slots__ = (
        "base",
        "concealed_kongs",
        "fixed_chows",
        "fixed_facts",
        "fixed_pungs",
        "fourth",
        "kong",
        "last",
        "melded_kongs",
        "melded_sets",
        "mil",
        "prevalent",
        "seat",
        "self_drawn",
        "standing",
        "total",
        "unique",
        "wait_fans",
        "win",
    )

    def __init__(self, hand: Hand, context: WinContext, mil: bool) -> None:
        """Read and check the hand (raises InvalidHandError); nothing is counted yet."""
        _check_sizes(hand, context)
        win = int(context.win_tile)
        standing = [0] * 34
        for tile in hand.concealed:
            standing[tile] += 1
        standing[win] += 1
        total = standing.copy()
        chows: list[int] = []
        pungs: list[int] = []  # encoded PUNG << 6 | tile, kongs included
        facts = melded_sets = melded_kongs = concealed_kongs = 0
        for meld in hand.melds:
            kind, low = meld.kind, int(meld.tile)
            if kind is MeldKind.CHOW:
                total[low] += 1
                total[low + 1] += 1
                total[low + 2] += 1
                chows.append(low)
                facts += _SET_FACTS[CHOW << 6 | low]
                melded_sets += 1
                continue
            pungs.append(PUNG << 6 | low)
            facts += _SET_FACTS[PUNG << 6 | low]
            if kind is MeldKind.PUNG:
                total[low] += 3
                melded_sets += 1
            else:
                total[low] += 4
                if kind is MeldKind.KONG:
                    melded_kongs += 1
                    melded_sets += 1
                else:
                    concealed_kongs += 1
        self.fourth, self.kong = _check_tiles(hand, context, win, standing, total)
        self.win = win
        self.self_drawn = context.self_drawn
        self.last = context.last_tile
        self.seat: int = context.seat_wind
        self.prevalent: int = context.round_wind
        self.mil = mil
        self.standing = standing
        self.total = total
        self.fixed_chows = tuple(chows)
        self.fixed_pungs = tuple(pungs)
        self.fixed_facts = facts
        self.melded_sets = melded_sets
        self.melded_kongs = melded_kongs
        self.concealed_kongs = concealed_kongs
        self.unique: bool | None = None  # 独听 (第九条 77-79), when a decomposition needs it
        self.base: list[int] = []  # set by _hand_base for the regular shape
        self.wait_fans = False


# --------------------------------------------------------------------------------------------
# Fans that depend on the whole hand's tiles: which tile classes its kinds cover

# One bit per class a tile can break ("not all tiles are simples" ...) or show; a hand's bits are
# the OR over its kinds, so a fan that asks "every tile is ..." reads a single bit.
_NOT_SIMPLE = 1 << 0  # a terminal or honour: no 断幺
_NOT_TERMINAL = 1 << 1  # no 清幺九
_NOT_TERMINAL_OR_HONOR = 1 << 2  # no 混幺九
_SUITED = 1 << 3  # no 字一色
_HONOR = 1 << 4  # no 无字, no rank fan
_NOT_REVERSIBLE = 1 << 5  # no 推不倒
_NOT_GREEN = 1 << 6  # no 绿一色
_ABOVE_4 = 1 << 7  # no 全小 / 小于五
_BELOW_6 = 1 << 8  # no 全大 / 大于五
_OUTSIDE_4_6 = 1 << 9  # no 全中
_RANK_4 = 1 << 10  # 小于五 rather than 全小
_RANK_6 = 1 << 11  # 大于五 rather than 全大
_FAMILY = 1 << 12  # shifted by SUIT: 万 饼 条 风 箭 present


def _tile_class(k: int) -> int:
    bits = _FAMILY << SUIT[k]
    bits |= _NOT_SIMPLE if IS_TERMINAL_OR_HONOR[k] else _NOT_TERMINAL_OR_HONOR
    if not IS_TERMINAL[k]:
        bits |= _NOT_TERMINAL
    if k not in REVERSIBLE:
        bits |= _NOT_REVERSIBLE
    if k not in GREEN:
        bits |= _NOT_GREEN
    if IS_HONOR[k]:
        return bits | _HONOR
    rank = RANK[k]
    bits |= _SUITED
    if rank > 4:
        bits |= _ABOVE_4
    if rank < 6:
        bits |= _BELOW_6
    if not 4 <= rank <= 6:
        bits |= _OUTSIDE_4_6
    if rank == 4:
        bits |= _RANK_4
    if rank == 6:
        bits |= _RANK_6
    return bits


_TILE_CLASS = tuple(_tile_class(k) for k in range(34))


def _class_bits(counts: Sequence[int]) -> int:
    """The OR of the class bits of every kind held (counts indexed by tile)."""
    return reduce(or_, compress(_TILE_CLASS, counts), 0)


@cache
def _tile_class_fans(bits: int) -> tuple[int, ...]:
    """The fans a hand's tile classes alone decide, as a fan table."""
    t = [0] * FAN_TABLE_SIZE
    # 无字 缺一门 混一色 清一色 五门齐
    families = bits // _FAMILY
    has_honor = bool(bits & _HONOR)
    missing = sum(1 for s in (0, 1, 2) if not families >> s & 1)
    if not has_honor:
        t[F.NO_HONOURS] = 1
    if missing == 2:
        if has_honor:
            t[F.HALF_FLUSH] = 1
        else:
            t[F.FULL_FLUSH] = 1
            t[F.NO_HONOURS] = 0
    elif missing:
        t[F.ONE_VOIDED_SUIT] = missing
    if families == 0b11111:
        t[F.ALL_TYPES] = 1
    # 断幺 推不倒 绿一色 字一色 清幺九 混幺九
    if not bits & _NOT_SIMPLE:
        t[F.ALL_SIMPLES] = 1
    if not bits & _NOT_REVERSIBLE:
        t[F.REVERSIBLE_TILES] = 1
    if not bits & _NOT_GREEN:
        t[F.ALL_GREEN] = 1
    if bits & _NOT_SIMPLE:
        if not bits & _SUITED:
            t[F.ALL_HONORS] = 1
        elif not bits & _NOT_TERMINAL:
            t[F.ALL_TERMINALS] = 1
        elif not bits & _NOT_TERMINAL_OR_HONOR:
            t[F.ALL_TERMINALS_AND_HONOURS] = 1
    # 全大 全中 全小 大于五 小于五
    if not has_honor:
        if not bits & _ABOVE_4:
            t[F.LOWER_FOUR if bits & _RANK_4 else F.LOWER_TILES] = 1
        elif not bits & _BELOW_6:
            t[F.UPPER_FOUR if bits & _RANK_6 else F.UPPER_TILES] = 1
        elif not bits & _OUTSIDE_4_6:
            t[F.MIDDLE_TILES] = 1
    return tuple(t)


def _win_flag_fans(ctx: _Ctx, t: list[int]) -> None:
    _win_flags(t, ctx.fourth, ctx.self_drawn, ctx.last, ctx.kong)


def _win_flags(t: list[int], fourth: bool, self_drawn: bool, last: bool, kong: bool) -> None:
    """和绝张 自摸 妙手回春 海底捞月 杠上开花 抢杠和 (第九条 44-47, 58, 80)."""
    if fourth:
        t[F.LAST_TILE] = 1
    if self_drawn:
        t[F.SELF_DRAWN] = 1
        if last:
            t[F.LAST_TILE_DRAW] = 1
            t[F.SELF_DRAWN] = 0  # 妙手回春 不计自摸
        if kong:
            t[F.OUT_WITH_REPLACEMENT_TILE] = 1
            t[F.SELF_DRAWN] = 0  # 杠上开花 不计自摸
    else:
        if last:
            t[F.LAST_TILE_CLAIM] = 1
        if kong:
            t[F.ROBBING_THE_KONG] = 1
            t[F.LAST_TILE] = 0  # 抢杠和 不计和绝张


# 不重复原则 (第十条一(五)1): (counted fan, fans it implies). Applied in this order.
_IMPLIED: tuple[tuple[int, tuple[int, ...]], ...] = (
    (F.BIG_FOUR_WINDS, (F.ALL_PUNGS, F.PUNG_OF_TERMINALS_OR_HONOURS)),
    (F.BIG_THREE_DRAGONS, (F.DRAGON_PUNG,)),
    (F.ALL_GREEN, (F.HALF_FLUSH, F.ONE_VOIDED_SUIT)),
    (F.FOUR_KONGS, (F.SINGLE_WAIT,)),
    (
        F.ALL_TERMINALS,
        (
            F.ALL_PUNGS,
            F.OUTSIDE_HAND,
            F.PUNG_OF_TERMINALS_OR_HONOURS,
            F.NO_HONOURS,
            F.DOUBLE_PUNG,
        ),
    ),
    (F.LITTLE_FOUR_WINDS, (F.PUNG_OF_TERMINALS_OR_HONOURS,)),
    (F.LITTLE_THREE_DRAGONS, (F.DRAGON_PUNG,)),
    (
        F.ALL_HONORS,
        (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONOURS, F.ONE_VOIDED_SUIT),
    ),
    (F.FOUR_CONCEALED_PUNGS, (F.ALL_PUNGS, F.CONCEALED_HAND)),
    (F.PURE_TERMINAL_CHOWS, (F.FULL_FLUSH, F.ALL_CHOWS, F.NO_HONOURS)),
    (F.FOUR_PURE_SHIFTED_PUNGS, (F.ALL_PUNGS,)),
    (
        F.ALL_TERMINALS_AND_HONOURS,
        (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONOURS),
    ),
    (F.ALL_EVEN_PUNGS, (F.ALL_PUNGS, F.ALL_SIMPLES, F.NO_HONOURS)),
    (F.UPPER_TILES, (F.NO_HONOURS,)),
    (F.MIDDLE_TILES, (F.ALL_SIMPLES, F.NO_HONOURS)),
    (F.LOWER_TILES, (F.NO_HONOURS,)),
    (F.THREE_SUITED_TERMINAL_CHOWS, (F.ALL_CHOWS, F.NO_HONOURS)),
    (F.ALL_FIVES, (F.ALL_SIMPLES, F.NO_HONOURS)),
    (F.UPPER_FOUR, (F.NO_HONOURS,)),
    (F.LOWER_FOUR, (F.NO_HONOURS,)),
    (F.REVERSIBLE_TILES, (F.ONE_VOIDED_SUIT,)),
    (F.LAST_TILE_DRAW, (F.SELF_DRAWN,)),
    (F.OUT_WITH_REPLACEMENT_TILE, (F.SELF_DRAWN,)),
    (F.MELDED_HAND, (F.SINGLE_WAIT,)),
    (F.TWO_DRAGON_PUNGS, (F.DRAGON_PUNG,)),
    (F.FULLY_CONCEALED_HAND, (F.SELF_DRAWN,)),
    (F.ALL_CHOWS, (F.NO_HONOURS,)),
    (F.ALL_SIMPLES, (F.NO_HONOURS,)),
)


_IMPLYING = tuple(fan for fan, _ in _IMPLIED)
_implying_counts = itemgetter(*_IMPLYING)
_IMPLIES: tuple[tuple[int, ...], ...] = tuple(
    dict(_IMPLIED).get(fan, ()) for fan in range(FAN_TABLE_SIZE)
)


def _apply_implied(t: list[int], why: list[ExcludedFan] | None) -> None:
    """Drop fans implied by counted ones (不重复原则), recording why when asked."""
    for fan in compress(_IMPLYING, _implying_counts(t)):  # the counted ones, in that order
        if not t[fan]:
            continue  # implied by an earlier one
        for other in _IMPLIES[fan]:
            if t[other]:
                if why is not None:
                    why.append(_excluded(other, f"implied by {_name(fan)} (不重复原则)"))
                t[other] = 0
        if fan == F.FOUR_CONCEALED_PUNGS and t[F.FULLY_CONCEALED_HAND]:
            # 四暗刻 is concealed by nature: self-drawn it adds 自摸, not 不求人.
            t[F.FULLY_CONCEALED_HAND] = 0
            t[F.SELF_DRAWN] = 1
            if why is not None:
                why.append(_excluded(F.FULLY_CONCEALED_HAND, f"implied by {_name(fan)}"))
    if t[F.BIG_THREE_WINDS] and not (t[F.ALL_HONORS] or t[F.ALL_TERMINALS_AND_HONOURS]):
        t[F.PUNG_OF_TERMINALS_OR_HONOURS] -= 3  # the three wind pungs are in 三风刻
        if why is not None:
            why.append(_excluded(F.PUNG_OF_TERMINALS_OR_HONOURS, "3 wind pungs are in 三风刻"))


def _name(fan: int) -> str:
    f = _FANS_BY_NUMBER[fan]
    assert f is not None
    return f"{f.zh} {f.en}"


def _excluded(fan: int, reason: str) -> ExcludedFan:
    f = _FANS_BY_NUMBER[fan]
    assert f is not None
    return ExcludedFan(f, reason)


# --------------------------------------------------------------------------------------------
# The regular shape: four sets and a pair

# Per-set facts, 4 bits each, indexed by encoded set (kind << 6 | tile): summed over a
# decomposition's sets (declared ones included) they count what 全带幺 全带五 全双刻 箭刻 幺九刻
# and the wind fans ask about.
_OUTSIDE, _FIVES, _EVENS, _DRAGON_PUNGS, _OTHER_PUNGS, _WIND_PUNGS = (1 << 4 * i for i in range(6))


def _set_facts(kind: int, tile: int) -> int:
    if tile >= 34 or (kind == CHOW and (tile >= 27 or tile % 9 > 6)):
        return 0  # no such set
    rank = RANK[tile]
    if kind == CHOW:
        if rank in (1, 7):
            return _OUTSIDE
        return _FIVES if 3 <= rank <= 5 else 0
    facts = 0
    if IS_TERMINAL_OR_HONOR[tile]:
        facts = _OUTSIDE
    elif rank == 5:
        facts = _FIVES
    elif rank % 2 == 0:
        facts = _EVENS
    if kind != PAIR:  # a pung or a kong
        if IS_DRAGON[tile]:
            facts += _DRAGON_PUNGS
        elif IS_TERMINAL_OR_HONOR[tile]:
            facts += _OTHER_PUNGS + (_WIND_PUNGS if IS_WIND[tile] else 0)
    return facts


_SET_FACTS = tuple(_set_facts(s >> 6, s & 63) for s in range(4 << 6))


def _every_set_fan(facts: int) -> int:
    """全带幺 全带五 全双刻: every set and the pair (five of them) has the property."""
    if facts & 15 == 5:
        return F.OUTSIDE_HAND
    if facts // _FIVES & 15 == 5:
        return F.ALL_FIVES
    if facts // _EVENS & 15 == 5:
        return F.ALL_EVEN_PUNGS
    return 0


# The same by the three low fields of summed facts (全带幺 全带五 全双刻 counts).
_EVERY_SET_FAN = tuple(_every_set_fan(facts) for facts in range(_DRAGON_PUNGS))


def _kong_fans(melded_kongs: int, concealed_kongs: int, mil: bool, t: list[int]) -> None:
    """The kong family: at most one of 四杠 三杠 双暗杠 双明杠 明暗杠 暗杠 明杠."""
    kongs = melded_kongs + concealed_kongs
    if kongs == 4:
        t[F.FOUR_KONGS] = 1
    elif kongs == 3:
        t[F.THREE_KONGS] = 1
    elif kongs == 2:
        if concealed_kongs == 2:
            t[F.TWO_CONCEALED_KONGS] = 1
        elif concealed_kongs == 1:
            if mil:
                t[F.MELDED_AND_CONCEALED_KONG] = 1
            else:
                t[F.MELDED_KONG] = 1
                t[F.CONCEALED_KONG] = 1
        else:
            t[F.TWO_MELDED_KONGS] = 1
    elif kongs == 1:
        t[F.MELDED_KONG if melded_kongs else F.CONCEALED_KONG] = 1


# 四暗刻 三暗刻 双暗刻 by the number of concealed pungs and kongs.
_CONCEALED_PUNGS_FAN = (
    0,
    0,
    F.TWO_CONCEALED_PUNGS,
    F.THREE_CONCEALED_PUNGS,
    F.FOUR_CONCEALED_PUNGS,
)


def _wind_pung_fans(tile: int, ctx: _Ctx, t: list[int]) -> None:
    """圈风刻 门风刻: each replaces the 幺九刻 of that pung unless a bigger fan already took it."""
    deducted = bool(
        t[F.BIG_THREE_WINDS]
        or t[F.ALL_TERMINALS_AND_HONOURS]
        or t[F.ALL_HONORS]
        or t[F.LITTLE_FOUR_WINDS]
    )
    wind = tile - EAST
    if wind == ctx.prevalent:
        t[F.PREVALENT_WIND] = 1
        if not deducted:
            t[F.PUNG_OF_TERMINALS_OR_HONOURS] -= 1
    if wind == ctx.seat:
        t[F.SEAT_WIND] = 1
        if ctx.seat != ctx.prevalent and not deducted:
            t[F.PUNG_OF_TERMINALS_OR_HONOURS] -= 1


def _wait_fan(concealed_chows: Sequence[int], pair: int, win: int) -> int:
    """边张 坎张 单钓将 (第九条 77-79), for a unique wait: where the winning tile sits in the
    concealed chows (by lowest tile) or the pair; 0 when it sits in none of them."""
    if win in concealed_chows or win - 2 in concealed_chows:
        return F.EDGE_WAIT
    if win - 1 in concealed_chows:
        return F.CLOSED_WAIT
    if pair == win:
        return F.SINGLE_WAIT
    return 0


def _hand_base(ctx: _Ctx) -> None:
    """Count the fans every regular decomposition shares into ``ctx.base``."""
    t = list(_tile_class_fans(_class_bits(ctx.total)))
    situation = _situation_fans(
        ctx.fourth,
        ctx.self_drawn,
        ctx.last,
        ctx.kong,
        ctx.mil,
        ctx.melded_sets,
        ctx.melded_kongs,
        ctx.concealed_kongs,
    )
    for fan, count in situation:
        t[fan] = count
    # 四归一: four of a kind not declared as a kong (a decomposition with 一色四同顺 drops it)
    t[F.TILE_HOG] = ctx.total.count(4) - ctx.melded_kongs - ctx.concealed_kongs
    ctx.base = t
    # 全求人 and 四杠 leave no wait to count (the single wait is in them).
    ctx.wait_fans = not (t[F.MELDED_HAND] or t[F.FOUR_KONGS])


@cache
def _situation_fans(
    fourth: bool,
    self_drawn: bool,
    last: bool,
    kong: bool,
    mil: bool,
    melded_sets: int,
    melded_kongs: int,
    concealed_kongs: int,
) -> tuple[tuple[int, int], ...]:
    """The fans of the win flags and the declared melds, as (fan, count): the win flag fans, the
    kong family, and 不求人 门前清 全求人 自摸. No tile-class fan is among them."""
    t = [0] * FAN_TABLE_SIZE
    _win_flags(t, fourth, self_drawn, last, kong)
    _kong_fans(melded_kongs, concealed_kongs, mil, t)
    # 不求人 门前清 全求人 自摸
    if melded_sets == 0:
        t[F.FULLY_CONCEALED_HAND if self_drawn else F.CONCEALED_HAND] = 1
    elif melded_sets == 4:
        t[F.SELF_DRAWN if self_drawn else F.MELDED_HAND] = 1
    elif self_drawn:
        t[F.SELF_DRAWN] = 1
    return tuple((fan, count) for fan, count in enumerate(t) if count)


@lru_cache(maxsize=1 << 14)
def _pung_fans(pungs: tuple[int, ...]) -> tuple[int, ...]:
    """The combination fans of sorted encoded pungs and kongs (as pungs), one entry per count."""
    return tuple(fan for fan, _ in pung_combinations(tuple(p & 63 for p in pungs)))


_FIRST_PUNG = PUNG << 6  # the lowest encoded pung


def _regular_fans(ctx: _Ctx, sets: tuple[int, ...], why: list[ExcludedFan] | None) -> list[int]:
    """The fan table of one decomposition: ``sets`` (sorted encoded sets, as ``decompose`` gives
    them) are the standing tiles; ``ctx.base`` holds the fans shared by every decomposition."""
    t = ctx.base.copy()
    win = ctx.win
    # Sorted encoded sets: the chows (CHOW = 0) come first, the pair (PAIR = 3) last.
    n_chows = bisect_left(sets, _FIRST_PUNG)
    concealed_chows = sets[:n_chows]
    pair = sets[-1] & 63
    chows = concealed_chows
    if ctx.fixed_chows:
        chows = tuple(sorted(ctx.fixed_chows + chows))
    pungs = sets[n_chows:-1]  # encoded PUNG << 6 | tile
    if ctx.fixed_pungs:
        pungs = tuple(sorted(ctx.fixed_pungs + pungs))
    facts = ctx.fixed_facts + sum(map(_SET_FACTS.__getitem__, sets))

    if pungs:
        # 暗刻: a pung completed by a discard is exposed, unless a chow can take the winning tile.
        concealed = len(sets) - n_chows - 1 + ctx.concealed_kongs
        if (
            not ctx.self_drawn
            and (PUNG << 6 | win) in sets
            and win not in concealed_chows
            and win - 1 not in concealed_chows
            and win - 2 not in concealed_chows
        ):
            concealed -= 1
        fan = _CONCEALED_PUNGS_FAN[concealed]
        if fan and not (concealed == 2 and t[F.TWO_CONCEALED_KONGS]):  # 双暗杠 不计双暗刻
            t[fan] = 1
        if len(pungs) == 4 and not t[F.FOUR_KONGS] and not t[F.FOUR_CONCEALED_PUNGS]:
            t[F.ALL_PUNGS] = 1
        t[F.DRAGON_PUNG] = facts // _DRAGON_PUNGS & 15
        t[F.PUNG_OF_TERMINALS_OR_HONOURS] = facts // _OTHER_PUNGS & 15
        if len(pungs) > 1:
            for fan in _pung_fans(pungs):
                t[fan] += 1

    if len(chows) == 4:
        fan, pair_needed = terminal_chows(chows)  # 一色双龙会 三色双龙会
        if fan and pair == pair_needed:
            t[fan] = 1
        else:
            for fan in chow_fans(chows):
                t[fan] += 1
        if t[F.QUADRUPLE_CHOW]:
            t[F.TILE_HOG] = 0  # 一色四同顺 不计四归一
        if pair < 27:
            t[F.ALL_CHOWS] = 1  # 平和
    else:
        if len(chows) > 1:
            for fan in chow_fans(chows):
                t[fan] += 1
        # The pair turns 双箭刻 into 小三元 and 三风刻 into 小四喜.
        if t[F.TWO_DRAGON_PUNGS]:
            if IS_DRAGON[pair]:
                t[F.LITTLE_THREE_DRAGONS] = 1
                t[F.TWO_DRAGON_PUNGS] = 0
        elif t[F.BIG_THREE_WINDS] and IS_WIND[pair]:
            t[F.LITTLE_FOUR_WINDS] = 1
            t[F.BIG_THREE_WINDS] = 0

    fan = _EVERY_SET_FAN[facts % _DRAGON_PUNGS]  # 全带幺 全带五 全双刻
    if fan:
        t[fan] = 1

    if ctx.wait_fans:
        fan = _wait_fan(concealed_chows, pair, win)
        if fan:
            if ctx.unique is None:  # 独听, worked out once a decomposition can use it
                ctx.unique = is_unique_wait_of_winning(ctx.standing, win)
            if ctx.unique:
                t[fan] = 1
    _apply_implied(t, why)
    if facts // _WIND_PUNGS & 15 and not t[F.BIG_FOUR_WINDS]:
        for p in pungs:
            if IS_WIND[p & 63]:
                _wind_pung_fans(p & 63, ctx, t)
    if not any(t):
        t[F.CHICKEN_HAND] = 1
    return t


# --------------------------------------------------------------------------------------------
# Special shapes


def _seven_pairs_fans(standing: list[int], ctx: _Ctx, why: list[ExcludedFan] | None) -> list[int]:
    suit = SUIT[ctx.win]
    if suit < 3:
        base = suit * 9
        run = [standing[base + r] == 2 for r in range(9)]
        shifted = any(all(run[s : s + 7]) for s in range(3))
    else:
        shifted = False
    if shifted:
        t = [0] * FAN_TABLE_SIZE
        t[F.SEVEN_SHIFTED_PAIRS] = 1
        if not standing[base] and not standing[base + 8]:
            t[F.ALL_SIMPLES] = 1
        _win_flag_fans(ctx, t)
        return t
    t = list(_tile_class_fans(_class_bits(standing)))
    t[F.SEVEN_PAIRS] = 1
    t[F.TILE_HOG] = standing.count(4)
    _win_flag_fans(ctx, t)
    _apply_implied(t, why)
    return t


def _honors_and_knitted_fans(
    standing: Sequence[int], kinds: Sequence[int], ctx: _Ctx
) -> list[int] | None:
    if len(kinds) != 14:
        return None
    suited = [k for k in kinds if k < 27]
    if not 7 <= len(suited) <= 9:
        return None
    if not any(set(suited) <= set(ks) for ks in KNITTED_STRAIGHTS):
        return None
    t = [0] * FAN_TABLE_SIZE
    if len(suited) == 7:
        t[F.GREATER_HONOURS_AND_KNITTED_TILES] = 1
    else:
        t[F.LESSER_HONOURS_AND_KNITTED_TILES] = 1
        if len(suited) == 9:
            t[F.KNITTED_STRAIGHT] = 1
    _win_flag_fans(ctx, t)
    return t


def _thirteen_orphans_fans(kinds: Sequence[int], ctx: _Ctx) -> list[int] | None:
    if tuple(kinds) != THIRTEEN_ORPHANS:
        return None
    t = [0] * FAN_TABLE_SIZE
    t[F.THIRTEEN_ORPHANS] = 1
    _win_flag_fans(ctx, t)
    return t


def _nine_gates_fans(standing: Sequence[int], ctx: _Ctx) -> list[int] | None:
    """九莲宝灯: 1112345678999 of one suit concealed, won on any tile of that suit."""
    win = ctx.win
    base = win - win % 9
    if win >= 27 or standing[base] < 3:
        return None
    expected = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    expected[win % 9] += 1
    if standing[base : base + 9] != expected or sum(standing) != 14:
        return None
    t = [0] * FAN_TABLE_SIZE
    t[F.NINE_GATES] = 1
    # The best reading of the rest: 清龙+四归一 on 1/9, 双暗刻+幺九刻 on 2/5/8, 连六 on 2-4, 6-8.
    r = win % 9 + 1
    if r in (1, 9):
        t[F.PURE_STRAIGHT] = 1
        t[F.TILE_HOG] = 1
    if r in (2, 5, 8):
        t[F.TWO_CONCEALED_PUNGS] = 1
        t[F.PUNG_OF_TERMINALS_OR_HONOURS] = 1
    if r in (2, 3, 4, 6, 7, 8):
        t[F.SHORT_STRAIGHT] = 1
    _win_flag_fans(ctx, t)
    return t


def _knitted_straight_fans(
    fixed: Sequence[Meld],
    standing: list[int],
    total: Sequence[int],
    ctx: _Ctx,
    why: list[ExcludedFan] | None,
) -> tuple[list[int], str, list[SetView]] | None:
    """组合龙 + one set + a pair (the set may be a declared meld)."""
    if not (all(standing[0:9:3]) or all(standing[1:9:3]) or all(standing[2:9:3])):
        return None  # every 组合龙 holds one of 147 258 369 in 万
    straight = next((ks for ks in KNITTED_STRAIGHTS if all(standing[k] for k in ks)), None)
    if straight is None:
        return None
    rest = list(standing)
    for k in straight:
        rest[k] -= 1
    if fixed:
        meld = fixed[0]
        pair_tiles = [k for k in range(34) if rest[k]]
        if len(pair_tiles) != 1 or rest[pair_tiles[0]] != 2:
            return None
        pair = pair_tiles[0]
        kind = {MeldKind.CHOW: CHOW, MeldKind.PUNG: PUNG}.get(meld.kind, KONG)
        other_set = kind << 6 | meld.tile
        other_melded = meld.kind is not MeldKind.CONCEALED_KONG
        other_concealed_kong = meld.kind is MeldKind.CONCEALED_KONG
    else:
        splits = decompose(rest)
        if len(splits) != 1:
            return None
        pair = next(s & 63 for s in splits[0] if s >> 6 == PAIR)
        other_set = next(s for s in splits[0] if s >> 6 != PAIR)
        other_melded = False
        other_concealed_kong = False
    t = [0] * FAN_TABLE_SIZE
    t[F.KNITTED_STRAIGHT] = 1
    kind, tile = other_set >> 6, other_set & 63
    if kind == CHOW:
        if pair < 27:
            t[F.ALL_CHOWS] = 1
        if total[pair] == 4:
            t[F.TILE_HOG] = 1
    elif IS_HONOR[tile]:
        if IS_WIND[tile]:
            t[F.PUNG_OF_TERMINALS_OR_HONOURS] = 1
            _wind_pung_fans(tile, ctx, t)
            if IS_DRAGON[pair]:
                t[F.ALL_TYPES] = 1
        else:
            t[F.DRAGON_PUNG] = 1
            if IS_WIND[pair]:
                t[F.ALL_TYPES] = 1
    else:
        if IS_TERMINAL[tile]:
            t[F.PUNG_OF_TERMINALS_OR_HONOURS] = 1
        if pair < 27:
            t[F.NO_HONOURS] = 1
        if kind != KONG and total[tile] == 4:
            t[F.TILE_HOG] = 1
    _win_flag_fans(ctx, t)
    if other_melded:
        if kind == KONG:
            t[F.MELDED_KONG] = 1
    else:
        if other_concealed_kong:
            t[F.CONCEALED_KONG] = 1
        if ctx.self_drawn:
            t[F.FULLY_CONCEALED_HAND] = 1
            t[F.SELF_DRAWN] = 0
        else:
            t[F.CONCEALED_HAND] = 1
    # Waits beside a knitted straight: judged on the set and pair alone (the reference's reading).
    if not fixed:
        if rest[ctx.win] and is_unique_wait_of_winning(rest, ctx.win):
            chows = (tile,) if kind == CHOW else ()
            fan = _wait_fan(chows, pair, ctx.win)
            if fan:
                t[fan] = 1
    elif ctx.win not in straight or standing[ctx.win] == 3:
        t[F.SINGLE_WAIT] = 1  # with a meld, the pair is the only open part
    _apply_implied(t, why)
    shape = " ".join(str(TILES[k]) for k in straight)
    views = [
        SetView(kind, tile, bool(fixed), other_melded),
        SetView(PAIR, pair),
    ]
    return t, f"组合龙 {shape} + {views[0]} + {views[1]}", views


# --------------------------------------------------------------------------------------------
# The whole calculation


def _total(t: Sequence[int]) -> int:
    return sum(map(mul, t, _POINTS))


_POINTS = (0, *(f.points for f in Fan))
_FANS: tuple[Fan, ...] = (Fan.CHICKEN_HAND, *Fan)  # index 0 is never counted


def _set_views(fixed: Sequence[Meld], chosen: tuple[int, ...], ctx: _Ctx) -> list[SetView]:
    """The chosen decomposition as readable sets; a pung completed by a discard counts exposed."""
    kinds = {MeldKind.CHOW: CHOW, MeldKind.PUNG: PUNG}
    views = [
        SetView(kinds.get(m.kind, KONG), m.tile, True, m.kind is not MeldKind.CONCEALED_KONG)
        for m in fixed
    ]
    win_in_chow = any(s >> 6 == CHOW and (s & 63) <= ctx.win <= (s & 63) + 2 for s in chosen)
    for s in chosen:
        kind, tile = s >> 6, s & 63
        exposed = kind == PUNG and tile == ctx.win and not ctx.self_drawn and not win_in_chow
        views.append(SetView(kind, tile, False, exposed))
    return views


def _ref_key(sets: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    key = []
    for s in sets:
        kind, tile = s >> 6, s & 63
        if kind == PAIR:
            continue
        if kind == CHOW:
            key.append((_REF_ORDER[tile], _REF_ORDER[tile + 1], _REF_ORDER[tile + 2]))
        else:
            r = _REF_ORDER[tile]
            key.append((r, r, r))
    return tuple(sorted(key))


def _check_sizes(hand: Hand, context: WinContext) -> None:
    """The winning tile agrees, each flower at most once, at most four melds, and 13 - 3 per
    meld concealed tiles."""
    if hand.win_tile is not None and hand.win_tile != context.win_tile:
        raise InvalidHandError(
            f"the hand's winning tile {hand.win_tile} differs from the context's {context.win_tile}"
        )
    twice = duplicate_flower(hand.flowers) if hand.flowers else None
    if twice is not None:
        raise InvalidHandError(f"flower {twice} appears twice; each flower is a single tile")
    melds = len(hand.melds)
    if melds > 4:
        raise InvalidHandError(f"at most 4 melds, not {melds}")
    expected = 13 - 3 * melds
    if len(hand.concealed) != expected:
        raise InvalidHandError(
            f"with {melds} meld(s) a hand holds {expected} concealed tiles before the "
            f"winning tile, not {len(hand.concealed)} (相公)"
        )


def _check_tiles(
    hand: Hand, context: WinContext, win: int, standing: list[int], total: list[int]
) -> tuple[bool, bool]:
    """At most four of a tile, and no flag the tiles contradict; return (和绝张, kong flag)."""
    if max(total) > 4:
        over = [TILES[t] for t in range(34) if total[t] > 4]
        raise InvalidHandError("more than four of " + ", ".join(f"{t} ({total[t]})" for t in over))
    melded_win = total[win] - standing[win]
    fourth = context.fourth_tile
    if fourth and standing[win] > 1:
        raise InvalidHandError(
            f"和绝张 (fourth tile) is impossible: the hand itself holds another {context.win_tile}"
        )
    if melded_win == 3 and standing[win] == 1:
        fourth = True  # three in one's own melds: the winning tile is necessarily the last one
    kong = context.kong
    if kong and context.self_drawn and not any(m.kind.is_kong for m in hand.melds):
        raise InvalidHandError("杠上开花 (out on a kong replacement) needs a kong in the hand")
    if kong and not context.self_drawn and (standing[win] > 1 or melded_win > 0):
        raise InvalidHandError(
            f"抢杠和 (robbing a kong) is impossible: the other three {context.win_tile} are in the "
            "robbed pung, yet the hand holds one"
        )
    if kong and not context.self_drawn and context.last_tile:
        # 第七条七: a kong takes a replacement from the wall, so none is declared once it is empty.
        raise InvalidHandError("抢杠和 (robbing a kong) cannot happen on the last tile of the wall")
    return fourth, kong


# Counted fans are immutable values: one shared instance per (fan, count) a table can hold.
_COUNTED: tuple[dict[int, CountedFan], ...] = tuple(
    {n: CountedFan(fan, n) for n in range(1, 9)} for fan in _FANS
)


@cache
def _flower_fan(flowers: int) -> CountedFan:
    return CountedFan(Fan.FLOWER_TILES, flowers, (f"{flowers} flower(s)",))


def _display_key(counted: CountedFan) -> tuple[bool, int, int]:
    """Highest fans first, flowers last."""
    fan = counted.fan
    return fan is Fan.FLOWER_TILES, -fan.points, fan.number


def _counted_fans(best: list[int], flowers: int) -> tuple[CountedFan, ...]:
    """The counted fans of a fan table, in display order."""
    # Fan numbers 1-81 run from the highest points down, so table order is display order;
    # only 明暗杠 (82, the mil profile) is out of place.
    fans = tuple([_COUNTED[fan][best[fan]] for fan in compress(_SLOTS, best)])
    if flowers:
        fans += (_flower_fan(flowers),)
    if best[F.MELDED_AND_CONCEALED_KONG]:
        return tuple(sorted(fans, key=_display_key))
    return fans


def _tiles_shape(name: str, kinds: list[int]) -> str:
    return name + " " + " ".join(str(TILES[k]) for k in kinds)


def _special_shape(
    ctx: _Ctx,
    fixed: Sequence[Meld],
    kinds: list[int],
    distinct: int,
    why: list[ExcludedFan] | None,
    explain: bool,
) -> tuple[list[int], str, list[SetView]] | None:
    """The first special shape the hand makes, in the reference's order: 七对 (or 连七对), 全不靠,
    十三幺, 组合龙, 九莲宝灯. Returns its fan table, its name (when explaining; 组合龙 always)
    and its sets (组合龙 only)."""
    standing = ctx.standing
    if not fixed:
        if not (standing.count(1) or standing.count(3)):  # every count even
            t = _seven_pairs_fans(standing, ctx, why)
            if not explain:
                return t, "", []
            pairs = (str(TILES[k]) * 2 for k in kinds for _ in range(standing[k] // 2))
            return t, "七对 " + " ".join(pairs), []
        if distinct == 14:
            found = _honors_and_knitted_fans(standing, kinds, ctx)
            if found is not None:
                return found, _tiles_shape("全不靠", kinds) if explain else "", []
        if distinct == 13:
            found = _thirteen_orphans_fans(kinds, ctx)
            if found is not None:
                return found, _tiles_shape("十三幺", kinds) if explain else "", []
    if distinct >= 9:
        knitted = _knitted_straight_fans(fixed, standing, ctx.total, ctx, why)
        if knitted is not None:
            return knitted
    if not fixed and distinct == 9:
        found = _nine_gates_fans(standing, ctx)
        if found is not None:
            if not explain:
                return found, "", []
            return found, "九莲宝灯 " + " ".join(str(TILES[k]) * standing[k] for k in kinds), []
    return None


def calculate(
    hand: Hand, context: WinContext, rules: str = "1998", *, explain: bool = False
) -> FanResult:
    """Score a winning hand: every fan with its count, the total, and whether it reaches 8 points.

    ``hand.concealed`` excludes the winning tile, which ``context.win_tile`` names. Input that
    cannot be a real hand raises :class:`~guobiao.scoring.result.InvalidHandError`; a hand whose tiles make
    no winning shape returns a result with ``is_winning`` False. With ``explain`` the result also
    lists the fans the hand shows that are not counted, and the reason.
    """
    if rules not in PROFILES:
        raise ValueError(f"unknown rules profile {rules!r}: choose one of {', '.join(PROFILES)}")
    ctx = _Ctx(hand, context, rules == "mil")
    standing, total = ctx.standing, ctx.total
    fixed = hand.melds
    # The kinds held: the special shapes (all concealed) and explanations read them.
    why: list[ExcludedFan] | None = [] if explain else None
    distinct = 34 - standing.count(0)  # the special shapes but 七对 hold 9 kinds or more
    kinds = list(compress(_KINDS, total)) if explain or distinct >= 13 else []

    best: list[int] | None = None
    views: list[SetView] = []
    best_points = 0
    shape = ""  # named only when explaining (or 组合龙): the hot path formats no text
    seven_pairs = False
    if len(fixed) <= 1 and (distinct >= 9 or not fixed):
        special = _special_shape(ctx, fixed, kinds, distinct, why, explain)
        if special is not None:
            best, shape, views = special
            best_points = _total(best)
            seven_pairs = bool(best[F.SEVEN_PAIRS])

    others: list[tuple[str, int]] = []  # readings not taken (就高不就低), when explaining
    if best is None or seven_pairs:
        splits = decompose(standing)
        if splits:
            _hand_base(ctx)
        if len(splits) == 1 and best is None and not explain:
            best = _regular_fans(ctx, splits[0], None)  # the only reading: nothing to compare
        elif splits:
            if len(splits) > 1:
                splits.sort(key=_ref_key)
            chosen: tuple[int, ...] | None = None
            for sets in splits:
                table = _regular_fans(ctx, sets, None)
                points = _total(table)
                if explain:
                    others.append((" ".join(map(str, _set_views(fixed, sets, ctx))), points))
                if points > best_points or (
                    points == best_points
                    and (table[F.PURE_TRIPLE_CHOW] == 1 or seven_pairs or table[F.TRIPLE_PUNG])
                ):
                    best, best_points, chosen = table, points, sets
            if chosen is not None and explain:
                if seven_pairs:
                    others.append((shape, _total(_seven_pairs_fans(standing, ctx, None))))
                assert why is not None
                why.clear()
                best = _regular_fans(ctx, chosen, why)
                views = _set_views(fixed, chosen, ctx)
                shape = " ".join(map(str, views))
    if best is None:
        return FanResult(fans=(), is_winning=False)
    flowers = context.flowers or len(hand.flowers)
    if why is None:
        # 组合龙 names its shape even on the plain path
        return FanResult(_counted_fans(best, flowers), True, (), shape)

    others = [item for item in others if item[0] != shape]
    story = explain_fans(best, views, kinds, total, ctx.win, ctx.self_drawn, ctx.fourth, shape)
    fans = [CountedFan(_FANS[i], n, story.bases.get(i, ())) for i, n in enumerate(best) if n > 0]
    # One reason per excluded fan, except pair combinations, which name their own sets.
    named = {e.fan for e in why}
    for fan, reason in story.excluded:
        if _FANS[fan] not in named or " + " in reason:
            why.append(ExcludedFan(_FANS[fan], reason))
            named.add(_FANS[fan])
    why[:] = dict.fromkeys(why)
    if flowers:
        fans.append(_flower_fan(flowers))
    fans.sort(key=_display_key)
    return FanResult(
        fans=tuple(fans),
        is_winning=True,
        excluded=tuple(why),
        decomposition=shape,
        alternatives=tuple(others),
    )
