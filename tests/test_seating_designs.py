"""Team events on resolvable transversal designs RTD(4, q) over GF(q) (issue 13, point 4).

4q players in q teams of 4: q − 1 sessions where nobody meets anyone twice and team-mates never
share a table (q sessions when q is a multiple of 4, or without teams). The finite fields are the
package's own, so their axioms are checked here too. Method and figures: docs/seating.md.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from guobiao.cli import main
from guobiao.tournament import best_possible, draw_session_one, quality, schedule
from guobiao.tournament.seating import (
    _GF4_MUL,
    GaloisField,
    Schedule,
    transversal_classes,
)

FIELDS = (4, 5, 7, 8, 9, 11, 13, 16, 25, 27)
DESIGNS = (4, 5, 7, 8, 9, 11, 13)


def names(n: int) -> list[str]:
    return [f"P{i:03d}" for i in range(n)]


def teams_of(players: list[str], size: int) -> dict[str, list[str]]:
    return {f"T{t:02d}": players[size * t : size * t + size] for t in range(len(players) // size)}


def meetings(sched: Schedule) -> Counter[frozenset[str]]:
    return Counter(
        frozenset(pair)
        for s in sched.sessions
        for t in s.tables
        for pair in itertools.combinations(t.seats, 2)
    )


def check(sched: Schedule, teams: dict[str, list[str]], sessions: int) -> None:
    """Everyone once a session, no pair twice, no team-mates together: checked from the seats."""
    assert len(sched.sessions) == sessions
    for s in sched.sessions:
        seated = [p for t in s.tables for p in t.seats]
        assert sorted(seated) == sorted(sched.players) and not s.byes
    met = meetings(sched)
    assert set(met.values()) == {1}
    for members in teams.values():
        assert not any(frozenset(pair) in met for pair in itertools.combinations(members, 2))
    got = quality(sched, teams)
    assert got.repeat_meetings == got.team_meetings == 0
    assert got.max_meetings == 1
    size = max((len(m) for m in teams.values()), default=1)
    assert best_possible(len(sched.players), sessions, size).repeat_meetings == 0


# --- the fields ---------------------------------------------------------------------------------


@pytest.mark.parametrize("q", FIELDS)
def test_field_axioms(q: int) -> None:
    f = GaloisField(q)
    els = range(q)
    add = [[f.add(x, y) for y in els] for x in els]
    mul = [[f.mul(x, y) for y in els] for x in els]
    for x in els:
        assert add[x][0] == x and mul[x][1] == x and mul[x][0] == 0
        assert add[x][f.neg(x)] == 0
        assert sorted(add[x]) == list(els)  # a Latin square: subtraction is defined
        if x:
            assert 1 in mul[x]  # an inverse
        for y in els:
            assert add[x][y] == add[y][x] and mul[x][y] == mul[y][x]
            assert 0 <= mul[x][y] < q
            for z in els:
                assert add[add[x][y]][z] == add[x][add[y][z]]
                assert mul[mul[x][y]][z] == mul[x][mul[y][z]]
                assert mul[x][add[y][z]] == add[mul[x][y]][mul[x][z]]
    one = 0
    for _ in range(f.p):
        one = add[one][1]
    assert one == 0  # characteristic p


def test_gf4_is_the_affine_geometrys() -> None:
    f = GaloisField(4)
    assert tuple(tuple(f.mul(x, y) for y in range(4)) for x in range(4)) == _GF4_MUL
    assert [f.add(x, y) for x in range(4) for y in range(4)] == [
        x ^ y for x in range(4) for y in range(4)
    ]


@pytest.mark.parametrize("q", [0, 1, 6, 10, 12, 100])
def test_not_a_prime_power(q: int) -> None:
    with pytest.raises(ValueError, match="prime power"):
        GaloisField(q)


# --- the designs --------------------------------------------------------------------------------


@pytest.mark.parametrize("q", DESIGNS)
def test_resolvable_transversal_design(q: int) -> None:
    classes = transversal_classes(q)
    assert len(classes) == q
    pairs: Counter[tuple[int, int]] = Counter()
    for blocks in classes:
        assert len(blocks) == q
        assert sorted(p for b in blocks for p in b) == list(range(4 * q))  # a parallel class
        for block in blocks:
            assert [p // q for p in block] == [0, 1, 2, 3]  # one point of each group
            pairs.update(itertools.combinations(sorted(block), 2))
    # every pair of points in different groups exactly once, two points of a group never
    assert set(pairs.values()) == {1}
    assert len(pairs) == 6 * q * q
    assert transversal_classes(q, 2, start=1) == classes[1:3]
    with pytest.raises(ValueError):
        transversal_classes(3)


# --- through schedule() -------------------------------------------------------------------------


@pytest.mark.parametrize("q", [5, 7, 9, 11, 13])
def test_teams_of_four_held_out_class(q: int) -> None:
    players = names(4 * q)
    teams = teams_of(players, 4)
    sched = schedule(players, q - 1, teams=teams, seed=q)
    assert sched.method == (
        f"resolvable transversal design RTD(4, {q}) over GF({q}), teams in a held-out parallel "
        f"class: {q - 1} parallel classes"
    )
    check(sched, teams, q - 1)
    assert quality(sched).wind_spread <= 1


@pytest.mark.parametrize(("q", "size"), [(8, 4), (5, 5), (7, 1)])
def test_teams_within_the_groups(q: int, size: int) -> None:
    """Teams that fit in the design's groups (8 = 2 teams of 4, 5 = a team of 4 + substitute;
    size 1 = no teams): all q classes."""
    players = names(4 * q)
    teams = teams_of(players, size) if size > 1 else {}
    sched = schedule(players, q, teams=teams, seed=1)
    assert sched.method.startswith(f"resolvable transversal design RTD(4, {q}) over GF({q})")
    assert sched.method.endswith(f": {q} parallel classes")
    check(sched, teams, q)


def test_powers_of_four_keep_the_affine_geometry() -> None:
    """16 and 64 are 4q with q = 4, 16 too, but AG(k, 4) has more classes (5 vs 4, 20 vs 16)."""
    players = names(64)
    teams = teams_of(players, 4)
    sched = schedule(players, 20, teams=teams, seed=2)
    assert sched.method == "affine geometry AG(3, 4): 20 parallel classes"
    check(sched, teams, 20)
    assert schedule(names(16), 4, seed=2).method.startswith("affine geometry AG(2, 4)")


@pytest.mark.parametrize(("q", "sessions"), [(5, 6), (7, 8)])
def test_beyond_the_design(q: int, sessions: int) -> None:
    """More sessions than classes: the search goes on, team-mates still apart, and session one is
    still the draw."""
    players = names(4 * q)
    teams = teams_of(players, 4)
    sched = schedule(players, sessions, teams=teams, seed=3, keep_draw=True)
    assert sched.method.endswith("+ heuristic")
    assert sched.sessions[0] == draw_session_one(players, 3, teams=teams)
    assert quality(sched, teams).team_meetings == 0
    prefix = Schedule(sched.players, sched.sessions[: q - 1], sched.method)
    if f"{q - 1} parallel classes" in sched.method:
        assert set(meetings(prefix).values()) == {1}


def test_cli_draw_uses_the_design(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    csv = tmp_path / "players.csv"
    lines = [f"{i + 1},P{i + 1:02d},Team{i // 4}," for i in range(20)]
    csv.write_text("\n".join(["number,name,team,substitute", *lines]) + "\n", encoding="utf-8")

    def cli(*args: str) -> str:
        result = CliRunner().invoke(main, ["tournament", *args, "--db", url])
        assert result.exit_code == 0, (result.output, result.exception)
        return " ".join(result.output.split())

    cli("create", "club", "--sessions", "4")
    cli("players", "club", str(csv))
    out = cli("draw", "club", "--seed", "1")
    assert "RTD(4, 5) over GF(5)" in out and "4 parallel classes" in out
    with sqlite3.connect(tmp_path / "t.db") as con:  # the stored seats, read with plain SQL
        rows = con.execute(
            "SELECT s.number, t.number, p.name FROM seat_assignments a "
            "JOIN tables t ON a.table_id = t.id JOIN sessions s ON t.session_id = s.id "
            "JOIN players p ON a.player_id = p.id"
        ).fetchall()
    tables: dict[tuple[int, int], list[str]] = {}
    for session, table, name in rows:
        tables.setdefault((session, table), []).append(name)
    assert len(tables) == 4 * 5 and all(len(t) == 4 for t in tables.values())
    met = Counter(frozenset(p) for t in tables.values() for p in itertools.combinations(t, 2))
    assert set(met.values()) == {1}
    team = {f"P{i + 1:02d}": i // 4 for i in range(20)}
    assert all(team[a] != team[b] for a, b in met)
