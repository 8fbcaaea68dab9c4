"""The end-of-hand breakdown the pages show (docs/web.md): what ``guobiao fan --explain`` knows
about the winning hand, as plain JSON, and every payment of the settlement.

Sent only once a hand is over, when every hand is shown anyway. Pure Python: the scoring
library's explanation (:func:`guobiao.scoring.calculator.calculate` with ``explain=True``)
recomputed from the hand's result, its reasons read into a principle code and the fan that
excluded the fan; the payments rebuilt from the hand's :class:`HandOutcome` so that they sum to
its deltas (第十条一(三), penalties 第十条一(二)3).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Final

from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand
from guobiao.scoring.calculator import calculate
from guobiao.scoring.examples import EXAMPLES
from guobiao.scoring.explain import wait_exclusions
from guobiao.scoring.fans import Fan
from guobiao.scoring.result import FanResult, InvalidHandError
from guobiao.table.game import HandResult
from guobiao.table.rules import TableRules
from guobiao.table.settlement import HandOutcome, PenaltyKind

__all__ = [
    "PRINCIPLES",
    "example_json",
    "hand_breakdown",
    "payments",
    "reason_json",
    "tile_groups",
]

PRINCIPLES: Final[dict[str, dict[str, str]]] = {
    "non_repeat": {"zh": "不重复原则", "en": "non-repeat principle", "article": "第十条一(五)1"},
    "non_separation": {
        "zh": "不拆移原则",
        "en": "non-separation principle",
        "article": "第十条一(五)2",
    },
    "non_identical": {
        "zh": "不得相同原则",
        "en": "non-identical principle",
        "article": "第十条一(五)3",
    },
    "account_once": {
        "zh": "套算一次原则",
        "en": "account-once principle",
        "article": "第十条一(五)5",
    },
    "single_wait": {"zh": "单和", "en": "the single-tile wait rule", "article": "第九条77-79"},
}
"""The principles (第十条一(五)) the library names when it leaves a displayed fan out, and the
single winning tile a wait fan needs (第九条77-79: 边张 坎张 单钓将 of a hand that waited on more)."""

# A set or tile as the library writes it: "W1W2W3", "[F1F1F1]", "(J1J1J1J1)", "W5×4".
_TOKEN = re.compile(r"[\[(]?((?:[WBTFJH][1-9])+)[\])]?(?:×([1-4]))?")
_FULL_NAMES = sorted(((f"{f.zh} {f.en}", f) for f in Fan), key=lambda p: -len(p[0]))
_ZH_NAMES = sorted(((f.zh, f) for f in Fan), key=lambda p: -len(p[0]))


def tile_groups(text: str) -> list[str]:
    """The sets and tiles a basis or reason names, each as joined Botzone names ("W1W2W3"); a
    run of single tiles (a special shape's "W1 W4 W7 ...") is one group."""
    groups: list[str] = []
    single = False
    for match in _TOKEN.finditer(text):
        body, times = match.group(1), match.group(2)
        tiles = body * int(times) if times else body
        alone = len(tiles) == 2 and match.group(0) == body
        if alone and single:
            groups[-1] += tiles
        else:
            groups.append(tiles)
        single = alone
    return groups


def _fan_json(fan: Fan) -> dict[str, str]:
    return {"zh": fan.zh, "en": fan.en}


def _named_fan(text: str) -> Fan | None:
    for name, fan in _FULL_NAMES:
        if name in text:
            return fan
    for name, fan in _ZH_NAMES:
        if name in text:
            return fan
    return None


def reason_json(fan: Fan, reason: str) -> dict[str, Any]:
    """One excluded fan: the principle that leaves it out (``by``), the counted fan that holds it
    (``because_of``, None when two sets were combined already), the sets the reason names."""
    sets: list[str] = []
    because: Fan | None
    if "a wait fan needs a single winning tile" in reason:  # scoring.explain.wait_exclusions
        waited = reason.split("waited on ", 1)[1].split(", not on", 1)[0]
        return {
            "zh": fan.zh,
            "en": fan.en,
            "by": {"code": "single_wait", **PRINCIPLES["single_wait"]},
            "because_of": None,
            "sets": tile_groups(waited),  # the tiles the hand waited on
            "reason": reason,
        }
    if "不得相同" in reason:
        code, because = "non_identical", None  # a set already counted in this very fan
    elif "套算一次" in reason:
        code, because = "account_once", None
    elif "不拆移" in reason:  # a fan's own sets (清龙's 连六): the fan that holds them
        code, because = "non_separation", _named_fan(reason)
    else:  # "implied by", "part of", "counts as ... instead", "is concealed by nature", ...
        code, because = "non_repeat", _named_fan(reason)
    if " + " in reason.split(":")[0]:  # a pair combination names its two sets first
        sets = tile_groups(reason.split(":")[0])
    return {
        "zh": fan.zh,
        "en": fan.en,
        "by": {"code": code, **PRINCIPLES[code]},
        "because_of": _fan_json(because) if because is not None else None,
        "sets": sets,
        "reason": reason,
    }


def payments(outcome: HandOutcome, base: int) -> list[dict[str, Any]]:
    """Each payment of the hand, as :func:`guobiao.table.settlement.settle` makes it: ``from``
    pays ``amount`` to ``to`` (None: deducted, a 违例 fine paid to nobody) for ``what``: "base"
    (底分, each other seat), "fans" (the fan points: the discarder, or each seat on a self-draw),
    "flowers" (花牌, paid with the fans), "penalty" (``kind``: false_win, fake_win, violation)."""
    out: list[dict[str, Any]] = []
    winner = outcome.winner
    if winner is not None:
        for seat in range(4):
            if seat == winner:
                continue
            out.append({"from": seat, "to": winner, "amount": base, "what": "base"})
            if outcome.discarder is None or seat == outcome.discarder:
                for what, amount in (("fans", outcome.fan_points), ("flowers", outcome.flowers)):
                    if amount:
                        out.append({"from": seat, "to": winner, "amount": amount, "what": what})
    for penalty in outcome.penalties:
        kind = penalty.kind.name.lower()
        if penalty.kind in (PenaltyKind.FALSE_WIN, PenaltyKind.FAKE_WIN) and penalty.amount:
            for seat in range(4):
                if seat != penalty.seat:
                    out.append(
                        {
                            "from": penalty.seat,
                            "to": seat,
                            "amount": penalty.amount,
                            "what": "penalty",
                            "kind": kind,
                        }
                    )
        elif penalty.kind is PenaltyKind.VIOLATION:
            out.append(
                {
                    "from": penalty.seat,
                    "to": penalty.payee,
                    "amount": penalty.amount,
                    "what": "penalty",
                    "kind": kind,
                }
            )
    return out


def _explained(result: HandResult, round_wind: Wind, rules: TableRules) -> FanResult | None:
    """The winning hand scored again with ``explain=True``: the win's flags read back from its
    counted fans (each flag adds its own fan, 第九条 44-47, 58)."""
    fans, hand, win = result.fans, result.winning_hand, result.win_tile
    if fans is None or hand is None or win is None or result.winner is None:
        return None
    has = {f.fan for f in fans.fans}
    context = WinContext(
        win,
        self_drawn=result.discarder is None,
        fourth_tile=Fan.LAST_TILE in has,
        kong=bool(has & {Fan.OUT_WITH_REPLACEMENT_TILE, Fan.ROBBING_THE_KONG}),
        last_tile=bool(has & {Fan.LAST_TILE_DRAW, Fan.LAST_TILE_CLAIM}),
        seat_wind=Wind(result.winner),
        round_wind=round_wind,
        flowers=fans.count_of(Fan.FLOWER_TILES),
    )
    try:
        again = calculate(
            Hand(hand.concealed, hand.melds), context, rules.fan_profile, explain=True
        )
    except InvalidHandError:
        return None
    counted = [(f.fan, f.count) for f in fans.fans]
    if [(f.fan, f.count) for f in again.fans] != counted:
        return None
    # the wait fans the winning tile shows but that do not count: the hand waited on more
    waits = wait_exclusions(Hand(hand.concealed, hand.melds), context, again)
    return replace(again, excluded=again.excluded + waits) if waits else again


def hand_breakdown(result: HandResult, round_wind: Wind, rules: TableRules) -> dict[str, Any]:
    """The breakdown of a hand that is over: ``fans`` (each counted fan with ``sets``: the tile
    groups of each basis that names tiles; ``basis``, the library's text; None without a win),
    ``excluded`` (fans the hand shows that are not counted, :func:`reason_json`), ``shape`` (the
    reading that scored), ``payments`` (:func:`payments`)."""
    out: dict[str, Any] = {
        "fans": None,
        "excluded": [],
        "shape": "",
        "payments": payments(result.outcome, rules.base),
    }
    explained = _explained(result, round_wind, rules)
    if explained is not None:
        flowers = (
            "".join(str(t) for t in result.winning_hand.flowers) if result.winning_hand else ""
        )
        out["fans"] = [
            {
                "zh": f.fan.zh,
                "en": f.fan.en,
                "points": f.points,
                "count": f.count,
                "sets": (
                    [[flowers]]
                    if f.fan is Fan.FLOWER_TILES and flowers
                    else [g for g in map(tile_groups, f.basis) if g]
                ),
                "basis": list(f.basis),
            }
            for f in explained.fans
        ]
        out["excluded"] = [reason_json(e.fan, e.reason) for e in explained.excluded]
        out["shape"] = explained.decomposition
    elif result.fans is not None:  # cannot happen; the plain fans then
        out["fans"] = [
            {"zh": f.fan.zh, "en": f.fan.en, "points": f.points, "count": f.count, "sets": []}
            for f in result.fans.fans
        ]
    return out


def example_json(fan: Fan) -> dict[str, Any]:
    """The help page's example of ``fan`` (:mod:`guobiao.scoring.examples`) in the winning hand's
    shape the pages draw: standing tiles, ``melds`` (``kind``, ``tiles``), the winning tile, the
    flowers, the win's flags and winds; ``winds`` says whether they matter (a wind pung);
    ``names`` each tile's 中文 name."""
    ex = EXAMPLES[fan]
    hand, context = ex.parse()
    counts = hand.counts()
    tiles = [t for m in hand.melds for t in m.tiles]
    return {
        "concealed": [str(t) for t in ex.standing()],  # as written: a wait beside its tile
        "melds": [{"kind": m.kind.value, "tiles": [str(t) for t in m.tiles]} for m in hand.melds],
        "win_tile": str(context.win_tile),
        "flowers": [str(t) for t in hand.flowers],
        "self_drawn": context.self_drawn,
        "fourth_tile": context.fourth_tile,
        "kong": context.kong,
        "last_tile": context.last_tile,
        "seat_wind": context.seat_wind.letter,
        "round_wind": context.round_wind.letter,
        "winds": any(counts[27 + w] >= 3 for w in Wind),
        # each tile's 中文 name, for the tiles' titles in 中文 (the table pages get the whole table)
        "names": {str(t): t.chinese for t in sorted({*hand.standing, *tiles, *hand.flowers})},
    }
