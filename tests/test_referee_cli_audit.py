"""A referee's audit of ``guobiao fan --explain`` / ``--json`` / ``--lang zh`` and ``guobiao
shanten`` on the hands a referee meets in disputes (the Green Book's teaching cases).

Every total is checked against the reference calculator (PyMahjongGB, ``oracle``); what the
explanation must say comes from the rules text: the five principles of 第十条一(五) (不重复, 不拆移,
不得相同, 就高不就低, 套算一次), the wait fans of 第九条77-79 (only on a single winning tile,
docs/rules.md §3), the 8-point minimum without flowers (第五条三十四(二), 第九条81).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from rich.cells import cell_len

sys.path.insert(0, str(Path(__file__).resolve().parent))

import handgen
import oracle
from guobiao import Fan, Hand, WinContext, calculate, parse_hand
from guobiao.cli import main
from guobiao.cli.jsonio import hand_from_json
from guobiao.core.melds import MeldKind

SD = {"self_drawn": True}

# (what a referee checks, hand, context flags, profile)
# fmt: off
REFEREE_HANDS: list[tuple[str, str, dict[str, Any], str]] = [
    ("一色三同顺 or 一色三节高, equal totals", "W3W3W3W4W4W5W5W5W7W8W8W8W9 +W4", {}, "1998"),
    ("111222333: pungs beat chows", "W1W1W1W2W2W2W3W3W3B5B6B7T9 +T9", {}, "1998"),
    ("111222333 self-drawn: 不求人", "W1W1W1W2W2W2W3W3W3B5B6B7T9 +T9", SD, "1998"),
    ("组合龙 + chow + pair", "W1W4W7B2B5B8T3T6T9T1T2T3F1 +F1", {}, "1998"),
    ("组合龙 + exposed chow", "[B3B4B5]W1W4W7B2B5B8T3T6T9F1 +F1", {}, "1998"),
    ("组合龙, edge wait in its set", "W1W4W7B2B5B8T3T6T9W8W9F1F1 +W7", {}, "1998"),
    ("组合龙, two waits", "W1W4W7B2B5B8T3T6T9W4W5F1F1 +W6", {}, "1998"),
    ("全不靠", "W1W4W7B2B5T3T6T9F1F2F3J1J2 +J3", {}, "1998"),
    ("全不靠 + 组合龙", "W1W4W7B2B5B8T3T6T9F1F2F3J1 +J2", {}, "1998"),
    ("七星不靠", "W1W4W7B5B8T3T6F1F2F3F4J1J2 +J3", SD, "1998"),
    ("绝张: own pung shown", "[B5B5B5][W1W2W3]W7W8W9B4B6F2F2 +B5", {}, "1998"),
    ("和绝张 flag", "[W2W3W4][B6B7B8]T1T2T3T5T6F2F2 +T7", {"fourth_tile": True}, "1998"),
    ("海底捞月", "[W2W3W4][B6B7B8]T1T2T3T5T6F2F2 +T7", {"last_tile": True}, "1998"),
    ("妙手回春", "[W2W3W4][B6B7B8]T1T2T3T5T6F2F2 +T7", {"last_tile": True, **SD}, "1998"),
    ("杠上开花 + 自摸", "[J1J1J1J1][W2W3W4]W6W7W8W5W6F2F2 +W7", {"kong": True, **SD}, "1998"),
    ("抢杠和 + 和绝张", "[W2W3W4][B6B7B8]T1T2T3T5T6F2F2 +T7",
     {"kong": True, "fourth_tile": True}, "1998"),
    ("边张 1233 on 3", "W1W2W3W3B4B5B6T6T7T8J1J1J1 +W3", {}, "1998"),
    ("12345 on 3: no 边张", "W1W2W3W4W5B4B5B6T6T7T8J1J1 +W3", {}, "1998"),
    ("坎张 4556 on 5", "W4W5W5W6B1B2B3T6T7T8J1J1J1 +W5", {}, "1998"),
    ("45567 on 6: no 坎张", "W4W5W5W6W7B1B2B3T6T7T8J1J1 +W6", {}, "1998"),
    ("4444567 on 7: no 单钓将", "W4W4W4W4W5W6W7B1B2B3T5T6T7 +W7", {}, "1998"),
    ("七对 wait kills 坎张", "W4W4W5W5W6W6T2T2T7T7T7T7T9 +T8", {}, "1998"),
    ("不求人", "W2W3W4W6W7W8B3B4B5T5T5T6T7 +T8", SD, "1998"),
    ("门前清", "W2W3W4W6W7W8B3B4B5T5T5T6T7 +T8", {}, "1998"),
    ("四归一: pung + chow", "[B5B5B5]W2W3W4W6W7W8B4B5B6T7 +T7", {}, "1998"),
    ("a kong is no 四归一", "[B5B5B5B5]W2W3W4W6W7W8B6B7B8T7 +T7", {}, "1998"),
    ("双暗杠", "(W1W1W1W1)(B2B2B2B2)T3T4T5T7T8T9J1 +J1", {}, "1998"),
    ("明杠 + 暗杠 (1998)", "[W1W1W1W1](B2B2B2B2)T3T3T3T7T8T9J1 +J1", {}, "1998"),
    ("明暗杠 (mil)", "[W1W1W1W1](B2B2B2B2)T3T3T3T7T8T9J1 +J1", {}, "mil"),
    ("明杠 + 暗杠 below 8", "[W1W1W1W1](B2B2B2B2)T3T4T5T7T8T9J1 +J1", SD, "1998"),
    ("无番和", "[W2W3W4][B6B7B8]T1T2T3T5T6F2F2 +T7", {}, "1998"),
    ("无番和 + flowers", "[W2W3W4][B6B7B8]T1T2T3T5T6F2F2 +T7 H1H2", {}, "1998"),
    ("flowers do not reach 8", "[W2W3W4][B6B7B8]T1T2T3T5T6F2F2 +T7 H1H2H3H4H5", SD, "1998"),
    ("123m123m123p123p", "[W1W2W3][W1W2W3]B1B2B3B1B2B3J1 +J1", {}, "1998"),
    ("234 234 345 345", "[W2W3W4][W2W3W4]W3W4W5W3W4W5B8 +B8", {}, "1998"),
    ("123m 789m 123s 789s", "[W1W2W3][W7W8W9]T1T2T3T7T8T9J1 +J1", {}, "1998"),
    ("234567s 234567p", "[T2T3T4][T5T6T7]B2B3B4B5B6B7J1 +J1", {}, "1998"),
    ("双同刻 twice", "[W2W2W2][B2B2B2]W5W5W5B5B5B5J1 +J1", {}, "1998"),
    ("三色三节高 + 双同刻", "[W2W2W2][B3B3B3]T4T4T4B2B2B2J1 +J1", {}, "1998"),
    ("honour pair: no 平和", "W2W3W4W6W7W8B3B4B5T5T6F1F1 +T7", {}, "1998"),
    ("平和", "W2W3W4W6W7W8B3B4B5T5T6B9B9 +T7", {}, "1998"),
    ("七对", "W2W2W5W5B3B3B8B8T4T4T6T6J1 +J1", {}, "1998"),
    ("连七对", "T2T2T3T3T4T4T5T5T6T6T7T7T8 +T8", SD, "1998"),
    ("一色双龙会 over 七对", "W1W1W2W2W3W3W5W7W7W8W8W9W9 +W5", {}, "1998"),
    ("全带幺, honour pair", "[W1W2W3][W7W8W9]B1B1B1T7T8T9F1 +F1", {}, "1998"),
    ("全带幺, terminal pair", "W1W2W3W7W8W9B7B8B9T1T1T1T9 +T9", {}, "1998"),
    ("九莲宝灯 on 5", "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5", {}, "1998"),
    ("九莲宝灯 on 2", "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W2", {}, "1998"),
    ("九莲宝灯 on 1", "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W1", SD, "1998"),
    ("not 九莲宝灯", "W1W1W1W2W3W4W5W5W6W7W8W9W9 +W9", {}, "1998"),
    ("十三幺 + 和绝张", "W1W9B1B9T1T9F1F2F3F4J1J2J2 +J3", {"fourth_tile": True, **SD}, "1998"),
    ("大三元", "[J1J1J1][J2J2J2]J3J3W9W9W9B5B5 +J3", {}, "1998"),
    ("小三元", "[J1J1J1][J2J2J2]W2W3W4T6T7T8J3 +J3", {}, "1998"),
    ("大四喜", "[F1F1F1][F2F2F2]F3F3F3F4F4F4W1 +W1", {"seat_wind": "S"}, "1998"),
    ("小四喜", "[F1F1F1][F2F2F2]F3F3F3W9W9W9F4 +F4", {"seat_wind": "S"}, "1998"),
    ("三风刻 + 圈风刻 + 门风刻", "[F1F1F1][F2F2F2]F3F3F3W9W9W9B5 +B5", {"seat_wind": "S"}, "1998"),
    ("a plain wind pung is 幺九刻", "[F2F2F2][J1J1J1]W9W9W9B2B3B4T5 +T5",
     {"seat_wind": "W", "round_wind": "N"}, "1998"),
    ("a discard makes the pung exposed", "W2W2W2B5B5B5T7T7T7J2J2F3F3 +J2", {}, "1998"),
    ("四暗刻", "W2W2W2B5B5B5T7T7T7J2J2F3F3 +J2", SD, "1998"),
    ("全求人", "[W2W3W4][B6B7B8][T1T2T3][T5T6T7]F2 +F2", {}, "1998"),
    ("four melds self-drawn", "[W2W3W4][B6B7B8][T1T2T3][T5T6T7]F2 +F2", SD, "1998"),
    ("四杠", "[W1W1W1W1][B2B2B2B2](T3T3T3T3)(T7T7T7T7)J1 +J1", {}, "1998"),
    ("清幺九 + 三同刻", "[W1W1W1]B1B1B1T1T1T1W9W9W9B9 +B9", {}, "1998"),
    ("一色四步高", "[T1T2T3][T3T4T5]T5T6T7T7T8T9J1 +J1", {}, "1998"),
    ("一色四同顺", "[T4T5T6][T4T5T6]T4T5T6T4T5W5W5 +T6", {}, "1998"),
    ("清龙 + 一般高", "[W1W2W3][W4W5W6]W7W8W9W1W2W3J1 +J1", {}, "1998"),
    ("推不倒", "[B1B2B3][B4B4B4]T2T2T2T4T5J3J3 +T6", {}, "1998"),
    ("绿一色 + 清一色", "[T2T3T4][T6T6T6]T8T8T8T2T3T4T4 +T4", {}, "1998"),
    ("五门齐", "[F1F1F1]W2W3W4B5B6B7T7T8T9J1 +J1", {}, "1998"),
    ("字一色 七对", "F1F1F2F2F3F3F4F4J1J1J2J2J3 +J3", {}, "1998"),
]
# fmt: on

_FLAGS = {"self_drawn": "-s", "fourth_tile": "-4", "kong": "-k", "last_tile": "-l"}


def invoke(*args: str) -> Result:
    """The command at 80 columns, in this process; an exception other than an exit fails."""
    result = CliRunner(env={"COLUMNS": "80"}).invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {result.exception!r}\n{result.output}")
    return result


def fan_args(hand: str, flags: dict[str, Any], rules: str = "1998") -> list[str]:
    args = ["fan", hand, "--rules", rules]
    for key, value in flags.items():
        if key in _FLAGS and value:
            args.append(_FLAGS[key])
        elif key == "seat_wind":
            args += ["--seat", value]
        elif key == "round_wind":
            args += ["--round", value]
    return args


def explained_json(hand: str, flags: dict[str, Any] | None = None, *more: str) -> Any:
    result = invoke(*fan_args(hand, flags or {}), "--json", "--explain", *more)
    return json.loads(result.stdout)


def as_json_hand(text: str, flags: dict[str, Any]) -> dict[str, Any]:
    """The hand in the JSON-lines form the reference adapter (``oracle``) reads."""
    hand = parse_hand(text)
    melds = []
    for meld in hand.melds:
        kind = {MeldKind.CHOW: "chow", MeldKind.PUNG: "pung"}.get(meld.kind)
        if kind is None:
            kind = "concealed_kong" if meld.is_concealed else "kong"
        melds.append({"type": kind, "tiles": [str(t) for t in meld.tiles], "from": 1})
    return {
        "concealed": [str(t) for t in hand.concealed],
        "melds": melds,
        "win_tile": str(hand.win_tile),
        "flowers": len(hand.flowers),
        **flags,
    }


def basis_of(answer: Any, zh: str) -> list[str]:
    return next(f["basis"] for f in answer["fans"] if f["zh"] == zh)


def reasons_of(answer: Any, zh: str) -> list[str]:
    return [e["reason"] for e in answer["excluded"] if e["zh"] == zh]


# -- the totals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "flags", "rules"),
    [pytest.param(h, f, r, id=name) for name, h, f, r in REFEREE_HANDS],
)
def test_the_referee_hands_score_as_the_reference(
    hand: str, flags: dict[str, Any], rules: str
) -> None:
    ours = json.loads(invoke(*fan_args(hand, flags, rules), "--json").stdout)
    reference = oracle.reference_evaluate(as_json_hand(hand, flags), rules)
    assert ours["ok"] and reference["ok"]
    assert oracle.fans_of(ours) == oracle.fans_of(reference)
    assert ours["total"] == reference["total"]


@pytest.mark.parametrize(
    ("hand", "flags", "rules"),
    [pytest.param(h, f, r, id=name) for name, h, f, r in REFEREE_HANDS],
)
def test_the_explanation_fits_80_columns_in_both_languages(
    hand: str, flags: dict[str, Any], rules: str
) -> None:
    ours = json.loads(invoke(*fan_args(hand, flags, rules), "--json").stdout)
    for lang in ("en", "zh"):
        out = invoke(*fan_args(hand, flags, rules), "--explain", "--lang", lang).stdout
        assert max(map(cell_len, out.splitlines())) <= 80, out
        assert f"{ours['total']}" in out


# -- each fan rests on the right sets ----------------------------------------------------------


def test_wind_fans_name_their_own_pung() -> None:
    # 东 南 西 pungs, seat S, prevalent E: 圈风刻 is the 东 pung, 门风刻 the 南 pung, and the one
    # 幺九刻 is 999m (the winds are in 三风刻). Every wind pung was named under each of the three.
    answer = explained_json("[F1F1F1][F2F2F2]F3F3F3W9W9W9B5 +B5", {"seat_wind": "S"})
    assert basis_of(answer, "圈风刻") == ["[F1F1F1]"]
    assert basis_of(answer, "门风刻") == ["[F2F2F2]"]
    assert basis_of(answer, "幺九刻") == ["W9W9W9"]
    # a seat-wind pung beside a terminal pung: 幺九刻 is the terminal pung only
    answer = explained_json("[F2F2F2]W9W9W9B2B3B4T5T6T7J1 +J1", {"seat_wind": "S"})
    assert basis_of(answer, "门风刻") == ["[F2F2F2]"]
    assert basis_of(answer, "幺九刻") == ["W9W9W9"]


def test_the_library_leaves_the_big_three_winds_out_of_pung_of_terminals() -> None:
    hand = parse_hand("[F1F1F1][F2F2F2]F3F3F3W9W9W9B5 +B5")
    assert hand.win_tile is not None
    context = WinContext(hand.win_tile, seat_wind=1)  # type: ignore[arg-type]
    result = calculate(Hand(hand.concealed, hand.melds), context, explain=True)
    from guobiao.scoring.explain import with_winds

    hog = next(f for f in result.fans if f.fan is Fan.PUNG_OF_TERMINALS_OR_HONOURS)
    assert hog.count == 1 and hog.basis == ("W9W9W9",)
    # and with the context known, each wind fan its own pung
    named = with_winds(result, context.seat_wind, context.round_wind)
    bases = {f.fan: f.basis for f in named.fans}
    assert bases[Fan.PREVALENT_WIND] == ("[F1F1F1]",) and bases[Fan.SEAT_WIND] == ("[F2F2F2]",)


def test_nine_gates_extras_name_their_sets() -> None:
    # docs/rules.md §6: on 2 it reads 111 22 345 678 999: 双暗刻 111 999, 连六 345 678, and one
    # 幺九刻, the other being 九莲宝灯's own; on 1 it reads 11 123 456 789 999: 清龙.
    answer = explained_json("W1W1W1W2W3W4W5W6W7W8W9W9W9 +W2")
    assert basis_of(answer, "双暗刻") == ["W1W1W1, W9W9W9"]
    assert basis_of(answer, "连六") == ["W3W4W5 + W6W7W8"]
    assert any("九莲宝灯" in r for r in reasons_of(answer, "幺九刻"))
    answer = explained_json("W1W1W1W2W3W4W5W6W7W8W9W9W9 +W1", SD)
    assert basis_of(answer, "清龙") == ["W1W2W3 + W4W5W6 + W7W8W9"]
    # a nine-sided wait by definition: no wait fan note
    assert not reasons_of(answer, "单钓将") and not reasons_of(answer, "边张")


def test_a_basis_is_never_cut_short_at_80_columns() -> None:
    # 五门齐's "tiles of 万 饼 条 风 箭" was drawn "tiles of 万 饼 条  … 箭": 风 was lost.
    out = invoke("fan", "[F2F2F2][J1J1J1]W9W9W9B2B3B4T5 +T5", "--explain").stdout
    assert "…" not in out
    row = out[out.index("五门齐") :]
    assert "风" in row[: row.index("箭刻")]


def test_wait_fans_name_where_the_tile_sits() -> None:
    answer = explained_json("W1W2W3W3B4B5B6T6T7T8J1J1J1 +W3")
    assert basis_of(answer, "边张") == ["won on W3, the only winning tile, the 3 of 123 (独听)"]
    answer = explained_json("W4W5W5W6B1B2B3T6T7T8J1J1J1 +W5")
    assert basis_of(answer, "坎张") == ["won on W5, the only winning tile, the 5 of 456 (独听)"]


# -- each fan not counted, with its principle --------------------------------------------------

ARTICLE = re.compile(r"(不重复|不拆移|不得相同|套算一次)原则, 第十条一\(五\)[1-5]|第九条77-79")


@pytest.mark.parametrize(
    ("hand", "flags"),
    [
        ("[J1J1J1][J2J2J2]W2W3W4T6T7T8J3 +J3", {}),  # 双箭刻 in 小三元
        ("[F1F1F1][F2F2F2]F3F3F3W9W9W9F4 +F4", {"seat_wind": "S"}),  # 三风刻 in 小四喜
        ("[F1F1F1][F2F2F2]F3F3F3W9W9W9B5 +B5", {"seat_wind": "S"}),  # 幺九刻 in 三风刻
        ("[F1F1F1]W2W3W4B5B6B7T7T8T9J1 +J1", {}),  # 幺九刻 as 圈风刻
        ("[W2W3W4][B6B7B8]T1T2T3T5T6F2F2 +T7", {"kong": True, "fourth_tile": True}),
        ("W2W2W2B5B5B5T7T7T7J2J2F3F3 +J2", SD),  # 不求人 in 四暗刻 (the calculator's words)
        ("[W1W2W3][W1W2W3]B1B2B3B1B2B3J1 +J1", {}),
        ("[W1W2W3][W4W5W6]W7W8W9W1W2W3J1 +J1", {}),
        ("W1W2W3W4W5B4B5B6T6T7T8J1J1 +W3", {}),
    ],
)
def test_every_reason_names_its_principle_and_article(hand: str, flags: dict[str, Any]) -> None:
    answer = explained_json(hand, flags)
    assert answer["excluded"]
    for item in answer["excluded"]:
        assert ARTICLE.search(item["reason"]), item


def test_a_fan_inside_a_bigger_one_is_non_separation() -> None:
    # 清龙 123 456 789: its own 连六 and 老少副 are 不拆移 (第十条一(五)2: 「不能将其自身再拆开
    # 互相组成新的番种」), not sets combined elsewhere.
    answer = explained_json("[W1W2W3][W4W5W6]W7W8W9W1W2W3J1 +J1")
    inside = [r for r in reasons_of(answer, "连六") + reasons_of(answer, "老少副") if "清龙" in r]
    assert len(inside) == 3 and all("不拆移原则, 第十条一(五)2" in r for r in inside)
    # the fourth chow 123m is combined once already (一般高): 套算一次
    outside = [r for r in reasons_of(answer, "连六") if r.startswith("W1W2W3 + ")]
    assert outside and "套算一次原则" in outside[0]


def test_identical_sets_are_told_apart() -> None:
    # 123m 123m 123p 123p: 一般高 x2 and one 喜相逢; the three 喜相逢 not counted are three
    # different pairs of sets (two 不得相同, one 套算一次), not one line said twice differently.
    answer = explained_json("[W1W2W3][W1W2W3]B1B2B3B1B2B3J1 +J1")
    reasons = reasons_of(answer, "喜相逢")
    pairs = [r.split(":")[0] for r in reasons]
    assert sorted(pairs) == [
        "[W1W2W3] (2nd) + B1B2B3",
        "[W1W2W3] (2nd) + B1B2B3 (2nd)",
        "[W1W2W3] + B1B2B3 (2nd)",
    ]
    assert sum("不得相同原则" in r for r in reasons) == 2
    assert sum("套算一次原则" in r for r in reasons) == 1


@pytest.mark.parametrize(
    ("hand", "fan", "waits"),
    [
        ("W1W2W3W4W5B4B5B6T6T7T8J1J1 +W3", "边张", "W3 and W6"),  # 第九条77: 12345 和 3
        ("W4W5W5W6W7B1B2B3T6T7T8J1J1 +W6", "坎张", "W3 and W6"),  # 第九条78: 45567 和 6
        ("W4W4W4W4W5W6W7B1B2B3T5T6T7 +W7", "单钓将", "W4 and W7"),  # W4: all four held
        ("W4W4W5W5W6W6T2T2T7T7T7T7T9 +T8", "坎张", "T8 and T9"),  # T9 as 七对
    ],
)
def test_wait_fans_left_out_on_several_waits_are_listed(hand: str, fan: str, waits: str) -> None:
    answer = explained_json(hand)
    assert not any(f["zh"] == fan for f in answer["fans"])
    (reason,) = reasons_of(answer, fan)
    assert f"waited on {waits}" in reason and "第九条77-79" in reason


def test_equal_readings_are_not_called_higher() -> None:
    # 3334455578889m +4m: 一色三同顺 or 一色三节高, both 52: the other reading is not "lower".
    out = invoke("fan", "W3W3W3W4W4W5W5W5W7W8W8W8W9 +W4", "--explain").stdout
    assert "= 52, the same total" in out
    out = invoke("fan", "W1W1W1W2W2W2W3W3W3B5B6B7T9 +T9", "--explain").stdout
    assert "= 29\n" in out and "就高不就低原则, 第十条一(五)4" in out


# -- the 8-point minimum and hands that do not win ---------------------------------------------


def test_the_minimum_says_flowers_do_not_count() -> None:
    out = invoke("fan", "[W2W3W4][B6B7B8]T1T2T3T5T6F2F2 +T7 H1H2H3H4H5", "-s").stdout
    assert "Total: 6 (flowers 5)" in out
    out = " ".join(out.split())  # the line as one, wherever the terminal breaks it
    assert "no, 1 without flowers (flowers never count toward it, 第九条81)" in out
    assert "not a valid win (错和)" in out
    out = invoke("fan", "[W2W3W4][B6B7B8]T1T2T3T5T6F2F2 +T7 H1H2H3H4H5", "-s", "--lang", "zh")
    assert "不含花牌只有1分（花牌不计在起和分内" in out.stdout


def test_a_hand_that_does_not_win_says_what_it_waited_on() -> None:
    result = invoke("fan", "W1W2W3W4W5W6W7W8W9B1B1B1B5 +B7")
    assert result.exit_code == 1
    assert "before B7 the hand was ready on B5, not on B7" in result.stderr
    result = invoke("fan", "W1W2W3W4W5W6W7W9B1B1B1B5F1 +B7", "--json")
    assert result.exit_code == 1
    assert "before B7 the hand was 1 from ready" in json.loads(result.stdout)["message"]


# -- 中文 --------------------------------------------------------------------------------------


def test_the_explanation_in_chinese() -> None:
    out = invoke("fan", "[W1W2W3][W4W5W6]W7W8W9W1W2W3J1 +J1", "--explain", "--lang", "zh").stdout
    assert "手牌：" in out and "合计：24分" in out and "起和分（8分）：够" in out
    assert "依据" in out and "原因" in out
    assert not re.search(r"[A-Za-z]{3,}", out), out  # no English words, only tile names
    answer = explained_json("[W1W2W3][W4W5W6]W7W8W9W1W2W3J1 +J1", {}, "--lang", "zh")
    assert reasons_of(answer, "老少副") == [
        "[W1W2W3]+W7W8W9：是清龙的一部分，该番种的牌不能拆开另组番种（不拆移原则，第十条一(五)2）",
        "W1W2W3+W7W8W9：两副牌都已组合过，只能套算一次（套算一次原则，第十条一(五)5）",
    ]
    assert basis_of(answer, "单钓将") == ["和J1，只和这一张，单钓将牌（独听）"]
    assert reasons_of(answer, "缺一门") == ["已含于混一色（不重复原则，第十条一(五)1）"]


def test_every_basis_and_reason_reads_in_chinese() -> None:
    """Over generated hands of every family: each text the explanation writes (the library's
    and the calculator's) has its 中文, with no English word left, and each reason names its
    principle and article."""
    from guobiao.scoring.explain import referee_text, wait_exclusions, with_winds

    seen = 0
    for obj in handgen.generate(600, seed=7):
        hand, context = hand_from_json(obj)
        try:
            result = calculate(hand, context, explain=True)
        except ValueError:
            continue  # a combination the calculator refuses (docs/rules.md §13)
        result = with_winds(result, context.seat_wind, context.round_wind)
        excluded = result.excluded + wait_exclusions(hand, context, result)
        texts = [b for f in result.fans for b in f.basis if b != result.decomposition]
        for item in excluded:
            assert ARTICLE.search(referee_text(item.reason)), item.reason
            texts.append(item.reason)
        for text in texts:
            assert not re.search(r"[A-Za-z]{3,}", referee_text(text, "zh")), text
            seen += 1
    assert seen > 1000


# -- shanten ----------------------------------------------------------------------------------


def test_shanten_says_when_a_wait_is_unique() -> None:
    out = invoke("shanten", "W1W2W3W3B4B5B6T6T7T8J1J1J1").stdout
    assert "Waits: W3 (2 left)" in out
    assert "独听 (one winning tile): a win on W3 counts 边张 Edge Wait 1" in out
    out = invoke("shanten", "W4W4W4W4W5W6W7B1B2B3T5T6T7").stdout
    assert "Waits: W4 (0 left); W7 (3 left)" in out
    assert "W4: all four in the hand, yet still a wait" in out
    assert "Not 独听: 2 winning tiles, so no 边张, 坎张 or 单钓将" in out


def test_shanten_on_a_won_hand_shows_its_waits_before_the_win() -> None:
    out = invoke("shanten", "W1W2W3W3B4B5B6T6T7T8J1J1J1 +W3").stdout
    assert "Before W3 it waited on: W3 (2 left)" in out
    answer = json.loads(invoke("shanten", "W1W2W3W3B4B5B6T6T7T8J1J1J1 +W3", "--json").stdout)
    assert answer["before_win"] == {
        "win": "W3",
        "waits": [{"tile": "W3", "live": 2}],
        "unique": True,
    }


def test_shanten_lines_break_between_shapes() -> None:
    out = invoke("shanten", "W1W1W1W2W3W4W5W6W7W8W9W9W9").stdout
    assert max(map(cell_len, out.splitlines())) <= 80
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("By shape: "))
    shapes = " ".join(line.strip() for line in lines[start : start + 3])
    # every shape's name and number on one line: no "全不靠 Lesser Honours and\nKnitted..."
    for part in ("全不靠 Lesser Honours and Knitted Tiles: 10", "组合龙 Knitted Straight: 5"):
        assert any(part in line for line in lines), shapes


def test_the_library_names_each_wind_fans_own_pung() -> None:
    """``calculate(..., explain=True)`` (the web page's end of a hand and ``--json``) named every
    wind pung under 圈风刻 and 门风刻: each now names its wind's pung alone (第九条 60, 61)."""
    from guobiao.core.context import Wind
    from guobiao.core.tiles import Tile

    hand = Hand.parse("[F1F1F1][F2F2F2][F3F3F3]W1W1W2W3")
    context = WinContext(Tile.parse("W1"), seat_wind=Wind.SOUTH, round_wind=Wind.EAST)
    bases = {f.fan: f.basis for f in calculate(hand, context, explain=True).fans}
    assert bases[Fan.PREVALENT_WIND] == ("[F1F1F1]",)  # East round: 东风
    assert bases[Fan.SEAT_WIND] == ("[F2F2F2]",)  # the South seat: 南风
