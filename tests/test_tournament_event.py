"""The evidence test of issue 13: a whole simulated event through the command line.

36 players in 9 teams of 4 over 6 sessions, the last one a Swiss final round, on SQLite and
PostgreSQL (``db_url``). Every kind of entry is used: session totals, a whole table hand by hand
from a ``hands`` file, single ``hand`` commands (a self-drawn win, a discard win, a drawn hand, a
false win), lateness on a hand-by-hand table and on a totals table followed by a ``totals
--correct`` of that table (the deduction stays), a substitute (陪打) for an absent player, a
withdrawal before session 4 with the re-draw of sessions 4-5, and ``draw --session 6 --pairing
swiss`` from the standings.

The test computes everything again on its own, without ``guobiao.tournament.ranking`` or the
settlement code: each hand's payments from the rules (第十条一: the winner takes 8 from each
and the points from the discarder, or 8 + the points from each on a self-draw, flowers counted
as points; 第十四条六: a false win pays 10 to each other player), each table's 局分 (500 + the
hands - the lateness), its standard points (4/2/1/0, ties sharing exactly; with a 陪打 the three
ranked take 4/2/1), the individual ranking by 第十一条 (standard points, 比赛分, the best
session, then the sessions in order) without the withdrawn player and the substitute, and the
team ranking; then compares table by table and rank by rank.
"""

from __future__ import annotations

import csv
import itertools
import json
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path

from guobiao.tournament.seating import SessionSeating, Table
from guobiao.tournament.store import open_store
from tournament_cli import TournamentCli

T = "event"
SESSIONS = 6
PLAYERS = tuple(f"P{i:02d}" for i in range(1, 37))
TEAMS = {f"T{t + 1}": PLAYERS[4 * t : 4 * t + 4] for t in range(9)}
TEAM_OF = {p: team for team, members in TEAMS.items() for p in members}
SUB = "R37"  # team T9's 替补, never drawn: plays as a 陪打
WITHDRAWN = "P06"  # leaves before session 4
TABLE_POINTS = (Fraction(4), Fraction(2), Fraction(1), Fraction(0))

Key = tuple[Fraction, int, tuple[Fraction, ...]]


Cli = TournamentCli


# --- the independent computation -------------------------------------------------------------


def settle(
    players: Sequence[str],
    winner: str | None,
    discarder: str | None,
    points: int,
    false_win: str | None,
) -> dict[str, int]:
    """One hand's changes by player, from the rules (第十条一, 第十四条六(一))."""
    out = dict.fromkeys(players, 0)
    if winner is not None:
        for other in players:
            if other == winner:
                continue
            pay = 8 + (points if discarder is None or other == discarder else 0)
            out[other] -= pay
            out[winner] += pay
    if false_win is not None:
        for other in players:
            if other != false_win:
                out[other] += 10
                out[false_win] -= 10
    return out


def table_points(scores: Mapping[str, int]) -> dict[str, Fraction]:
    """4/2/1/0 (or 4/2/1 for three ranked players) by 局分, a tie sharing its places exactly."""
    out = {}
    for player, score in scores.items():
        above = sum(s > score for s in scores.values())
        level = sum(s == score for s in scores.values())
        out[player] = sum(TABLE_POINTS[above : above + level], Fraction(0)) / level
    return out


def ordered(rows: Mapping[str, Key]) -> list[tuple[int, str]]:
    """(rank, name), best first; a tie on every key shares the rank, names in order."""
    ranked = [(1 + sum(other > key for other in rows.values()), name) for name, key in rows.items()]
    return sorted(ranked)


# --- the event's inputs ----------------------------------------------------------------------


def random_totals(rng: random.Random, total: int = 2000) -> list[int]:
    """Four 局分 that sum to ``total``, each a plausible session (0-1200)."""
    while True:
        a, b, c = (rng.randrange(200, 800) for _ in range(3))
        d = total - a - b - c
        if 0 <= d <= 1200:
            return [a, b, c, d]


def hand_rows(seats: Sequence[str]) -> list[dict[str, str]]:
    """16 hands of a table as a referee's sheet, by player name: (winner, from, fan, flowers,
    fans, false win)."""
    a, b, c, d = seats
    plan = [
        (b, a, "12", "", "", ""),
        (a, "self", "8", "2", "", ""),
        ("", "", "", "", "", ""),
        (c, d, "", "", "碰碰和,箭刻×2", ""),
        ("", "", "", "", "", c),
        (d, "self", "24", "1", "", ""),
        (a, b, "9", "3", "", ""),
        (c, "self", "16", "", "", ""),
        (b, c, "8", "", "", ""),
        ("", "", "", "", "", ""),
        (d, a, "32", "", "", ""),
        (a, d, "13", "1", "", ""),
        (b, "self", "10", "", "", ""),
        (c, a, "8", "4", "", ""),
        ("", "", "", "", "", a),
        (d, b, "11", "", "", ""),
    ]
    return [
        {
            "hand": str(i + 1),
            "winner": w,
            "from": f,
            "fan": fan,
            "flowers": fl,
            "fans": fans,
            "penalties": f"{p}:false" if p else "",
        }
        for i, (w, f, fan, fl, fans, p) in enumerate(plan)
    ]


def hands_csv(path: Path, rows: Sequence[dict[str, str]]) -> Path:
    columns = ("hand", "winner", "from", "fan", "fans", "flowers", "penalties")
    lines = [",".join(columns)]
    for row in rows:
        lines.append(",".join(f'"{row[c]}"' if "," in row[c] else row[c] for c in columns))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def hand_scores(seats: Sequence[str], rows: Sequence[dict[str, str]]) -> dict[str, int]:
    scores = dict.fromkeys(seats, 500)
    for row in rows:
        winner = row["winner"] or None
        discarder = None if row["from"] in ("", "self") else row["from"]
        points = int(row["fan"]) if row["fan"] else 0
        if row["fans"]:
            assert row["fans"] == "碰碰和,箭刻×2"
            points = 6 + 2 * 2
        points += int(row["flowers"] or 0)
        false_win = row["penalties"].split(":")[0] or None
        for player, change in settle(seats, winner, discarder, points, false_win).items():
            scores[player] += change
    return scores


def _replaced(seats: tuple[str, str, str, str], old: str, new: str) -> tuple[str, str, str, str]:
    a, b, c, d = (new if p == old else p for p in seats)
    return (a, b, c, d)


def placed(
    seats: Sequence[str], player: str, place: int, score: int, rng: random.Random
) -> list[int] | None:
    """Four distinct 局分 summing to 2000 with ``player`` at ``place`` (0 first) with ``score``."""
    for _ in range(2000):
        others = sorted(rng.randrange(100, 1100) for _ in range(2))
        last = 2000 - score - sum(others)
        values = sorted([*others, last], reverse=True)
        if not 0 <= last <= 1200 or len({*values, score}) < 4:
            continue
        if sum(v > score for v in values) != place:
            continue
        rng.shuffle(values)
        out = []
        for p in seats:
            out.append(score if p == player else values.pop())
        return out
    return None


def level_pair(
    seated: SessionSeating, keys: Mapping[str, Key], rng: random.Random
) -> dict[int, list[int]]:
    """Totals for two tables of the session that bring two players, one at each, to the same
    standard points and 比赛分: {table: scores E S W N}."""
    at = {p: t for t in seated.tables for p in t.seats}
    for x, y in itertools.combinations(sorted(at, key=lambda p: keys[p][:2]), 2):
        if at[x].number == at[y].number:
            continue
        (sx, mx, _), (sy, my, _) = keys[x], keys[y]
        for px, py in itertools.product(range(4), repeat=2):
            if sx + TABLE_POINTS[px] != sy + TABLE_POINTS[py]:
                continue
            for a in range(300, 800, 7):
                b = mx + a - my
                if not 100 <= b <= 1100:
                    continue
                tx = placed(at[x].seats, x, px, a, rng)
                ty = placed(at[y].seats, y, py, b, rng)
                if tx and ty:
                    return {at[x].number: tx, at[y].number: ty}
    return {}


def check_session(seated: SessionSeating, field: Sequence[str]) -> None:
    """Every player of the field once (at a table or on a bye), team-mates apart."""
    at_tables = [p for t in seated.tables for p in t.seats]
    assert sorted(at_tables + list(seated.byes)) == sorted(field)
    assert len(seated.byes) == len(field) % 4
    for table in seated.tables:
        teams = [TEAM_OF[p] for p in table.seats]
        assert len(set(teams)) == 4, (seated.number, table)


# --- the test --------------------------------------------------------------------------------


def test_simulated_event_through_the_command_line(db_url: str, tmp_path: Path) -> None:
    cli = Cli(db_url)
    rng = random.Random(13)
    cli.ok("create", T, "--sessions", "6", "--final-pairing", "swiss", "--final-sessions", "1")
    lines = ["number,name,team,substitute"]
    lines += [f"{i + 1},{p},{TEAM_OF[p]},no" for i, p in enumerate(PLAYERS)]
    lines.append(f"37,{SUB},T9,yes")
    (tmp_path / "players.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    cli.ok("players", T, str(tmp_path / "players.csv"))
    cli.ok("draw", T, "--seed", "13")

    store = open_store(db_url)
    try:
        first_draw = store.seatings(T)
    finally:
        store.close()
    assert [s.number for s in first_draw] == [1, 2, 3, 4, 5]  # the final session waits
    for seated in first_draw:
        check_session(seated, PLAYERS)

    # expected[(session, table)] = {player: 局分}; subs[(session, table)] = the 陪打
    expected: dict[tuple[int, int], dict[str, int]] = {}
    subs: dict[tuple[int, int], str] = {}
    late_seen: list[tuple[int, int, str, int]] = []  # session, table, player, deduction

    def enter_totals(session: int, table: int, seats: Sequence[str], scores: list[int]) -> None:
        cli.ok("totals", T, "--session", str(session), "--table", str(table), *map(str, scores))
        expected[(session, table)] = dict(zip(seats, scores, strict=True))

    def seats_of(seated: SessionSeating, table: int) -> tuple[str, ...]:
        return next(t.seats for t in seated.tables if t.number == table)

    # -- session 1: table 1 hand by hand from a file, a player 12 minutes late (20 points);
    # table 2 a tie for first; the rest totals
    s1 = first_draw[0]
    seats = seats_of(s1, 1)
    cli.ok("late", T, "--session", "1", "--player", seats[2], "--minutes", "12", "--who", "Ma")
    late_seen.append((1, 1, seats[2], 20))
    rows = hand_rows(seats)
    cli.ok("hands", T, "--session", "1", "--table", "1", str(hands_csv(tmp_path / "t1.csv", rows)))
    scores = hand_scores(seats, rows)
    scores[seats[2]] -= 20
    expected[(1, 1)] = scores
    enter_totals(1, 2, seats_of(s1, 2), [600, 450, 600, 350])
    for table in s1.tables[2:]:
        enter_totals(1, table.number, table.seats, random_totals(rng))

    # -- session 2: table 2 late 7 minutes (10 points), totals, then corrected (the lateness
    # stays: the corrected totals still sum to 1990); table 3 hands 1-12 from a file and
    # hands 13-16 one by one; the rest totals
    s2 = first_draw[1]
    seats = seats_of(s2, 2)
    cli.ok("late", T, "--session", "2", "--player", seats[0], "--minutes", "7", "--who", "Ma")
    late_seen.append((2, 2, seats[0], 10))
    cli.ok("totals", T, "--session", "2", "--table", "2", "610", "480", "510", "390")
    correction = ("--correct", "--who", "Li", "--note", "swapped")
    refused = cli(
        "totals", T, "--session", "2", "--table", "2", "500", "480", "620", "400", *correction
    )
    assert refused.exit_code != 0  # 2000: the deduction is not forgotten
    cli.ok("totals", T, "--session", "2", "--table", "2", "490", "480", "630", "390", *correction)
    expected[(2, 2)] = dict(zip(seats, (490, 480, 630, 390), strict=True))
    seats = seats_of(s2, 3)
    a, b, c, d = seats
    rows = hand_rows(seats)[:12]
    cli.ok("hands", T, "--session", "2", "--table", "3", str(hands_csv(tmp_path / "t3.csv", rows)))
    where = ("--session", "2", "--table", "3", "--who", "Zhou")
    cli.ok(
        "hand",
        T,
        *where,
        "--hand",
        "13",
        "--winner",
        b,
        "--self-drawn",
        "--fan",
        "16",
        "--flowers",
        "1",
    )
    cli.ok("hand", T, *where, "--hand", "14", "--winner", d, "--from", c, "--fan", "8")
    cli.ok("hand", T, *where, "--hand", "15")
    cli.ok("hand", T, *where, "--hand", "16", "--penalty", f"{a}:false")
    rows += [
        {
            "hand": "13",
            "winner": b,
            "from": "self",
            "fan": "16",
            "flowers": "1",
            "fans": "",
            "penalties": "",
        },
        {
            "hand": "14",
            "winner": d,
            "from": c,
            "fan": "8",
            "flowers": "",
            "fans": "",
            "penalties": "",
        },
        {
            "hand": "15",
            "winner": "",
            "from": "",
            "fan": "",
            "flowers": "",
            "fans": "",
            "penalties": "",
        },
        {
            "hand": "16",
            "winner": "",
            "from": "",
            "fan": "",
            "flowers": "",
            "fans": "",
            "penalties": f"{a}:false",
        },
    ]
    expected[(2, 3)] = hand_scores(seats, rows)
    for table in s2.tables:
        if table.number not in (2, 3):
            enter_totals(2, table.number, table.seats, random_totals(rng))

    # -- session 3: a T9 player absent, the team's 替补 plays the seat (陪打)
    s3 = first_draw[2]
    table3 = next(t for t in s3.tables if any(TEAM_OF[p] == "T9" for p in t.seats))
    absent = next(p for p in table3.seats if TEAM_OF[p] == "T9")
    cli.ok("substitute", T, "--session", "3", "--player", absent, "--by", SUB, "--who", "Ma")
    for table in s3.tables:
        seats = tuple(SUB if p == absent else p for p in table.seats)
        if table.number == table3.number:
            subs[(3, table.number)] = SUB
            enter_totals(3, table.number, seats, [520, 700, 380, 400])
        else:
            enter_totals(3, table.number, seats, random_totals(rng))

    # -- the withdrawal before session 4: sessions 4-5 drawn again, 1-3 as played
    out = cli.ok("withdraw", T, WITHDRAWN, "--from-session", "4", "--who", "Ma", "--note", "ill")
    assert f"{WITHDRAWN} is withdrawn from session 4 on." in out
    store = open_store(db_url)
    try:
        redrawn = store.seatings(T)
    finally:
        store.close()
    assert redrawn[:2] == first_draw[:2]
    assert redrawn[2] == SessionSeating(  # the seatings show the 陪打 in the absent player's seat
        3,
        tuple(Table(t.number, _replaced(t.seats, absent, SUB)) for t in s3.tables),
        s3.byes,
    )
    field = [p for p in PLAYERS if p != WITHDRAWN]
    for seated in redrawn[3:]:
        check_session(seated, field)
        assert WITHDRAWN not in [p for t in seated.tables for p in t.seats]

    # -- sessions 4-5: totals (a tie for last in session 5)
    for seated in redrawn[3:]:
        for table in seated.tables:
            if seated.number == 5 and table.number == 1:
                enter_totals(5, 1, table.seats, [700, 500, 400, 400])
            else:
                enter_totals(seated.number, table.number, table.seats, random_totals(rng))

    # -- the standings after 5 sessions, then session 6 paired Swiss from them
    ranking5 = expected_ranking(expected, subs, upto=5)
    cli.ok("standings", T, "--json", str(tmp_path / "s5.json"))
    got5 = json.loads((tmp_path / "s5.json").read_text(encoding="utf-8"))["standings"]
    assert [(r["rank"], r["name"]) for r in got5 if r["name"] in field] == ranking5
    cli.ok("draw", T, "--session", "6", "--pairing", "swiss")
    store = open_store(db_url)
    try:
        final = store.seatings(T)
    finally:
        store.close()
    assert final[:5] == redrawn
    s6 = final[5]
    check_session(s6, field)
    order = [name for _, name in ranking5]
    assert order[0] in s6.tables[0].seats  # the leader at table 1
    # byes: the lowest ranked of those with the fewest byes
    byes_before: dict[str, int] = defaultdict(int)
    for seated in final[:5]:
        for p in seated.byes:
            byes_before[p] += 1
    fewest = min(byes_before[p] for p in field)
    candidates = [p for p in order if byes_before[p] == fewest]
    assert sorted(s6.byes) == sorted(candidates[-len(s6.byes) :])
    # each table takes the best-ranked player left and three of the next eight
    left = [p for p in order if p not in s6.byes]
    for table in sorted(s6.tables, key=lambda t: t.number):
        best = min(table.seats, key=left.index)
        assert best == left[0]
        assert all(left.index(p) <= 8 for p in table.seats), (table, left[:9])
        left = [p for p in left if p not in table.seats]
    # two players at different tables brought level on standard points and 比赛分, so that
    # 第十一条's later tiebreaks (the best session, then the sessions in order) decide
    planned = level_pair(s6, individual_keys(expected, subs, upto=5), rng)
    assert planned, "no pair of players can be brought level"
    for table in s6.tables:
        sheet = planned.get(table.number) or random_totals(rng)
        enter_totals(6, table.number, table.seats, sheet)
    final_keys = individual_keys(expected, subs)
    level = [k[:2] for k in final_keys.values()]
    assert any(level.count(k) > 1 for k in level)  # the tie is there

    # -- table by table: the store's 局分, seats and 陪打 against the computation
    store = open_store(db_url)
    try:
        results = store.table_results(T)
        penalties = store.penalty_list(T)
    finally:
        store.close()
    got_tables = {
        (r.session, r.table): {e.player: e.score for e in r.entries if not e.absent}
        for r in results
        if r.table  # table 0 holds the absent: byes, the withdrawn, the replaced player
    }
    assert got_tables == expected
    absent_entries = {(r.session, e.player) for r in results for e in r.entries if e.absent}
    assert (3, absent) in absent_entries
    assert {(s, WITHDRAWN) for s in (4, 5, 6)} <= absent_entries
    for r in results:
        assert {e.player for e in r.entries if e.substitute} == (
            {subs[(r.session, r.table)]} if (r.session, r.table) in subs else set()
        )
    assert all(sum(s.values()) == 2000 for k, s in expected.items() if k not in ((1, 1), (2, 2)))
    assert sum(expected[(1, 1)].values()) == 1980
    assert sum(expected[(2, 2)].values()) == 1990
    deductions = {(x.session, x.table, x.player, x.amount) for x in penalties if x.hand is None}
    assert {(s, t, p, abs(a)) for s, t, p, a in deductions} == set(late_seen)

    # the standard points of every player at every table, from `history --json`
    std = standard_points(expected, subs)
    # (every player's totals are checked in the standings below; `history` is slow, so it reads
    # the players of the tables with a tie, a 陪打 or lateness, and the absent and withdrawn)
    special = {(1, 2), (3, table3.number), (5, 1)}
    watched = {p for k in special for p in expected[k]}
    watched |= {p for _, _, p, _ in late_seen} | {absent, WITHDRAWN, SUB}
    for player in sorted(watched):
        doc = cli.json("history", T, player)
        by_session = {line["session"]: line for line in doc["sessions"]}
        for session in range(1, SESSIONS + 1):
            want = std.get((session, player))
            line = by_session.get(session)
            at = next((k for k in expected if k[0] == session and player in expected[k]), None)
            if at is None:  # a bye, absent, withdrawn, or the 替补 not playing
                assert line is None or line["status"] == "absent", (player, line)
                continue
            assert line is not None and line["table"] == at[1], (player, session, line)
            assert line["score"] == expected[at][player], (player, session, line)
            if want is None:  # the 陪打
                assert (line["status"], line["standard_points"]) == ("substitute", None), line
            else:
                assert line["status"] == "played", line
                assert Fraction(line["standard_points"]) == want, (player, session, line)
        if player in field:
            key = individual_keys(expected, subs)[player]
            assert (Fraction(doc["standard_points"]), doc["match_points"]) == key[:2]

    # -- rank by rank: individual and team standings
    cli.ok("standings", T, "--json", str(tmp_path / "final.json"))
    got = json.loads((tmp_path / "final.json").read_text(encoding="utf-8"))["standings"]
    ranked = [r for r in got if r["name"] in field]
    assert [(r["rank"], r["name"]) for r in ranked] == expected_ranking(expected, subs)
    # who left takes no place: listed after the ranked players, marked (docs/rules.md §19)
    assert [(r["rank"], r["status"]) for r in got if r["name"] == WITHDRAWN] == [
        (None, "withdrawn")
    ]
    assert all(r["rank"] is None for r in got[got.index(ranked[-1]) + 1 :])
    keys = individual_keys(expected, subs)
    for r in ranked:
        total, match, sessions = keys[r["name"]]
        assert (Fraction(r["standard_points"]), r["match_points"]) == (total, match)
        assert Fraction(r["best_session"]) == sessions[0]
    cli.ok("standings", T, "--teams", "--json", str(tmp_path / "teams.json"))
    got_teams = json.loads((tmp_path / "teams.json").read_text(encoding="utf-8"))["standings"]
    want_teams = team_keys(expected, subs)
    assert [(r["rank"], r["name"]) for r in got_teams] == ordered(want_teams)
    for r in got_teams:
        total, match, _ = want_teams[r["name"]]
        assert (Fraction(r["standard_points"]), r["match_points"]) == (total, match)

    # -- status: every table complete; audit: the correction with its author
    status = cli.json("status", T)
    assert status["summary"]["complete"] == status["summary"]["tables"] == 9 * 3 + 8 * 3
    assert status["summary"]["not_drawn"] == []
    audit = cli.json("audit", T)["audit"]
    corrections = [
        line
        for line in audit
        if line["session"] == 2 and line["table"] == 2 and line["who"] == "Li"
    ]
    assert corrections and corrections[-1]["note"] == "swapped", corrections
    late_player = next(x for x in late_seen if x[:2] == (2, 2))[2]
    assert corrections[-1]["new"]["deductions"] == {late_player: 10}  # the lateness stays
    assert corrections[-1]["old"]["scores"][late_player] == 610
    assert corrections[-1]["new"]["scores"][late_player] == 490
    text = cli.ok("audit", T)
    assert f"session 2, table 2: totals {late_player} 610 -> 490" in text
    assert "by Li" in text and "(swapped)" in text
    cli.ok("penalties", T, "--csv", str(tmp_path / "penalties.csv"))
    with (tmp_path / "penalties.csv").open(encoding="utf-8-sig", newline="") as handle:
        listed = list(csv.DictReader(handle))
    late_rows = {
        (int(r["session"]), int(r["table"]), r["player"], int(r["amount"]))
        for r in listed
        if r["kind"] == "late"
    }
    assert late_rows == set(late_seen)
    false_wins = {(int(r["session"]), int(r["hand"])) for r in listed if r["kind"] == "false_win"}
    assert false_wins == {(1, 5), (1, 15), (2, 5), (2, 16)}
    assert any(line["who"] == "Zhou" and line["hand"] == 16 for line in audit)


def standard_points(
    expected: Mapping[tuple[int, int], Mapping[str, int]],
    subs: Mapping[tuple[int, int], str],
    upto: int = SESSIONS,
) -> dict[tuple[int, str], Fraction]:
    out = {}
    for (session, table), scores in expected.items():
        if session > upto:
            continue
        ranked = {p: s for p, s in scores.items() if p != subs.get((session, table))}
        for player, points in table_points(ranked).items():
            out[(session, player)] = points
    return out


def individual_keys(
    expected: Mapping[tuple[int, int], Mapping[str, int]],
    subs: Mapping[tuple[int, int], str],
    upto: int = SESSIONS,
) -> dict[str, Key]:
    lines: dict[str, list[tuple[Fraction, int]]] = defaultdict(list)
    for (session, player), points in standard_points(expected, subs, upto).items():
        table = next(k for k in expected if k[0] == session and player in expected[k])
        lines[player].append((points, expected[table][player]))
    return {
        player: (
            sum((p for p, _ in got), Fraction(0)),
            sum(s for _, s in got),
            tuple(sorted((p for p, _ in got), reverse=True)),
        )
        for player, got in lines.items()
        if player != WITHDRAWN
    }


def expected_ranking(
    expected: Mapping[tuple[int, int], Mapping[str, int]],
    subs: Mapping[tuple[int, int], str],
    upto: int = SESSIONS,
) -> list[tuple[int, str]]:
    return ordered(individual_keys(expected, subs, upto))


def team_keys(
    expected: Mapping[tuple[int, int], Mapping[str, int]],
    subs: Mapping[tuple[int, int], str],
) -> dict[str, Key]:
    points = standard_points(expected, subs)
    out = {}
    for team, members in TEAMS.items():
        per_session: dict[int, Fraction] = defaultdict(Fraction)
        match = 0
        for (session, player), p in points.items():
            if player in members:
                per_session[session] += p
                match += next(
                    s[player] for k, s in expected.items() if k[0] == session and player in s
                )
        out[team] = (
            sum(per_session.values(), Fraction(0)),
            match,
            tuple(sorted(per_session.values(), reverse=True)),
        )
    return out
