"""``guobiao tournament``: run a tournament from the command line (issue 4, item 6).

An adapter over ``guobiao.tournament`` (seating, ranking) and its store. SQLAlchemy is imported
only when a tournament command runs, so the rest of the ``guobiao`` command never loads it.
Every refusal prints ``error: ...`` and exits with 2 (bad input) or 1 (refused by the data);
nothing is changed then.
"""

from __future__ import annotations

import csv
import difflib
import io
import itertools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import click
from rich.table import Table

from guobiao.cli.help import Command, Group
from guobiao.cli.options import SEED
from guobiao.cli.paths import describe_db
from guobiao.cli.util import console as _console
from guobiao.cli.util import fail as _fail

if TYPE_CHECKING:
    from guobiao.tournament.ranking import Standing
    from guobiao.tournament.seating import SessionSeating
    from guobiao.tournament.store import PlayerRow, Store, TableStatus, WithdrawalLine

__all__ = ["format_points", "tournament"]

from guobiao.cli.tournament.common import (
    DB_OPTION,
    EMA_ENCODING,
    MAX_GROUP_SIZE,
    MAX_SESSIONS,
    WINDS,
    format_points,
    output_option,
    seating_of,
    spreadsheet_csv,
)
from guobiao.cli.tournament.common import (
    open_cli_store as _store,
)
from guobiao.cli.tournament.entry import ENTRY_COMMANDS, author
from guobiao.cli.tournament.papers import PAPER_COMMANDS
from guobiao.cli.tournament.referee import REFEREE_COMMANDS
from guobiao.tournament.queries import TournamentInfo
from guobiao.tournament.queries import read_info as _info
from guobiao.tournament.ranking import (
    BYE_POINTS,
    FORFEIT_POINTS,
    SUBSTITUTE_TABLES,
    TEAM_SUBSTITUTES,
    WITHDRAWAL_REASONS,
    Readings,
    readings_line,
)
from guobiao.tournament.seating import PAIRINGS


@click.group(cls=Group)
def tournament() -> None:
    """Run a tournament: players and teams, the seating draw, results, standings, sheets.

    \b
    Example (a club night of 16 players in 4 teams over 2 sessions):
      guobiao tournament create club --sessions 2
      guobiao tournament players club players.csv  # number,name,team,substitute
      guobiao tournament draw club --seed 7
      guobiao tournament seating club --session 1
      guobiao tournament hand club --session 1 --table 2 --hand 1 \\
          --winner S --from E --fan 12
      guobiao tournament totals club --session 1 --table 1 620 480 510 390
      guobiao tournament standings club --csv standings.csv

    Results are entered hand by hand (`hand`) or as a table's totals (`totals`); both can be
    corrected (--correct --who NAME) and every correction is kept (`audit`). Every command
    takes --db URL (or GUOBIAO_DB); the default database is tournaments.db in the per-user
    data folder (each command's --help shows it; GUOBIAO_HOME moves it).
    """


@tournament.command()
@click.argument("name")
@click.option(
    "--sessions",
    type=int,
    required=True,
    help=f"Sessions (局, 16 hands each) planned: 1-{MAX_SESSIONS} (a weekend tournament plays "
    "5-8).",
)
@click.option(
    "--group-size",
    type=int,
    default=None,
    help="Ranking group for standard points: 4 (each table, the default) or a multiple of 4, "
    f"at most {MAX_GROUP_SIZE}.",
)
@click.option(
    "--withdrawn-results",
    type=click.Choice(["keep", "void"]),
    default="keep",
    show_default=True,
    help="How the sessions a withdrawn or disqualified player played count: keep (as played) "
    "or void (their score counts for the table like a 陪打's, no standard points; the others "
    "at the table ranked among themselves). Either way the player takes no place.",
)
@click.option(
    "--final-pairing",
    type=click.Choice(PAIRINGS),
    default=None,
    help="Seat the last session(s) from the standings, one at a time (`draw --session S`): "
    "swiss (rank order, repeat meetings avoided) or strongest (1-4, 5-8, ...).",
)
@click.option(
    "--final-sessions",
    type=int,
    default=None,
    help="How many last sessions --final-pairing seats (default 1); `draw` seats the others.",
)
@click.option(
    "--substitute-table",
    type=click.Choice(SUBSTITUTE_TABLES),
    default="three",
    show_default=True,
    help="A table with a 陪打 (第十二条三(二)): three (the three ranked players take 4/2/1) or "
    "four (all four ranked by score, the substitute's share withheld).",
)
@click.option(
    "--forfeit-points",
    type=click.Choice(FORFEIT_POINTS),
    default="score",
    show_default=True,
    help="A forfeit (局分 0, 第十三条二(一)): score (ranked by its 0 like any score) or last "
    "(the group's last place outright).",
)
@click.option(
    "--team-substitute",
    type=click.Choice(TEAM_SUBSTITUTES),
    default="not",
    show_default=True,
    help="A team's 替补 (第十二条三(二)): not (a 陪打: no standard points) or counts (ranked at "
    "the table, the points count for the team; never an individual place).",
)
@click.option(
    "--bye-points",
    type=click.Choice(BYE_POINTS),
    default="none",
    show_default=True,
    help="A bye (轮空, 第十二条一): none (no standard points) or average (the mean of a "
    "group's places: 7/4 at tables of 4).",
)
@click.option(
    "--absent",
    "absent_policy",
    type=click.Choice(["substitute", "bye"]),
    default="substitute",
    show_default=True,
    help="A player checked in absent (`checkin --apply`): substitute (a free registered "
    "substitute plays the seat) or bye (the session is drawn again without them).",
)
@DB_OPTION
def create(
    name: str,
    sessions: int,
    group_size: int | None,
    withdrawn_results: str,
    final_pairing: str | None,
    final_sessions: int | None,
    substitute_table: str,
    forfeit_points: str,
    team_substitute: str,
    bye_points: str,
    absent_policy: str,
    url: str,
) -> None:
    """Create the tournament NAME. The readings (--substitute-table, --forfeit-points,
    --team-substitute, --bye-points) are printed under the score sheets and the results table
    (docs/rules.md §19). NAME is also the web pages' address (/t/NAME): at most 100
    characters, no slash, and not another tournament's name in another case.

    \b
    Examples:
      guobiao tournament create "Spring Open" --sessions 5
      guobiao tournament create club --sessions 7 --final-pairing swiss \\
          --group-size 16
    Then: `players` (register), `draw` (seat every session), `seating` (post it).
    """
    from guobiao.tournament.store import tournament_name_problem

    name = name.strip()  # as the store keeps it: "Club night " is "Club night"
    problem = tournament_name_problem(name)
    if problem is not None:
        _fail(problem)
    if sessions < 1:
        _fail(f"--sessions must be at least 1, not {sessions}")
    if sessions > MAX_SESSIONS:
        _fail(
            f"--sessions {sessions} is too large: at most {MAX_SESSIONS} (a weekend tournament "
            "plays 5-8 sessions of 16 hands, a weekly league about 50 a year)"
        )
    if group_size is not None and (group_size < 4 or group_size % 4):
        _fail(f"--group-size must be a multiple of 4, not {group_size}")
    if group_size is not None and group_size > MAX_GROUP_SIZE:
        _fail(
            f"--group-size {group_size} is too large: at most {MAX_GROUP_SIZE} players (100 "
            "tables, the field of the largest tournaments)"
        )
    if final_sessions is not None and final_pairing is None:
        _fail("--final-sessions goes with --final-pairing swiss|strongest")
    finals = 0 if final_pairing is None else final_sessions or 1
    if final_pairing is not None and not 1 <= finals < sessions:
        _fail(
            f"--final-sessions must be 1-{sessions - 1} (the first session is drawn: there are "
            f"no standings before it), not {finals}"
        )
    readings = Readings(substitute_table, forfeit_points, team_substitute, bye_points)
    with _store(url) as store:
        store.create_tournament(
            name,
            sessions=sessions,
            group_size=group_size,
            withdrawn_results=withdrawn_results,
            final_pairing=final_pairing,
            final_sessions=final_sessions,
            readings=readings,
        )
        store.set_absent_policy(name, absent_policy)
    click.echo(f"Created tournament {name!r}: {sessions} session(s).")
    if not readings.is_default:
        click.echo(f"Readings: {readings_line(readings, ' ')}.")
    if absent_policy != "substitute":
        click.echo("Absent at check-in: bye (`checkin --apply` draws the session again).")
    if final_pairing is not None:
        click.echo(
            f"{_finals(sessions - finals + 1, sessions)} from the standings ({final_pairing}): "
            f"`guobiao tournament draw {name} --session S` when the sessions before are complete."
        )
    click.echo(f"guobiao: the tournament database is {describe_db(url)}", err=True)


def _finals(first: int, last: int) -> str:
    """``Session 3 is seated`` or ``Sessions 3-4 are seated``."""
    if first == last:
        return f"Session {first} is seated"
    return f"Sessions {first}-{last} are seated"


_CSV_ALIASES = {
    "firstname": "first_name",
    "given_name": "first_name",
    "lastname": "last_name",
    "surname": "last_name",
    "family_name": "last_name",
    "ema_number": "ema_id",
    "ema": "ema_id",
    "nationality": "country",
    "leader": "captain",
    "队长": "captain",
}
"""Other spellings of the players CSV's optional columns (after lower case, spaces and hyphens
to ``_``): ``First name``, ``Surname``, ``EMA number``, ``Nationality`` …"""

_CSV_COLUMNS = "number,name[,team,substitute,captain,ema_id,country,first_name,last_name]"
_CSV_KNOWN: Final = frozenset(
    (
        "number",
        "name",
        "team",
        "substitute",
        "captain",
        "ema_id",
        "country",
        "first_name",
        "last_name",
    )
)
_YES: Final = ("1", "true", "yes", "y", "x", "是")
_NO: Final = ("", "0", "false", "no", "n")


def _csv_column(header: str) -> str:
    key = "_".join(header.strip().lower().replace("-", " ").split())
    return _CSV_ALIASES.get(key, key)


def _read_csv(path: Path) -> list[tuple[int, PlayerRow]]:
    """The rows of a players CSV with their line numbers; the first bad row stops it. ``name``
    may be left out (or blank) when ``first_name`` / ``last_name`` are given: it is then
    "first last"."""
    from guobiao.tournament.store import MAX_NUMBER, PlayerRow, name_problem

    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as err:
        _fail(f"cannot read {path}: {err.strerror}")
    except UnicodeDecodeError:
        _fail(f"{path} is not UTF-8 text")
    reader = csv.DictReader(io.StringIO(text))
    header = [_csv_column(h) for h in reader.fieldnames or []]
    named = "name" in header or "first_name" in header or "last_name" in header
    if "number" not in header or not named:
        # a spreadsheet saved with semicolons (a European Excel): say so
        semicolons = len(header) == 1 and ";" in (reader.fieldnames or [""])[0]
        _fail(
            f"{path}: line 1: the header needs columns {_CSV_COLUMNS} "
            "(first_name,last_name may stand for name)"
            + ("; this file is separated by semicolons: save it with commas" if semicolons else "")
        )
    twice = sorted({h for h in header if h and header.count(h) > 1})
    if twice:
        _fail(f"{path}: line 1: two columns for {', '.join(twice)}")
    # a misspelt column (substitue) would be dropped without a word, and its values lost
    unknown = [h for h in header if h and h not in _CSV_KNOWN]
    if unknown:
        hints = []
        for column in unknown:
            close = difflib.get_close_matches(column, sorted(_CSV_KNOWN), n=1)
            hints.append(f"{column!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        _fail(
            f"{path}: line 1: unknown column(s) {', '.join(hints)}: the columns are {_CSV_COLUMNS}"
        )
    reader.fieldnames = header
    out: list[tuple[int, PlayerRow]] = []
    for raw in reader:
        line = reader.line_num
        if None in raw:
            _fail(f"{path}: line {line}: more fields than the header has columns")
        number_text = (raw.get("number") or "").strip()
        first = " ".join((raw.get("first_name") or "").split()) or None
        last = " ".join((raw.get("last_name") or "").split()) or None
        name = (raw.get("name") or "").strip() or " ".join(p for p in (first, last) if p)
        team = (raw.get("team") or "").strip() or None
        sub_text = (raw.get("substitute") or "").strip().lower()
        if not number_text.isdigit() or int(number_text) < 1:
            _fail(f"{path}: line {line}: the number {number_text!r} is not a positive integer")
        if int(number_text) > MAX_NUMBER:
            _fail(f"{path}: line {line}: the number {number_text} is above {MAX_NUMBER}")
        if not name:
            _fail(f"{path}: line {line}: no name")
        for what, value in (("player's name", name), ("team name", team)):
            problem = name_problem(value, what) if value is not None else None
            if problem is not None:
                _fail(f"{path}: line {line}: {problem}")
        captain_text = (raw.get("captain") or "").strip().lower()
        if sub_text not in _YES + _NO:
            _fail(f"{path}: line {line}: substitute {sub_text!r} is not yes/no")
        substitute = sub_text in _YES
        if substitute and team is None:
            _fail(f"{path}: line {line}: a substitute belongs to a team")
        if captain_text not in _YES + _NO:
            _fail(
                f"{path}: line {line}: captain {captain_text!r} is not yes/no "
                "(yes, true, 1 for the team's captain; no, false, 0 or empty otherwise)"
            )
        captain = captain_text in _YES
        if captain and team is None:
            _fail(f"{path}: line {line}: a captain (队长) leads a team: give the team")
        ema_id = (raw.get("ema_id") or "").strip() or None
        country = (raw.get("country") or "").strip() or None
        out.append(
            (
                line,
                PlayerRow(
                    int(number_text), name, team, substitute, ema_id, country, first, last, captain
                ),
            )
        )
    if not out:
        _fail(f"{path}: no players")
    captains: dict[str, int] = {}  # one captain a team (队长)
    for line, row in out:
        if row.captain and row.team is not None:
            if row.team in captains:
                _fail(
                    f"{path}: line {line}: team {row.team!r} has its captain on line "
                    f"{captains[row.team]} already (one captain a team)"
                )
            captains[row.team] = line
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
    """Register players from FILE (CSV: number,name,team,substitute,captain,ema_id,country,
    first_name,last_name); all rows or none. Only number and name are required (or first_name
    and last_name for name: it is then "first last").

    Teams named in the file are created. A team has at most 4 players and 1 substitute, and
    one captain (队长: captain yes/true/1), who leads it on the results table.
    ema_id, country, first_name and last_name go into the EMA results file (`ema`,
    `standings --ema`); without first_name and last_name the name is split (Western order,
    "Last, First", a surname in CAPITALS first, or a Chinese name's surname first).

    Once the seats are drawn, a player (not a team's substitute) is refused: the draw is made
    and nobody new is ever seated in it. --after-draw registers them anyway, with a warning;
    they can then play only as a substitute for someone absent (`substitute --by`), unranked.

    \b
    Example FILE (spell a team the same way on every line):
      number,name,team,substitute,captain
      1,Ann Lee,Red,no,yes
      2,Bob,Red,no,
      5,Sam,Red,yes,
      9,王小明,,,
    """
    from guobiao.tournament.store import folded

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
        # names are looked up exactly: two that differ only in case or spacing ("Ann Lee",
        # "ann  lee") would be two players that nobody can tell apart on a sheet
        registered = {folded(player): player for player in names}
        listed: dict[str, int] = {}  # names earlier in this file, folded -> line
        # a team spelt two ways ("Red", "red ") would be two teams, one of a single player
        spelt = {folded(v[1]): v[1] for v in info.players.values() if v[1] is not None}
        spelt_on: dict[str, int] = {}  # the line of each spelling first met in this file
        for line, row in rows:
            if row.team is not None:
                first = spelt.setdefault(folded(row.team), row.team)
                spelt_on.setdefault(first, line)
                if first != row.team:
                    where = (
                        f"line {spelt_on[first]}"
                        if spelt_on[first] != line
                        else "the team already registered"
                    )
                    _fail(
                        f"{file}: line {line}: team {row.team!r} differs from {first!r} "
                        f"({where}) only in case or spacing: spell a team the same way each "
                        "time",
                        1,
                    )
            key = folded(row.name)
            if key in listed:
                _fail(f"{file}: line {line}: {row.name!r} is also on line {listed[key]}", 1)
            listed[key] = line
            if key in registered:
                same = registered[key]
                _fail(
                    f"{file}: line {line}: a player {same!r} is already registered"
                    + (
                        ""
                        if same == row.name
                        else f" ({row.name!r} differs only in case or spacing)"
                    ),
                    1,
                )
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
@click.option(
    "--seed", type=SEED, default=0, show_default=True, help="Makes the draw reproducible."
)
@click.option(
    "--session",
    "session",
    type=int,
    default=None,
    help="Seat this one session from the current standings (final rounds): every earlier "
    "session complete, this one with nothing entered (seated again if the draw seated it).",
)
@click.option(
    "--pairing",
    type=click.Choice(PAIRINGS),
    default=None,
    help="With --session: swiss (rank order, repeat meetings and team-mates avoided) or "
    "strongest (tables 1-4, 5-8, ... of the standings). Default: the final pairing set at "
    "create.",
)
@click.option(
    "--fill-with-substitutes",
    "fill",
    is_flag=True,
    help="With a player count not a multiple of 4: fill the free places with registered "
    "substitutes (陪打, 第十二条三(二): their scores count at their table, no standard points, "
    "no place) instead of byes; by registration number, or those named with --substitute.",
)
@click.option(
    "--substitute",
    "chosen",
    multiple=True,
    metavar="NAME",
    help="With --fill-with-substitutes: a registered substitute to take a place (repeat).",
)
@DB_OPTION
def draw(
    name: str,
    seed: int,
    session: int | None,
    pairing: str | None,
    fill: bool,
    chosen: tuple[str, ...],
    url: str,
) -> None:
    """Draw the seats of every session (team-mates apart, opponents spread, winds balanced).

    Prints the schedule's quality next to the best possible figures. When the tournament was
    created with --final-pairing, the draw seats the sessions before the final ones; each final
    session is seated from the standings with --session S once the sessions before it are
    complete. --session S --pairing KIND seats any session so (Pantheon's final rounds).
    Players who withdrew are not drawn. With a count not a multiple of 4 the fewest players sit
    out each session (轮空, 第十二条一): nobody twice before everyone once, and the byes spread
    over the teams as evenly as that allows; --fill-with-substitutes seats registered
    substitutes in the free places instead. A draw is made once: register everyone first.

    \b
    Examples:
      guobiao tournament draw club --seed 7
      guobiao tournament draw club --fill-with-substitutes --substitute Sam
      guobiao tournament draw club --session 7 --pairing swiss     # a final round
    """
    from guobiao.tournament.seating import (
        Schedule,
        SessionSeating,
        best_possible,
        bye_bound,
        quality,
        schedule,
    )
    from guobiao.tournament.seating import Table as Seat

    if pairing is not None and session is None:
        _fail("--pairing goes with --session S (the session to seat from the standings)")
    if chosen and not fill:
        _fail("--substitute goes with --fill-with-substitutes")
    if fill and session is not None:
        _fail("--fill-with-substitutes goes with the draw, not with --session S")
    if session is not None:
        _pair(name, session, pairing, url)
        return
    with _store(url) as store:
        info = _info(store, name)
        settings = store.settings(name)
        gone = {w.player for w in store.withdrawals(name)}
        regular = [p for p, (_, _, sub) in info.players.items() if not sub and p not in gone]
        if len(regular) < 4:
            _fail(f"{name!r}: {len(regular)} player(s) registered; a table needs 4", 1)
        teams: dict[str, list[str]] = {}
        for player in regular:
            team = info.players[player][1]
            if team is not None:
                teams.setdefault(team, []).append(player)
        count = settings.drawn_sessions
        places = (4 - len(regular) % 4) % 4 if fill else 0
        subs = _draw_substitutes(name, info.players, gone, chosen, places)
        seated_teams = {team: list(members) for team, members in teams.items()}
        for sub in subs:  # a team's substitute never sits with their team either
            team = info.players[sub][1]
            if team is not None:
                seated_teams.setdefault(team, []).append(sub)
        try:
            plan = schedule(
                regular,
                count,
                teams=seated_teams,
                seed=seed,
                fill="substitute" if subs else "bye",
                substitute_names=subs,
            )
        except ValueError as err:
            hint = f" (with the substitutes {', '.join(subs)}: name others with --substitute)"
            _fail(f"{name!r}: cannot draw: {err}{hint if subs else ''}", 1)
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
    got = quality(numbered, seated_teams)  # a team's substitute counts for team-mate meetings
    bound = best_possible(
        len(plan.players), count, max((len(m) for m in teams.values()), default=1)
    )
    byes = bye_bound(len(regular), count, [len(m) for m in teams.values()])
    console = _console()
    console.print(
        f"Drew {count} session(s) for {len(regular)} players (seed {seed}): {plan.method}"
    )
    if subs:
        console.print(f"Substitutes (陪打, no standard points) in every session: {', '.join(subs)}")
    if count < info.sessions:
        console.print(
            f"{_finals(count + 1, info.sessions)} from the standings ({settings.final_pairing}): "
            f"`guobiao tournament draw {name} --session S` when the sessions before are complete."
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
    if subs:
        table.add_row("Byes per player", "0-0", "0-0")
    else:
        table.add_row(
            "Byes per player",
            f"{got.min_byes}-{got.max_byes}",
            f"{byes.player_min}-{byes.player_max}",
        )
        if teams:
            table.add_row(
                "Byes per team",
                f"{got.min_team_byes}-{got.max_team_byes}",
                f"{byes.team_min}-{byes.team_max}",
            )
    console.print(table)


def _draw_substitutes(
    name: str,
    players: dict[str, tuple[int, str | None, bool]],
    gone: set[str],
    chosen: tuple[str, ...],
    places: int,
) -> tuple[str, ...]:
    """The registered substitutes who take the ``places`` left free by the draw: ``chosen``
    (each a registered substitute), else the first by registration number; fails when there
    are too few."""
    if not places:
        return ()
    free = sorted(
        (p for p, (_, _, sub) in players.items() if sub and p not in gone),
        key=lambda p: players[p][0],
    )
    for p in chosen:
        if p not in free:
            _fail(f"{name!r}: {p!r} is not a registered substitute (substitute=yes)", 1)
    if len(set(chosen)) != len(chosen):
        _fail("--substitute: a substitute named twice")
    if chosen and len(chosen) != places:
        _fail(f"--substitute: {places} place(s) to fill, {len(chosen)} named")
    if len(free) < places:
        _fail(f"{name!r}: {places} place(s) to fill, {len(free)} substitute(s) registered", 1)
    return tuple(chosen or free[:places])


def _met(earlier: list[SessionSeating]) -> set[frozenset[str]]:
    """The pairs who shared a table in ``earlier``."""
    return {
        frozenset((a, b))
        for s in earlier
        for t in s.tables
        for a, b in itertools.combinations(t.seats, 2)
    }


def _session_lines(
    seating: SessionSeating, earlier: list[SessionSeating], info: TournamentInfo
) -> list[str]:
    """A seated session in words, one line a table (``A*B``: a pair who met before, ``A!B``:
    team-mates), then the byes."""
    met = _met(earlier)
    lines = []
    for t in seating.tables:
        marks = []
        for a, b in itertools.combinations(t.seats, 2):
            if frozenset((a, b)) in met:
                marks.append(f"{a}*{b}")
            team = info.players[a][1]
            if team is not None and team == info.players[b][1]:
                marks.append(f"{a}!{b}")
        seats = "  ".join(f"{w} {p}" for w, p in zip(WINDS, t.seats, strict=True))
        lines.append(f"  table {t.number}: {seats}" + (f"  ({', '.join(marks)})" if marks else ""))
    if seating.byes:
        lines.append(f"  byes: {', '.join(seating.byes)}")
    return lines


def _pair(name: str, session: int, pairing: str | None, url: str) -> None:
    """`draw --session S [--pairing KIND]`: seat one session from the standings."""
    with _store(url) as store:
        info = _info(store, name)
        settings = store.settings(name)
        seated = store.pair_session(name, session, pairing)
        earlier = [s for s in store.seatings(name) if s.number < session]
        pending = store.pending_disqualifications(name)
    kind = pairing or settings.final_pairing
    click.echo(f"Session {session} seated from the standings ({kind}):")
    for line in _session_lines(seated, earlier, info):
        click.echo(line)
    met = _met(earlier)
    again = sum(
        frozenset(pair) in met for t in seated.tables for pair in itertools.combinations(t.seats, 2)
    )
    click.echo(f"Pairs meeting again: {again} (marked A*B; team-mates at one table: A!B).")
    for s, t, player in pending:
        click.echo(
            f"warning: {player} was disqualified at session {s} table {t} (有意诈和, 第十四条六(四)) "
            f"and is still in the tournament: `guobiao tournament withdraw {name} {player} "
            "--who REF`",
            err=True,
        )


@tournament.command()
@click.argument("name")
@click.argument("player")
@click.option(
    "--from-session",
    "from_session",
    type=int,
    default=None,
    help="The first session PLAYER does not play. Default: the one after their 有意诈和, when "
    "one is entered.",
)
@click.option(
    "--reason",
    type=click.Choice(WITHDRAWAL_REASONS),
    default=None,
    help="withdrawn (退出) or disqualified (取消比赛资格: 停赛 第十三条四, 有意诈和 第十四条六(四)). "
    "Default: disqualified after a 有意诈和 entered for them, else withdrawn.",
)
@click.option(
    "--who",
    default=None,
    help="Who records it, kept in the audit trail (default: your login name).",
)
@click.option("--note", default=None, help="Why (kept in the audit trail).")
@click.option(
    "--seed", type=SEED, default=0, show_default=True, help="Makes the re-draw reproducible."
)
@DB_OPTION
def withdraw(
    name: str,
    player: str,
    from_session: int | None,
    reason: str | None,
    who: str | None,
    note: str | None,
    seed: int,
    url: str,
) -> None:
    """PLAYER leaves the tournament NAME for good: withdrawn or disqualified.

    The sessions from --from-session on are seated again without them (byes when the field is
    no longer a multiple of 4; the meetings, winds and byes of the sessions before counted),
    the sessions before stand. Refused when one of those sessions already has anything entered:
    withdraw them from a later session, and put a substitute in their seat meanwhile. How their
    played sessions count is the tournament's --withdrawn-results (keep or void); either way
    they take no place in the ranking.

    \b
    Examples:
      guobiao tournament withdraw club Ann --from-session 3 --who Li --note "ill"
      guobiao tournament withdraw club Bob --who Li
          # after Bob's 有意诈和 in session 2
    """
    with _store(url) as store:
        info = _info(store, name)
        done = store.withdraw(
            name, player, from_session, who=author(who), reason=reason, note=note, seed=seed
        )
        settings = store.settings(name)
        seatings = store.seatings(name)
    w = done.withdrawal
    click.echo(f"{player} is {w.reason} from session {w.from_session} on.")
    if w.from_session > 1:
        how = (
            "stand as played (keep)"
            if settings.withdrawn_results == "keep"
            else "are void (void): their scores count for the tables, like a 陪打's, without "
            "standard points"
        )
        click.echo(f"Their sessions before it {how}; they take no place in the ranking.")
    if done.sessions:
        click.echo(f"Seated again without them ({done.method}):")
        for seated in done.sessions:
            earlier = [s for s in seatings if s.number < seated.number]
            click.echo(f"Session {seated.number}:")
            for line in _session_lines(seated, earlier, info):
                click.echo(line)
    if done.unseated:
        click.echo(
            "Not seated yet (from the standings when their turn comes): session(s) "
            + ", ".join(map(str, done.unseated))
        )


class _TotalsCommand(Command):
    """`totals`: fewer than four scores are told what the four are (click says "Argument
    'scores' takes 4 values", naming a parameter the help never shows)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.BadArgumentUsage as err:
            if "'scores'" not in err.message:
                raise
            raise click.UsageError(
                "give the table's four totals E S W N, each player's 局分 in seat order "
                "(e.g. 620 480 510 390)",
                ctx,
            ) from None


@tournament.command(cls=_TotalsCommand, context_settings={"ignore_unknown_options": True})
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
    typo (a 局分 below 0 or above 2000) are entered with a warning on stderr; beyond ±100000
    they are refused.

    \b
    Examples:
      guobiao tournament totals club --session 1 --table 3 620 480 510 390
      guobiao tournament totals club --session 1 --table 3 480 620 510 390 \\
          --correct --who li --note swapped
      guobiao tournament status club --session 1  # which tables are still missing
    """
    from guobiao.tournament.store import implausible_totals

    if correct and not (who and who.strip()):
        _fail("--correct needs --who (the name kept in the audit trail)")
    from guobiao.tournament.store import StoreError

    with _store(url) as store:
        tables = dict(seating_of(store, name, session))
        if table_number not in tables:
            _fail(f"{name!r}: session {session} has tables 1-{len(tables)}, not {table_number}")
        seats = tables[table_number]
        entered = dict(zip(seats, scores, strict=True))
        if correct:
            store.correct_session_totals(
                name, session, table_number, entered, who=author(who), note=note
            )
        else:
            try:
                store.record_session_totals(
                    name, session, table_number, entered, who=author(who), note=note
                )
            except StoreError as err:
                if "already entered" not in str(err):
                    raise
                _fail(f"{err}: to replace them, add --correct --who NAME", 1)
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


def ema_rows(ranking: list[Standing], info: TournamentInfo) -> list[dict[str, Any]]:
    """The ranked players with their EMA (MERS) fields (``guobiao.tournament.ema.ema_rows``):
    place (ties share it), registration and EMA number, country, first and last name, table
    points (标准分), mahjong points and the MERS base rank 1000 × (N − place) / (N − 1)."""
    from guobiao.tournament.ema import ema_rows as rows

    return rows(ranking, info)


def _write_ema(path: Path, ranking: list[Standing], info: TournamentInfo) -> None:
    """The EMA results file (``guobiao.tournament.ema``: Place, EMA number, Last name, First
    name, Country, Table points, Mahjong points, Base rank)."""
    from guobiao.tournament.ema import ema_csv

    try:
        # plain UTF-8, no BOM: the EMA's file (common.EMA_ENCODING)
        with path.open("w", newline="", encoding=EMA_ENCODING) as handle:
            handle.write(ema_csv(ema_rows(ranking, info)))
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
        "partial": bool(s.partial),  # counts a table entered only in part (status: partial)
    }
    if not teams:
        out["status"] = "ranked"
        out["left_from"] = None
    return out


def _csv_value(key: str, value: Any) -> Any:
    """A standings value as the CSV writes it: members space-separated, standard points as
    decimals (``1/2`` → ``0.5``: a spreadsheet reads a fraction as a date, ``11/2`` the 2nd of
    November), exact to two places (thirds rounded, as the EMA file's table points)."""
    from fractions import Fraction

    from guobiao.tournament.ema import decimal_points

    if isinstance(value, list):
        return " ".join(value)
    if key in ("standard_points", "best_session") and isinstance(value, str):
        return decimal_points(Fraction(value))
    return value


def _unranked_json(
    name: str, team: str | None, status: str, s: Standing | None, left: WithdrawalLine | None
) -> dict[str, Any]:
    """A registered player listed after the ranked ones, with no place: ``status`` is why
    (withdrawn, disqualified: the recorded withdrawal; substitute, disqualified in session, byes
    only, did not play: ``not_ranked``), ``left_from`` the first session a withdrawn player does
    not play. The totals are null for a withdrawn player who never played
    (``Standing.never_played``): no score, where one who played and took nothing has 0."""
    counted = s if s is not None and not s.never_played else None
    return {
        "rank": None,
        "tied": False,
        "name": name,
        "team": team,
        "standard_points": str(counted.standard_points) if counted else None,
        "match_points": counted.match_points if counted else None,
        "best_session": str(counted.best_session) if counted else None,
        "sessions": len(s.session_points) if s else 0,
        "partial": bool(s.partial) if s else False,
        "status": left.reason if left else status,
        "left_from": left.from_session if left else None,
    }


def _unranked_label(why: str, left: WithdrawalLine | None) -> str:
    """The terminal's reason for no place: ``withdrawn from session 3`` from the record."""
    if left is not None:
        return f"{_UNRANKED_LABELS[left.reason]} from session {left.from_session}"
    return _UNRANKED_LABELS.get(why, why)


_UNRANKED_LABELS = {
    "withdrawn": "withdrawn",
    "disqualified": "disqualified",
    "substitute": "substitute only",
    "disqualified in session": "disqualified in session",
    "byes only": "byes only",
    "did not play": "did not play",
}
"""How the terminal table marks a registered player with no place (``status`` in the exports)."""


def _partial_tables(statuses: list[TableStatus]) -> list[dict[str, Any]]:
    """The tables entered only in part (hands of part of the session, not marked ended): the
    standings rank them as they stand and mark them."""
    return [
        {"session": x.session, "table": x.table, "hands": len(x.hands), "of": 16}
        for x in statuses
        if x.state == "partial"
    ]


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
    best session, high sessions; ``3=`` marks a shared rank. --json keeps exact fractions
    (``15/2``); --csv writes decimals (``7.5``; thirds rounded to two places, ``2.33``), which a
    spreadsheet reads as numbers (it read ``1/2`` as the 2nd of January). Every registered
    player is listed: after the ranked ones, with no place, who left the tournament and who is
    not ranked (did not play, a substitute only), each with why (``status``; the terminal:
    ``—`` and the reason).

    \b
    Examples:
      guobiao tournament standings club
      guobiao tournament standings club --teams --csv teams.csv
      guobiao tournament standings club --json standings.json --ema club-ema.csv
    """
    from guobiao.tournament.ranking import individual_ranking, team_ranking, unplaced

    if csv_path is not None and json_path is not None:
        _fail("give --csv or --json, not both")
    if ema_path is not None and by_team:
        _fail("--ema reports the individual ranking: leave out --teams")
    with _store(url) as store:
        info = _info(store, name)
        results = store.table_results(name)
        partial = _partial_tables(store.table_status(name))
        # who left, and from which session: as recorded (``withdraw``), not guessed from scores
        left = {w.player: w for w in store.withdrawals(name)}
    team_of = {p: v[1] for p, v in info.players.items()}
    # every registered player is listed: who left, then the others not ranked, no place each
    after: list[tuple[str, str, Standing | None]] = []
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
        after = unplaced(results, info.players)
    rows = [_standing_json(s, team_of.get(s.name), by_team) for s in ranking]
    rows += [_unranked_json(p, team_of.get(p), why, s, left.get(p)) for p, why, s in after]
    if not by_team:  # the EMA (MERS) fields in every individual export
        ema = {row["name"]: row for row in ema_rows(ranking, info)}
        for row in rows:
            number, _, _ = info.players.get(row["name"], (None, None, False))
            ema_id, country = info.ema.get(row["name"], (None, None))
            listed = ema.get(row["name"])
            row |= {
                "number": number,
                "ema_id": ema_id or "",
                "country": country or "",
                "base_rank": listed["base_rank"] if listed else None,
            }
    if csv_path is not None or json_path is not None:
        target = csv_path if csv_path is not None else json_path
        assert target is not None
        try:
            if json_path is not None:
                doc: dict[str, Any] = {"tournament": name}
                doc |= {"ranking": "team" if by_team else "individual", "standings": rows}
                doc["partial_tables"] = partial
                text = json.dumps(doc, ensure_ascii=False, indent=2)
                target.write_text(text + "\n", encoding="utf-8")
            else:
                with spreadsheet_csv(target) as handle:  # a BOM, for Excel
                    fields = list(rows[0]) if rows else ["rank", "name"]
                    writer = csv.DictWriter(handle, fields)
                    writer.writeheader()
                    for row in rows:
                        writer.writerow({k: _csv_value(k, v) for k, v in row.items()})
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
            s.label + ("*" if s.partial else ""),
            s.name,
            second,
            format_points(s.standard_points),
            str(s.match_points),
            format_points(s.best_session),
        )
    # who left, then who is not ranked: no place (docs/rules.md §19, 第十二条三(二))
    for player, why, standing in after:
        # a withdrawn player who never played has no totals: —, not 0
        found = standing if standing is not None and not standing.never_played else None
        table.add_row(
            "—",
            f"{player} ({_unranked_label(why, left.get(player))})",
            team_of.get(player) or "",
            format_points(found.standard_points) if found else "—",
            str(found.match_points) if found else "—",
            format_points(found.best_session) if found else "—",
        )
    console = _console()
    console.print(table)
    if after:
        console.print(
            "— not ranked, no place: left the tournament, played only as a substitute (第十二条三"
            "(二)), or did not play a ranked session."
        )
    if not results:
        console.print("No results entered yet.")
    if partial:  # ranked as they stand, not as finished (`guobiao tournament status`)
        where = "; ".join(
            f"session {x['session']} table {x['table']}: {x['hands']} of 16 hands" for x in partial
        )
        console.print(f"* counts partial results, not final: {where}.")


# hand, hands, status, finish, late, substitute, audit, penalties, history; sheet, results
for _command in (*ENTRY_COMMANDS, *PAPER_COMMANDS, *REFEREE_COMMANDS):
    tournament.add_command(_command)
