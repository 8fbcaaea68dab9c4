"""Settlement of a hand (第十条一) and its penalties (第十三条, 第十四条), with numbers worked out from the
text. Seats: 0 East (dealer), 1 South, 2 West, 3 North.

- 第十条一(三)1 自摸: 「(底分+基本分)×3方」: each of the three others pays 8 + points.
- 第十条一(三)2 点和: 「底分×3方＋基本分×1方(点和方)」: each pays 8, the discarder also the points.
- 第五条三十四(二), #81: flowers are paid with the points, never counted toward the 8.
- 第十条一(二)3: penalties are settled at the end of the hand.
- 第十四条六: 错和/和错牌 10 to each, 诈和 20 to each, 有意诈和 disqualification; 九 相公: no fine.
- 第十三条二(二): 违例 fines are one of 5, 10, 20, 30, 40, 50, 60, deducted (扣除).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guobiao.table.settlement import (
    BASE_POINTS,
    VIOLATION_AMOUNTS,
    HandOutcome,
    Penalty,
    PenaltyKind,
    escalating_fine,
    penalty_for,
    settle,
)

FALSE, FAKE, INTENT, COUNT, VIOL = (
    PenaltyKind.FALSE_WIN,
    PenaltyKind.FAKE_WIN,
    PenaltyKind.INTENTIONAL_FAKE_WIN,
    PenaltyKind.WRONG_COUNT,
    PenaltyKind.VIOLATION,
)

# ------------------------------------------------------------------------------------------------
# 第十条一(三): the two formulas

# (winner, discarder, fan points, flowers, expected changes E S W N)
WINS = [
    # 点和 12: discarder 8 + 12 = 20, the other two 8, the winner 3 × 8 + 12 = 36
    pytest.param(1, 2, 12, 0, (-8, 36, -20, -8), id="discard-12"),
    # 自摸 12: each of three pays 8 + 12 = 20, the winner 60
    pytest.param(0, None, 12, 0, (60, -20, -20, -20), id="self-drawn-12-dealer"),
    pytest.param(3, None, 12, 0, (-20, -20, -20, 60), id="self-drawn-12-north"),
    # flowers add to the points paid (#81): 12 + 2
    pytest.param(1, 2, 12, 2, (-8, 38, -22, -8), id="discard-12+2-flowers"),
    pytest.param(2, None, 12, 2, (-22, -22, 66, -22), id="self-drawn-12+2-flowers"),
    # the 8-point minimum exactly
    pytest.param(0, 3, 8, 0, (32, -8, -8, -16), id="discard-8"),
    pytest.param(1, None, 8, 0, (-16, 48, -16, -16), id="self-drawn-8"),
    # the dealer is paid and pays like anyone else: no dealer bonus in the text
    pytest.param(2, 0, 10, 0, (-18, -8, 34, -8), id="dealer-discards"),
    pytest.param(0, 1, 10, 0, (34, -18, -8, -8), id="dealer-wins-on-discard"),
    # 88-point limit hands are paid the same way
    pytest.param(3, 1, 88, 8, (-8, -104, -8, 120), id="discard-88+8-flowers"),
    pytest.param(1, None, 88, 0, (-96, 288, -96, -96), id="self-drawn-88"),
]


@pytest.mark.parametrize(("winner", "discarder", "fans", "flowers", "expected"), WINS)
def test_win_payments_第十条一三(
    winner: int, discarder: int | None, fans: int, flowers: int, expected: tuple[int, ...]
) -> None:
    outcome = HandOutcome(winner, discarder, fans, flowers)
    assert settle(outcome) == expected
    assert sum(expected) == 0


def test_the_base_is_a_table_rule() -> None:
    # 底分 (第十条一(二)1) as a parameter: a table may set another
    assert settle(HandOutcome(0, 1, 8), base=0) == (8, -8, 0, 0)
    assert settle(HandOutcome(0, None, 8), base=10) == (54, -18, -18, -18)
    assert BASE_POINTS == 8


def test_flowers_never_reach_the_minimum_第五条三十四二() -> None:
    # 7 fan points + 5 flowers is 12 paid only if the win were valid; it is not
    with pytest.raises(ValueError, match="below the 8-point minimum"):
        settle(HandOutcome(0, 1, 7, 5))


def test_the_minimum_is_a_table_rule() -> None:
    assert settle(HandOutcome(0, 1, 1), minimum=0) == (25, -9, -8, -8)
    with pytest.raises(ValueError, match="below the 10-point minimum"):
        settle(HandOutcome(0, 1, 8), minimum=10)


def test_a_draw_scores_nothing_第五条三十() -> None:
    assert settle(HandOutcome()) == (0, 0, 0, 0)
    assert HandOutcome().is_draw
    assert not HandOutcome().self_drawn


def test_outcome_helpers() -> None:
    self_drawn = HandOutcome(2, None, 16, 3)
    assert self_drawn.self_drawn and not self_drawn.is_draw
    assert self_drawn.points == 19
    on_discard = HandOutcome(2, 1, 16)
    assert not on_discard.self_drawn and not on_discard.is_draw
    assert on_discard.disqualified == ()
    assert HandOutcome(penalties=(Penalty(3, INTENT), Penalty(1, INTENT))).disqualified == (1, 3)


# ------------------------------------------------------------------------------------------------
# Penalties: 第十条一(二)3, 第十三条, 第十四条


# (outcome, expected changes)
PENALTIES = [
    # 错和 on a drawn hand: the offender pays 10 to each (「罚向各家支付10分」): -30, +10 × 3
    pytest.param(HandOutcome(penalties=(Penalty(2, FALSE, 10),)), (10, 10, -30, 10), id="错和"),
    # 诈和: 20 to each (「罚给各家20分」)
    pytest.param(HandOutcome(penalties=(Penalty(0, FAKE, 20),)), (-60, 20, 20, 20), id="诈和"),
    # 错和 by West, then South wins 12 on West's discard: West pays normally (陪打, 按规定付分)
    pytest.param(
        HandOutcome(1, 2, 12, 0, (Penalty(2, FALSE, 10),)),
        (-8 + 10, 36 + 10, -20 - 30, -8 + 10),
        id="错和-then-pays-a-discard-win",
    ),
    # 诈和 by East, North self-draws 8
    pytest.param(
        HandOutcome(3, None, 8, 0, (Penalty(0, FAKE, 20),)),
        (-16 - 60, -16 + 20, -16 + 20, 48 + 20),
        id="诈和-then-a-self-drawn-win",
    ),
    # two offenders in one hand
    pytest.param(
        HandOutcome(penalties=(Penalty(0, FALSE, 10), Penalty(1, FAKE, 20))),
        (-30 + 20, 10 - 60, 10 + 20, 10 + 20),
        id="错和-and-诈和",
    ),
    # 有意诈和: disqualification, no points move (第十四条六(四))
    pytest.param(HandOutcome(penalties=(Penalty(1, INTENT),)), (0, 0, 0, 0), id="有意诈和"),
    pytest.param(
        HandOutcome(0, 2, 8, 0, (Penalty(1, INTENT),)), (32, -8, -16, -8), id="有意诈和-and-a-win"
    ),
    # 相公: no right to win, no fine (第十四条九)
    pytest.param(HandOutcome(penalties=(Penalty(3, COUNT),)), (0, 0, 0, 0), id="相公"),
    # 违例: deducted from the offender only (「扣除」, docs §15)
    pytest.param(HandOutcome(penalties=(Penalty(1, VIOL, 5),)), (0, -5, 0, 0), id="违例-deducted"),
    # 第十四条七(三): paid to the disturbed player
    pytest.param(
        HandOutcome(0, None, 8, 0, (Penalty(1, VIOL, 30, payee=2),)),
        (48, -16 - 30, -16 + 30, -16),
        id="违例-paid-to-the-disturbed",
    ),
]


@pytest.mark.parametrize(("outcome", "expected"), PENALTIES)
def test_penalties_at_the_end_of_the_hand_第十条一二3(
    outcome: HandOutcome, expected: tuple[int, ...]
) -> None:
    assert settle(outcome) == expected
    assert sum(expected) == -outcome.deducted


def test_only_an_unpaid_violation_breaks_the_zero_sum() -> None:
    assert HandOutcome(penalties=(Penalty(1, VIOL, 5),)).deducted == 5
    assert HandOutcome(penalties=(Penalty(1, VIOL, 5, payee=0),)).deducted == 0
    for kind, amount in ((FALSE, 10), (FAKE, 20), (INTENT, 0), (COUNT, 0)):
        assert HandOutcome(penalties=(Penalty(1, kind, amount),)).deducted == 0


# (kind, keyword arguments, expected penalty)
PENALTY_FOR = [
    pytest.param(FALSE, {}, Penalty(1, FALSE, 10), id="错和-10"),
    pytest.param(FAKE, {}, Penalty(1, FAKE, 20), id="诈和-20"),
    pytest.param(FALSE, {"false_win_penalty": 15}, Penalty(1, FALSE, 15), id="错和-table-rule"),
    pytest.param(FAKE, {"fake_win_penalty": 0}, Penalty(1, FAKE, 0), id="诈和-table-rule"),
    pytest.param(INTENT, {}, Penalty(1, INTENT, 0), id="有意诈和"),
    pytest.param(COUNT, {}, Penalty(1, COUNT, 0), id="相公"),
    pytest.param(VIOL, {"amount": 40}, Penalty(1, VIOL, 40), id="违例"),
    pytest.param(VIOL, {"amount": 5, "payee": 3}, Penalty(1, VIOL, 5, 3), id="违例-payee"),
]


@pytest.mark.parametrize(("kind", "kwargs", "expected"), PENALTY_FOR)
def test_penalty_for(kind: PenaltyKind, kwargs: dict[str, Any], expected: Penalty) -> None:
    assert penalty_for(1, kind, **kwargs) == expected


def test_penalty_for_refuses_amounts_the_rules_set() -> None:
    with pytest.raises(ValueError, match="needs an amount"):
        penalty_for(0, VIOL)
    with pytest.raises(ValueError, match="comes from the table's rules"):
        penalty_for(0, FALSE, amount=30)


def test_which_penalties_bar_the_win_第十三条三() -> None:
    assert {k for k in PenaltyKind if k.bars_win} == {FALSE, FAKE, INTENT, COUNT}
    assert [k.zh for k in PenaltyKind] == ["错和", "诈和", "有意诈和", "相公", "违例"]


# 第十四条三-五 「第一次警告，第二次罚5分，第三次罚10分，第四次罚20分，以此类推」, capped by 第十三条二(二)
@pytest.mark.parametrize(
    ("offence", "fine"), [(1, 0), (2, 5), (3, 10), (4, 20), (5, 40), (6, 60), (7, 60), (40, 60)]
)
def test_escalating_fines_第十四条三至五(offence: int, fine: int) -> None:
    assert escalating_fine(offence) == fine
    assert fine == 0 or fine in VIOLATION_AMOUNTS


def test_escalating_fines_count_from_one() -> None:
    with pytest.raises(ValueError, match="from 1"):
        escalating_fine(0)


# ------------------------------------------------------------------------------------------------
# Impossible outcomes are refused

INVALID_OUTCOMES = [
    pytest.param(
        {"winner": 1, "discarder": 1, "fan_points": 8}, "own discard", id="winner=discarder"
    ),
    pytest.param({"winner": 4, "fan_points": 8}, "winner 4", id="winner-out-of-range"),
    pytest.param({"winner": -1, "fan_points": 8}, "winner -1", id="winner-negative"),
    pytest.param(
        {"winner": 0, "discarder": 7, "fan_points": 8}, "discarder 7", id="discarder-range"
    ),
    pytest.param({"winner": 0, "fan_points": -8}, "negative", id="negative-fans"),
    pytest.param({"winner": 0, "fan_points": 8, "flowers": -1}, "negative", id="negative-flowers"),
    pytest.param({"winner": 0, "fan_points": 8, "flowers": 9}, "there are 8", id="nine-flowers"),
    pytest.param({"discarder": 2}, "without a winner", id="discarder-no-winner"),
    pytest.param({"fan_points": 8}, "荒牌", id="draw-with-points"),
    pytest.param({"flowers": 1}, "荒牌", id="draw-with-flowers"),
    pytest.param(
        {"winner": 2, "fan_points": 8, "penalties": (Penalty(2, FALSE, 10),)},
        "no right to win.*错和",
        id="错和-then-wins",
    ),
    pytest.param(
        {"winner": 2, "fan_points": 8, "penalties": (Penalty(2, FAKE, 20),)},
        "诈和",
        id="诈和-then-wins",
    ),
    pytest.param(
        {"winner": 0, "fan_points": 8, "penalties": (Penalty(0, COUNT),)}, "相公", id="相公-wins"
    ),
    pytest.param(
        {"winner": 0, "fan_points": 8, "penalties": (Penalty(0, INTENT),)},
        "有意诈和",
        id="disqualified-wins",
    ),
    pytest.param({"penalties": [Penalty(0, COUNT)]}, "tuple of Penalty", id="penalties-a-list"),
]


@pytest.mark.parametrize(("fields", "message"), INVALID_OUTCOMES)
def test_impossible_outcomes_are_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        HandOutcome(**fields)


def test_a_violation_does_not_bar_the_win() -> None:
    assert settle(HandOutcome(0, None, 8, 0, (Penalty(0, VIOL, 5),))) == (43, -16, -16, -16)


INVALID_PENALTIES = [
    pytest.param((4, FALSE, 10), "seat 4", id="seat-range"),
    pytest.param((0, FALSE, -10), "negative", id="negative"),
    pytest.param((0, INTENT, 10), "no fine", id="有意诈和-with-a-fine"),
    pytest.param((0, COUNT, 5), "no fine", id="相公-with-a-fine"),
    pytest.param((0, VIOL, 15), "第十三条二", id="违例-15"),
    pytest.param((0, VIOL, 0), "第十三条二", id="违例-0"),
    pytest.param((0, VIOL, 70), "第十三条二", id="违例-70"),
    pytest.param((0, VIOL, 5, 0), "another seat", id="payee-self"),
    pytest.param((0, VIOL, 5, 4), "another seat", id="payee-range"),
    pytest.param((0, FALSE, 10, 1), "only a 违例", id="payee-on-错和"),
]


@pytest.mark.parametrize(("args", "message"), INVALID_PENALTIES)
def test_impossible_penalties_are_refused(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Penalty(*args)


def test_a_negative_base_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        settle(HandOutcome(), base=-1)


# ------------------------------------------------------------------------------------------------
# Properties over random valid outcomes


@st.composite
def penalties(draw: st.DrawFn, winner: int | None) -> tuple[Penalty, ...]:
    out = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(list(PenaltyKind)))
        seats = [s for s in range(4) if not (kind.bars_win and s == winner)]
        seat = draw(st.sampled_from(seats))
        if kind is VIOL:
            payee = draw(st.sampled_from([None, *(s for s in range(4) if s != seat)]))
            out.append(Penalty(seat, kind, draw(st.sampled_from(VIOLATION_AMOUNTS)), payee))
        elif kind in (FALSE, FAKE):
            out.append(Penalty(seat, kind, draw(st.integers(0, 50))))
        else:
            out.append(Penalty(seat, kind))
    return tuple(out)


@st.composite
def outcomes(draw: st.DrawFn) -> HandOutcome:
    winner = draw(st.none() | st.integers(0, 3))
    if winner is None:
        return HandOutcome(penalties=draw(penalties(None)))
    discarder = draw(st.none() | st.sampled_from([s for s in range(4) if s != winner]))
    fans = draw(st.integers(8, 400))
    flowers = draw(st.integers(0, 8))
    return HandOutcome(winner, discarder, fans, flowers, draw(penalties(winner)))


@given(outcomes(), st.integers(0, 20))
def test_every_hand_sums_to_zero_but_deducted_fines(outcome: HandOutcome, base: int) -> None:
    deltas = settle(outcome, base=base)
    assert len(deltas) == 4
    assert sum(deltas) == -outcome.deducted
    if all(p.kind is not VIOL or p.payee is not None for p in outcome.penalties):
        assert sum(deltas) == 0


@given(outcomes(), st.integers(0, 20))
def test_win_and_penalties_settle_independently(outcome: HandOutcome, base: int) -> None:
    deltas = settle(outcome, base=base)
    without = HandOutcome(outcome.winner, outcome.discarder, outcome.fan_points, outcome.flowers)
    fines = [sum(p.deltas()[seat] for p in outcome.penalties) for seat in range(4)]
    assert [d - f for d, f in zip(deltas, fines, strict=True)] == list(settle(without, base=base))
    if outcome.winner is not None:
        plain = settle(without, base=base)
        times = 3 if outcome.self_drawn else 1
        assert plain[outcome.winner] == 3 * base + times * outcome.points
        for seat in range(4):
            if seat != outcome.winner:
                owes = base + (outcome.points if seat == outcome.discarder else 0)
                assert plain[seat] == -(base + outcome.points if outcome.self_drawn else owes)
