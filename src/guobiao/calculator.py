"""The fan calculator (第九条, 第十条一(五)): every fan of a winning hand, under a rules profile.

:func:`calculate` validates the input, finds every winning shape and decomposition of the hand,
counts fans for each and keeps the highest (就高不就低), then adds flowers. Fans are counted into a
plain list indexed by fan number (see ``_fan_ids``); explanations are gathered only on request.

Profiles: ``"1998"`` (the rules text, default) and ``"mil"`` (the reference calculator's reading);
they differ only in 明暗杠 (docs/rules.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import mul

from ._fan_ids import FAN_TABLE_SIZE, F
from ._tables import (
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
from .combinations import chow_combinations, pung_combinations
from .context import WinContext
from .explain import SetView
from .explain import explain as explain_fans
from .fans import Fan
from .hand import Hand
from .melds import Meld, MeldKind
from .result import CountedFan, ExcludedFan, FanResult, InvalidHandError
from .shapes import (
    CHOW,
    KNITTED_STRAIGHTS,
    KONG,
    PAIR,
    PUNG,
    THIRTEEN_ORPHANS,
    decompose,
)
from .tiles import TILES
from .waits import is_unique_wait

__all__ = ["PROFILES", "calculate"]

PROFILES = ("1998", "mil")

_FANS_BY_NUMBER: tuple[Fan | None, ...] = (None, *Fan)

# The reference's tile order (万 条 饼 then honours): it decides which of equal-scoring
# decompositions the reference reports, so decompositions are tried in that order.
_REF_ORDER = tuple(t if t < 9 or t >= 27 else (t + 9 if t < 18 else t - 9) for t in range(34))


class _Ctx:
    """The win flags after validation, and the hand-wide facts every decomposition shares."""

    __slots__ = (
        "fourth",
        "kong",
        "last",
        "mil",
        "prevalent",
        "seat",
        "self_drawn",
        "unique_wait",
        "win",
    )

    def __init__(
        self,
        win: int,
        self_drawn: bool,
        fourth: bool,
        kong: bool,
        last: bool,
        seat: int,
        prevalent: int,
        mil: bool,
    ) -> None:
        self.win = win
        self.self_drawn = self_drawn
        self.fourth = fourth
        self.kong = kong
        self.last = last
        self.seat = seat
        self.prevalent = prevalent
        self.mil = mil
        self.unique_wait = False


# --------------------------------------------------------------------------------------------
# Fans that depend on the whole hand's tiles


def _suit_fans(kinds: Sequence[int], t: list[int]) -> None:
    """无字 缺一门 混一色 清一色 五门齐."""
    present = {SUIT[k] for k in kinds}
    has_honor = 3 in present or 4 in present
    missing = sum(1 for s in (0, 1, 2) if s not in present)
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
    if len(present) == 5:
        t[F.ALL_TYPES] = 1


def _tile_fans(kinds: Sequence[int], t: list[int]) -> None:
    """断幺 推不倒 绿一色 字一色 清幺九 混幺九."""
    if not any(IS_TERMINAL_OR_HONOR[k] for k in kinds):
        t[F.ALL_SIMPLES] = 1
    if all(k in REVERSIBLE for k in kinds):
        t[F.REVERSIBLE_TILES] = 1
    if all(k in GREEN for k in kinds):
        t[F.ALL_GREEN] = 1
    if t[F.ALL_SIMPLES]:
        return
    if all(IS_HONOR[k] for k in kinds):
        t[F.ALL_HONORS] = 1
    elif all(IS_TERMINAL[k] for k in kinds):
        t[F.ALL_TERMINALS] = 1
    elif all(IS_TERMINAL_OR_HONOR[k] for k in kinds):
        t[F.ALL_TERMINALS_AND_HONOURS] = 1


def _rank_fans(kinds: Sequence[int], t: list[int]) -> None:
    """全大 全中 全小 大于五 小于五."""
    if any(k >= 27 for k in kinds):
        return
    ranks = {RANK[k] for k in kinds}
    if max(ranks) <= 4:
        t[F.LOWER_FOUR if 4 in ranks else F.LOWER_TILES] = 1
    elif min(ranks) >= 6:
        t[F.UPPER_FOUR if 6 in ranks else F.UPPER_TILES] = 1
    elif min(ranks) >= 4 and max(ranks) <= 6:
        t[F.MIDDLE_TILES] = 1


def _win_flag_fans(ctx: _Ctx, t: list[int]) -> None:
    """和绝张 自摸 妙手回春 海底捞月 杠上开花 抢杠和 (第九条 44-47, 58, 80)."""
    if ctx.fourth:
        t[F.LAST_TILE] = 1
    if ctx.self_drawn:
        t[F.SELF_DRAWN] = 1
        if ctx.last:
            t[F.LAST_TILE_DRAW] = 1
            t[F.SELF_DRAWN] = 0  # 妙手回春 不计自摸
        if ctx.kong:
            t[F.OUT_WITH_REPLACEMENT_TILE] = 1
            t[F.SELF_DRAWN] = 0  # 杠上开花 不计自摸
    else:
        if ctx.last:
            t[F.LAST_TILE_CLAIM] = 1
        if ctx.kong:
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


def _apply_implied(t: list[int], why: list[ExcludedFan] | None) -> None:
    """Drop fans implied by counted ones (不重复原则), recording why when asked."""
    for fan, implied in _IMPLIED:
        if not t[fan]:
            continue
        for other in implied:
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


def _kong_fans(
    concealed_pungs: int, melded_kongs: int, concealed_kongs: int, mil: bool, t: list[int]
) -> None:
    """The kong family and the concealed-pung family: at most one fan of each."""
    kongs = melded_kongs + concealed_kongs
    concealed = concealed_pungs + concealed_kongs  # 暗刻 counts concealed kongs too
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
    if concealed == 4:
        t[F.FOUR_CONCEALED_PUNGS] = 1
    elif concealed == 3:
        t[F.THREE_CONCEALED_PUNGS] = 1
    elif concealed == 2 and not t[F.TWO_CONCEALED_KONGS]:  # 双暗杠 不计双暗刻
        t[F.TWO_CONCEALED_PUNGS] = 1


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


def _wait_fans(concealed_sets: Sequence[int], win: int, t: list[int]) -> None:
    """边张 坎张 单钓将 for a unique wait: where the winning tile sits in the concealed sets."""
    if t[F.MELDED_HAND] or t[F.FOUR_KONGS]:
        return
    edge = closed = single = False
    for s in concealed_sets:
        kind, tile = s >> 6, s & 63
        if kind == CHOW:
            if tile + 1 == win:
                closed = True
            elif tile == win or tile + 2 == win:
                edge = True
        elif kind == PAIR and tile == win:
            single = True
    if edge:
        t[F.EDGE_WAIT] = 1
    elif closed:
        t[F.CLOSED_WAIT] = 1
    elif single:
        t[F.SINGLE_WAIT] = 1


def _regular_fans(
    fixed: Sequence[Meld],
    concealed_sets: tuple[int, ...],
    kinds: Sequence[int],
    total: Sequence[int],
    ctx: _Ctx,
    why: list[ExcludedFan] | None,
) -> list[int]:
    t = [0] * FAN_TABLE_SIZE
    chows: list[int] = []
    pungs: list[int] = []
    pair = -1
    concealed_pungs = melded_kongs = concealed_kongs = 0
    melded_sets = 0
    for meld in fixed:
        meld_kind = meld.kind
        if meld_kind is MeldKind.CHOW:
            chows.append(meld.tile)
            melded_sets += 1
        elif meld_kind is MeldKind.PUNG:
            pungs.append(meld.tile)
            melded_sets += 1
        elif meld_kind is MeldKind.KONG:
            pungs.append(meld.tile)
            melded_kongs += 1
            melded_sets += 1
        else:
            pungs.append(meld.tile)
            concealed_kongs += 1
    win = ctx.win
    win_in_chow = False
    for s in concealed_sets:
        kind, tile = s >> 6, s & 63
        if kind == CHOW:
            chows.append(tile)
            if tile <= win <= tile + 2:
                win_in_chow = True
        elif kind == PUNG:
            pungs.append(tile)
            concealed_pungs += 1
        else:
            pair = tile
    if (
        not ctx.self_drawn
        and not win_in_chow
        and any(s == (PUNG << 6 | win) for s in concealed_sets)
    ):
        concealed_pungs -= 1  # a pung completed by a discard is exposed

    _win_flag_fans(ctx, t)

    if pungs:
        _kong_fans(concealed_pungs, melded_kongs, concealed_kongs, ctx.mil, t)
        if len(pungs) == 4 and not t[F.FOUR_KONGS] and not t[F.FOUR_CONCEALED_PUNGS]:
            t[F.ALL_PUNGS] = 1
        for p in pungs:
            if IS_DRAGON[p]:
                t[F.DRAGON_PUNG] += 1
            elif IS_TERMINAL_OR_HONOR[p]:
                t[F.PUNG_OF_TERMINALS_OR_HONOURS] += 1

    chows.sort()
    pungs.sort()
    terminal_chows = False
    if len(chows) == 4 and RANK[pair] == 5 and pair < 27:
        ranks = sorted(RANK[c] for c in chows)
        if ranks == [1, 1, 7, 7]:
            suits = [SUIT[c] for c in chows]
            if all(s == SUIT[pair] for s in suits):
                t[F.PURE_TERMINAL_CHOWS] = 1
                terminal_chows = True
            elif SUIT[pair] not in suits:
                low = {SUIT[c] for c in chows if RANK[c] == 1}
                high = {SUIT[c] for c in chows if RANK[c] == 7}
                if len(low) == 2 and low == high:
                    t[F.THREE_SUITED_TERMINAL_CHOWS] = 1
                    terminal_chows = True
    if not terminal_chows:
        for fan, _ in chow_combinations(tuple(chows)):
            t[fan] += 1
        for fan, _ in pung_combinations(tuple(pungs)):
            t[fan] += 1

    # 不求人 门前清 全求人 自摸
    if melded_sets == 0:
        t[F.FULLY_CONCEALED_HAND if ctx.self_drawn else F.CONCEALED_HAND] = 1
    elif melded_sets == 4:
        t[F.SELF_DRAWN if ctx.self_drawn else F.MELDED_HAND] = 1
    elif ctx.self_drawn:
        t[F.SELF_DRAWN] = 1

    # The pair: 平和, and 双箭刻/三风刻 become 小三元/小四喜.
    if len(chows) == 4:
        if pair < 27:
            t[F.ALL_CHOWS] = 1
    elif t[F.TWO_DRAGON_PUNGS]:
        if IS_DRAGON[pair]:
            t[F.LITTLE_THREE_DRAGONS] = 1
            t[F.TWO_DRAGON_PUNGS] = 0
    elif t[F.BIG_THREE_WINDS] and IS_WIND[pair]:
        t[F.LITTLE_FOUR_WINDS] = 1
        t[F.BIG_THREE_WINDS] = 0

    # 全带幺 全带五 全双刻: every set and the pair.
    outside = fives = evens = 0
    for c in chows:
        r = RANK[c]
        if r in (1, 7):
            outside += 1
        elif 3 <= r <= 5:
            fives += 1
    for p in (*pungs, pair):
        if p >= 27:
            outside += 1
            continue
        r = RANK[p]
        if r in (1, 9):
            outside += 1
        elif r == 5:
            fives += 1
        elif r % 2 == 0:
            evens += 1
    if outside == 5:
        t[F.OUTSIDE_HAND] = 1
    elif fives == 5:
        t[F.ALL_FIVES] = 1
    elif evens == 5:
        t[F.ALL_EVEN_PUNGS] = 1

    _suit_fans(kinds, t)
    _tile_fans(kinds, t)
    _rank_fans(kinds, t)
    if not t[F.QUADRUPLE_CHOW]:
        t[F.TILE_HOG] = sum(1 for k in kinds if total[k] == 4) - melded_kongs - concealed_kongs
    if ctx.unique_wait:
        _wait_fans(concealed_sets, win, t)
    _apply_implied(t, why)
    if not t[F.BIG_FOUR_WINDS]:
        for p in pungs:
            if IS_WIND[p]:
                _wind_pung_fans(p, ctx, t)
    if not any(t):
        t[F.CHICKEN_HAND] = 1
    return t


# --------------------------------------------------------------------------------------------
# Special shapes


def _seven_pairs_fans(
    standing: Sequence[int], kinds: Sequence[int], ctx: _Ctx, why: list[ExcludedFan] | None
) -> list[int]:
    t = [0] * FAN_TABLE_SIZE
    suit = SUIT[ctx.win]
    if suit < 3:
        base = suit * 9
        run = [standing[base + r] == 2 for r in range(9)]
        shifted = any(all(run[s : s + 7]) for s in range(3))
    else:
        shifted = False
    if shifted:
        t[F.SEVEN_SHIFTED_PAIRS] = 1
        if not standing[base] and not standing[base + 8]:
            t[F.ALL_SIMPLES] = 1
        _win_flag_fans(ctx, t)
        return t
    t[F.SEVEN_PAIRS] = 1
    _suit_fans(kinds, t)
    _tile_fans(kinds, t)
    _rank_fans(kinds, t)
    t[F.TILE_HOG] = sum(1 for k in kinds if standing[k] == 4)
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
    if win >= 27:
        return None
    base = win - win % 9
    expected = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    expected[win % 9] += 1
    if [standing[base + r] for r in range(9)] != expected or sum(standing) != 14:
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
        if rest[ctx.win] and is_unique_wait(rest, ctx.win):
            _wait_fans((other_set, PAIR << 6 | pair), ctx.win, t)
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


def _format_set(s: int) -> str:
    kind, tile = s >> 6, s & 63
    if kind == CHOW:
        return "".join(str(TILES[tile + i]) for i in range(3))
    return str(TILES[tile]) * (2 if kind == PAIR else 3)


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


def _validate(hand: Hand, context: WinContext) -> tuple[list[int], list[int], bool, bool]:
    """Check the input is a possible hand; return (standing counts, total counts, 和绝张, kong flag)."""
    if hand.win_tile is not None and hand.win_tile != context.win_tile:
        raise InvalidHandError(
            f"the hand's winning tile {hand.win_tile} differs from the context's {context.win_tile}"
        )
    if len(hand.melds) > 4:
        raise InvalidHandError(f"at most 4 melds, not {len(hand.melds)}")
    expected = 13 - 3 * len(hand.melds)
    if len(hand.concealed) != expected:
        raise InvalidHandError(
            f"with {len(hand.melds)} meld(s) a hand holds {expected} concealed tiles before the "
            f"winning tile, not {len(hand.concealed)} (相公)"
        )
    win = int(context.win_tile)
    standing = [0] * 34
    for tile in hand.concealed:
        standing[tile] += 1
    standing[win] += 1
    total = list(standing)
    melded = [0] * 34
    for meld in hand.melds:
        for tile in meld.tiles:
            total[tile] += 1
            melded[tile] += 1
    over = [TILES[t] for t in range(34) if total[t] > 4]
    if over:
        raise InvalidHandError("more than four of " + ", ".join(f"{t} ({total[t]})" for t in over))
    fourth = context.fourth_tile
    if fourth and standing[win] > 1:
        raise InvalidHandError(
            f"和绝张 (fourth tile) is impossible: the hand itself holds another {context.win_tile}"
        )
    if melded[win] == 3 and standing[win] == 1:
        fourth = True  # three in one's own melds: the winning tile is necessarily the last one
    kong = context.kong
    if kong and context.self_drawn and not any(m.kind.is_kong for m in hand.melds):
        raise InvalidHandError("杠上开花 (out on a kong replacement) needs a kong in the hand")
    if kong and not context.self_drawn and (standing[win] > 1 or melded[win] > 0):
        raise InvalidHandError(
            f"抢杠和 (robbing a kong) is impossible: the other three {context.win_tile} are in the "
            "robbed pung, yet the hand holds one"
        )
    if kong and not context.self_drawn and context.last_tile:
        # 第七条七: a kong takes a replacement from the wall, so none is declared once it is empty.
        raise InvalidHandError("抢杠和 (robbing a kong) cannot happen on the last tile of the wall")
    return standing, total, fourth, kong


def calculate(
    hand: Hand, context: WinContext, rules: str = "1998", *, explain: bool = False
) -> FanResult:
    """Score a winning hand: every fan with its count, the total, and whether it reaches 8 points.

    ``hand.concealed`` excludes the winning tile, which ``context.win_tile`` names. Input that
    cannot be a real hand raises :class:`~guobiao.result.InvalidHandError`; a hand whose tiles make
    no winning shape returns a result with ``is_winning`` False. With ``explain`` the result also
    lists the fans the hand shows that are not counted, and the reason.
    """
    if rules not in PROFILES:
        raise ValueError(f"unknown rules profile {rules!r}: choose one of {', '.join(PROFILES)}")
    standing, total, fourth, kong = _validate(hand, context)
    fixed = hand.melds
    ctx = _Ctx(
        int(context.win_tile),
        context.self_drawn,
        fourth,
        kong,
        context.last_tile,
        int(context.seat_wind),
        int(context.round_wind),
        rules == "mil",
    )
    kinds = [k for k in range(34) if total[k]]
    why: list[ExcludedFan] | None = [] if explain else None

    best: list[int] | None = None
    views: list[SetView] = []
    best_points = 0
    shape = ""  # named only when explaining: the hot path never formats text
    seven_pairs = False
    if not fixed:
        if sum(1 for c in standing if c % 2) == 0:
            best = _seven_pairs_fans(standing, kinds, ctx, why)
            seven_pairs = bool(best[F.SEVEN_PAIRS])
            if explain:
                pairs = (str(TILES[k]) * 2 for k in kinds for _ in range(standing[k] // 2))
                shape = "七对 " + " ".join(pairs)
        if best is None:
            best = _honors_and_knitted_fans(standing, kinds, ctx)
            if best is not None and explain:
                shape = "全不靠 " + " ".join(str(TILES[k]) for k in kinds)
        if best is None:
            best = _thirteen_orphans_fans(kinds, ctx)
            if best is not None and explain:
                shape = "十三幺 " + " ".join(str(TILES[k]) for k in kinds)
    if best is None and len(fixed) <= 1:
        found = _knitted_straight_fans(fixed, standing, total, ctx, why)
        if found is not None:
            best, shape, views = found
    if best is None and not fixed:
        best = _nine_gates_fans(standing, ctx)
        if best is not None and explain:
            shape = "九莲宝灯 " + " ".join(str(TILES[k]) * standing[k] for k in kinds)
    if best is not None:
        best_points = _total(best)

    others: list[tuple[str, int]] = []  # readings not taken (就高不就低), when explaining
    if best is None or seven_pairs:
        splits = decompose(standing)
        if splits:
            ctx.unique_wait = is_unique_wait(standing, ctx.win)
            splits.sort(key=_ref_key)
            chosen: tuple[int, ...] | None = None
            for sets in splits:
                table = _regular_fans(fixed, sets, kinds, total, ctx, None)
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
                    others.append((shape, _total(_seven_pairs_fans(standing, kinds, ctx, None))))
                assert why is not None
                why.clear()
                best = _regular_fans(fixed, chosen, kinds, total, ctx, why)
                views = _set_views(fixed, chosen, ctx)
                shape = " ".join(map(str, views))
    others = [item for item in others if item[0] != shape]

    if best is None:
        return FanResult(fans=(), is_winning=False)
    flowers = context.flowers or len(hand.flowers)
    if why is None:
        fans = [CountedFan(_FANS[i], n) for i, n in enumerate(best) if n > 0]
    else:
        story = explain_fans(best, views, kinds, total, ctx.win, ctx.self_drawn, ctx.fourth, shape)
        fans = [
            CountedFan(_FANS[i], n, story.bases.get(i, ())) for i, n in enumerate(best) if n > 0
        ]
        why.extend(ExcludedFan(_FANS[f], reason) for f, reason in story.excluded)
    if flowers:
        fans.append(CountedFan(Fan.FLOWER_TILES, flowers, (f"{flowers} flower(s)",)))
    fans.sort(key=lambda f: (f.fan is Fan.FLOWER_TILES, -f.fan.points, f.fan.number))
    return FanResult(
        fans=tuple(fans),
        is_winning=True,
        excluded=tuple(why or ()),
        decomposition=shape,
        alternatives=tuple(others),
    )
