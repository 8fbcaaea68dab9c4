"""``guobiao tournament hand | hands | status | finish | late | substitute | checkin | audit | penalties |
history``: entering and correcting results, attendance and penalties, and reading them back
(issue 4, items 3 and 6); a whole table's hands from one file or one prompt session, which
tables are missing, partial or complete, a session ended early (issue 13, point 6).

An adapter: the table referee's score sheet, one hand at a time, checked by the fan calculator
when the tiles are given, settled by ``guobiao.table.settlement`` as the game engine settles it. Every
refusal prints ``error: ...`` and changes nothing.
"""

from __future__ import annotations

import csv
import getpass
import io
import json
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.table import Table

from guobiao.cli.help import Command
from guobiao.cli.options import SEED
from guobiao.cli.tilehints import tile_error
from guobiao.cli.tournament.common import (
    DB_OPTION,
    WINDS,
    format_points,
    output_option,
    seating_of,
    spreadsheet_csv,
)
from guobiao.cli.tournament.common import open_cli_store as _store
from guobiao.cli.util import console as _console
from guobiao.cli.util import fail as _fail
from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand, parse_hand
from guobiao.core.melds import melds_text
from guobiao.core.tiles import TileParseError
from guobiao.scoring.calculator import PROFILES, calculate
from guobiao.scoring.fans import Fan
from guobiao.scoring.result import InvalidHandError
from guobiao.table.glossary import TERMS
from guobiao.table.settlement import Penalty, PenaltyKind, penalty_for
from guobiao.tournament.queries import read_info as _info
from guobiao.tournament.seating import Table as SeatingTable

if TYPE_CHECKING:
    from guobiao.tournament.ranking import HistoryLine
    from guobiao.tournament.store import AuditLine, HandEntry, RecordedHand, Store, TableStatus

__all__ = ["ENTRY_COMMANDS", "HANDS_COLUMNS", "author", "parse_fans", "parse_penalty", "seat_of"]

LATE_WARNING_MINUTES = 10  # 第十三条二(一): 10 分钟之内 警告一次, 罚扣10分
LATE_FINE_MINUTES = 15  # 15 分钟之内 罚扣20分; beyond: 自动弃权, 局分为0
_KINDS = {
    "false": PenaltyKind.FALSE_WIN,
    "错和": PenaltyKind.FALSE_WIN,
    "fake": PenaltyKind.FAKE_WIN,
    "诈和": PenaltyKind.FAKE_WIN,
    "intentional": PenaltyKind.INTENTIONAL_FAKE_WIN,
    "有意诈和": PenaltyKind.INTENTIONAL_FAKE_WIN,
    "count": PenaltyKind.WRONG_COUNT,
    "相公": PenaltyKind.WRONG_COUNT,
    "fine": PenaltyKind.VIOLATION,
    "违例": PenaltyKind.VIOLATION,
}


def seat_of(text: str, players: tuple[str, str, str, str]) -> int:
    """A seat of one hand from a wind letter (E S W N, 东 南 西 北) or the name of the player
    sitting there in that hand (``players`` at E S W N)."""
    if text in players:
        return players.index(text)
    try:
        return int(Wind.parse(text))
    except ValueError:
        raise ValueError(
            f"{text!r} is neither a seat (E S W N) nor a player of this hand "
            f"({', '.join(f'{w} {p}' for w, p in zip(WINDS, players, strict=True))})"
        ) from None


def parse_penalty(text: str, players: tuple[str, str, str, str]) -> Penalty:
    """``SEAT:KIND[:AMOUNT[:PAYEE]]``: KIND false (错和), fake (诈和), intentional (有意诈和),
    count (相公) or fine (违例, with an AMOUNT of 5 10 20 30 40 50 60 and an optional PAYEE)."""
    parts = text.split(":")
    if not 2 <= len(parts) <= 4:
        raise ValueError(f"penalty {text!r}: write SEAT:KIND[:AMOUNT[:PAYEE]], e.g. S:fine:10")
    seat = seat_of(parts[0], players)
    kind = _KINDS.get(parts[1].lower())
    if kind is None:
        raise ValueError(
            f"penalty {text!r}: the kind {parts[1]!r} is not one of false, fake, intentional, "
            "count, fine"
        )
    amount = None
    if len(parts) >= 3:
        if not parts[2].isdigit():
            raise ValueError(f"penalty {text!r}: the amount {parts[2]!r} is not a number")
        amount = int(parts[2])
    payee = seat_of(parts[3], players) if len(parts) == 4 else None
    if kind is PenaltyKind.VIOLATION and amount is None:
        raise ValueError(f"penalty {text!r}: a fine needs an amount (5 10 20 30 40 50 60)")
    return penalty_for(seat, kind, amount=amount, payee=payee)


def parse_fans(text: str) -> list[str]:
    """``'碰碰和, 箭刻×2'`` → ``['碰碰和', '箭刻', '箭刻']`` (中文 names); English names and
    ``x2`` / ``*2`` work too. Flowers are not fans: they go in --flowers."""
    out: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, count = item, 1
        for mark in ("×", "x", "*"):
            head, sep, tail = item.rpartition(mark)
            if sep and head.strip() and tail.strip().isdigit():
                name, count = head.strip(), int(tail)
                break
        try:
            fan = Fan.by_name(name)
        except KeyError:
            raise ValueError(f"--fans: no fan named {name!r}") from None
        if fan is Fan.FLOWER_TILES:
            raise ValueError("--fans: flowers are not a fan here; give --flowers N")
        out.extend([fan.zh] * count)
    if not out:
        raise ValueError("--fans: no fan given")
    return out


@dataclass(frozen=True, slots=True)
class _Scored:
    fan_points: int
    flowers: int
    fans: list[str]


def _score_tiles(
    tiles: str,
    *,
    self_drawn: bool,
    fourth_tile: bool,
    kong: bool,
    last_tile: bool,
    seat: int,
    round_wind: int,
    profile: str,
) -> _Scored:
    """Score the winner's tiles with the hand's winds; refuse what is not a valid win."""
    try:
        parsed = parse_hand(tiles)
    except TileParseError as err:
        raise ValueError(f"--tiles: {tile_error(err, tiles)}") from None
    except ValueError as err:
        raise ValueError(f"--tiles: {err}") from None
    if parsed.win_tile is None:
        # name the hand's size, as `guobiao fan` does: the tiles typed and what a hand holds
        held = len(parsed.concealed)
        full = 14 - 3 * len(parsed.melds)  # standing tiles with the winning one
        tiles_text = f"{held} standing tile{'' if held == 1 else 's'}"
        example = "(e.g. 'W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5')"
        if held == full:
            raise ValueError(
                f"--tiles: no winning tile: the hand has {tiles_text} and no '+'; write the "
                f"winning tile last, after '+' {example}"
            )
        raise ValueError(
            f"--tiles: no winning tile, and the hand has {tiles_text}: with "
            f"{melds_text(len(parsed.melds))} a hand holds {full - 1}, then the winning tile "
            f"after '+' {example}"
        )
    context = WinContext(
        win_tile=parsed.win_tile,
        self_drawn=self_drawn,
        fourth_tile=fourth_tile,
        kong=kong,
        last_tile=last_tile,
        seat_wind=Wind(seat),
        round_wind=Wind(round_wind),
        flowers=len(parsed.flowers),
    )
    try:
        result = calculate(
            Hand(parsed.concealed, parsed.melds, None, parsed.flowers), context, profile
        )
    except InvalidHandError as err:
        raise ValueError(f"--tiles: impossible hand: {err}") from None
    if not result.is_winning:
        raise ValueError(f"--tiles: {tiles!r} is not a winning hand")
    names = [f.fan.zh for f in result.fans if f.fan is not Fan.FLOWER_TILES for _ in range(f.count)]
    return _Scored(result.points_without_flowers, result.flower_points, names)


def author(who: str | None) -> str:
    """Who an entry is by, for the audit trail: ``--who`` if given, else the login name."""
    if who and who.strip():
        return who.strip()
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name (a container without a passwd entry)
        return "unknown"


def _profile(rules_profile: str) -> str:
    return (
        rules_profile.removeprefix("mcr")
        if rules_profile.removeprefix("mcr") in PROFILES
        else "1998"
    )


class _FieldError(ValueError):
    """What is wrong with one field of a typed hand; ``field`` is its column in a hands file."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@contextmanager
def _field(name: str) -> Iterator[None]:
    """A ValueError inside is about the field ``name``."""
    try:
        yield
    except _FieldError:
        raise
    except ValueError as err:
        raise _FieldError(name, str(err)) from None


@dataclass(frozen=True, slots=True)
class _Typed:
    """A hand as the referee typed it: the options of `hand`, a line of a hands file or the
    answers of `hands --prompt`. Seats are still text (a wind or a name)."""

    winner: str | None = None
    discarder: str | None = None
    self_drawn: bool = False
    fan_points: int | None = None
    fan_list: str | None = None
    tiles: str | None = None
    fourth_tile: bool = False
    kong: bool = False
    last_tile: bool = False
    flowers: int | None = None
    penalties: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    note: str | None = None


@dataclass(frozen=True, slots=True)
class _Hand:
    """A typed hand read against its seats: what the store records (``number`` 0-15; seats
    are seat winds of that hand, ``players`` the players at E S W N in it)."""

    number: int
    players: tuple[str, str, str, str]
    winner: int | None
    discarder: int | None
    fan_points: int
    flowers: int
    penalties: tuple[Penalty, ...]
    fans: list[str] | None
    tiles: str | None
    warnings: tuple[int, ...]
    note: str | None = None


def _check_typed(typed: _Typed) -> None:
    """What a typed hand must say, seats aside: a win has a winner, a way (a discarder or
    self-drawn) and points (fan points, the fans or the tiles)."""
    win_fields = (
        typed.discarder,
        typed.self_drawn,
        typed.fan_points,
        typed.fan_list,
        typed.tiles,
        typed.flowers,
    )
    fan = typed.fan_points
    if fan is not None and (fan < 0 or (fan == 0 and typed.winner is not None)):
        raise _FieldError(
            "fan",
            f"--fan {fan}: a fan total is a positive number of points (the fans' points "
            "added up, flowers apart; a win needs at least 8)",
        )
    if typed.winner is None and any(win_fields):
        raise _FieldError(
            "winner",
            "--from, --self-drawn, --fan, --fans, --tiles and --flowers describe a win: "
            "give --winner",
        )
    if typed.tiles is not None and typed.fan_list is not None:
        raise _FieldError("tiles", "give --tiles (scored by the calculator) or --fans, not both")
    if typed.winner is not None and (typed.discarder is None) == (not typed.self_drawn):
        raise _FieldError("from", "a win is either --from SEAT (on a discard) or --self-drawn")
    points = (typed.tiles, typed.fan_points, typed.fan_list)
    if typed.winner is not None and all(x is None for x in points):
        raise _FieldError(
            "fan", "give the winner's --fan points, the --fans or the --tiles to score"
        )
    if typed.tiles is None and (typed.fourth_tile or typed.kong or typed.last_tile):
        raise _FieldError("flags", "--fourth-tile, --kong and --last-tile go with --tiles")


def _read_hand(
    typed: _Typed, number: int, players: tuple[str, str, str, str], profile: str
) -> _Hand:
    """Read a typed hand against the players at E S W N of hand ``number`` (0-15): the seats,
    penalties and fans, and the tiles scored by the calculator with the hand's winds. Raises
    ``_FieldError`` (a ValueError) naming the field that is wrong."""
    _check_typed(typed)
    fan_points, flowers = typed.fan_points, typed.flowers
    with _field("winner"):
        win = seat_of(typed.winner, players) if typed.winner is not None else None
    with _field("from"):
        dis = seat_of(typed.discarder, players) if typed.discarder is not None else None
    with _field("penalties"):
        penalties = tuple(parse_penalty(p, players) for p in typed.penalties)
    with _field("warnings"):
        warnings = tuple(seat_of(w, players) for w in typed.warnings)
    fans: list[str] | None = None
    if typed.fan_list is not None:
        with _field("fans"):
            fans = parse_fans(typed.fan_list)
        listed = sum(Fan.by_name(f).points for f in fans)
        if fan_points is not None and fan_points != listed:
            raise _FieldError("fan", f"--fan {fan_points} but the --fans add up to {listed}")
        fan_points = listed
    if typed.tiles is not None:
        assert win is not None
        with _field("tiles"):
            scored = _score_tiles(
                typed.tiles,
                self_drawn=typed.self_drawn,
                fourth_tile=typed.fourth_tile,
                kong=typed.kong,
                last_tile=typed.last_tile,
                seat=win,
                round_wind=number // 4,
                profile=profile,
            )
        if fan_points is not None and fan_points != scored.fan_points:
            raise _FieldError(
                "fan",
                f"--fan {fan_points} but the tiles score {scored.fan_points} "
                f"({' '.join(scored.fans)})",
            )
        if flowers is not None and scored.flowers and flowers != scored.flowers:
            raise _FieldError("flowers", f"--flowers {flowers} but the tiles show {scored.flowers}")
        fan_points, fans = scored.fan_points, scored.fans
        flowers = flowers if flowers is not None else scored.flowers
    return _Hand(
        number,
        players,
        win,
        dis,
        fan_points or 0,
        flowers or 0,
        penalties,
        fans,
        typed.tiles,
        warnings,
        typed.note,
    )


@click.command(cls=Command)
@click.argument("name")
@click.option("--session", type=int, required=True, help="Session number, from 1.")
@click.option("--table", "table_number", type=int, required=True, help="Table number, from 1.")
@click.option(
    "--hand",
    "hand_number",
    type=click.IntRange(1, 16),
    required=True,
    help="Hand 1-16 of the session (1-4 East round, 5-8 South, ...).",
)
@click.option("--winner", default=None, help="Who won: a seat E S W N of this hand or a name.")
@click.option("--from", "discarder", default=None, help="Who discarded the winning tile.")
@click.option("--self-drawn", is_flag=True, help="The winner drew the tile (自摸).")
@click.option("--fan", "fan_points", type=int, default=None, help="Fan points, flowers apart.")
@click.option(
    "--fans",
    "fan_list",
    default=None,
    help="The fans as on the sheet, comma-separated, 中文 or English, '×2' for twice: "
    "'碰碰和,箭刻×2'. Their points are summed (and must agree with --fan).",
)
@click.option(
    "--tiles",
    default=None,
    help="The winner's hand, e.g. '[W1W2W3]W4W5W6B1B1B1T5T6T7F1 +F1': scored and checked.",
)
@click.option("--fourth-tile", is_flag=True, help="With --tiles: 和绝张.")
@click.option("--kong", is_flag=True, help="With --tiles: 杠上开花 (self-drawn) or 抢杠和.")
@click.option("--last-tile", is_flag=True, help="With --tiles: 妙手回春 or 海底捞月.")
@click.option("--flowers", type=click.IntRange(0, 8), default=None, help="The winner's flowers.")
@click.option(
    "--penalty",
    "penalty_texts",
    multiple=True,
    metavar="SEAT:KIND[:AMOUNT[:PAYEE]]",
    help="Repeatable. KIND: false (错和), fake (诈和), intentional (有意诈和), count (相公), "
    "fine (违例, AMOUNT 5-60, optional PAYEE).",
)
@click.option("--warning", "warning_texts", multiple=True, help="A seat warned (警告); repeatable.")
@click.option("--correct", is_flag=True, help="Replace the hand already entered (needs --who).")
@click.option(
    "--who",
    default=None,
    help="Who enters or corrects the hand, kept in the audit trail (default: your login name; "
    "required with --correct).",
)
@click.option("--note", default=None, help="Why (kept in the audit trail).")
@DB_OPTION
def hand(
    name: str,
    session: int,
    table_number: int,
    hand_number: int,
    winner: str | None,
    discarder: str | None,
    self_drawn: bool,
    fan_points: int | None,
    fan_list: str | None,
    tiles: str | None,
    fourth_tile: bool,
    kong: bool,
    last_tile: bool,
    flowers: int | None,
    penalty_texts: tuple[str, ...],
    warning_texts: tuple[str, ...],
    correct: bool,
    who: str | None,
    note: str | None,
    url: str,
) -> None:
    """Enter one hand of a table from the score sheet (or --correct it).

    Seats are the seat winds of that hand (the seats rotate between rounds, 第五条九) or
    player names. With --tiles the winner's hand is scored by the fan calculator and must
    reach 8 points; --fan, if also given, must agree.

    \b
    Examples:
      guobiao tournament hand club --session 1 --table 1 --hand 1 \\
          --winner S --from E --fan 12
      guobiao tournament hand club --session 1 --table 1 --hand 2 \\
          --winner Ann --self-drawn --tiles "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"
      guobiao tournament hand club --session 1 --table 1 --hand 3  # a drawn hand
      guobiao tournament hand club --session 1 --table 1 --hand 5 \\
          --winner W --from N --fans "碰碰和,箭刻×2" --flowers 1
      guobiao tournament hand club --session 1 --table 1 --hand 4 \\
          --penalty W:false
      guobiao tournament hand club --session 1 --table 1 --hand 4 \\
          --winner N --from W --fan 8 \\
          --correct --who "referee Li" --note "wrong winner"
    """
    if correct and not (who and who.strip()):
        _fail("--correct needs --who (the name kept in the audit trail)")
    typed = _Typed(
        winner,
        discarder,
        self_drawn,
        fan_points,
        fan_list,
        tiles,
        fourth_tile,
        kong,
        last_tile,
        flowers,
        penalty_texts,
        warning_texts,
    )
    try:
        _check_typed(typed)
    except ValueError as err:
        _fail(str(err))
    number = hand_number - 1
    with _store(url) as store:
        info = _info(store, name)
        tables = dict(seating_of(store, name, session))
        if table_number not in tables:
            _fail(f"{name!r}: session {session} has tables 1-{len(tables)}, not {table_number}")
        a, b, c, d = tables[table_number]
        players = SeatingTable(table_number, (a, b, c, d)).seats_at(number)
        try:
            read = _read_hand(typed, number, players, _profile(info.rules_profile))
        except ValueError as err:
            _fail(str(err))
        enter = partial(store.record_hand, who=author(who), note=note)
        if correct:
            enter = partial(store.correct_hand, who=author(who), note=note)
        deltas = enter(
            name,
            session,
            table_number,
            number,
            winner=read.winner,
            discarder=read.discarder,
            fan_points=read.fan_points,
            flowers=read.flowers,
            penalties=read.penalties,
            fans=read.fans,
            tiles=read.tiles,
            warnings=read.warnings,
        )
        scores = store.table_scores(name, session, table_number) or {}
    what = "Corrected" if correct else "Recorded"
    changes = ", ".join(
        f"{w} {p} {delta:+d}" for w, p, delta in zip(WINDS, players, deltas, strict=True)
    )
    click.echo(f"{what} session {session} table {table_number} hand {hand_number}: {changes}")
    click.echo("Table now: " + ", ".join(f"{p} {s}" for p, s in scores.items()))


@click.command(cls=Command)
@click.argument("name")
@click.option("--session", type=int, required=True, help="Session number, from 1.")
@click.option("--player", required=True, help="The late player.")
@click.option(
    "--minutes", type=click.IntRange(1, None), required=True, help="Minutes after the start."
)
@click.option("--substitute", default=None, help="Beyond 15 minutes: who plays the seat instead.")
@click.option(
    "--allow-team-mate",
    is_flag=True,
    help="Seat the --substitute even at a table with a player of their own team (with a "
    "warning), as `substitute` does.",
)
@click.option(
    "--who",
    default=None,
    help="The referee, kept in the audit trail (default: your login name; required with "
    "--correct and for a forfeit).",
)
@click.option(
    "--correct", is_flag=True, help="Replace the lateness already recorded (needs --who)."
)
@DB_OPTION
def late(
    name: str,
    session: int,
    player: str,
    minutes: int,
    substitute: str | None,
    allow_team_mate: bool,
    who: str | None,
    correct: bool,
    url: str,
) -> None:
    """Lateness (第十三条二(一)): up to 10 minutes, a warning and 10 points deducted; up to 15,
    20 points; beyond 15, a forfeit: 局分 0, and a --substitute plays the seat (陪打).

    The deduction leaves the table: its totals then sum to 2000 less it. A player is late once
    a session: a second `late` for them is refused; --correct --who NAME replaces the minutes
    recorded (audited).

    \b
    Examples:
      guobiao tournament late club --session 2 --player Ann --minutes 7
      guobiao tournament late club --session 2 --player Bob --minutes 20 \\
          --substitute Sam --who li
    """
    if correct and not (who and who.strip()):
        _fail("--correct needs --who (the name kept in the audit trail)")
    if correct and minutes > LATE_FINE_MINUTES:
        _fail(f"--correct replaces a deduction (up to {LATE_FINE_MINUTES} minutes late)")
    from guobiao.tournament.store import no_player

    with _store(url) as store:
        info = _info(store, name)
        seated = {p: n for n, seats in seating_of(store, name, session) for p in seats}
        if player not in info.players:  # "bam1": no such player, not one who is not seated
            raise no_player(name, player, info.players)
        if player not in seated:
            _fail(f"{name!r}: {player!r} is not seated in session {session}", 1)
        if minutes > LATE_FINE_MINUTES:
            if substitute is None or not (who and who.strip()):
                _fail(
                    f"{minutes} minutes late is a forfeit (局分 0): give --substitute, who plays "
                    "the seat, and --who, the referee"
                )
            team, mates = _team_mates(store, name, session, player, substitute)
            table = store.substitute(
                name,
                session,
                player,
                substitute,
                who=who,
                forfeit=True,
                note=f"{minutes} min late",
                allow_team_mate=allow_team_mate,
            )
            if mates:
                _warn_team_mates(substitute, team, mates, table)
            click.echo(
                f"{player} forfeits session {session} (局分 0); {substitute} plays at table {table}."
            )
            return
        if substitute is not None:
            _fail(f"--substitute is for a forfeit (more than {LATE_FINE_MINUTES} minutes late)")
        points = 10 if minutes <= LATE_WARNING_MINUTES else 20
        store.deduct(
            name,
            session,
            seated[player],
            player,
            points,
            kind="late",
            note=f"{minutes} min",
            who=author(who),
            correct=correct,
        )
    what = "corrected: " if correct else ""
    click.echo(
        f"{player}: {what}{points} points deducted in session {session} ({minutes} min late)."
    )


@click.command(cls=Command)
@click.argument("name")
@click.option("--session", type=int, required=True, help="Session number, from 1.")
@click.option("--player", required=True, help="The absent player.")
@click.option("--by", "by", required=True, help="Who plays the seat instead (a registered player).")
@click.option("--who", required=True, help="The referee or organiser (kept in the audit trail).")
@click.option("--note", default=None, help="Why.")
@click.option(
    "--allow-team-mate",
    is_flag=True,
    help="Seat the substitute even at a table with a player of their own team (with a warning).",
)
@DB_OPTION
def substitute(
    name: str,
    session: int,
    player: str,
    by: str,
    who: str,
    note: str | None,
    allow_team_mate: bool,
    url: str,
) -> None:
    """A substitute (陪打, 第十二条三(二)) plays an absent player's seat for a whole session.

    The substitute's score counts for the table; they take no standard points and no place.
    The absent player's session is recorded as an absence. For a session interrupted by an
    absence (三缺一), enter the hands played: the scores stand as reached (第十二条三(一)).

    A substitute who would sit with a team-mate is refused, as the draw keeps team-mates
    apart (their score moves the team-mate's): choose one from another team, or pass
    --allow-team-mate to seat them anyway (a warning says with whom).

    \b
    Example (Sam, a substitute or a player with a bye, plays Ann's seat in
    session 3):
      guobiao tournament substitute club --session 3 --player Ann --by Sam \\
          --who li --note ill
    """
    with _store(url) as store:
        team, mates = _team_mates(store, name, session, player, by)
        if mates and not allow_team_mate:
            _fail(
                f"{name!r}: session {session}: {by} ({team}) would sit with team-mate(s) "
                f"{', '.join(mates)}; choose a substitute from another team, or pass "
                "--allow-team-mate to seat them anyway",
                1,
            )
        table = store.substitute(
            name, session, player, by, who=who, note=note, allow_team_mate=allow_team_mate
        )
    if mates:
        _warn_team_mates(by, team, mates, table)
    click.echo(
        f"Session {session} table {table}: {by} plays for {player} (substitute, not ranked)."
    )


def _team_mates(
    store: Store, name: str, session: int, player: str, by: str
) -> tuple[str | None, list[str]]:
    """``by``'s team and the team-mates of theirs at ``player``'s table in ``session``."""
    info = _info(store, name)
    team = info.players[by][1] if by in info.players else None
    mates = [
        p
        for _, seats in seating_of(store, name, session)
        if player in seats
        for p in seats
        if p != player and team is not None and info.players[p][1] == team
    ]
    return team, mates


def _warn_team_mates(by: str, team: str | None, mates: list[str], table: int) -> None:
    click.echo(
        f"warning: {by} ({team}) sits with team-mate(s) {', '.join(mates)} at table {table} "
        "(--allow-team-mate)",
        err=True,
    )


_PENALTY_WORDS = {
    "FALSE_WIN": "false",
    "FAKE_WIN": "fake",
    "INTENTIONAL_FAKE_WIN": "intentional",
    "WRONG_COUNT": "count",
    "VIOLATION": "fine",
    "WARNING": "warning",
}


def _wind(seat: object) -> str:
    return WINDS[seat] if isinstance(seat, int) and 0 <= seat < len(WINDS) else "none"


def _penalty_text(items: object) -> str:
    """Stored penalties as the referee types them: ``W:false N:warning S:fine:10:E``."""
    if not isinstance(items, list) or not items:
        return "none"
    out = []
    for item in items:
        kind = str(item.get("kind"))
        word = _PENALTY_WORDS.get(kind, kind.lower())
        text = f"{_wind(item.get('seat'))}:{word}"
        if word == "fine":
            text += f":{item.get('amount')}"
            if item.get("payee") is not None:
                text += f":{_wind(item.get('payee'))}"
        out.append(text)
    return " ".join(out)


def _hand_fields(record: dict[str, object]) -> dict[str, str]:
    """A stored hand's fields as text, in the order a referee reads a sheet."""
    winner = record.get("winner")
    discarder = record.get("discarder")
    fans = record.get("fans")
    how = _wind(discarder) if discarder is not None else "self-drawn"
    return {
        "winner": _wind(winner),
        "from": "none" if winner is None else how,
        "fan": str(record.get("fan_points", 0)),
        "flowers": str(record.get("flowers", 0)),
        "fans": ",".join(map(str, fans)) if isinstance(fans, list) and fans else "none",
        "tiles": str(record.get("tiles") or "none"),
        "penalties": _penalty_text(record.get("penalties")),
    }


def _hand_change(old: dict[str, object], new: dict[str, object]) -> str:
    after = _hand_fields(new)
    if not old:
        if new.get("winner") is None:
            what = "drawn hand"
        else:
            how = "self-drawn" if new.get("discarder") is None else f"from {after['from']}"
            what = f"{after['winner']} wins {how}, fan {after['fan']}"
            if new.get("flowers"):
                what += f" + {after['flowers']} flowers"
        if after["penalties"] != "none":
            what += f", penalties {after['penalties']}"
        return f"entered {what}"
    before = _hand_fields(old)
    changes = [f"{k} {before[k]} -> {after[k]}" for k in after if before[k] != after[k]]
    return ", ".join(changes) or "re-entered unchanged"


def _points(values: object) -> dict[str, int]:
    return {str(k): int(v) for k, v in values.items()} if isinstance(values, dict) else {}


def _table_change(old: dict[str, object], new: dict[str, object]) -> str:
    if "ended" in new:  # the session ended early (`finish`), or the mark withdrawn
        mark = new["ended"]
        if isinstance(mark, dict):
            return f"session ended after hand {mark.get('hands')}, scores stand as reached"
        return "reopened: the early end withdrawn"
    if "deduction" in new:  # lateness or another session-level deduction
        d = new["deduction"] if isinstance(new["deduction"], dict) else {}
        now = f"-{d.get('points')}" + (f" ({d['note']})" if d.get("note") else "")
        head = f"{d.get('kind')} {d.get('player')}"
        e = old.get("deduction")
        if not isinstance(e, dict):
            return f"{head} {now}"
        then = f"-{e.get('points')}" + (f" ({e['note']})" if e.get("note") else "")
        return f"{head} {then} -> {now}"
    scores, deductions = _points(new.get("scores")), _points(new.get("deductions"))
    if not old:
        what = "totals " + ", ".join(f"{p} {s}" for p, s in scores.items())
        if deductions:
            what += "; deducted " + ", ".join(f"{p} {v}" for p, v in deductions.items())
        return what
    was, was_deducted = _points(old.get("scores")), _points(old.get("deductions"))
    changes = [f"{p} {was.get(p)} -> {s}" for p, s in scores.items() if was.get(p) != s]
    parts = ["totals " + ", ".join(changes)] if changes else []
    moved = [
        f"{p} {was_deducted.get(p, 0)} -> {deductions.get(p, 0)}"
        for p in dict.fromkeys([*was_deducted, *deductions])
        if was_deducted.get(p, 0) != deductions.get(p, 0)
    ]
    if moved:
        parts.append("deducted " + ", ".join(moved))
    return "; ".join(parts) or "totals re-entered unchanged"


def _change(line: AuditLine) -> str:
    """What an audit entry changed, in words: ``winner S -> N``, ``totals Ann 620 -> 600``."""
    if line.entity == "hand_record":
        return _hand_change(line.old, line.new)
    if line.entity == "table":
        return _table_change(line.old, line.new)
    if line.entity == "seat_assignment":
        kind = line.new.get("kind", "absent")
        return f"{line.new.get('player')} plays for {line.new.get('replaces')} ({kind})"
    keys = [k for k in dict.fromkeys([*line.old, *line.new]) if line.old.get(k) != line.new.get(k)]
    return ", ".join(f"{k} {line.old.get(k, 'none')} -> {line.new.get(k, 'none')}" for k in keys)


def _place(line: AuditLine) -> str:
    parts = []
    if line.session is not None:
        parts.append(f"session {line.session}")
    if line.table is not None:
        parts.append(f"table {line.table}")
    if line.hand is not None:
        parts.append(f"hand {line.hand + 1}")
    return ", ".join(parts) or "tournament"


@click.command(cls=Command)
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (times in UTC) instead.")
@DB_OPTION
def audit(name: str, as_json: bool, url: str) -> None:
    """Every entry, correction and substitution, one a line, oldest first:

    \b
      session 2, table 4, hand 7: winner S -> N, by li, 14:02 (misheard)

    Times are local (the zone is in the heading), grouped by day; hands count 1-16, seats are
    the seat winds of that hand. --json gives the same with the stored old and new values.
    """
    with _store(url) as store:
        lines = store.audit_trail(name)
    if as_json:
        doc = [
            {
                "at": line.at.isoformat(),
                "who": line.who,
                "session": line.session,
                "table": line.table,
                "hand": None if line.hand is None else line.hand + 1,
                "what": line.entity,
                "change": _change(line),
                "note": line.note,
                "old": line.old,
                "new": line.new,
            }
            for line in lines
        ]
        click.echo(json.dumps({"tournament": name, "audit": doc}, ensure_ascii=False, indent=2))
        return
    if not lines:
        click.echo(f"{name}: no entries or corrections yet.")
        return
    zone = datetime.now().astimezone().tzname() or "local"
    click.echo(f"{name}: audit trail (times {zone})")
    day = None
    for line in lines:
        at = line.at.astimezone()
        if at.date() != day:
            day = at.date()
            click.echo(day.isoformat())
        why = f" ({line.note})" if line.note else ""
        click.echo(f"  {_place(line)}: {_change(line)}, by {line.who or '?'}, {at:%H:%M}{why}")


@click.command(cls=Command)
@click.argument("name")
@output_option("--csv", "csv_path", "the list as CSV")
@DB_OPTION
def penalties(name: str, csv_path: Path | None, url: str) -> None:
    """The penalty list: every penalty, warning, deduction and forfeit, by session and table."""
    with _store(url) as store:
        lines = store.penalty_list(name)
    fields = ("session", "table", "hand", "player", "kind", "amount", "payee", "note")
    rows = [
        {
            "session": x.session,
            "table": x.table,
            "hand": "" if x.hand is None else x.hand + 1,
            "player": x.player,
            "kind": x.kind.lower(),
            "amount": x.amount,
            "payee": x.payee or "",
            "note": x.note or "",
        }
        for x in lines
    ]
    if csv_path is not None:
        try:
            with spreadsheet_csv(csv_path) as handle:  # a BOM, for Excel
                writer = csv.DictWriter(handle, fields)
                writer.writeheader()
                writer.writerows(rows)
        except OSError as err:
            _fail(f"cannot write {csv_path}: {err.strerror}")
    table = Table(title=f"{name}: penalties", show_header=True, header_style="bold")
    for field in fields:
        table.add_column(field.capitalize())
    for row in rows:
        # on the terminal the kind in the sheets' terms (错和 False win); the CSV keeps the code
        term = TERMS.get(str(row["kind"]))
        shown = {**row, "kind": f"{term.zh} {term.en}" if term else row["kind"]}
        table.add_row(*(str(shown[f]) for f in fields))
    console = _console()
    console.print(table)
    if not rows:
        console.print("No penalties.")


def _history_status(line: HistoryLine) -> str:
    """A history line's status: absent, forfeit (自动弃权, 局分 0, 第十三条二(一): ranked, not
    played), substitute, disqualified or played."""
    if line.absent:
        return "absent"
    if line.forfeit:
        return "forfeit"
    if line.substitute:
        return "substitute"
    return "disqualified" if line.disqualified else "played"


_STATUS_SHOWN = {"forfeit": f"{TERMS['forfeit'].zh} forfeit"}
"""A status as the terminal shows it, where the sheets' term says more (弃权 forfeit)."""


@click.command(cls=Command)
@click.argument("name")
@click.argument("player")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@DB_OPTION
def history(name: str, player: str, as_json: bool, url: str) -> None:
    """One player's sessions: table, seat, 局分, standard points; byes, absences, substitutes,
    forfeits (弃权, 第十三条二(一))."""
    from guobiao.tournament.ranking import player_histories
    from guobiao.tournament.store import no_player

    with _store(url) as store:
        info = _info(store, name)
        if player not in info.players:
            _fail(str(no_player(name, player, info.players)), 1)
        found = player_histories(store.table_results(name)).get(player)
    lines = found.lines if found is not None else ()
    rows = [
        {
            "session": line.session,
            "table": line.table or None,
            "seat": WINDS[line.seat] if line.seat is not None else None,
            "score": line.score,
            "standard_points": None if line.standard_points is None else str(line.standard_points),
            "status": _history_status(line),
        }
        for line in lines
    ]
    if as_json:
        total = found.standard_points if found is not None else 0
        matches = found.match_points if found is not None else 0
        doc = {
            "tournament": name,
            "player": player,
            "sessions": rows,
            "standard_points": str(total),
            "match_points": matches,
        }
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    table = Table(title=f"{name}: {player}", show_header=True, header_style="bold")
    for column in ("Session", "Table", "Seat", "局分", "Standard", "Status"):
        table.add_column(column)
    for line, row in zip(lines, rows, strict=True):
        table.add_row(
            str(line.session),
            str(line.table or "—"),
            str(row["seat"] or "—"),
            "—" if line.score is None else str(line.score),
            "—" if line.standard_points is None else format_points(line.standard_points),
            _STATUS_SHOWN.get(str(row["status"]), str(row["status"])),
        )
    console = _console()
    console.print(table)
    if found is not None:
        forfeits = sum(line.forfeit for line in found.lines)
        console.print(
            f"Total: {format_points(found.standard_points)} standard points, "
            f"{found.match_points} match points over {found.sessions_played} ranked session(s)"
            + (f", {forfeits} forfeited (局分 0)." if forfeits else ".")
        )
    else:
        console.print("No sessions entered yet.")


# -- a whole table at once: `hands` (a file or --prompt), `status`, `finish` (issue 13) --------

HANDS_COLUMNS = (
    "hand",
    "winner",
    "from",
    "fan",
    "fans",
    "tiles",
    "flags",
    "flowers",
    "penalties",
    "warnings",
    "note",
)
"""The columns of a hands file (its CSV header, or the keys of its JSON lines); only ``hand``
is required."""
_ALIASES = {
    "points": "fan",
    "fan_points": "fan",
    "discarder": "from",
    "penalty": "penalties",
    "warning": "warnings",
}
_DRAWN = ("", "-", "draw", "荒牌", "荒庄")  # a winner saying: nobody won (荒牌)
_SELF = ("self", "self-drawn", "自摸")  # a `from` saying: self-drawn
_FLAGS = {
    "fourth-tile": "fourth_tile",
    "和绝张": "fourth_tile",
    "kong": "kong",
    "杠上开花": "kong",
    "抢杠和": "kong",
    "last-tile": "last_tile",
    "妙手回春": "last_tile",
    "海底捞月": "last_tile",
}
_AS_COLUMNS = {  # the `hand` command's options, as the columns of a hands file say them
    "--self-drawn": "self",
    "--fourth-tile": "fourth-tile",
    "--last-tile": "last-tile",
    "--kong": "kong",
    "--penalty": "penalties",
    "--warning": "warnings",
    "--winner": "winner",
    "--from": "from",
    "--fans": "fans",
    "--fan": "fan",
    "--tiles": "tiles",
    "--flowers": "flowers",
}
_ROUNDS = ("East", "South", "West", "North")


@dataclass(frozen=True, slots=True)
class _Line:
    """A line of a hands file: its number in the file (from 1), the hand (0-15), what it says."""

    line: int
    number: int
    typed: _Typed


def _in_columns(field: str, message: str) -> str:
    """A message about a typed hand in the words of a hands file (``--fan 9`` -> ``fan 9``),
    without a leading ``field:`` (the caller names the field)."""
    text = re.sub(r"--[a-z-]+", lambda m: _AS_COLUMNS.get(m.group(), m.group()), message)
    return text.removeprefix(f"{field}: ")


def _text(value: object, field: str) -> str:
    if value is None:
        return ""
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return str(value).strip()
    raise _FieldError(field, f"{value!r} is not text or a number")


def _items(value: object, field: str) -> tuple[str, ...]:
    """A list field: a JSON list, or text split at spaces, commas and semicolons."""
    if isinstance(value, list):
        return tuple(t for t in (_text(v, field) for v in value) if t)
    return tuple(t for t in re.split(r"[\s,;]+", _text(value, field)) if t)


def _whole(value: object, field: str, low: int, high: int | None = None) -> int | None:
    """A whole number field (None when empty), from ``low`` (to ``high``)."""
    text = _text(value, field)
    if not text:
        return None
    if not re.fullmatch(r"[+-]?\d+", text):
        raise _FieldError(field, f"{text!r} is not a whole number")
    number = int(text)
    if number < low or (high is not None and number > high):
        raise _FieldError(
            field, f"{number} is not {low}-{high}" if high is not None else f"{number} < {low}"
        )
    return number


def _typed_line(fields: Mapping[str, object]) -> _Typed:
    """A line's fields (text, or the values of a JSON line) as a typed hand; a ``_FieldError``
    names the field that is wrong."""
    winner = _text(fields.get("winner"), "winner")
    source = _text(fields.get("from"), "from")
    self_drawn = source.lower() in _SELF
    listed = fields.get("fans")
    fans = (
        ",".join(_items(listed, "fans"))
        if isinstance(listed, list)
        else _text(listed, "fans").replace(";", ",")
    )
    flags = set()
    for flag in _items(fields.get("flags"), "flags"):
        key = flag.lower().replace("_", "-")
        if key not in _FLAGS:
            raise _FieldError("flags", f"{flag!r} is not one of fourth-tile, kong, last-tile")
        flags.add(_FLAGS[key])
    return _Typed(
        winner=None if winner.lower() in _DRAWN else winner,
        discarder=None if self_drawn or not source else source,
        self_drawn=self_drawn,
        fan_points=_whole(fields.get("fan"), "fan", -sys.maxsize),  # negative: _check_typed says
        fan_list=fans or None,
        tiles=_text(fields.get("tiles"), "tiles") or None,
        fourth_tile="fourth_tile" in flags,
        kong="kong" in flags,
        last_tile="last_tile" in flags,
        flowers=_whole(fields.get("flowers"), "flowers", 0, 8),
        penalties=_items(fields.get("penalties"), "penalties"),
        warnings=_items(fields.get("warnings"), "warnings"),
        note=_text(fields.get("note"), "note") or None,
    )


def _columns(names: Iterable[str]) -> list[str]:
    """A header's or a JSON object's keys as columns (lower case, aliases resolved)."""
    out = [_ALIASES.get(n.strip().lower(), n.strip().lower()) for n in names]
    unknown = [n for n in out if n not in HANDS_COLUMNS]
    if unknown:
        raise ValueError(
            f"unknown column(s) {', '.join(map(repr, unknown))} (the columns: "
            f"{','.join(HANDS_COLUMNS)})"
        )
    twice = sorted({n for n in out if out.count(n) > 1})
    if twice:
        raise ValueError(f"column(s) {', '.join(twice)} given twice")
    return out


def _records(text: str, source: str) -> tuple[list[tuple[int, dict[str, object]]], list[str]]:
    """The lines of a hands file with their line numbers, and what is wrong with them: CSV with
    a header, or JSON lines when the first line that is not blank or a ``#`` comment starts
    with ``{``."""
    kept = ["" if line.lstrip().startswith("#") else line for line in text.splitlines()]
    first = next((line for line in kept if line.strip()), None)
    if first is None:
        return [], [f"{source}: no hands"]
    rows: list[tuple[int, dict[str, object]]] = []
    errors: list[str] = []
    if first.lstrip().startswith("{"):
        for number, line in enumerate(kept, 1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as err:
                errors.append(f"{source}: line {number}: not JSON ({err.msg})")
                continue
            if not isinstance(value, dict):
                errors.append(f"{source}: line {number}: not a JSON object")
                continue
            try:
                keys = _columns(value)
            except ValueError as err:
                errors.append(f"{source}: line {number}: {err}")
                continue
            rows.append((number, dict(zip(keys, value.values(), strict=True))))
        return rows, errors
    reader = csv.reader(io.StringIO("\n".join(kept)))
    header: list[str] | None = None
    for row in reader:
        number = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if header is None:
            try:
                header = _columns(row)
            except ValueError as err:
                return [], [f"{source}: line {number}: {err}"]
            if "hand" not in header:
                return [], [f"{source}: line {number}: the header needs a column hand"]
            continue
        if len(row) > len(header):
            errors.append(f"{source}: line {number}: more fields than the header has columns")
            continue
        rows.append((number, dict(zip(header, row, strict=False))))
    if not rows and not errors:
        errors.append(f"{source}: no hands below the header")
    return rows, errors


def _file_lines(text: str, source: str) -> tuple[list[_Line], list[str]]:
    """The hands of a hands file, each checked on its own (the seats come later), and what is
    wrong: one message per bad line, naming the line, the hand and the field."""
    records, errors = _records(text, source)
    lines = []
    for number, fields in records:
        try:
            hand = _whole(fields.get("hand"), "hand", 1, 16)
            if hand is None:
                raise _FieldError("hand", "no hand number (1-16)")
        except _FieldError as err:
            errors.append(f"{source}: line {number}, hand: {_in_columns('hand', str(err))}")
            continue
        try:
            typed = _typed_line(fields)
            _check_typed(typed)
        except _FieldError as err:
            errors.append(
                f"{source}: line {number} (hand {hand}), {err.field}: "
                f"{_in_columns(err.field, str(err))}"
            )
            continue
        lines.append(_Line(number, hand - 1, typed))
    return lines, errors


def _result_text(hand: _Hand) -> str:
    """A hand in words: ``S Ann wins from E Bob, fan 12 + 1 flowers; W:false``."""
    if hand.winner is None:
        text = "drawn (荒牌)"
    else:
        how = (
            "self-drawn"
            if hand.discarder is None
            else f"from {WINDS[hand.discarder]} {hand.players[hand.discarder]}"
        )
        text = f"{WINDS[hand.winner]} {hand.players[hand.winner]} wins {how}, fan {hand.fan_points}"
        if hand.flowers:
            text += f" + {hand.flowers} flowers"
    items: list[dict[str, object]] = [
        {"seat": p.seat, "kind": p.kind.name, "amount": p.amount, "payee": p.payee}
        for p in hand.penalties
    ]
    items += [{"seat": seat, "kind": "WARNING"} for seat in hand.warnings]
    return text + (f"; {_penalty_text(items)}" if items else "")


def _hands_table(
    title: str, seats: Sequence[str], hands: Sequence[_Hand], recorded: Sequence[RecordedHand]
) -> Table:
    """Each hand: what happened, and each player's change with the 局分 after it (as the store
    settled them)."""
    table = Table(title=title, show_header=True, header_style="bold")
    table.add_column("Hand", justify="right")
    table.add_column("Result")
    for player in seats:
        table.add_column(player, justify="right")
    typed = {hand.number: hand for hand in hands}
    for done in recorded:
        change = dict(zip(done.players, done.deltas, strict=True))
        cells = [f"{change[p]:+d} ({done.scores[p]})" for p in seats]
        table.add_row(str(done.hand + 1), _result_text(typed[done.hand]), *cells)
    return table


def _ranges(numbers: Iterable[int]) -> str:
    """Hands 0-15 as typed, in runs: ``1-4, 7, 9-16``."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0] + 1}-{r[-1] + 1}" if len(r) > 1 else str(r[0] + 1) for r in runs)


@dataclass(frozen=True, slots=True)
class _Sitting:
    """The table `hands` enters: the players at E S W N of its first hand, what is stored
    already, the tournament's fan profile."""

    store: Store
    name: str
    session: int
    table: int
    seats: tuple[str, str, str, str]
    status: TableStatus
    profile: str

    @property
    def title(self) -> str:
        return f"{self.name}: session {self.session} table {self.table}"

    def players(self, number: int) -> tuple[str, str, str, str]:
        """The players at E S W N in hand ``number`` (0-15)."""
        return SeatingTable(self.table, self.seats).seats_at(number)

    def refusal(self, number: int) -> str | None:
        """Why hand ``number`` (0-15) cannot be entered here, if it cannot."""
        if number in self.status.hands:
            return f"hand {number + 1} is already recorded (correct it with `hand --correct`)"
        end = self.status.ended
        if end is not None and number >= end.hands:
            return f"the session ended after hand {end.hands} (`finish --reopen` to add hands)"
        return None

    def entries(self, hands: Iterable[_Hand], note: str | None) -> list[HandEntry]:
        from guobiao.tournament.store import HandEntry

        return [
            HandEntry(
                h.number,
                h.winner,
                h.discarder,
                h.fan_points,
                h.flowers,
                h.penalties,
                h.fans,
                h.tiles,
                h.warnings,
                h.note or note,
            )
            for h in hands
        ]

    def record(
        self,
        hands: Sequence[_Hand],
        *,
        who: str,
        note: str | None = None,
        ended: bool = False,
        check: bool = True,
    ) -> list[RecordedHand]:
        """The store records the hands in one transaction (``check``: a dry run, rolled back);
        a hand it refuses raises ``HandError`` naming the hand."""
        return self.store.record_hands(
            self.name,
            self.session,
            self.table,
            self.entries(hands, note),
            who=who,
            finished=ended,
            note=note,
            dry_run=check,
        )


def _open_sitting(store: Store, name: str, session: int, table_number: int) -> _Sitting:
    info = _info(store, name)
    tables = dict(seating_of(store, name, session))
    if table_number not in tables:
        _fail(f"{name!r}: session {session} has tables 1-{len(tables)}, not {table_number}")
    a, b, c, d = tables[table_number]
    status = next(x for x in store.table_status(name, session) if x.table == table_number)
    if status.totals:
        _fail(
            f"{name!r} session {session} table {table_number}: the session totals are entered; "
            "no hands can be added (correct the totals instead)",
            1,
        )
    profile = _profile(info.rules_profile)
    return _Sitting(store, name, session, table_number, (a, b, c, d), status, profile)


def _report(sitting: _Sitting, recorded: list[RecordedHand], *, check: bool, ended: bool) -> None:
    last = recorded[-1].scores
    what = "would be recorded (--check: nothing recorded)" if check else "recorded"
    click.echo(
        f"{len(recorded)} hand(s) {what}: session {sitting.session} table {sitting.table}, "
        f"hand(s) {_ranges(r.hand for r in recorded)}."
    )
    click.echo("Table now: " + ", ".join(f"{p} {last[p]}" for p in sitting.seats))
    if ended:
        played = len(sitting.status.hands) + len(recorded)
        click.echo(
            f"The session {'would end' if check else 'ended'} after hand {played}: the table is "
            "complete, its scores stand as reached (第六条四)."
        )


@click.command(cls=Command)
@click.argument("name")
@click.option("--session", type=int, required=True, help="Session number, from 1.")
@click.option("--table", "table_number", type=int, required=True, help="Table number, from 1.")
@click.argument(
    "file", required=False, type=click.Path(dir_okay=False, allow_dash=True, path_type=Path)
)
@click.option(
    "--prompt",
    "interactive",
    is_flag=True,
    help="Ask hand by hand instead of reading FILE; all saved at the end, in one go.",
)
@click.option(
    "--check", is_flag=True, help="Check and show what would be recorded; record nothing."
)
@click.option(
    "--ended",
    is_flag=True,
    help="The session ended after these hands, before hand 16 (the time limit, 第六条四; or one "
    "short, 第十二条三(一)): the table is complete with them (as `finish`).",
)
@click.option(
    "--who",
    default=None,
    help="Who enters the hands, kept in the audit trail (default: your login name).",
)
@click.option("--note", default=None, help="Kept in the audit trail (for hands without a note).")
@DB_OPTION
def hands(
    name: str,
    session: int,
    table_number: int,
    file: Path | None,
    interactive: bool,
    check: bool,
    ended: bool,
    who: str | None,
    note: str | None,
    url: str,
) -> None:
    """Enter many hands of one table at once: from FILE (CSV or JSON lines; - for standard
    input), or asked hand by hand (--prompt). All or nothing: every line is checked first and a
    bad one refuses the whole file, naming the line and the field; then all are recorded in one
    transaction, each exactly as `hand` records it. --check only shows what would be recorded.

    \b
    CSV: a header (any order, only hand required), then one line per hand:
      hand,winner,from,fan,fans,tiles,flags,flowers,penalties,warnings,note
    \b
      hand       1-16
      winner     a seat of that hand (E S W N) or a name; empty: a drawn hand
                 (荒牌)
      from       who discarded the winning tile, or self (自摸)
      fan        the fan points, flowers apart; or fans, as on the sheet
                 ("碰碰和,箭刻×2");
      tiles      or the winner's hand, scored by the calculator ("...W9 +W9")
      flags      with tiles: fourth-tile kong last-tile
      flowers    the winner's flowers
      penalties  SEAT:KIND[:AMOUNT[:PAYEE]], as --penalty, space-separated
      warnings   seats warned, space-separated
      note       kept in the audit trail
    \b
    JSON lines: one object a line, the same keys. A line starting with # is a
    comment. --prompt asks the same, hand by hand, shows the table's scores after
    each hand, lets you redo a hand, and saves all at the end after a confirmation
    (nothing before).

    \b
    Examples:
      guobiao tournament hands club --session 1 --table 2 table2.csv --check
      guobiao tournament hands club --session 1 --table 2 table2.csv
      guobiao tournament hands club --session 1 --table 3 --prompt
      guobiao tournament hands club --session 2 --table 1 first13.csv --ended
    """
    if interactive == (file is not None):
        _fail("give FILE (CSV or JSON lines; - for standard input) or --prompt, not both")
    text, source = "", str(file)
    if file is not None and source == "-":
        text, source = sys.stdin.read(), "<stdin>"
    elif file is not None:
        try:
            text = file.read_text(encoding="utf-8-sig")
        except OSError as err:
            _fail(f"cannot read {file}: {err.strerror}")
        except UnicodeDecodeError:
            _fail(f"{file} is not UTF-8 text")
    with _store(url) as store:
        sitting = _open_sitting(store, name, session, table_number)
        if interactive:
            _prompt_hands(sitting, who=author(who), note=note, ended=ended, check=check)
            return
        read, line_of = _read_file(sitting, text, source)
        from guobiao.tournament.store import HandError

        try:
            recorded = sitting.record(read, who=author(who), note=note, ended=ended, check=check)
        except HandError as err:
            _fail(f"{source}: line {line_of[err.hand]} (hand {err.hand + 1}): {err}", 1)
    _console().print(_hands_table(sitting.title, sitting.seats, read, recorded))
    _report(sitting, recorded, check=check, ended=ended)


def _read_file(sitting: _Sitting, text: str, source: str) -> tuple[list[_Hand], dict[int, int]]:
    """Every hand of a hands file read against its seats, and the line of each hand; or exit
    with every bad line (nothing is recorded)."""
    lines, errors = _file_lines(text, source)
    seen: dict[int, int] = {}
    read: list[_Hand] = []
    for line in lines:
        at = f"{source}: line {line.line} (hand {line.number + 1})"
        why = sitting.refusal(line.number)
        if line.number in seen:
            why = f"hand {line.number + 1} is also on line {seen[line.number]}"
        seen.setdefault(line.number, line.line)
        if why is not None:
            errors.append(f"{at}, hand: {why}")
            continue
        players = sitting.players(line.number)
        try:
            read.append(_read_hand(line.typed, line.number, players, sitting.profile))
        except _FieldError as err:
            errors.append(f"{at}, {err.field}: {_in_columns(err.field, str(err))}")
    if errors:
        for error in errors:
            click.echo(f"error: {error}", err=True)
        _fail(f"{source}: nothing recorded ({len(errors)} error(s))")
    return read, seen


_PROMPT_HELP = """\
At 'winner': Enter for a drawn hand (荒牌), 'done' to save and stop, 'redo' (or 'redo N') to
type the last hand (or hand N) again, 'quit' to leave without saving. Seats are E S W N of
that hand, or names. Nothing is saved before the end."""


def _ask(text: str, default: str = "") -> str:
    return str(click.prompt(text, default=default, show_default=bool(default))).strip()


def _ask_hand(sitting: _Sitting, number: int) -> _Typed | str:
    """One hand's answers, or the word typed at 'winner' (done, redo [N], quit)."""
    players = sitting.players(number)
    seats = ", ".join(f"{w} {p}" for w, p in zip(WINDS, players, strict=True))
    click.echo(f"Hand {number + 1} ({_ROUNDS[number // 4]} round): {seats}")
    winner = _ask("  winner (Enter: drawn)")
    word = winner.lower()
    if word in ("done", "quit") or word.split()[:1] == ["redo"]:
        return word
    fields: dict[str, object] = {"winner": winner}
    if word not in _DRAWN:
        fields["from"] = _ask("  from (a seat or name, or self)")
        points = _ask("  fan points, fans (碰碰和,箭刻×2) or tiles (... +W5)")
        if points.isdigit():
            fields["fan"] = points
        elif "+" in points:
            fields["tiles"] = points
            fields["flags"] = _ask("  flags: fourth-tile kong last-tile (Enter: none)")
        else:
            fields["fans"] = points
        fields["flowers"] = _ask("  flowers", "0")
    fields["penalties"] = _ask("  penalties SEAT:KIND[:AMOUNT[:PAYEE]] (Enter: none)")
    fields["warnings"] = _ask("  warnings: seats (Enter: none)")
    return _typed_line(fields)


def _redo(word: str, typed: Mapping[int, _Hand]) -> int | None:
    """The hand (0-15) ``redo [N]`` asks for again: the last typed, or N; None if not typed."""
    number = word.split()[1:]
    if not number:
        return max(typed, default=None)
    wanted = int(number[0]) - 1 if number[0].isdigit() else -1
    return wanted if wanted in typed else None


def _prompt_hands(
    sitting: _Sitting, *, who: str, note: str | None, ended: bool, check: bool
) -> None:
    """`hands --prompt`: ask hand by hand from the first hand not entered; after each, show its
    changes and the table's 局分 (the store's own settlement, in a dry run: nothing written);
    redo a hand on request; at the end record them all in one transaction, after a
    confirmation. Nothing is saved before: 'quit' (or Ctrl-C) loses the hands typed."""
    from guobiao.tournament.store import HandError

    if sitting.status.state == "complete":
        _fail(f"{sitting.title} is complete already: nothing to enter", 1)
    typed: dict[int, _Hand] = {}
    seats = ", ".join(f"{w} {p}" for w, p in zip(WINDS, sitting.seats, strict=True))
    click.echo(f"{sitting.title}: {seats}")
    if sitting.status.hands:
        click.echo(f"Entered already: hand(s) {_ranges(sitting.status.hands)}.")
    click.echo(_PROMPT_HELP)
    again: int | None = None
    while True:
        free = [n for n in range(16) if sitting.refusal(n) is None and n not in typed]
        number = again if again is not None else (free[0] if free else None)
        again = None
        if number is None:  # every hand is in
            answer: _Typed | str = _ask("All hands typed: done, redo N or quit", "done").lower()
        else:
            try:
                answer = _ask_hand(sitting, number)
            except _FieldError as err:
                _prompt_error(err, number)
                again = number
                continue
        if answer == "quit":
            click.echo("Nothing saved.")
            return
        if isinstance(answer, str) and answer.startswith("redo"):
            again = _redo(answer, typed)
            if again is None:
                click.echo(f"  redo a hand typed here: {_ranges(typed) or 'none yet'}")
            else:
                del typed[again]
            continue
        if isinstance(answer, str) and answer != "done":
            click.echo("  type done, redo N or quit")
            continue
        if isinstance(answer, str):  # done
            if not typed:
                click.echo("No hands typed: nothing saved.")
                return
            if _save(sitting, typed, who=who, note=note, ended=ended, check=check):
                return
            continue
        assert number is not None
        try:
            typed[number] = _read_hand(answer, number, sitting.players(number), sitting.profile)
            recorded = sitting.record(list(typed.values()), who=who)
        except (ValueError, HandError) as err:
            typed.pop(number, None)
            _prompt_error(err, number)
            again = number
            continue
        done = next(r for r in recorded if r.hand == number)
        change = ", ".join(
            f"{w} {p} {d:+d}" for w, p, d in zip(WINDS, done.players, done.deltas, strict=True)
        )
        click.echo(f"  hand {number + 1}: {change}")
        now = recorded[-1].scores
        click.echo("  table now: " + ", ".join(f"{p} {now[p]}" for p in sitting.seats))


def _prompt_error(err: Exception, number: int) -> None:
    field = err.field if isinstance(err, _FieldError) else ""
    text = f"{field}: {_in_columns(field, str(err))}" if field else str(err)
    click.echo(f"  error: {text}; type hand {number + 1} again")


def _save(
    sitting: _Sitting,
    typed: Mapping[int, _Hand],
    *,
    who: str,
    note: str | None,
    ended: bool,
    check: bool,
) -> bool:
    """The end of `hands --prompt`: show every hand typed, ask whether the session ended early
    (when the hands are 1-k with k < 16), confirm, record. False: not saved, go on typing."""
    hands = [typed[n] for n in sorted(typed)]
    recorded = sitting.record(hands, who=who)
    _console().print(_hands_table(sitting.title, sitting.seats, hands, recorded))
    played = sorted({*sitting.status.hands, *typed})
    whole = played == list(range(len(played)))
    ended = ended and len(played) < 16  # all 16: complete without a mark
    if ended and not whole:
        click.echo(f"--ended: hand(s) {_ranges(set(range(played[-1])) - set(played))} missing")
        return False
    if not ended and whole and len(played) < 16:
        ended = click.confirm(
            f"Did the session end after hand {len(played)} (the time limit, 第六条四; or one "
            "short, 第十二条三(一))?",
            default=False,
        )
    verb = "Check" if check else "Save"
    if not click.confirm(f"{verb} {len(hands)} hand(s)?", default=True):
        click.echo("Not saved: go on ('redo N', 'done', 'quit').")
        return False
    recorded = sitting.record(hands, who=who, note=note, ended=ended, check=check)
    _report(sitting, recorded, check=check, ended=ended)
    return True


def _status_json(x: TableStatus) -> dict[str, object]:
    end = x.ended
    return {
        "table": x.table,
        "players": list(x.players),
        "state": x.state,
        "hands": [h + 1 for h in x.hands],
        "totals": x.totals,
        "ended": None
        if end is None
        else {"hands": end.hands, "who": end.who, "at": end.at.isoformat(), "note": end.note},
        "missing_hands": [h + 1 for h in x.missing_hands],
    }


def _entered(x: TableStatus) -> str:
    """What is entered at a table, in words."""
    if x.totals:
        return "totals"
    if x.state == "complete" and x.ended is not None:
        return f"{len(x.hands)} hands, ended early"
    if x.state == "complete":
        return "16 hands"
    return f"{len(x.hands)} of 16 hands" if x.hands else "nothing"


def _counts(tables: Sequence[TableStatus]) -> dict[str, int]:
    return {s: sum(x.state == s for x in tables) for s in ("complete", "partial", "missing")}


@click.command(cls=Command)
@click.argument("name")
@click.option("--session", type=int, default=None, help="Only this session.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead.")
@DB_OPTION
def status(name: str, session: int | None, as_json: bool, url: str) -> None:
    """Which tables of each session are missing (nothing entered), partial (hands of part of
    the session) or complete (the totals, all 16 hands, or the hands up to an early end marked
    with `finish` or `hands --ended`), with a summary line per session and for all.

    The standings rank a partial table as it stands and mark it (*).

    \b
    Examples:
      guobiao tournament status club
      guobiao tournament status club --session 2 --json
    """
    with _store(url) as store:
        info = _info(store, name)
        if session is not None and not 1 <= session <= info.sessions:
            _fail(f"{name!r} has sessions 1-{info.sessions}, not {session}")
        statuses = store.table_status(name)
    numbers = [session] if session is not None else list(range(1, info.sessions + 1))
    by_session = {n: [x for x in statuses if x.session == n] for n in numbers}
    shown = [x for n in numbers for x in by_session[n]]
    total = _counts(shown)
    undrawn = [n for n in numbers if not by_session[n]]
    if as_json:
        doc = {
            "tournament": name,
            "sessions": [
                {
                    "session": n,
                    "seated": bool(by_session[n]),
                    "tables": [_status_json(x) for x in by_session[n]],
                    "summary": _counts(by_session[n]),
                }
                for n in numbers
            ],
            "summary": total | {"tables": len(shown), "not_drawn": undrawn},
        }
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    console = _console()
    for n in numbers:
        tables = by_session[n]
        if not tables:
            console.print(f"Session {n}: not drawn yet.")
            continue
        title = f"{name}: session {n} (players at E S W N)"
        table = Table(title=title, show_header=True, header_style="bold")
        for column in ("Table", "Players", "State", "Entered", "Missing"):
            table.add_column(column, justify="right" if column == "Table" else "left")
        for x in tables:
            missing = f"hands {_ranges(x.missing_hands)}" if x.state == "partial" else ""
            table.add_row(str(x.table), " ".join(x.players), x.state, _entered(x), missing)
        console.print(table)
        count = _counts(tables)
        console.print(
            f"Session {n}: {count['complete']} complete, {count['partial']} partial, "
            f"{count['missing']} missing of {len(tables)} table(s)."
        )
    line = (
        f"{name}: {total['complete']} of {len(shown)} table(s) complete, {total['partial']} "
        f"partial, {total['missing']} missing"
    )
    console.print(
        line + (f"; not drawn: session(s) {', '.join(map(str, undrawn))}." if undrawn else ".")
    )


@click.command(cls=Command)
@click.argument("name")
@click.option("--session", type=int, required=True, help="Session number, from 1.")
@click.option("--table", "table_number", type=int, required=True, help="Table number, from 1.")
@click.option("--reopen", is_flag=True, help="Withdraw the mark: hands can be entered again.")
@click.option(
    "--who",
    default=None,
    help="The referee, kept in the audit trail (default: your login name).",
)
@click.option("--note", default=None, help="Why, e.g. 'time' (kept in the audit trail).")
@DB_OPTION
def finish(
    name: str,
    session: int,
    table_number: int,
    reopen: bool,
    who: str | None,
    note: str | None,
    url: str,
) -> None:
    """Mark a table's session ended before hand 16, after the hands entered (hands 1 to k,
    none missing): at the time limit (第六条四 「比赛已到规定时间…按已取得的分数计算成绩」) or left
    one short with no substitute (三缺一, 第十二条三(一) 「按已取得分数评定成绩」).

    The table is then complete: its scores stand as reached, `status` counts it complete and
    the standings rank it without a mark. A later hand is refused until --reopen. Both are
    kept in the audit trail.
    """
    with _store(url) as store:
        if reopen:
            store.reopen_table(name, session, table_number, who=author(who), note=note)
            click.echo(f"Session {session} table {table_number} reopened: hands can be entered.")
            return
        played = store.finish_table(name, session, table_number, who=author(who), note=note)
        scores = store.table_scores(name, session, table_number) or {}
    click.echo(
        f"Session {session} table {table_number} ended after hand {played}: complete, the "
        "scores stand as reached."
    )
    click.echo("Table: " + ", ".join(f"{p} {s}" for p, s in scores.items()))


@click.command(cls=Command)
@click.argument("name")
@click.argument("players", nargs=-1)
@click.option("--session", type=int, required=True, help="Session number, from 1.")
@click.option("--absent", "absent", multiple=True, help="A player who is absent (repeat).")
@click.option(
    "--clear",
    is_flag=True,
    help="Forget the check-in of the players named (of everyone in the session if none).",
)
@click.option("--list", "show", is_flag=True, help="List present, absent and not checked in.")
@click.option(
    "--apply",
    "apply_",
    is_flag=True,
    help="Handle the absent players as the tournament's --absent setting says (substitute or "
    "bye), before the session's results.",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of a re-draw (bye).")
@click.option(
    "--who",
    default=None,
    help="The referee or organiser, kept with the marks (default: your login name).",
)
@DB_OPTION
def checkin(
    name: str,
    players: tuple[str, ...],
    session: int,
    absent: tuple[str, ...],
    clear: bool,
    show: bool,
    apply_: bool,
    seed: int,
    who: str | None,
    url: str,
) -> None:
    """Check-in before a session: PLAYERS are present, --absent PLAYER absent.

    Marks are only stored; --apply then handles the absent players seated in the session, as
    the tournament's `create --absent` setting says: substitute (a free registered substitute,
    not a team-mate of the table, plays the seat: no standard points, no place) or bye (the
    session is drawn again without them; byes when the field does not divide by four). It
    prints one line per seat, and is refused once the session has results.
    """
    if clear and (absent or show or apply_):
        _fail("--clear goes with the players to forget, alone")
    with _store(url) as store:
        if clear:
            dropped = store.clear_checkin(name, session, list(players) or None)
            click.echo(f"Session {session}: {dropped} check-in mark(s) forgotten.")
            return
        if players or absent:
            store.check_in(name, session, players, absent, who=author(who))
            click.echo(f"Session {session}: {len(players)} present, {len(absent)} absent marked.")
        elif not (show or apply_):
            _fail("name the players present, --absent PLAYER, --list, --apply or --clear")
        if apply_:
            policy = store.absent_policy(name)
            done = store.apply_checkin(name, session, who=author(who), seed=seed)
            if not done:
                click.echo(f"Session {session}: no absent player is seated; nothing to do.")
            else:
                click.echo(f"Session {session}: absent players handled ({policy}):")
            for line in done:
                click.echo(f"  {line}")
        if show:
            listed = store.checkin_list(name, session)
            for label, names in (
                ("present", listed.present),
                ("absent", listed.absent),
                ("not checked in", listed.not_checked_in),
            ):
                click.echo(f"{label} ({len(names)}): {', '.join(names) or '-'}")


ENTRY_COMMANDS = (hand, hands, status, finish, late, substitute, checkin, audit, penalties, history)
