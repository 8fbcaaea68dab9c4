"""Adapter to the reference calculator, PyMahjongGB 1.4.0 (module ``MahjongGB``).

PyMahjongGB binds ChineseOfficialMahjongHelper's ``calculate_fan``, compiled with
``SUPPORT_CONCEALED_KONG_AND_MELDED_KONG = 1`` (明暗杠, 5 points) and
``DISTINGUISH_PURE_SHIFTED_CHOWS = 0``: it is the ``mil`` profile. It validates only the tile
count and "more than 4 of a tile" (standing tiles only), neither the 8-point minimum nor flag
consistency; it silently drops contradictory flags (和绝张 with a copy standing, 杠上开花 without
a kong, 抢杠和 while holding the tile). Callers validate first (``handgen.hand_issues`` or
``guobiao.cli.jsonio``).

Reference names that differ from the 1998 table (see ``fan_calculator.h``, ``fan_name``):

=================  ============  ==========================================
reference          ours          note
=================  ============  ==========================================
独听・边张          边张          "unique wait" prefix, U+30FB middle dot
独听・嵌张          坎张          嵌张 is the modern name of 坎张
独听・单钓          单钓将
一色三步高Ⅰ/Ⅱ       一色三步高    only if built with DISTINGUISH_PURE_SHIFTED_CHOWS
一色四步高Ⅰ/Ⅱ       一色四步高    (not the case for 1.4.0; mapped defensively)
明暗杠              明暗杠        mil only; 1998 counts 明杠 + 暗杠 instead
=================  ============  ==========================================

All other names are the same characters as the 1998 table. English names are ignored (the binding
spells "Honors", "Two Dragons Pungs", "Robbing The Kong", "All Five" ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from MahjongGB import MahjongFanCalculator

__all__ = [
    "FAN_POINTS",
    "REFERENCE_NAME_MAP",
    "OracleError",
    "reference_evaluate",
    "reference_fans",
    "to_1998",
    "to_reference_args",
]

#: Our fan table: zh -> points (the 81 fans of 1998, flowers 1 each, and 明暗杠 of mil).
FAN_POINTS: dict[str, int] = {
    "大四喜": 88, "大三元": 88, "绿一色": 88, "九莲宝灯": 88,
    "四杠": 88, "连七对": 88, "十三幺": 88,
    "清幺九": 64, "小四喜": 64, "小三元": 64, "字一色": 64, "四暗刻": 64, "一色双龙会": 64,
    "一色四同顺": 48, "一色四节高": 48,
    "一色四步高": 32, "三杠": 32, "混幺九": 32,
    "七对": 24, "七星不靠": 24, "全双刻": 24, "清一色": 24, "一色三同顺": 24, "一色三节高": 24,
    "全大": 24, "全中": 24, "全小": 24,
    "清龙": 16, "三色双龙会": 16, "一色三步高": 16, "全带五": 16, "三同刻": 16, "三暗刻": 16,
    "全不靠": 12, "组合龙": 12, "大于五": 12, "小于五": 12, "三风刻": 12,
    "花龙": 8, "推不倒": 8, "三色三同顺": 8, "三色三节高": 8, "无番和": 8, "妙手回春": 8,
    "海底捞月": 8, "杠上开花": 8, "抢杠和": 8,
    "碰碰和": 6, "混一色": 6, "三色三步高": 6, "五门齐": 6, "全求人": 6, "双暗杠": 6, "双箭刻": 6,
    "全带幺": 4, "不求人": 4, "双明杠": 4, "和绝张": 4,
    "箭刻": 2, "圈风刻": 2, "门风刻": 2, "门前清": 2, "平和": 2, "四归一": 2, "双同刻": 2,
    "双暗刻": 2, "暗杠": 2, "断幺": 2,
    "一般高": 1, "喜相逢": 1, "连六": 1, "老少副": 1, "幺九刻": 1, "明杠": 1, "缺一门": 1,
    "无字": 1, "边张": 1, "坎张": 1, "单钓将": 1, "自摸": 1, "花牌": 1,
    "明暗杠": 5,
}  # fmt: skip

#: Reference zh name -> our zh name, where they differ.
REFERENCE_NAME_MAP: dict[str, str] = {
    "独听・边张": "边张",
    "独听・嵌张": "坎张",
    "独听・单钓": "单钓将",
    "一色三步高Ⅰ": "一色三步高",
    "一色三步高Ⅱ": "一色三步高",
    "一色四步高Ⅰ": "一色四步高",
    "一色四步高Ⅱ": "一色四步高",
}

_WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
_TILE_ORDER = [f"{s}{r}" for s in "WBT" for r in range(1, 10)] + ["F1", "F2", "F3", "F4"]
_TILE_ORDER += ["J1", "J2", "J3"]
_SUIT_NEXT = {t: _TILE_ORDER[i + 1] for i, t in enumerate(_TILE_ORDER[:-1])}


class OracleError(Exception):
    """The reference refused the hand. ``reason`` is ``not_winning`` or ``invalid``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def _normalize(name: str) -> str:
    name = REFERENCE_NAME_MAP.get(name, name)
    if name not in FAN_POINTS:
        raise KeyError(f"unknown reference fan name {name!r}")
    return name


def to_reference_args(obj: Mapping[str, Any]) -> tuple[Any, ...]:
    """The positional arguments of ``MahjongFanCalculator`` for a hand in jsonio input format."""
    pack: list[tuple[str, str, int]] = []
    for meld in obj.get("melds", ()):
        kind = meld["type"]
        tiles = list(meld["tiles"])
        offer = meld.get("from")
        if kind == "chow":
            lo = min(tiles, key=_TILE_ORDER.index)
            # CHI takes the middle tile; its offer (1-3) says which tile was claimed. Only
            # "offer != 0" matters to the fans (0 would mean a concealed set), so use the claimed
            # tile when given, else the first.
            claimed = meld.get("claimed")
            which = 1 + sorted(tiles, key=_TILE_ORDER.index).index(claimed) if claimed else 1
            pack.append(("CHI", _SUIT_NEXT[lo], which))
        elif kind == "pung":
            pack.append(("PENG", tiles[0], offer or 1))
        elif kind == "kong":
            pack.append(("GANG", tiles[0], offer or 1))
        elif kind == "concealed_kong":
            pack.append(("GANG", tiles[0], 0))
        else:
            raise OracleError("invalid", f"unknown meld type {kind!r}")
    return (
        tuple(pack),
        tuple(obj["concealed"]),
        obj["win_tile"],
        int(obj.get("flowers", 0)),
        bool(obj.get("self_drawn", False)),
        bool(obj.get("fourth_tile", False)),
        bool(obj.get("kong", False)),
        bool(obj.get("last_tile", False)),
        _WINDS[obj.get("seat_wind", "E")],
        _WINDS[obj.get("round_wind", "E")],
    )


def reference_fans_from_args(args: tuple[Any, ...]) -> dict[str, int]:
    """Like :func:`reference_fans`, on pre-built arguments (see :func:`to_reference_args`)."""
    try:
        result = MahjongFanCalculator(*args, verbose=True)
    except TypeError as exc:
        message = str(exc)
        if message == "ERROR_NOT_WIN":
            raise OracleError("not_winning", message) from exc
        raise OracleError("invalid", message) from exc
    fans: dict[str, int] = {}
    for _points, count, zh, _en in result:
        name = _normalize(zh)
        fans[name] = fans.get(name, 0) + count
    return fans


def reference_fans(obj: Mapping[str, Any]) -> dict[str, int]:
    """The reference's fans for a hand (jsonio input format): our zh name -> count (花牌 = flowers).

    This is the ``mil`` profile; :func:`to_1998` converts. Raises :class:`OracleError`
    (``reason`` ``not_winning`` for ERROR_NOT_WIN, ``invalid`` for any other refusal).
    """
    return reference_fans_from_args(to_reference_args(obj))


def to_1998(fans: Mapping[str, int]) -> dict[str, int]:
    """mil fans -> 1998 fans: 明暗杠 (5) becomes 明杠 (1) + 暗杠 (2). Nothing else differs.

    Kongs are declared melds, so every decomposition the reference weighs carries the same kong fan:
    the swap never changes which decomposition wins.
    """
    out = dict(fans)
    if out.pop("明暗杠", 0):
        out["明杠"] = out.get("明杠", 0) + 1
        out["暗杠"] = out.get("暗杠", 0) + 1
    return out


def reference_evaluate(obj: Mapping[str, Any], rules: str = "mil") -> dict[str, Any]:
    """The reference's answer in the ``guobiao.cli.jsonio.evaluate`` output format (fans by points)."""
    if rules not in ("mil", "1998"):
        raise ValueError(f"rules must be 'mil' or '1998', not {rules!r}")
    try:
        fans = reference_fans(obj)
    except OracleError as exc:
        return {"ok": False, "reason": exc.reason, "message": exc.message}
    if rules == "1998":
        fans = to_1998(fans)
    order = list(FAN_POINTS)
    listed = [
        {"zh": zh, "points": FAN_POINTS[zh], "count": n}
        for zh, n in sorted(fans.items(), key=lambda kv: (kv[0] == "花牌", order.index(kv[0])))
        if n
    ]
    total = sum(f["points"] * f["count"] for f in listed)
    flowers = fans.get("花牌", 0)
    return {"ok": True, "total": total, "meets_minimum": total - flowers >= 8, "fans": listed}


@dataclass
class Outcome:
    """One hand compared: ``status`` is ``match``, ``mismatch`` or ``invalid`` (we rejected it)."""

    status: str
    ours: dict[str, int] | None = None
    reference: dict[str, int] | None = None
    message: str = ""
    reason: str = ""  # our rejection reason, for invalid
    kong_swap: bool = False  # 1998: the reference's 明暗杠 was compared as 明杠 + 暗杠

    def diff(self) -> str:
        """``-name×n`` for fans only the reference counts, ``+name×n`` for fans only we count."""
        ours, ref = self.ours or {}, self.reference or {}
        parts = []
        for name in sorted(set(ours) | set(ref), key=list(FAN_POINTS).index):
            a, b = ours.get(name, 0), ref.get(name, 0)
            if a != b:
                parts.append(f"{'+' if a > b else '-'}{name}×{abs(a - b)}")
        return " ".join(parts)


def fans_of(result: Mapping[str, Any]) -> dict[str, int]:
    """An ``evaluate`` answer's fans as zh -> count (counts of one name are added up)."""
    fans: dict[str, int] = {}
    for fan in result.get("fans", ()):
        fans[fan["zh"]] = fans.get(fan["zh"], 0) + int(fan["count"])
    return {k: v for k, v in fans.items() if v}


def output_problems(
    result: Mapping[str, Any], rules: str, en_names: Mapping[str, str] | None = None
) -> list[str]:
    """Internal consistency of an ``ok`` evaluate answer: points, total, minimum, profile, and
    (given ``en_names``, zh -> en) the English names."""
    problems: list[str] = []
    total = 0
    flowers = 0
    for fan in result.get("fans", ()):
        zh, points, count = fan.get("zh"), fan.get("points"), fan.get("count")
        if zh not in FAN_POINTS:
            problems.append(f"unknown fan {zh!r}")
            continue
        if en_names is not None and fan.get("en") != en_names.get(zh):
            problems.append(f"{zh} en {fan.get('en')!r} != {en_names.get(zh)!r}")
        if points != FAN_POINTS[zh]:
            problems.append(f"{zh} points {points} != {FAN_POINTS[zh]}")
        if not isinstance(count, int) or count < 1:
            problems.append(f"{zh} count {count!r}")
            continue
        total += FAN_POINTS[zh] * count
        if zh == "花牌":
            flowers += count
    if rules == "1998" and any(f.get("zh") == "明暗杠" for f in result.get("fans", ())):
        problems.append("明暗杠 under 1998")
    if result.get("total") != total:
        problems.append(f"total {result.get('total')} != sum of fans {total}")
    if result.get("meets_minimum") != (total - flowers >= 8):
        problems.append(
            f"meets_minimum {result.get('meets_minimum')} with {total - flowers} points"
        )
    return problems


def compare(
    obj: Mapping[str, Any],
    ours: Mapping[str, Any],
    rules: str,
    en_names: Mapping[str, str] | None = None,
) -> Outcome:
    """Compare our ``evaluate(obj, rules)`` answer with the reference (mil, or mil -> 1998).

    Besides the fans (zh -> count), the answer's own consistency is checked (points per fan, total,
    meets_minimum, no 明暗杠 under 1998, and the English names when ``en_names`` is given).
    """
    try:
        ref = reference_fans(obj)
        ref_error = None
    except OracleError as exc:
        ref, ref_error = None, exc
    swap = False
    if ref is not None and rules == "1998" and "明暗杠" in ref:
        ref, swap = to_1998(ref), True
    if not ours.get("ok"):
        reason, message = str(ours.get("reason")), str(ours.get("message", ""))
        if reason == "invalid":
            return Outcome("invalid", None, ref, message, reason)
        if ref_error is not None and ref_error.reason == reason:
            return Outcome("match", None, None, message, reason)
        return Outcome("mismatch", None, ref, f"we say {reason}: {message}", reason, swap)
    mine = fans_of(ours)
    if ref_error is not None:
        return Outcome("mismatch", mine, None, f"reference says {ref_error.message}")
    problems = output_problems(ours, rules, en_names)
    if mine != ref or problems:
        return Outcome("mismatch", mine, ref, "; ".join(problems), kong_swap=swap)
    return Outcome("match", mine, ref, kong_swap=swap)
