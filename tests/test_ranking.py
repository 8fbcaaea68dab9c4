"""Tournament rankings (docs/rules.md §19).

- 第十条二(二): standard points per group: 1st gets N, rank r gets N − r (a table: 4, 2, 1, 0; a
  group of 16: 16, 14, 13, …, 0); ties share the places' points exactly.
- 第十一条: individual and team rankings by total standard points; ties broken by 一 比赛分之和,
  二 单局标准分最高, 三 单局标准分高分多; a tie after all three shares the rank.
- 第十二条三(二): a substitute's score counts for the table, but they are not ranked.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from itertools import count

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guobiao.tournament.ranking import (
    Entry,
    Standing,
    TableResult,
    group_standard_points,
    individual_ranking,
    player_histories,
    team_ranking,
)

_fillers = count()


def table(
    session: int, number: int, *players: tuple[str, int], group: str | None = None
) -> TableResult:
    """A table of the given (player, score) pairs, filled up to 4 with fresh players scoring
    below everyone given, distinct from one another."""
    entries = [Entry(name, score, seat) for seat, (name, score) in enumerate(players)]
    low = min(score for _, score in players) if players else 500
    for seat in range(len(players), 4):
        entries.append(Entry(f"filler{next(_fillers)}", low - 10 * (seat + 1), seat))
    return TableResult(session, number, tuple(entries), group)


def fractions(*values: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(value) for value in values)


def by_name(standings: Sequence[Standing]) -> dict[str, Standing]:
    return {standing.name: standing for standing in standings}


# -- standard points (第十条二(二)) ---------------------------------------------------------------


def test_one_table_gives_4_2_1_0() -> None:
    result = table(1, 1, ("A", 560), ("B", 520), ("C", 480), ("D", 440))
    points = group_standard_points([result])
    assert [points[(1, p)] for p in "ABCD"] == [4, 2, 1, 0]
    assert all(isinstance(value, Fraction) for value in points.values())


def test_group_of_16_gives_16_14_13_to_0() -> None:
    # 比赛成绩统计表: four tables ranked as one group of 16
    scores = {f"P{i:02}": 800 - 10 * i for i in range(16)}
    names = list(scores)
    tables = [
        TableResult(
            1, t, tuple(Entry(p, scores[p], s) for s, p in enumerate(names[t::4])), group="G"
        )
        for t in range(4)
    ]
    points = group_standard_points(tables)
    assert [points[(1, p)] for p in names] == [16, *range(14, -1, -1)]
    assert sum(points.values()) == 16 + 15 * 14 // 2  # N + (N − 1)(N − 2) / 2 = 121


def test_two_tied_for_second_share_3_2() -> None:
    points = group_standard_points([table(1, 1, ("A", 600), ("B", 500), ("C", 500), ("D", 400))])
    assert points[(1, "B")] == points[(1, "C")] == Fraction(3, 2)
    assert points[(1, "A")] == 4 and points[(1, "D")] == 0


def test_tables_without_group_are_their_own_groups() -> None:
    results = [
        table(1, 1, ("A", 600), ("B", 550), ("C", 450), ("D", 400)),
        table(1, 2, ("E", 900), ("F", 500), ("G", 350), ("H", 250)),
    ]
    points = group_standard_points(results)
    assert points[(1, "A")] == points[(1, "E")] == 4
    assert points[(1, "D")] == points[(1, "H")] == 0


# -- individual ranking (第十一条) ------------------------------------------------------------


def test_ranking_by_total_standard_points() -> None:
    results = [
        table(1, 1, ("A", 600), ("B", 550), ("C", 450), ("D", 400)),
        table(2, 1, ("B", 600), ("A", 550), ("D", 450), ("C", 400)),
    ]
    standings = by_name(individual_ranking(results))
    assert standings["A"].standard_points == standings["B"].standard_points == 6
    assert standings["C"].standard_points == standings["D"].standard_points == 1
    assert standings["A"].match_points == 1150 and standings["B"].match_points == 1150
    # A and B tie on everything: 1=; C and D: 3=
    assert [standings[p].label for p in "ABCD"] == ["1=", "1=", "3=", "3="]


def test_tiebreak_1_match_points() -> None:
    # 一、比赛分之和多者列前: both won their table (4 points), P with the higher score
    results = [table(1, 1, ("P", 600)), table(1, 2, ("Q", 520))]
    standings = by_name(individual_ranking(results))
    assert standings["P"].standard_points == standings["Q"].standard_points == 4
    assert standings["P"].best_session == standings["Q"].best_session == 4
    assert (standings["P"].rank, standings["Q"].rank) == (1, 2)
    assert not standings["P"].tied and not standings["Q"].tied


def test_tiebreak_2_best_single_session() -> None:
    # 二、单局标准分最高者列前: P 4 + 0, Q 2 + 2; both 1000 match points
    results = [
        table(1, 1, ("P", 600)),
        table(1, 2, ("X", 700), ("Q", 500)),
        table(2, 1, ("Y", 700), ("Z", 600), ("W", 500), ("P", 400)),
        table(2, 2, ("V", 700), ("Q", 500)),
    ]
    standings = by_name(individual_ranking(results))
    p, q = standings["P"], standings["Q"]
    assert p.standard_points == q.standard_points == 4
    assert p.match_points == q.match_points == 1000
    assert (p.best_session, q.best_session) == fractions(4, 2)
    assert p.rank < q.rank and not p.tied


def test_tiebreak_3_more_high_sessions() -> None:
    # 三、单局标准分高分多者列前: P 4 4 0 0, Q 4 2 2 0: same total 8, match points 2000, best 4;
    # P has two sessions at 4, Q one
    low = (("A", 700), ("B", 600), ("C", 500))
    results = [
        table(1, 1, ("P", 600)),
        table(1, 2, ("Q", 600)),
        table(2, 1, ("P", 600)),
        table(2, 2, ("X", 700), ("Q", 500)),
        table(3, 1, *low, ("P", 400)),
        table(3, 2, ("Y", 700), ("Q", 500)),
        table(4, 1, *[(n + "4", s) for n, s in low], ("P", 400)),
        table(4, 2, *[(n + "5", s) for n, s in low], ("Q", 400)),
    ]
    standings = by_name(individual_ranking(results))
    p, q = standings["P"], standings["Q"]
    assert p.standard_points == q.standard_points == 8
    assert p.match_points == q.match_points == 2000
    assert p.best_session == q.best_session == 4
    assert p.session_points == fractions(4, 4, 0, 0)
    assert q.session_points == fractions(4, 2, 2, 0)
    assert p.rank < q.rank and not p.tied and not q.tied


def test_full_tie_shares_the_rank_and_the_next_place_skips() -> None:
    results = [
        table(1, 1, ("P", 600), ("X", 550)),
        table(1, 2, ("Q", 600), ("Y", 540)),
        table(1, 3, ("R", 590)),
    ]
    standings = individual_ranking(results)
    labels = {s.name: s.label for s in standings}
    assert labels["P"] == labels["Q"] == "1="
    assert labels["R"] == "3"
    assert standings[0].name == "P" and standings[1].name == "Q"  # printed by name


def test_substitute_counts_for_the_table_but_is_not_ranked() -> None:
    # 第十二条三(二) 「参赛可计分，但不计成绩名次」: the substitute outscores everyone, yet the three
    # ranked players still get 4, 2, 1 in the group of 4
    result = TableResult(
        1,
        1,
        (
            Entry("A", 450, 0),
            Entry("B", 400, 1),
            Entry("C", 350, 2),
            Entry("S", 800, 3, substitute=True),
        ),
    )
    points = group_standard_points([result])
    assert points == {(1, "A"): 4, (1, "B"): 2, (1, "C"): 1}
    standings = individual_ranking([result])
    assert [s.name for s in standings] == ["A", "B", "C"]
    history = player_histories([result])["S"]
    (line,) = history.lines
    assert line.score == 800 and line.substitute and line.standard_points is None
    assert history.standard_points == 0 and history.match_points == 0


def test_disqualified_and_replaced_player_keeps_the_group_at_four() -> None:
    result = TableResult(
        1,
        1,
        (
            Entry("A", 520, 0),
            Entry("B", 480, 1),
            Entry("C", 470, 2),
            Entry("D", 500, 3, disqualified=True),
            Entry("S", 530, 3, substitute=True),
        ),
    )
    points = group_standard_points([result])
    assert points == {(1, "A"): 4, (1, "B"): 2, (1, "C"): 1}
    assert "D" not in by_name(individual_ranking([result]))


def test_absent_player_has_a_history_line_and_no_points() -> None:
    results = [
        table(1, 1, ("A", 600), ("B", 550), ("C", 450), ("D", 400)),
        TableResult(2, 1, (Entry("D", absent=True),)),
        table(2, 2, ("A", 600), ("B", 550), ("C", 450)),
    ]
    history = player_histories(results)["D"]
    assert [(line.session, line.absent, line.score) for line in history.lines] == [
        (1, False, 400),
        (2, True, None),
    ]
    assert history.sessions_played == 1
    assert by_name(individual_ranking(results))["D"].standard_points == 0


def test_history_lines_are_by_session_with_table_and_seat() -> None:
    results = [
        table(2, 3, ("X", 500), ("A", 450)),
        table(1, 5, ("A", 600)),
    ]
    history = player_histories(results)["A"]
    assert [
        (li.session, li.table, li.seat, li.score, li.standard_points) for li in history.lines
    ] == [
        (1, 5, 0, 600, Fraction(4)),
        (2, 3, 1, 450, Fraction(2)),
    ]
    assert history.standard_points == 6 and history.match_points == 1050


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        individual_ranking([table(1, 1, ("A", 600)), table(1, 2, ("A", 500))])
    with pytest.raises(ValueError):
        individual_ranking([table(1, 1, ("A", 600)), table(1, 1, ("B", 500))])
    with pytest.raises(ValueError):
        Entry("A", 500, substitute=True, absent=True)
    with pytest.raises(ValueError):
        Entry("A", 500, seat=4)
    with pytest.raises(ValueError):
        Entry("")
    with pytest.raises(ValueError):
        team_ranking([table(1, 1, ("A", 600))], {"T": ["A"], "U": ["A"]})


# -- team ranking (第十一条) ---------------------------------------------------------------------


def test_team_ranking_sums_players_and_skips_substitute_entries() -> None:
    # team T's reserve R plays as a substitute (陪打) at table 2: nothing counts for T
    results = [
        table(1, 1, ("A", 600), ("C", 550), ("B", 450), ("D", 400)),
        TableResult(
            1,
            2,
            (
                Entry("E", 600, 0),
                Entry("F", 500, 1),
                Entry("G", 450, 2),
                Entry("R", 900, 3, substitute=True),
            ),
        ),
    ]
    teams = {"T": ["A", "B", "R"], "U": ["C", "D"], "V": ["E", "F", "G"]}
    standings = by_name(team_ranking(results, teams))
    assert standings["T"].standard_points == 4 + 1
    assert standings["U"].standard_points == 2 + 0
    assert standings["V"].standard_points == 4 + 2 + 1
    assert standings["T"].match_points == 1050  # R's 900 is not the team's
    assert [s.name for s in team_ranking(results, teams)] == ["V", "T", "U"]
    assert standings["T"].members == ("A", "B", "R")


def test_team_tiebreak_2_uses_the_team_per_session_sum() -> None:
    # T and U both total 6 with 2000 match points; T's sessions are 6 + 0, U's 3 + 3
    results = [
        table(1, 1, ("A", 600), ("B", 550), ("X1", 450), ("X2", 400)),  # T: 4 + 2
        table(1, 2, ("Y1", 700), ("C", 550), ("D", 450), ("Y2", 300)),  # U: 2 + 1
        table(2, 1, ("Z1", 700), ("Z2", 650), ("Z3", 600), ("A", 400)),  # T: 0
        table(2, 2, ("W1", 700), ("W2", 650), ("W3", 600), ("B", 450)),  # T: 0
        table(2, 3, ("V1", 700), ("C", 550), ("D", 450), ("V2", 300)),  # U: 2 + 1
    ]
    teams = {"T": ["A", "B"], "U": ["C", "D"]}
    standings = team_ranking(results, teams)
    t, u = by_name(standings)["T"], by_name(standings)["U"]
    assert t.standard_points == u.standard_points == 6
    assert t.match_points == u.match_points == 2000
    assert t.session_points == fractions(6, 0) and u.session_points == fractions(3, 3)
    assert [(s.name, s.label) for s in standings] == [("T", "1"), ("U", "2")]


def test_team_without_ranked_players_is_listed_last_with_zero() -> None:
    standings = team_ranking([table(1, 1, ("A", 600))], {"T": ["A"], "E": ["nobody"]})
    assert [(s.name, s.standard_points, s.rank) for s in standings] == [
        ("T", Fraction(4), 1),
        ("E", Fraction(0), 2),
    ]


# -- properties ------------------------------------------------------------------------------

scores_strategy = st.integers(min_value=46, max_value=54).map(lambda x: 10 * x)


@st.composite
def tournaments(draw: st.DrawFn) -> list[TableResult]:
    """8 players, 2 tables a session, 1-4 sessions, scores in a narrow range (many ties);
    sometimes both tables form one group of 8; sometimes a substitute sits in."""
    players = [f"p{i}" for i in range(8)]
    sessions = draw(st.integers(1, 4))
    grouped = draw(st.booleans())
    results: list[TableResult] = []
    for session in range(1, sessions + 1):
        order = draw(st.permutations(players))
        for number in range(2):
            entries = []
            for seat, player in enumerate(order[4 * number : 4 * number + 4]):
                substitute = draw(st.integers(0, 9)) == 0
                name = f"sub{session}.{number}.{seat}" if substitute else player
                entries.append(Entry(name, draw(scores_strategy), seat, substitute=substitute))
            results.append(TableResult(session, number, tuple(entries), "all" if grouped else None))
    return results


@settings(max_examples=150, deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_rankings_do_not_depend_on_input_order(
    results: list[TableResult], rnd: random.Random
) -> None:
    shuffled = [
        TableResult(r.session, r.table, tuple(rnd.sample(r.entries, len(r.entries))), r.group)
        for r in rnd.sample(results, len(results))
    ]
    assert individual_ranking(shuffled) == individual_ranking(results)
    teams = {"T1": ["p0", "p1", "p2", "p3"], "T2": ["p4", "p5", "p6", "p7"]}
    assert team_ranking(shuffled, teams) == team_ranking(results, teams)
    assert player_histories(shuffled) == player_histories(results)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 6), st.data())
def test_group_standard_points_sum_to_the_expected_total(tables: int, data: st.DataObject) -> None:
    # N players: N + (N − 2) + (N − 3) + … + 0 = N + (N − 1)(N − 2) / 2, ties or not
    size = 4 * tables
    results = [
        TableResult(
            1,
            t,
            tuple(Entry(f"t{t}s{s}", data.draw(scores_strategy), s) for s in range(4)),
            group="G",
        )
        for t in range(tables)
    ]
    points = group_standard_points(results)
    assert len(points) == size
    assert sum(points.values()) == size + (size - 1) * (size - 2) // 2


def _reference(results: list[TableResult]) -> dict[str, tuple[int, bool]]:
    """Independent recomputation: standard points by counting, per player, who scored more and
    who the same in the group; the ranking by pairwise comparison (rank = 1 + how many are
    strictly ahead), tiebreak 三 as counts of sessions at each value, highest value first."""
    groups: dict[tuple[int, str], list[Entry]] = {}
    for r in results:
        groups.setdefault((r.session, r.group or f"#{r.table}"), []).extend(r.entries)
    sessions: dict[str, list[Fraction]] = {}
    match: dict[str, int] = {}
    for entries in groups.values():
        n = len(entries)  # tables of 4 here: the places
        ranked = [e for e in entries if not e.substitute]
        for e in ranked:
            above = sum(1 for o in ranked if o.score > e.score)
            same = sum(1 for o in ranked if o.score == e.score)
            values = [
                n if place == 1 else n - place for place in range(above + 1, above + same + 1)
            ]
            sessions.setdefault(e.player, []).append(Fraction(sum(values), same))
            match[e.player] = match.get(e.player, 0) + e.score

    def ahead(a: str, b: str) -> bool:
        ta, tb = sum(sessions[a]), sum(sessions[b])
        if ta != tb:
            return ta > tb
        if match[a] != match[b]:
            return match[a] > match[b]
        if max(sessions[a]) != max(sessions[b]):
            return max(sessions[a]) > max(sessions[b])
        for value in sorted(set(sessions[a]) | set(sessions[b]), reverse=True):
            ca, cb = sessions[a].count(value), sessions[b].count(value)
            if ca != cb:
                return ca > cb
        return False

    out = {}
    for a in sessions:
        better = sum(1 for b in sessions if ahead(b, a))
        tied = any(b != a and not ahead(a, b) and not ahead(b, a) for b in sessions)
        out[a] = (1 + better, tied)
    return out


@settings(max_examples=200, deadline=None)
@given(tournaments())
def test_matches_an_independent_recomputation(results: list[TableResult]) -> None:
    # substitutes give some players fewer ranked sessions; the reference's counting reading of
    # 三 agrees with the module's descending-tuple order (docs/rules.md §19)
    got = {s.name: (s.rank, s.tied) for s in individual_ranking(results)}
    assert got == _reference(results)
