"""Tournament rankings: standard points per ranking group, individual and team standings.

第十条二 (局分, 标准分), 第十一条 (名次评定), 第十二条三 (替补: 「参赛可计分，但不计成绩名次」).
Readings: docs/rules.md §19; the four it leaves open are settings (``Readings``). Pure data in, pure data out; exact ``Fraction`` standard points.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from guobiao.table.glossary import TERMS
from guobiao.table.session import standard_points

__all__ = [
    "BYE_POINTS",
    "FORFEIT_POINTS",
    "SUBSTITUTE_TABLES",
    "TEAM_SUBSTITUTES",
    "UNRANKED_REASONS",
    "WITHDRAWAL_REASONS",
    "Entry",
    "HistoryLine",
    "PlayerHistory",
    "Readings",
    "Standing",
    "TableResult",
    "format_points",
    "group_standard_points",
    "individual_ranking",
    "not_ranked",
    "player_histories",
    "readings_line",
    "team_ranking",
    "unplaced",
    "withdrawals",
]

WITHDRAWAL_REASONS = ("withdrawn", "disqualified")
"""Why a player left the tournament for good (``Entry.withdrawn``): withdrew (退出), or was
disqualified (取消比赛资格: 停赛, 第十三条四; 有意诈和, 第十四条六(四))."""

UNRANKED_REASONS = ("substitute", "disqualified in session", "byes only", "did not play")
"""Why a registered player who has not left is not in the individual ranking (``not_ranked``):
played only as a substitute (陪打, 「参赛可计分，但不计成绩名次」, 第十二条三(二)); played only
sessions they were disqualified in (有意诈和, 第十四条六(四): no standard points); had only byes
so far (轮空, 第十二条一: sat out by the draw, not absent); or played no session at all (absent,
not drawn, nothing entered yet)."""


SUBSTITUTE_TABLES = ("three", "four")
"""How a table with a 陪打 is ranked (``Readings.substitute_table``, 第十条二(二), 第十二条三(二)):
"three" (the default): the three ranked players take the first three places' points (4, 2, 1);
"four": all four are ranked by 局分 and the substitute's share is withheld (nobody gets it)."""
FORFEIT_POINTS = ("score", "last")
"""What a forfeit (自动弃权, 局分 0, 第十三条二(一)) earns (``Readings.forfeit``): "score" (the
default): ranked by its 局分 0 like any entry; "last": the last place of the group outright,
whatever the others' 局分 (two forfeits share the last two places)."""
TEAM_SUBSTITUTES = ("not", "counts")
"""Whether a team's 替补 earns for the team (``Readings.team_substitute``, 第十二条三(二)): "not"
(the default): a 陪打 like any substitute, no standard points; "counts": ranked at the table as
the player replaced would be, the standard points counting for the team, never a place of their
own in the individual ranking."""
BYE_POINTS = ("none", "average")
"""How a bye (轮空, 第十二条一) scores (``Readings.bye``): "none" (the default): no standard points,
no session played; "average": the mean of the places of a group of the session's size (7/4 at
tables of 4), 局分 0 in the match points."""


@dataclass(frozen=True, slots=True)
class Readings:
    """The tournament's readings of what the rules leave open (docs/rules.md §19), carried by
    each ``TableResult`` as ``group`` is; the defaults are the readings of earlier versions."""

    substitute_table: str = "three"
    forfeit: str = "score"
    team_substitute: str = "not"
    bye: str = "none"

    def __post_init__(self) -> None:
        for name, value, allowed in (
            ("substitute table", self.substitute_table, SUBSTITUTE_TABLES),
            ("forfeit points", self.forfeit, FORFEIT_POINTS),
            ("team substitute", self.team_substitute, TEAM_SUBSTITUTES),
            ("bye points", self.bye, BYE_POINTS),
        ):
            if value not in allowed:
                raise ValueError(f"{name} {value!r} is not one of {', '.join(allowed)}")

    @property
    def is_default(self) -> bool:
        return self == Readings()


def readings_line(readings: Readings, sep: str = " ") -> str:
    """The readings as the papers print them, each setting's 中文 ``sep`` English from the
    glossary: ``计分选项 Readings: 陪打桌 Table with a stand-in 三人排名 three ranked, 4/2/1; ...``."""

    def term(key: str) -> str:
        return f"{TERMS[key].zh}{sep}{TERMS[key].en}"

    parts = (
        ("substitute_table", f"substitute_table_{readings.substitute_table}"),
        ("forfeit", f"forfeit_{readings.forfeit}"),
        ("team_substitute", f"team_substitute_{readings.team_substitute}"),
        ("bye", f"bye_{readings.bye}"),
    )
    return f"{term('readings')}: " + "; ".join(f"{term(k)} {term(v)}" for k, v in parts)


def format_points(value: Fraction) -> str:
    """Exact standard points as printed: ``7``, ``7 1/2``, ``1/3``, ``-1 1/2``."""
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    fraction = f"{rest}/{value.denominator}"
    return f"{sign}{whole} {fraction}" if whole else f"{sign}{fraction}"


@dataclass(frozen=True, slots=True)
class Entry:
    """One person's result at a table in one session.

    ``score`` is the 局分 (第十条二(一)), starting points included (500 ± the hands). A forfeit
    by lateness (第十三条二(一): 「超过15分钟不到场按自动弃权，局分为0」) is an ordinary entry with
    score 0. ``substitute``: a 陪打 (第十二条三(二)) whose score counts for the table but who gets
    no standard points and no place. ``absent``: did not play this session (a bye, 第十二条一):
    recorded in the history only, outside the group and its size; ``score`` is ignored.
    ``disqualified``: left the session (停赛, 第十三条四; 有意诈和, 第十四条六(四)); keeps the score
    reached, no standard points (docs/rules.md §17). ``seat``: 0-3 (E S W N at the session's
    first hand) when known. ``forfeit``: the entry is a forfeit (局分 0) and ``bye``: the
    ``absent`` entry is a bye (轮空), as the tournament's ``Readings`` score them.
    ``team_substitute``: the ``substitute`` is a team's 替补 (第十二条).

    ``withdrawn``: the player has left the tournament for good, one of ``WITHDRAWAL_REASONS``; set
    on every entry of theirs (the sessions they played and, as ``absent`` entries, the ones after).
    They take no place in the individual ranking (``individual_ranking``). ``voided``: a session
    they played is void (the tournament's ``void`` setting): the score still counts for the
    table, as a 陪打's does (第十二条三(二)), and the entry gets no standard points, so the others
    at the table are ranked among themselves in a group of full size (docs/rules.md §19).
    """

    player: str
    score: int = 0
    seat: int | None = None
    substitute: bool = False
    absent: bool = False
    disqualified: bool = False
    withdrawn: str | None = None
    voided: bool = False
    forfeit: bool = False
    bye: bool = False
    team_substitute: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.player, str) or not self.player:
            raise ValueError(f"a player id must be a non-empty string, got {self.player!r}")
        if isinstance(self.score, bool) or not isinstance(self.score, int):
            raise ValueError(f"a session score is an int, got {self.score!r}")
        if self.seat is not None and self.seat not in range(4):
            raise ValueError(f"seat {self.seat!r} is not 0-3")
        if self.substitute + self.absent + self.disqualified > 1:
            raise ValueError(
                f"{self.player!r}: substitute, absent and disqualified exclude one another"
            )
        if self.withdrawn is not None and self.withdrawn not in WITHDRAWAL_REASONS:
            raise ValueError(
                f"{self.player!r}: withdrawn {self.withdrawn!r} is not one of "
                f"{', '.join(WITHDRAWAL_REASONS)}"
            )
        if self.voided and (self.withdrawn is None or not self.ranked_if_kept):
            raise ValueError(f"{self.player!r}: only a withdrawn player's played session is voided")
        if self.bye and not self.absent:
            raise ValueError(f"{self.player!r}: a bye is an absent entry")
        if self.team_substitute and not self.substitute:
            raise ValueError(f"{self.player!r}: a team's substitute is a substitute entry")

    @property
    def ranked_if_kept(self) -> bool:
        """Would take a place in the group's ranking, were the session not voided."""
        return not (self.substitute or self.absent or self.disqualified)

    @property
    def ranked(self) -> bool:
        """Takes a place in the group's ranking and gets standard points."""
        return self.ranked_if_kept and not self.voided


@dataclass(frozen=True, slots=True)
class TableResult:
    """The entries of one table in one session.

    ``group``: the ranking group (同组, 第十条二(二)) as a tournament setting. ``None`` makes the
    table its own group (4, 2, 1, 0); tables of a session with the same ``group`` key are ranked
    together (a group of 16: 16, 14, 13, …, 0).

    ``partial``: the table's results are not final: hands entered for part of the session only
    (not all 16, the table not marked ended early, no totals). Its entries count as they stand;
    the histories and rankings that depend on them say so (``HistoryLine.partial``,
    ``Standing.partial``) instead of passing them for finished.

    ``readings``: the tournament's readings (``Readings``), a setting as ``group`` is.
    """

    session: int
    table: int
    entries: tuple[Entry, ...]
    group: str | None = None
    partial: bool = False
    readings: Readings = Readings()

    def __post_init__(self) -> None:
        players = [entry.player for entry in self.entries]
        if len(set(players)) != len(players):
            raise ValueError(f"a player appears twice at session {self.session} table {self.table}")


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """A player's line for one session: where they sat and what they got. ``score`` is ``None``
    when absent; ``standard_points`` is ``None`` when not ranked (substitute, absent,
    disqualified). ``partial``: the partial tables (``TableResult.partial``) of the session
    whose results this line's standard points depend on: the player's own table, or in a larger
    ranking group any table of the group. ``withdrawn`` and ``voided``: as the entry's
    (``Entry``): the player has left the tournament; this played session is void.
    ``forfeit``: the player forfeited the session (自动弃权, 局分 0, 第十三条二(一)): ranked, not
    played; ``table`` is the table where their substitute played the seat, ``seat`` None.
    ``bye``: the ``absent`` line is a bye (轮空, 第十二条一), not an absence."""

    session: int
    table: int
    seat: int | None
    score: int | None
    standard_points: Fraction | None
    substitute: bool
    absent: bool
    disqualified: bool
    partial: tuple[int, ...] = ()
    withdrawn: str | None = None
    voided: bool = False
    forfeit: bool = False
    bye: bool = False

    @property
    def played(self) -> bool:
        """Sat at a table and played (not a forfeit, a bye or an absence)."""
        return not (self.absent or self.forfeit)


@dataclass(frozen=True, slots=True)
class PlayerHistory:
    """Every line of a player, by session, and the totals over the ranked lines."""

    player: str
    lines: tuple[HistoryLine, ...]

    @property
    def ranked_lines(self) -> tuple[HistoryLine, ...]:
        return tuple(line for line in self.lines if line.standard_points is not None)

    @property
    def standard_points(self) -> Fraction:
        """标准分之和 (第十一条)."""
        return sum((line.standard_points or Fraction(0) for line in self.lines), Fraction(0))

    @property
    def match_points(self) -> int:
        """比赛分之和 (第十一条一): the sum of the ranked sessions' 局分 (§19)."""
        return sum(line.score or 0 for line in self.ranked_lines)

    @property
    def sessions_played(self) -> int:
        return len(self.ranked_lines)


@dataclass(frozen=True, slots=True)
class Standing:
    """A place in a ranking (a player or a team).

    ``session_points`` are the single-session standard points, highest first: its first value
    is 第十一条二's 单局标准分最高, the whole tuple decides 第十一条三. ``rank`` is shared by a tie
    that survives every tiebreak (``tied``), and the next place skips: 1, 2, 3=, 3=, 5.
    ``partial``: the (session, table) of the partial tables (``TableResult.partial``) this
    standing counts as they stand, sorted; empty when every result it counts is final.
    ``withdrawn``: a player who left the tournament (``Entry.withdrawn``), listed after every
    ranked player by ``individual_ranking(..., withdrawn="last")``; their ``rank`` goes on from
    the last ranked place and is no place in the ranking. ``unplayed``: the ranked sessions the
    player did not play, whose standard points count but whose 局分 is no table's: a forfeit
    (局分 0, 第十三条二(一)), a bye scored by the ``Readings.bye`` "average" reading (第十二条一).
    ``never_played``: a withdrawn player who sat at no table and forfeited no session (left
    before playing, or after byes and absences only): their totals are no score, shown blank
    (null), where a player who played and took nothing shows 0.
    """

    rank: int
    tied: bool
    name: str
    standard_points: Fraction
    match_points: int
    session_points: tuple[Fraction, ...]
    members: tuple[str, ...] = ()
    partial: tuple[tuple[int, int], ...] = ()
    withdrawn: str | None = None
    unplayed: tuple[int, ...] = ()
    never_played: bool = False

    @property
    def best_session(self) -> Fraction:
        """单局标准分最高 (第十一条二); 0 with no session."""
        return self.session_points[0] if self.session_points else Fraction(0)

    @property
    def label(self) -> str:
        """The rank as printed: ``3`` or ``3=``."""
        return f"{self.rank}=" if self.tied else str(self.rank)


def _check(results: Iterable[TableResult]) -> tuple[TableResult, ...]:
    tables = tuple(results)
    seen: dict[tuple[int, str], int] = {}
    keys: set[tuple[int, int]] = set()
    for result in tables:
        key = (result.session, result.table)
        if key in keys:
            raise ValueError(f"session {result.session} table {result.table} is given twice")
        keys.add(key)
        for entry in result.entries:
            where = (result.session, entry.player)
            if where in seen:
                raise ValueError(
                    f"{entry.player!r} is at two tables in session {result.session}: "
                    f"{seen[where]} and {result.table}"
                )
            seen[where] = result.table
    return tables


def _group(result: TableResult) -> tuple[int, str]:
    """The ranking group of a table: (session, the ``group`` key, or the table alone)."""
    return result.session, result.group if result.group is not None else f"\x00table {result.table}"


def group_standard_points(
    results: Iterable[TableResult],
) -> dict[tuple[int, str], Fraction]:
    """Standard points (第十条二(二)) of every ranked entry, keyed by (session, player).

    Each group (a table, or the tables of a session sharing a ``group`` key) is ranked by
    ``session.standard_points`` over its ranked entries. The group's size (参赛选手的人数) is its
    places: each table gives one per person who played there, at most 4 (a substitute holds the
    place of the player they replaced, 第十二条三(二)); the absent hold none. So a substitute or a
    disqualified player leaves the others ranked in the group at its full size (4, 2, 1 at a
    table). Ties share the points of the places they cover, exactly.

    The tables' ``Readings`` (docs/rules.md §19) change this: ``substitute_table`` "four" ranks
    a 陪打 with the others and gives their share to nobody (not at a table where a forfeit holds
    the place they sit in); ``forfeit`` "last" gives a forfeit the group's last place;
    ``team_substitute`` "counts" ranks a team's 替补 as a player (not where a forfeit holds the
    place); ``bye`` "average" gives a bye the mean of the places of the session's largest group.
    """
    groups: dict[tuple[int, str], list[Entry]] = defaultdict(list)
    sizes: dict[tuple[int, str], int] = defaultdict(int)
    readings: dict[tuple[int, str], Readings] = {}
    withheld: dict[tuple[int, str], list[Entry]] = defaultdict(list)
    earning: dict[tuple[int, str], list[Entry]] = defaultdict(list)
    byes: list[tuple[int, str]] = []
    for result in _check(results):
        key = _group(result)
        present = [entry for entry in result.entries if not entry.absent]
        groups[key].extend(present)
        sizes[key] += min(4, len(present))
        readings.setdefault(key, result.readings)
        forfeited = any(e.forfeit for e in present)  # the forfeit holds its replacement's place
        counts = result.readings.team_substitute == "counts" and not forfeited
        earns = [e for e in present if e.ranked or (counts and e.team_substitute)]
        earning[key].extend(earns)
        if result.readings.substitute_table == "four" and not forfeited:
            withheld[key].extend(e for e in present if e.substitute and e not in earns)
        if result.readings.bye == "average":
            byes.extend(
                (result.session, e.player)
                for e in result.entries
                if e.absent and e.bye and e.withdrawn is None
            )
    out: dict[tuple[int, str], Fraction] = {}
    for key, entries in earning.items():
        session, size = key[0], sizes[key]
        last = [e.player for e in entries if e.forfeit and readings[key].forfeit == "last"]
        ranked = {e.player: e.score for e in entries if e.player not in last}
        counted = ranked | {e.player: e.score for e in withheld[key]}
        if counted:
            for player, points in standard_points(counted, size).items():
                if player in ranked:
                    out[(session, player)] = points
        if last:
            bottom = _places(size)[max(0, size - len(last)) :]
            for player in last:
                out[(session, player)] = sum(bottom, Fraction(0)) / len(bottom)
    for session, player in byes:
        size = max((sizes[key] for key in groups if key[0] == session), default=4) or 4
        out[(session, player)] = sum(_places(size), Fraction(0)) / size
    return out


def _places(size: int) -> list[Fraction]:
    """The standard points of the places of a group of ``size`` (第十条二(二)): N, N-2, ..., 0."""
    return [Fraction(size)] + [Fraction(size - place) for place in range(2, size + 1)]


def player_histories(results: Iterable[TableResult]) -> dict[str, PlayerHistory]:
    """Per player, in player-id order: one line per session entered, in session order."""
    tables = _check(results)
    points = group_standard_points(tables)
    partial: dict[tuple[int, str], list[int]] = defaultdict(list)
    for result in tables:
        if result.partial:
            partial[_group(result)].append(result.table)
    lines: dict[str, list[HistoryLine]] = defaultdict(list)
    for result in tables:
        for entry in result.entries:
            lines[entry.player].append(
                HistoryLine(
                    session=result.session,
                    table=result.table,
                    seat=entry.seat,
                    score=None if entry.absent else entry.score,
                    standard_points=points.get((result.session, entry.player)),
                    substitute=entry.substitute,
                    absent=entry.absent,
                    disqualified=entry.disqualified,
                    partial=tuple(sorted(partial.get(_group(result), ()))),
                    withdrawn=entry.withdrawn,
                    voided=entry.voided,
                    forfeit=entry.forfeit,
                    bye=entry.bye,
                )
            )
    return {
        player: PlayerHistory(player, tuple(sorted(lines[player], key=lambda line: line.session)))
        for player in sorted(lines)
    }


_Key = tuple[Fraction, int, tuple[Fraction, ...]]


def _rank(rows: Sequence[tuple[str, _Key, tuple[str, ...]]]) -> list[Standing]:
    """Order by the 第十一条 key, highest first; equal keys share a rank (names break the order
    of printing only)."""
    ordered = sorted(rows, key=lambda row: row[0])
    ordered = sorted(ordered, key=lambda row: row[1], reverse=True)  # stable: names stay sorted
    standings: list[Standing] = []
    for index, (name, key, members) in enumerate(ordered):
        same_as_previous = index > 0 and key == ordered[index - 1][1]
        rank = standings[-1].rank if same_as_previous else index + 1
        tied = same_as_previous or (index + 1 < len(ordered) and key == ordered[index + 1][1])
        total, match, sessions = key
        standings.append(Standing(rank, tied, name, total, match, sessions, members))
    return standings


def _key(total: Fraction, match: int, sessions: Iterable[Fraction]) -> _Key:
    # 第十一条: 标准分之和, then 一、比赛分之和多者列前, then 二、单局标准分最高者列前 (the first of
    # the descending tuple), then 三、单局标准分高分多者列前 (the rest: the lexicographic order
    # of the descending single-session points, §19).
    return total, match, tuple(sorted(sessions, reverse=True))


def individual_ranking(
    results: Iterable[TableResult], *, withdrawn: Literal["omit", "last"] = "omit"
) -> list[Standing]:
    """个人名次 (第十一条): every player with at least one ranked session, by total standard
    points, then the three tiebreaks in order; a tie after them all shares the rank.

    Substitute and absent entries give no points and no place (第十二条三(二)); a player who
    only ever substituted or was absent is not in the ranking.

    A player who left the tournament (``Entry.withdrawn``: withdrew, or disqualified, 第十三条四,
    第十四条六(四)) takes no place (docs/rules.md §19): left out, or with ``withdrawn="last"``
    listed after every ranked player, ordered among themselves the same way, marked
    (``Standing.withdrawn``), their ``rank`` going on from the last place.
    """
    rows: list[tuple[str, _Key, tuple[str, ...]]] = []
    gone: list[tuple[str, _Key, tuple[str, ...]]] = []
    partial: dict[str, tuple[tuple[int, int], ...]] = {}
    unplayed: dict[str, tuple[int, ...]] = {}
    never: set[str] = set()
    reasons: dict[str, str] = {}
    for player, history in player_histories(results).items():
        # a team's 替补 (``Readings.team_substitute`` "counts") earns for the team, no place
        ranked = tuple(line for line in history.ranked_lines if not line.substitute)
        reason = next((line.withdrawn for line in history.lines if line.withdrawn), None)
        if reason is not None:
            reasons[player] = reason
            if withdrawn == "omit":
                continue
            if not any(line.played or line.forfeit for line in history.lines):
                never.add(player)  # left before sitting at any table: no score, not 0
        elif not ranked:
            continue
        sessions = [line.standard_points for line in ranked if line.standard_points is not None]
        total = sum(sessions, Fraction(0))
        match = sum(line.score or 0 for line in ranked)
        row = (player, _key(total, match, sessions), ())
        (gone if reason is not None else rows).append(row)
        partial[player] = _partial(ranked)
        unplayed[player] = tuple(line.session for line in ranked if not line.played)
    placed = _rank(rows)
    after = [
        replace(
            s, rank=s.rank + len(placed), withdrawn=reasons[s.name], never_played=s.name in never
        )
        for s in _rank(gone)
    ]
    return [replace(s, partial=partial[s.name], unplayed=unplayed[s.name]) for s in placed + after]


def not_ranked(results: Iterable[TableResult], registered: Iterable[str]) -> dict[str, str]:
    """The ``registered`` players (in the order given) whom ``individual_ranking`` does not
    list, neither ranked nor withdrawn, each with one of ``UNRANKED_REASONS``: "substitute" when
    every session they played was as a substitute, "disqualified in session" when they played
    and were disqualified in a session (not withdrawn yet), "byes only" when every session of
    theirs so far was a bye (轮空, 第十二条一), "did not play" when they played none."""
    tables = _check(results)
    histories = player_histories(tables)
    listed = {s.name for s in individual_ranking(tables, withdrawn="last")}
    out: dict[str, str] = {}
    for player in registered:
        if player in listed or player in out:
            continue
        history = histories.get(player)
        played = [line for line in history.lines if line.played] if history else []
        if history and all(line.bye for line in history.lines):
            out[player] = "byes only"  # sat out by the draw (第十二条一), not absent
        elif not played:
            out[player] = "did not play"
        elif all(line.substitute for line in played):
            out[player] = "substitute"
        else:
            out[player] = "disqualified in session"
    return out


def unplaced(
    results: Iterable[TableResult], registered: Iterable[str]
) -> list[tuple[str, str, Standing | None]]:
    """The registered players listed after the ranked ones, with no place, in order: those who
    left the tournament (their ``Standing``, ``withdrawn="last"``), then ``not_ranked`` (no
    standing); each with why (``Standing.withdrawn`` or one of ``UNRANKED_REASONS``)."""
    tables = _check(results)
    after: list[tuple[str, str, Standing | None]] = [
        (s.name, s.withdrawn, s)
        for s in individual_ranking(tables, withdrawn="last")
        if s.withdrawn is not None
    ]
    after += [(p, why, None) for p, why in not_ranked(tables, registered).items()]
    return after


def withdrawals(results: Iterable[TableResult]) -> dict[str, str]:
    """The players who left the tournament (``Entry.withdrawn``), by player id: the reason."""
    out: dict[str, str] = {}
    for result in results:
        for entry in result.entries:
            if entry.withdrawn is not None:
                out[entry.player] = entry.withdrawn
    return dict(sorted(out.items()))


def _partial(lines: Iterable[HistoryLine]) -> tuple[tuple[int, int], ...]:
    """The (session, table) of the partial tables that ranked lines depend on, sorted."""
    return tuple(sorted({(line.session, table) for line in lines for table in line.partial}))


def team_ranking(
    results: Iterable[TableResult], teams: Mapping[str, Sequence[str]]
) -> list[Standing]:
    """团体名次 (第十一条): each team by the standard points of its players' ranked entries
    summed over the sessions; the tiebreaks as for players, with the team's single-session
    standard points = the sum of its players' in that session (§19). Substitute entries
    count for nothing, unless a team's 替补 earns by the ``Readings.team_substitute`` reading
    "counts". Every team is listed, with 0 when none of its players was ranked.
    """
    owner: dict[str, str] = {}
    for team, members in teams.items():
        for member in members:
            if member in owner:
                raise ValueError(f"{member!r} is in teams {owner[member]!r} and {team!r}")
            owner[member] = team
    histories = player_histories(results)
    rows: list[tuple[str, _Key, tuple[str, ...]]] = []
    partial: dict[str, tuple[tuple[int, int], ...]] = {}
    for team in sorted(teams):
        per_session: dict[int, Fraction] = defaultdict(Fraction)
        match = 0
        counted: list[HistoryLine] = []
        for member in teams[team]:
            history = histories.get(member)
            if history is None:
                continue
            for line in history.ranked_lines:
                per_session[line.session] += line.standard_points or Fraction(0)
                match += line.score or 0
            counted.extend(history.ranked_lines)
        total = sum(per_session.values(), Fraction(0))
        rows.append((team, _key(total, match, per_session.values()), tuple(teams[team])))
        partial[team] = _partial(counted)
    return [replace(s, partial=partial[s.name]) for s in _rank(rows)]
