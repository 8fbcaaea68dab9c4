"""A session (局): winds, seating, session scores and standard points.

- 第五条三-五: 4 hands a round (each player deals once), 4 rounds a session, prevalent wind E S W N.
- 第五条六, 八: seat winds; the dealer is East and never repeats: the deal passes to the 下家.
- 第五条九 轮转: seats change between rounds by the competition's regulations (the Green Book
  scheme, docs/rules.md §17).
- 第六条四: a session may end at its time limit, scored as reached.
- 第十条二: 局分 = 500 + the hands' scores; 标准分 = N for 1st, N − rank for the others.
- 第十二条三, 第十三条四, 第十四条六(四): a disqualified player, 三缺一, a substitute.
- 第十三条二(一): lateness fines come off the session score.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guobiao.core.context import Wind
from guobiao.table.session import (
    HANDS_PER_SESSION,
    ROUND_START,
    STARTING_POINTS,
    Session,
    SessionOverError,
    seating,
    standard_points,
)
from guobiao.table.settlement import HandOutcome, Penalty, PenaltyKind, settle

PLAYERS = ("A", "B", "C", "D")
ZERO = (0, 0, 0, 0)

# ------------------------------------------------------------------------------------------------
# Seating: the 16 hands

# hand number: (prevalent wind, the players at E S W N)
ROTATION = {
    0: ("E", "ABCD"),
    1: ("E", "BCDA"),
    2: ("E", "CDAB"),
    3: ("E", "DABC"),
    4: ("S", "BADC"),  # round 2: E and S swap, W and N swap
    5: ("S", "ADCB"),
    6: ("S", "DCBA"),
    7: ("S", "CBAD"),
    8: ("W", "CDBA"),  # round 3: E, S to the opposite seats, W to S, N to E
    9: ("W", "DBAC"),
    10: ("W", "BACD"),
    11: ("W", "ACDB"),
    12: ("N", "DCAB"),  # round 4: E and S swap, W and N swap
    13: ("N", "CABD"),
    14: ("N", "ABDC"),
    15: ("N", "BDCA"),
}


def test_the_rotation_table_第五条五八九() -> None:
    session = Session(PLAYERS)
    for number, (wind, seats) in ROTATION.items():
        assert session.hand_number == number
        assert session.round_wind is Wind.parse(wind)
        assert session.hand_in_round == number % 4
        assert "".join(session.seats) == seats
        assert session.dealer == seats[0]
        assert "".join(PLAYERS[i] for i in seating(number)) == seats
        for seat, player in enumerate(seats):
            assert session.seat_of(player) == seat
            assert session.player_at(seat) == player
        session.record(ZERO)
    assert session.is_over
    assert [(r.number, r.round_wind.letter, "".join(r.seats)) for r in session.history] == [
        (n, w, s) for n, (w, s) in ROTATION.items()
    ]


def test_each_player_deals_four_times_once_a_round_第五条三() -> None:
    dealers = [PLAYERS[seating(n)[0]] for n in range(HANDS_PER_SESSION)]
    assert Counter(dealers) == dict.fromkeys(PLAYERS, 4)
    for r in range(4):
        assert sorted(dealers[4 * r : 4 * r + 4]) == list(PLAYERS)


def test_the_dealer_never_repeats_第五条八() -> None:
    # East of one hand is North of the next; South becomes East (the deal passes to the 下家)
    for n in range(HANDS_PER_SESSION):
        if n % 4 == 3:
            continue
        now, after = seating(n), seating(n + 1)
        assert after[3] == now[0] and after[0] == now[1]
        assert after[1] == now[2] and after[2] == now[3]
    # across rounds the players move: the last dealer of round 2 (C) is the first of round 3
    dealers = "".join(PLAYERS[seating(n)[0]] for n in range(HANDS_PER_SESSION))
    assert dealers == "ABCD" + "BADC" + "CDBA" + "DCAB"


def test_the_round_start_seating_第五条九() -> None:
    starts = ["".join(PLAYERS[i] for i in seating(4 * r)) for r in range(4)]
    assert starts == ["ABCD", "BADC", "CDBA", "DCAB"]
    assert tuple(seating(4 * r) for r in range(4)) == ROUND_START
    # a Latin square: each player is East at one round start, and sits every wind once
    for seat in range(4):
        assert sorted(start[seat] for start in starts) == list(PLAYERS)
    # the mnemonic: W starts go W N E S, N starts go N W S E; E and S zigzag E S N W / S E W N
    path = {p: "".join("ESWN"[start.index(p)] for start in starts) for p in PLAYERS}
    assert path == {"A": "ESNW", "B": "SEWN", "C": "WNES", "D": "NWSE"}


def test_who_sits_where_relative_to_whom() -> None:
    # Not every pair meets in every relation: the players who start E and S (and W and N) are
    # neighbours all session, 下家 twice and 上家 twice; every other pair is opposite twice.
    relation = {1: "下家", 2: "对家", 3: "上家"}
    for a in PLAYERS:
        for b in PLAYERS:
            if a == b:
                continue
            seen = Counter(
                relation[(start.index(b) - start.index(a)) % 4]
                for start in ("ABCD", "BADC", "CDBA", "DCAB")
            )
            if {a, b} in ({"A", "B"}, {"C", "D"}):
                assert seen == {"下家": 2, "上家": 2}
            else:
                assert seen == {"对家": 2, "下家": 1, "上家": 1}


def test_seating_refuses_hands_outside_a_session() -> None:
    for n in (-1, 16):
        with pytest.raises(ValueError, match="hand number"):
            seating(n)


# ------------------------------------------------------------------------------------------------
# Recording hands and session scores (第十条二(一))


def test_a_session_records_each_hand() -> None:
    session = Session(PLAYERS)
    # hand 0: A (E) wins 12 on C's (W) discard
    r0 = session.record(settle(HandOutcome(0, 2, 12)), HandOutcome(0, 2, 12))
    assert r0.number == 0 and r0.round_wind is Wind.EAST and r0.dealer == "A"
    assert r0.deltas == (36, -8, -20, -8)
    assert r0.by_player == {"A": 36, "B": -8, "C": -20, "D": -8}
    assert r0.outcome == HandOutcome(0, 2, 12)
    # hand 1: B is East; A (now North) self-draws 8
    assert session.seat_of("A") == 3
    session.record(settle(HandOutcome(3, None, 8)))
    assert session.history[1].by_player == {"A": 48, "B": -16, "C": -16, "D": -16}
    assert session.history[1].outcome is None
    assert session.scores == {"A": 584, "B": 476, "C": 464, "D": 476}
    assert sum(session.scores.values()) == 4 * STARTING_POINTS
    assert session.hand_number == 2 and not session.is_over


def test_starting_points_are_a_table_rule() -> None:
    session = Session(PLAYERS, starting_points=1000)
    session.record((10, -10, 0, 0))
    assert session.scores == {"A": 1010, "B": 990, "C": 1000, "D": 1000}


INVALID_RECORDS = [
    pytest.param((1, 0, 0, 0), None, "sum to 1, not 0", id="not-zero-sum"),
    pytest.param((0, 0, 0), None, "4 ints", id="three-seats"),
    pytest.param((0, 0, 0, 0, 0), None, "4 ints", id="five-seats"),
    pytest.param((0.0, 0, 0, 0), None, "4 ints", id="float"),
    # a 违例 fine deducted: the changes sum to minus the fine
    pytest.param(
        (0, 0, 0, 0),
        HandOutcome(penalties=(Penalty(1, PenaltyKind.VIOLATION, 5),)),
        "not -5",
        id="fine-missing",
    ),
]


@pytest.mark.parametrize(("deltas", "outcome", "message"), INVALID_RECORDS)
def test_impossible_records_are_refused(
    deltas: tuple[int, ...], outcome: HandOutcome | None, message: str
) -> None:
    session = Session(PLAYERS)
    with pytest.raises(ValueError, match=message):
        session.record(deltas, outcome)
    assert session.hand_number == 0 and session.history == ()


@pytest.mark.parametrize(
    ("players", "kwargs", "message"),
    [
        pytest.param(("A", "B", "C"), {}, "4 distinct", id="three"),
        pytest.param(("A", "B", "C", "A"), {}, "4 distinct", id="repeat"),
        pytest.param(("A", "B", "C", ""), {}, "non-empty", id="empty-id"),
        pytest.param(PLAYERS, {"hands": 0}, "1-16 hands", id="no-hands"),
        pytest.param(PLAYERS, {"hands": 17}, "1-16 hands", id="17-hands"),
        pytest.param(PLAYERS, {"starting_points": -1}, "negative", id="negative-start"),
    ],
)
def test_impossible_sessions_are_refused(
    players: tuple[str, ...], kwargs: dict[str, int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Session(players, **kwargs)


def test_unknown_players_and_seats() -> None:
    session = Session(PLAYERS)
    with pytest.raises(ValueError, match="not seated"):
        session.seat_of("E")
    with pytest.raises(ValueError, match="seat 4"):
        session.player_at(4)


def test_a_full_session_ends() -> None:
    session = Session(PLAYERS)
    for _ in range(16):
        session.record(ZERO)
    assert session.is_over and not session.ended_early and session.hand_number == 16
    with pytest.raises(SessionOverError):
        session.record(ZERO)
    for prop in ("round_wind", "seats", "dealer", "hand_in_round"):
        with pytest.raises(SessionOverError):
            getattr(session, prop)


# ------------------------------------------------------------------------------------------------
# Ending early (第六条四)


def test_a_set_number_of_hands() -> None:
    session = Session(PLAYERS, hands=8)
    for _ in range(7):
        session.record(ZERO)
    assert session.round_wind is Wind.SOUTH and session.dealer == "C"
    session.record((8, -8, 0, 0))
    assert session.is_over and not session.ended_early
    assert session.scores == {"C": 508, "B": 492, "A": 500, "D": 500}
    assert session.standard_points() == {
        "A": Fraction(3, 2),
        "B": 0,
        "C": 4,
        "D": Fraction(3, 2),
    }


def test_the_time_limit_ends_a_session_scored_as_reached() -> None:
    session = Session(PLAYERS)
    for _ in range(5):
        session.record(settle(HandOutcome(1, 0, 8)))
    session.end_early()
    assert session.is_over and session.ended_early and session.hand_number == 5
    with pytest.raises(SessionOverError):
        session.record(ZERO)
    scores = session.scores
    assert sum(scores.values()) == 2000
    # South won 8 on East's discard in each: hands 0-4 sat ABCD, BCDA, CDAB, DABC, BADC
    assert scores == {"A": 532, "B": 484, "C": 492, "D": 492}


# ------------------------------------------------------------------------------------------------
# Penalties, disqualification and deductions in a session


def test_penalties_keep_the_session_total() -> None:
    session = Session(PLAYERS)
    wrong = HandOutcome(penalties=(Penalty(2, PenaltyKind.FALSE_WIN, 10),))
    session.record(settle(wrong), wrong)
    fake = HandOutcome(1, 3, 16, 2, (Penalty(0, PenaltyKind.FAKE_WIN, 20),))
    session.record(settle(fake), fake)
    # hand 0: C (W) -30, others +10; hand 1: seats B C D A, C wins 18 on A's discard, B -60
    assert session.scores == {
        "A": 500 + 10 - 26 + 20,
        "B": 500 + 10 - 8 - 60,
        "C": 500 - 30 + 42 + 20,
        "D": 500 + 10 - 8 + 20,
    }
    assert sum(session.scores.values()) == 4 * STARTING_POINTS


def test_a_deducted_fine_leaves_the_table() -> None:
    session = Session(PLAYERS)
    fined = HandOutcome(penalties=(Penalty(3, PenaltyKind.VIOLATION, 10),))
    session.record(settle(fined), fined)
    assert session.scores["D"] == 490
    assert session.deducted == 10
    assert sum(session.scores.values()) == 2000 - 10


def test_lateness_is_deducted_from_the_session_score_第十三条二一() -> None:
    session = Session(PLAYERS)
    session.deduct("B", 10)
    session.deduct("B", 20)
    assert session.scores["B"] == 470
    assert session.deductions == (("B", 10), ("B", 20))
    assert sum(session.scores.values()) == 2000 - session.deducted == 1970
    with pytest.raises(ValueError, match="positive"):
        session.deduct("B", 0)
    with pytest.raises(ValueError, match="not played"):
        session.deduct("Z", 10)


def test_intentional_fake_win_without_substitute_ends_the_session_第十二条三一() -> None:
    session = Session(PLAYERS)
    session.record(settle(HandOutcome(1, 0, 20)))  # B +44, A -28, C -8, D -8
    assert session.seat_of("C") == 1
    # hand 1: C (South) declares a win two tiles from ready
    outcome = HandOutcome(penalties=(Penalty(1, PenaltyKind.INTENTIONAL_FAKE_WIN),))
    session.record(settle(outcome), outcome)
    assert session.disqualified == ("C",)
    assert session.is_over and session.ended_early and session.hand_number == 2
    # the score stands as reached, and the session total is kept
    assert session.scores == {"A": 472, "B": 544, "C": 492, "D": 492}
    assert sum(session.scores.values()) == 2000
    # C is not ranked; the other three share the places of a group of 4
    assert session.ranked == ("A", "B", "D")
    assert session.standard_points() == {"A": 1, "B": 4, "D": 2}


def test_intentional_fake_win_with_a_substitute_第十二条三二() -> None:
    session = Session(PLAYERS)
    outcome = HandOutcome(penalties=(Penalty(2, PenaltyKind.INTENTIONAL_FAKE_WIN),))
    session.record(settle(outcome), outcome, substitutes={"C": "S1"})
    assert not session.is_over
    assert session.disqualified == ("C",) and session.substitutes == {"C": "S1"}
    assert session.participants == ("A", "B", "C", "D", "S1")
    # the substitute takes C's place in the scheme: hand 1 was B C D A
    assert session.seats == ("B", "S1", "D", "A")
    session.record(settle(HandOutcome(1, None, 8)))  # S1 self-draws
    assert session.scores == {"A": 484, "B": 484, "C": 500, "D": 484, "S1": 548}
    # each participant starts from 500; the changes still sum to zero
    assert sum(session.scores.values()) == 5 * STARTING_POINTS
    assert session.ranked == ("A", "B", "D")
    assert set(session.standard_points()) == {"A", "B", "D"}
    with pytest.raises(ValueError, match="not seated"):
        session.seat_of("C")


def test_disqualification_between_hands() -> None:
    session = Session(PLAYERS)
    session.record(ZERO)
    session.disqualify("D", "S1")
    assert session.seats == ("B", "C", "S1", "A")
    with pytest.raises(ValueError, match="already played"):
        session.disqualify("A", "S1")
    with pytest.raises(ValueError, match="already played"):
        session.disqualify("A", "C")
    with pytest.raises(ValueError, match="not seated"):
        session.disqualify("D")
    session.disqualify("A")
    assert session.is_over and session.ended_early
    assert session.disqualified == ("D", "A")
    assert session.ranked == ("B", "C")


def test_substitutes_are_checked_before_anything_is_recorded() -> None:
    outcome = HandOutcome(penalties=(Penalty(2, PenaltyKind.INTENTIONAL_FAKE_WIN),))
    session = Session(PLAYERS)
    with pytest.raises(ValueError, match="not disqualified"):
        session.record(ZERO, outcome, substitutes={"A": "S1"})
    with pytest.raises(ValueError, match="already played"):
        session.record(ZERO, outcome, substitutes={"C": "B"})
    last = Session(PLAYERS, hands=1)
    with pytest.raises(SessionOverError, match="last hand"):
        last.record(ZERO, outcome, substitutes={"C": "S1"})
    assert session.history == () == last.history
    assert session.disqualified == () == last.disqualified


def test_two_disqualified_one_replaced() -> None:
    session = Session(PLAYERS)
    outcome = HandOutcome(
        penalties=(
            Penalty(0, PenaltyKind.INTENTIONAL_FAKE_WIN),
            Penalty(3, PenaltyKind.INTENTIONAL_FAKE_WIN),
        )
    )
    session.record(ZERO, outcome, substitutes={"D": "S1"})
    assert session.is_over and set(session.disqualified) == {"A", "D"}
    assert session.participants == ("A", "B", "C", "D", "S1")


# ------------------------------------------------------------------------------------------------
# Standard points (第十条二(二))

# (scores, group size, expected)
STANDARD = [
    pytest.param(
        {"A": 620, "B": 480, "C": 510, "D": 390},
        None,
        {"A": 4, "B": 1, "C": 2, "D": 0},
        id="4-2-1-0",
    ),
    pytest.param(
        {"A": 600, "B": 450, "C": 450, "D": 500},
        None,
        {"A": 4, "B": Fraction(1, 2), "C": Fraction(1, 2), "D": 2},
        id="tie-for-3rd",
    ),
    pytest.param(
        {"A": 600, "B": 500, "C": 500, "D": 400},
        None,
        {"A": 4, "B": Fraction(3, 2), "C": Fraction(3, 2), "D": 0},
        id="tie-for-2nd",
    ),
    pytest.param(
        {"A": 550, "B": 550, "C": 500, "D": 400},
        None,
        {"A": 3, "B": 3, "C": 1, "D": 0},
        id="tie-for-1st",
    ),
    pytest.param(
        {"A": 550, "B": 550, "C": 450, "D": 450},
        None,
        {"A": 3, "B": 3, "C": Fraction(1, 2), "D": Fraction(1, 2)},
        id="two-ties",
    ),
    pytest.param(
        {"A": 600, "B": 400, "C": 400, "D": 400},
        None,
        {"A": 4, "B": 1, "C": 1, "D": 1},
        id="three-way-tie",
    ),
    pytest.param(
        {"A": 500, "B": 500, "C": 500, "D": 500},
        None,
        dict.fromkeys("ABCD", Fraction(7, 4)),
        id="four-way-tie",
    ),
    pytest.param(
        {"A": 520, "B": 490, "C": 490},
        4,
        {"A": 4, "B": Fraction(3, 2), "C": Fraction(3, 2)},
        id="three-ranked-of-four",
    ),
    pytest.param({"A": -40}, None, {"A": 1}, id="one-player"),
    pytest.param({}, None, {}, id="nobody"),
]


@pytest.mark.parametrize(("scores", "group", "expected"), STANDARD)
def test_standard_points_第十条二二(
    scores: dict[str, int], group: int | None, expected: dict[str, Fraction]
) -> None:
    got = standard_points(scores, group)
    assert got == expected
    assert list(got) == list(scores)  # the input's order
    assert all(isinstance(v, Fraction) for v in got.values())


def test_standard_points_of_a_group_of_16() -> None:
    # the rulebook's results-table example: 16, 14, 13, ..., 0
    scores = {f"P{i:02}": 1000 - 10 * i for i in range(16)}
    got = standard_points(scores)
    assert [got[f"P{i:02}"] for i in range(16)] == [16, *range(14, -1, -1)]
    # three tied for 1st share 16 + 14 + 13
    scores["P01"] = scores["P02"] = scores["P00"]
    got = standard_points(scores)
    assert got["P00"] == got["P01"] == got["P02"] == Fraction(43, 3)
    assert got["P03"] == 12


def test_a_group_smaller_than_its_players_is_refused() -> None:
    with pytest.raises(ValueError, match="group size"):
        standard_points({"A": 1, "B": 2}, 1)


@given(st.lists(st.integers(-200, 1200), min_size=1, max_size=20), st.integers(0, 4))
def test_ties_share_the_places_they_cover(points: list[int], extra: int) -> None:
    scores = {f"P{i}": p for i, p in enumerate(points)}
    size = len(scores) + extra
    got = standard_points(scores, size)
    places = [size, *(size - r for r in range(2, len(scores) + 1))]
    assert sum(got.values()) == sum(places)
    for a in scores:
        for b in scores:
            if scores[a] > scores[b]:
                assert got[a] > got[b]
            elif scores[a] == scores[b]:
                assert got[a] == got[b]


# ------------------------------------------------------------------------------------------------
# A whole session of random hands


@st.composite
def hand_outcomes(draw: st.DrawFn) -> HandOutcome:
    winner = draw(st.none() | st.integers(0, 3))
    fines = []
    for seat in draw(st.lists(st.integers(0, 3), max_size=2)):
        if seat != winner:
            kind = draw(st.sampled_from([PenaltyKind.FALSE_WIN, PenaltyKind.FAKE_WIN]))
            fines.append(Penalty(seat, kind, 10 if kind is PenaltyKind.FALSE_WIN else 20))
    if winner is None:
        return HandOutcome(penalties=tuple(fines))
    discarder = draw(st.none() | st.sampled_from([s for s in range(4) if s != winner]))
    return HandOutcome(
        winner, discarder, draw(st.integers(8, 88)), draw(st.integers(0, 8)), tuple(fines)
    )


@given(st.lists(hand_outcomes(), min_size=16, max_size=16), st.integers(1, 16))
def test_session_scores_sum_to_four_times_500(outcomes: list[HandOutcome], hands: int) -> None:
    session = Session(PLAYERS, hands=hands)
    for outcome in outcomes[:hands]:
        session.record(settle(outcome), outcome)
    assert session.is_over
    scores = session.scores
    assert sum(scores.values()) == 4 * STARTING_POINTS
    # each player's score is 500 + what the hands gave the seat they sat in
    for player in PLAYERS:
        gained = sum(r.by_player[player] for r in session.history)
        assert scores[player] == STARTING_POINTS + gained
    assert sum(session.standard_points().values()) == 7
