"""``guobiao tournament hand | late | substitute | audit | penalties | history``: entering and
correcting results, attendance and penalties, and reading them back (issue 4, items 3 and 6).

An adapter: the table referee's score sheet, one hand at a time, checked by the fan calculator
when the tiles are given, settled by ``guobiao.table.settlement`` as the game engine settles it. Every
refusal prints ``error: ...`` and changes nothing.
"""

from __future__ import annotations

import csv
import getpass
import json
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.table import Table

from guobiao.cli.tournament.common import DB_OPTION, WINDS, format_points, output_option
from guobiao.cli.tournament.common import open_cli_store as _store
from guobiao.cli.util import console as _console
from guobiao.cli.util import fail as _fail
from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand, parse_hand
from guobiao.core.tiles import TileParseError
from guobiao.scoring.calculator import PROFILES, calculate
from guobiao.scoring.fans import Fan
from guobiao.scoring.result import InvalidHandError
from guobiao.table.settlement import Penalty, PenaltyKind, penalty_for
from guobiao.tournament.queries import read_info as _info
from guobiao.tournament.queries import read_seating as _seating
from guobiao.tournament.seating import Table as SeatingTable

if TYPE_CHECKING:
    from guobiao.tournament.store import AuditLine

__all__ = ["ENTRY_COMMANDS", "author", "parse_fans", "parse_penalty", "seat_of"]

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
    except (TileParseError, ValueError) as err:
        raise ValueError(f"--tiles: {err}") from None
    if parsed.win_tile is None:
        raise ValueError("--tiles: end the hand with '+TILE', the winning tile (e.g. '+W5')")
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


@click.command()
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
      guobiao tournament hand club --session 1 --table 1 --hand 1 --winner S --from E --fan 12
      guobiao tournament hand club --session 1 --table 1 --hand 2 --winner Ann --self-drawn \\
          --tiles "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"
      guobiao tournament hand club --session 1 --table 1 --hand 3          # a drawn hand
      guobiao tournament hand club --session 1 --table 1 --hand 5 --winner W --from N \\
          --fans "碰碰和,箭刻×2" --flowers 1
      guobiao tournament hand club --session 1 --table 1 --hand 4 --penalty W:false
      guobiao tournament hand club --session 1 --table 1 --hand 4 --winner N --from W --fan 8 \\
          --correct --who "referee Li" --note "wrong winner"
    """
    if correct and not (who and who.strip()):
        _fail("--correct needs --who (the name kept in the audit trail)")
    if winner is None and (discarder or self_drawn or fan_points or fan_list or tiles or flowers):
        _fail(
            "--from, --self-drawn, --fan, --fans, --tiles and --flowers describe a win: "
            "give --winner"
        )
    if tiles is not None and fan_list is not None:
        _fail("give --tiles (scored by the calculator) or --fans, not both")
    if winner is not None and (discarder is None) == (not self_drawn):
        _fail("a win is either --from SEAT (on a discard) or --self-drawn")
    if winner is not None and tiles is None and fan_points is None and fan_list is None:
        _fail("give the winner's --fan points, the --fans or the --tiles to score")
    if tiles is None and (fourth_tile or kong or last_tile):
        _fail("--fourth-tile, --kong and --last-tile go with --tiles")
    number = hand_number - 1
    with _store(url) as store:
        info = _info(store, name)
        tables = dict(_seating(store, name, session))
        if table_number not in tables:
            _fail(f"{name!r}: session {session} has tables 1-{len(tables)}, not {table_number}")
        a, b, c, d = tables[table_number]
        players = SeatingTable(table_number, (a, b, c, d)).seats_at(number)
        try:
            win = seat_of(winner, players) if winner is not None else None
            dis = seat_of(discarder, players) if discarder is not None else None
            penalties = tuple(parse_penalty(p, players) for p in penalty_texts)
            warnings = tuple(seat_of(w, players) for w in warning_texts)
            fans: list[str] | None = None
            if fan_list is not None:
                fans = parse_fans(fan_list)
                listed = sum(Fan.by_name(f).points for f in fans)
                if fan_points is not None and fan_points != listed:
                    raise ValueError(f"--fan {fan_points} but the --fans add up to {listed}")
                fan_points = listed
            if tiles is not None:
                assert win is not None
                scored = _score_tiles(
                    tiles,
                    self_drawn=self_drawn,
                    fourth_tile=fourth_tile,
                    kong=kong,
                    last_tile=last_tile,
                    seat=win,
                    round_wind=number // 4,
                    profile=_profile(info.rules_profile),
                )
                if fan_points is not None and fan_points != scored.fan_points:
                    raise ValueError(
                        f"--fan {fan_points} but the tiles score {scored.fan_points} "
                        f"({' '.join(scored.fans)})"
                    )
                if flowers is not None and scored.flowers and flowers != scored.flowers:
                    raise ValueError(f"--flowers {flowers} but the tiles show {scored.flowers}")
                fan_points, fans = scored.fan_points, scored.fans
                flowers = flowers if flowers is not None else scored.flowers
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
            winner=win,
            discarder=dis,
            fan_points=fan_points or 0,
            flowers=flowers or 0,
            penalties=penalties,
            fans=fans,
            tiles=tiles,
            warnings=warnings,
        )
        scores = store.table_scores(name, session, table_number) or {}
    what = "Corrected" if correct else "Recorded"
    changes = ", ".join(
        f"{w} {p} {delta:+d}" for w, p, delta in zip(WINDS, players, deltas, strict=True)
    )
    click.echo(f"{what} session {session} table {table_number} hand {hand_number}: {changes}")
    click.echo("Table now: " + ", ".join(f"{p} {s}" for p, s in scores.items()))


@click.command()
@click.argument("name")
@click.option("--session", type=int, required=True, help="Session number, from 1.")
@click.option("--player", required=True, help="The late player.")
@click.option(
    "--minutes", type=click.IntRange(1, None), required=True, help="Minutes after the start."
)
@click.option("--substitute", default=None, help="Beyond 15 minutes: who plays the seat instead.")
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
    who: str | None,
    correct: bool,
    url: str,
) -> None:
    """Lateness (第十三条二(一)): up to 10 minutes, a warning and 10 points deducted; up to 15,
    20 points; beyond 15, a forfeit: 局分 0, and a --substitute plays the seat (陪打).

    The deduction leaves the table: its totals then sum to 2000 less it. A player is late once
    a session: a second `late` for them is refused; --correct --who NAME replaces the minutes
    recorded (audited).
    """
    if correct and not (who and who.strip()):
        _fail("--correct needs --who (the name kept in the audit trail)")
    if correct and minutes > LATE_FINE_MINUTES:
        _fail(f"--correct replaces a deduction (up to {LATE_FINE_MINUTES} minutes late)")
    with _store(url) as store:
        _info(store, name)
        seated = {p: n for n, seats in _seating(store, name, session) for p in seats}
        if player not in seated:
            _fail(f"{name!r}: {player!r} is not seated in session {session}", 1)
        if minutes > LATE_FINE_MINUTES:
            if substitute is None or not (who and who.strip()):
                _fail(
                    f"{minutes} minutes late is a forfeit (局分 0): give --substitute, who plays "
                    "the seat, and --who, the referee"
                )
            table = store.substitute(
                name, session, player, substitute, who=who, forfeit=True, note=f"{minutes} min late"
            )
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


@click.command()
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
    """
    with _store(url) as store:
        info = _info(store, name)
        team = info.players[by][1] if by in info.players else None
        mates = [
            p
            for _, seats in _seating(store, name, session)
            if player in seats
            for p in seats
            if p != player and team is not None and info.players[p][1] == team
        ]
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
        click.echo(
            f"warning: {by} ({team}) sits with team-mate(s) {', '.join(mates)} at table {table} "
            "(--allow-team-mate)",
            err=True,
        )
    click.echo(
        f"Session {session} table {table}: {by} plays for {player} (substitute, not ranked)."
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


@click.command()
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


@click.command()
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
            with csv_path.open("w", newline="", encoding="utf-8") as handle:
                writer = csv.DictWriter(handle, fields)
                writer.writeheader()
                writer.writerows(rows)
        except OSError as err:
            _fail(f"cannot write {csv_path}: {err.strerror}")
    table = Table(title=f"{name}: penalties", show_header=True, header_style="bold")
    for field in fields:
        table.add_column(field.capitalize())
    for row in rows:
        table.add_row(*(str(row[f]) for f in fields))
    console = _console()
    console.print(table)
    if not rows:
        console.print("No penalties.")


@click.command()
@click.argument("name")
@click.argument("player")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@DB_OPTION
def history(name: str, player: str, as_json: bool, url: str) -> None:
    """One player's sessions: table, seat, 局分, standard points; byes, absences, substitutes."""
    from guobiao.tournament.ranking import player_histories

    with _store(url) as store:
        info = _info(store, name)
        if player not in info.players:
            _fail(f"{name!r}: no player {player!r}", 1)
        found = player_histories(store.table_results(name)).get(player)
    lines = found.lines if found is not None else ()
    rows = [
        {
            "session": line.session,
            "table": line.table or None,
            "seat": WINDS[line.seat] if line.seat is not None else None,
            "score": line.score,
            "standard_points": None if line.standard_points is None else str(line.standard_points),
            "status": "absent"
            if line.absent
            else "substitute"
            if line.substitute
            else "disqualified"
            if line.disqualified
            else "played",
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
            str(row["status"]),
        )
    console = _console()
    console.print(table)
    if found is not None:
        console.print(
            f"Total: {format_points(found.standard_points)} standard points, "
            f"{found.match_points} match points over {found.sessions_played} ranked session(s)."
        )
    else:
        console.print("No sessions entered yet.")


ENTRY_COMMANDS = (hand, late, substitute, audit, penalties, history)
