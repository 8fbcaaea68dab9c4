"""``guobiao tournament``: run a tournament from the command line (issue 4, item 6).

An adapter over ``guobiao.tournament`` (seating, ranking) and its store. SQLAlchemy is imported
only when a tournament command runs, so the rest of the ``guobiao`` command never loads it.
Every refusal prints ``error: ...`` and exits with 2 (bad input) or 1 (refused by the data);
nothing is changed then.
"""

from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.table import Table

from guobiao.cli.paths import describe_db
from guobiao.cli.util import console as _console
from guobiao.cli.util import fail as _fail

if TYPE_CHECKING:
    from guobiao.tournament.ranking import Standing
    from guobiao.tournament.store import PlayerRow, Store

__all__ = ["format_points", "tournament"]

from guobiao.cli.tournament.common import (
    DB_OPTION,
    WINDS,
    format_points,
    output_option,
)
from guobiao.cli.tournament.common import (
    open_cli_store as _store,
)
from guobiao.cli.tournament.entry import ENTRY_COMMANDS, author
from guobiao.cli.tournament.papers import PAPER_COMMANDS
from guobiao.cli.tournament.referee import REFEREE_COMMANDS
from guobiao.tournament.queries import TournamentInfo
from guobiao.tournament.queries import read_info as _info
from guobiao.tournament.queries import read_seating as _seating


@click.group()
def tournament() -> None:
    """Run a tournament: players and teams, the seating draw, results, standings, sheets.

    \b
    Example (a club night of 16 players in 4 teams over 2 sessions):
      guobiao tournament create club --sessions 2
      guobiao tournament players club players.csv     # number,name,team,substitute
      guobiao tournament draw club --seed 7
      guobiao tournament seating club --session 1
      guobiao tournament hand club --session 1 --table 2 --hand 1 --winner S --from E --fan 12
      guobiao tournament totals club --session 1 --table 1 620 480 510 390
      guobiao tournament standings club --csv standings.csv

    Results are entered hand by hand (`hand`) or as a table's totals (`totals`); both can be
    corrected (--correct --who NAME) and every correction is kept (`audit`). Every command
    takes --db URL (or GUOBIAO_DB); the default database is tournaments.db in the per-user
    data folder (each command's --help shows it; GUOBIAO_HOME moves it).
    """


@tournament.command()
@click.argument("name")
@click.option("--sessions", type=int, required=True, help="Sessions (局) planned.")
@click.option(
    "--group-size",
    type=int,
    default=None,
    help="Ranking group for standard points: 4 (each table, the default) or a multiple of 4.",
)
@DB_OPTION
def create(name: str, sessions: int, group_size: int | None, url: str) -> None:
    """Create the tournament NAME."""
    if sessions < 1:
        _fail(f"--sessions must be at least 1, not {sessions}")
    if group_size is not None and (group_size < 4 or group_size % 4):
        _fail(f"--group-size must be a multiple of 4, not {group_size}")
    with _store(url) as store:
        store.create_tournament(name, sessions=sessions, group_size=group_size)
    click.echo(f"Created tournament {name!r}: {sessions} session(s).")
    click.echo(f"guobiao: the tournament database is {describe_db(url)}", err=True)


def _read_csv(path: Path) -> list[tuple[int, PlayerRow]]:
    """The rows of a players CSV with their line numbers; the first bad row stops it."""
    from guobiao.tournament.store import PlayerRow

    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as err:
        _fail(f"cannot read {path}: {err.strerror}")
    except UnicodeDecodeError:
        _fail(f"{path} is not UTF-8 text")
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip().lower() for h in reader.fieldnames or []]
    missing = [c for c in ("number", "name") if c not in header]
    if missing:
        _fail(
            f"{path}: line 1: the header needs columns number,name[,team,substitute,ema_id,country]"
        )
    reader.fieldnames = header
    out: list[tuple[int, PlayerRow]] = []
    for raw in reader:
        line = reader.line_num
        if None in raw:
            _fail(f"{path}: line {line}: more fields than the header has columns")
        number_text = (raw.get("number") or "").strip()
        name = (raw.get("name") or "").strip()
        team = (raw.get("team") or "").strip() or None
        sub_text = (raw.get("substitute") or "").strip().lower()
        if not number_text.isdigit() or int(number_text) < 1:
            _fail(f"{path}: line {line}: the number {number_text!r} is not a positive integer")
        if not name:
            _fail(f"{path}: line {line}: no name")
        if sub_text not in ("", "0", "1", "true", "false", "yes", "no", "y", "n", "x", "是"):
            _fail(f"{path}: line {line}: substitute {sub_text!r} is not yes/no")
        substitute = sub_text in ("1", "true", "yes", "y", "x", "是")
        if substitute and team is None:
            _fail(f"{path}: line {line}: a substitute belongs to a team")
        ema_id = (raw.get("ema_id") or "").strip() or None
        country = (raw.get("country") or "").strip() or None
        out.append((line, PlayerRow(int(number_text), name, team, substitute, ema_id, country)))
    if not out:
        _fail(f"{path}: no players")
    return out


@tournament.command()
@click.argument("name")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--after-draw",
    is_flag=True,
    help="Register players after the draw anyway: they are seated in no session and can play "
    "only as substitutes (not ranked).",
)
@DB_OPTION
def players(name: str, file: Path, after_draw: bool, url: str) -> None:
    """Register players from FILE (CSV: number,name,team,substitute,ema_id,country); all rows
    or none. Only number and name are required.

    Teams named in the file are created. A team has at most 4 players and 1 substitute.
    ema_id and country (EMA / MERS player number and country) go into the --ema export.

    Once the seats are drawn, a player (not a team's substitute) is refused: the draw is made
    and nobody new is ever seated in it. --after-draw registers them anyway, with a warning;
    they can then play only as a substitute for someone absent (`substitute --by`), unranked.
    """
    rows = _read_csv(file)
    with _store(url) as store:
        info = _info(store, name)
        drawn = _drawn_sessions(store, name)
        unseated = [row.name for _, row in rows if not row.substitute]
        if drawn and unseated and not after_draw:
            _fail(
                f"{file}: the seats of {name!r} are already drawn (session(s) "
                f"{', '.join(map(str, drawn))}): {', '.join(unseated)} would never be seated. "
                "A draw is not redone; a player registered now can only play as a substitute "
                "for someone absent (not ranked): pass --after-draw to register them so, then "
                f"`guobiao tournament substitute {name} --session S --player ABSENT --by NAME`",
                1,
            )
        names = dict(info.players)
        numbers = {number: player for player, (number, _, _) in names.items()}
        for line, row in rows:
            if row.name in names:
                _fail(f"{file}: line {line}: a player {row.name!r} is already registered", 1)
            if row.number in numbers:
                _fail(
                    f"{file}: line {line}: number {row.number} is taken by {numbers[row.number]!r}",
                    1,
                )
            names[row.name] = (row.number, row.team, row.substitute)
            numbers[row.number] = row.name
            members = [v for v in names.values() if v[1] is not None and v[1] == row.team]
            regular = sum(not v[2] for v in members)
            if row.team is not None and (regular > 4 or len(members) - regular > 1):
                _fail(
                    f"{file}: line {line}: team {row.team!r} would have {regular} players and "
                    f"{len(members) - regular} substitute(s) (at most 4 and 1)",
                    1,
                )
        known_teams = {v[1] for v in info.players.values() if v[1] is not None}
        new_teams = sorted({r.team for _, r in rows if r.team and r.team not in known_teams})
        created = _add_teams(store, name, new_teams)
        try:
            added = store.add_players(name, [r for _, r in rows])
        except Exception:
            _drop_teams(store, name, created)
            raise
    click.echo(f"Added {added} player(s) to {name!r}" + (f", {len(new_teams)} new team(s)."))
    if drawn and unseated:
        click.echo(
            f"warning: the seats are already drawn; seated in no session: {', '.join(unseated)}."
            " They can play only as substitutes for someone absent, not ranked (`guobiao "
            f"tournament substitute {name} --session S --player ABSENT --by NAME`)",
            err=True,
        )


def _drawn_sessions(store: Store, name: str) -> list[int]:
    """The sessions of the tournament that are seated (have tables), in order."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from guobiao.tournament.models import Tournament, TournamentSession

    with Session(store.engine) as db:
        return list(
            db.scalars(
                select(TournamentSession.number)
                .join(Tournament)
                .where(Tournament.name == name)
                .where(TournamentSession.tables.any())
                .order_by(TournamentSession.number)
            )
        )


def _add_teams(store: Store, name: str, teams: list[str]) -> list[str]:
    created: list[str] = []
    try:
        for team in teams:
            store.add_team(name, team)
            created.append(team)
    except Exception:
        _drop_teams(store, name, created)
        raise
    return created


def _drop_teams(store: Store, name: str, teams: list[str]) -> None:
    """Undo teams created for a file that was then refused (they have no players)."""
    if not teams:
        return
    from sqlalchemy import delete, select
    from sqlalchemy.orm import Session

    from guobiao.tournament.models import Team, Tournament

    with Session(store.engine) as db, db.begin():
        tid = db.scalar(select(Tournament.id).where(Tournament.name == name))
        db.execute(delete(Team).where(Team.tournament_id == tid, Team.name.in_(teams)))


@tournament.command()
@click.argument("name")
@click.option("--seed", type=int, default=0, show_default=True, help="Makes the draw reproducible.")
@DB_OPTION
def draw(name: str, seed: int, url: str) -> None:
    """Draw the seats of every session (team-mates apart, opponents spread, winds balanced).

    Prints the schedule's quality next to the best possible figures.
    """
    from guobiao.tournament.seating import (
        Schedule,
        SessionSeating,
        best_possible,
        quality,
        schedule,
    )
    from guobiao.tournament.seating import Table as Seat

    with _store(url) as store:
        info = _info(store, name)
        regular = [p for p, (_, _, sub) in info.players.items() if not sub]
        if len(regular) < 4:
            _fail(f"{name!r}: {len(regular)} player(s) registered; a table needs 4", 1)
        teams: dict[str, list[str]] = {}
        for player in regular:
            team = info.players[player][1]
            if team is not None:
                teams.setdefault(team, []).append(player)
        try:
            plan = schedule(regular, info.sessions, teams=teams, seed=seed)
        except ValueError as err:
            _fail(f"{name!r}: cannot draw: {err}", 1)
        numbered = Schedule(
            plan.players,
            tuple(
                SessionSeating(
                    s.number + 1,
                    tuple(Seat(t.number + 1, t.seats) for t in s.tables),
                    s.byes,
                )
                for s in plan.sessions
            ),
            plan.method,
            plan.substitutes,
        )
        store.save_schedule(name, numbered)
    got = quality(numbered, teams)
    bound = best_possible(
        len(regular), info.sessions, max((len(m) for m in teams.values()), default=1)
    )
    console = _console()
    console.print(
        f"Drew {info.sessions} session(s) for {len(regular)} players (seed {seed}): {plan.method}"
    )
    table = Table(show_header=True, header_style="bold")
    table.add_column("Figure")
    table.add_column("This draw", justify="right")
    table.add_column("Best possible", justify="right")
    table.add_row("Repeat meetings", str(got.repeat_meetings), str(bound.repeat_meetings))
    table.add_row("Most meetings of a pair", str(got.max_meetings), str(bound.max_meetings))
    table.add_row("Fewest opponents", str(got.min_opponents), str(bound.max_min_opponents))
    table.add_row("Wind spread", str(got.wind_spread), str(bound.wind_spread))
    table.add_row("Team-mate meetings", str(got.team_meetings), "0")
    table.add_row("Byes per player", f"{got.min_byes}-{got.max_byes}", "")
    console.print(table)


@tournament.command()
@click.argument("name")
@click.option("--session", type=int, required=True, help="Session number, from 1.")
@DB_OPTION
def seating(name: str, session: int, url: str) -> None:
    """The tables of a session with the players at E S W N (the seats of the first hand)."""
    with _store(url) as store:
        info = _info(store, name)
        if not 1 <= session <= info.sessions:
            _fail(f"{name!r} has sessions 1-{info.sessions}, not {session}")
        tables = _seating(store, name, session)
    table = Table(title=f"{name}: session {session}", show_header=True, header_style="bold")
    table.add_column("Table", justify="right")
    for wind in ("E 东", "S 南", "W 西", "N 北"):
        table.add_column(wind)
    for number, seats in tables:
        cells = []
        for player in seats:
            pnumber, team, _ = info.players[player]
            cells.append(f"{pnumber} {player}" + (f" ({team})" if team else ""))
        table.add_row(str(number), *cells)
    _console().print(table)


@tournament.command(context_settings={"ignore_unknown_options": True})
@click.argument("name")
@click.option("--session", type=int, required=True, help="Session number, from 1.")
@click.option("--table", "table_number", type=int, required=True, help="Table number, from 1.")
@click.argument("scores", nargs=4, type=int, metavar="E S W N")
@click.option("--correct", is_flag=True, help="Replace totals already entered (needs --who).")
@click.option(
    "--who",
    default=None,
    help="Who enters or corrects the totals, kept in the audit trail (default: your login "
    "name; required with --correct).",
)
@click.option("--note", default=None, help="Why (kept in the audit trail).")
@DB_OPTION
def totals(
    name: str,
    session: int,
    table_number: int,
    scores: tuple[int, int, int, int],
    correct: bool,
    who: str | None,
    note: str | None,
    url: str,
) -> None:
    """Enter a table's session totals (局分) from the score sheet, in seat order E S W N.

    Each is the player's 局分 after their deductions (the sheet's 局分 row), so they sum to 4 ×
    the starting points (2000) less any lateness deduction entered with `late`. A table entered
    twice is refused; --correct --who NAME replaces the totals (read the same way; the
    lateness deductions stay) and keeps the old ones in the audit trail. Totals that look like a
    typo (a 局分 below 0 or above 2000) are entered with a warning on stderr.
    """
    from guobiao.tournament.store import implausible_totals

    if correct and not (who and who.strip()):
        _fail("--correct needs --who (the name kept in the audit trail)")
    with _store(url) as store:
        tables = dict(_seating(store, name, session))
        if table_number not in tables:
            _fail(f"{name!r}: session {session} has tables 1-{len(tables)}, not {table_number}")
        seats = tables[table_number]
        entered = dict(zip(seats, scores, strict=True))
        if correct:
            store.correct_session_totals(
                name, session, table_number, entered, who=author(who), note=note
            )
        else:
            store.record_session_totals(
                name, session, table_number, entered, who=author(who), note=note
            )
    click.echo(
        ("Corrected " if correct else "")
        + f"Session {session} table {table_number}: "
        + ", ".join(f"{w} {p} {s}" for w, p, s in zip(WINDS, seats, scores, strict=True))
    )
    for warning in implausible_totals(entered):
        click.echo(
            f"warning: session {session} table {table_number}: {warning}; check the sheet "
            "(fix it with --correct --who NAME)",
            err=True,
        )


EMA_FIELDS = (
    "place",
    "name",
    "number",
    "ema_id",
    "country",
    "team",
    "table_points",
    "table_points_decimal",
    "mahjong_points",
    "sessions_played",
    "base_rank",
)


def ema_rows(ranking: list[Standing], info: TournamentInfo) -> list[dict[str, Any]]:
    """The rows of an EMA (MERS) results report: place (ties share it), the player's EMA number
    and country, table points (标准分; exact, and to 2 decimals), mahjong points (比赛分) and the
    MERS base rank 1000 × (N − place) / (N − 1), rounded half up (N: players ranked)."""
    count = len(ranking)
    rows = []
    for s in ranking:
        number, team, _ = info.players[s.name]
        ema_id, country = info.ema[s.name]
        base = Fraction(1000 * (count - s.rank), count - 1) if count > 1 else Fraction(1000)
        rows.append(
            {
                "place": s.rank,
                "name": s.name,
                "number": number,
                "ema_id": ema_id or "",
                "country": country or "",
                "team": team or "",
                "table_points": str(s.standard_points),
                "table_points_decimal": f"{_half_up(s.standard_points * 100) / 100:.2f}",
                "mahjong_points": s.match_points,
                "sessions_played": len(s.session_points),
                "base_rank": _half_up(base),
            }
        )
    return rows


def _half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


def _write_ema(path: Path, ranking: list[Standing], info: TournamentInfo) -> None:
    try:
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, EMA_FIELDS)
            writer.writeheader()
            writer.writerows(ema_rows(ranking, info))
    except OSError as err:
        _fail(f"cannot write {path}: {err.strerror}")


def _standing_json(s: Standing, team: str | None, teams: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"rank": s.rank, "tied": s.tied, "name": s.name}
    if teams:
        out["members"] = list(s.members)
    else:
        out["team"] = team
    out |= {
        "standard_points": str(s.standard_points),
        "match_points": s.match_points,
        "best_session": str(s.best_session),
        "sessions": len(s.session_points),
    }
    return out


@tournament.command()
@click.argument("name")
@click.option("--teams", "by_team", is_flag=True, help="The team ranking instead.")
@output_option("--csv", "csv_path", "the ranking as CSV")
@output_option("--json", "json_path", "the ranking as JSON")
@output_option("--ema", "ema_path", "the EMA (MERS) results report as CSV (individual ranking)")
@DB_OPTION
def standings(
    name: str,
    by_team: bool,
    csv_path: Path | None,
    json_path: Path | None,
    ema_path: Path | None,
    url: str,
) -> None:
    """The individual (or --teams) ranking by 第十一条: standard points, then match points,
    best session, high sessions; ``3=`` marks a shared rank. Exports keep exact fractions
    (``15/2``)."""
    from guobiao.tournament.ranking import individual_ranking, team_ranking

    if csv_path is not None and json_path is not None:
        _fail("give --csv or --json, not both")
    if ema_path is not None and by_team:
        _fail("--ema reports the individual ranking: leave out --teams")
    with _store(url) as store:
        info = _info(store, name)
        results = store.table_results(name)
    team_of = {p: v[1] for p, v in info.players.items()}
    if by_team:
        members: dict[str, list[str]] = {}
        for player, (_, team, _) in info.players.items():
            if team is not None:
                members.setdefault(team, []).append(player)
        if not members:
            _fail(f"{name!r} has no teams", 1)
        ranking = team_ranking(results, members)
    else:
        ranking = individual_ranking(results)
    rows = [_standing_json(s, team_of.get(s.name), by_team) for s in ranking]
    if not by_team:  # the EMA (MERS) fields in every individual export
        for row, ema in zip(rows, ema_rows(ranking, info), strict=True):
            row |= {k: ema[k] for k in ("number", "ema_id", "country", "base_rank")}
    if csv_path is not None or json_path is not None:
        target = csv_path if csv_path is not None else json_path
        assert target is not None
        try:
            if json_path is not None:
                doc = {"tournament": name, "ranking": "team" if by_team else "individual"}
                text = json.dumps(doc | {"standings": rows}, ensure_ascii=False, indent=2)
                target.write_text(text + "\n", encoding="utf-8")
            else:
                with target.open("w", newline="", encoding="utf-8") as handle:
                    fields = list(rows[0]) if rows else ["rank", "name"]
                    writer = csv.DictWriter(handle, fields)
                    writer.writeheader()
                    for row in rows:
                        writer.writerow(
                            {k: " ".join(v) if isinstance(v, list) else v for k, v in row.items()}
                        )
        except OSError as err:
            _fail(f"cannot write {target}: {err.strerror}")
    if ema_path is not None:
        _write_ema(ema_path, ranking, info)
    table = Table(
        title=f"{name}: {'team' if by_team else 'individual'} standings",
        show_header=True,
        header_style="bold",
    )
    table.add_column("Rank", justify="right")
    table.add_column("Team" if by_team else "Name")
    table.add_column("Players" if by_team else "Team")
    table.add_column("Standard", justify="right")
    table.add_column("Match", justify="right")
    table.add_column("Best session", justify="right")
    for s in ranking:
        second = ", ".join(s.members) if by_team else (team_of.get(s.name) or "")
        table.add_row(
            s.label,
            s.name,
            second,
            format_points(s.standard_points),
            str(s.match_points),
            format_points(s.best_session),
        )
    console = _console()
    console.print(table)
    if not results:
        console.print("No results entered yet.")


# hand, late, substitute, audit, penalties, history; sheet, results
for _command in (*ENTRY_COMMANDS, *PAPER_COMMANDS, *REFEREE_COMMANDS):
    tournament.add_command(_command)
