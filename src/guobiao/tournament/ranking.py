"""Tournament rankings: standard points per ranking group, individual and team standings.

第十条二 (局分, 标准分), 第十一条 (名次评定), 第十二条三 (替补: 「参赛可计分，但不计成绩名次」).
Readings: docs/rules.md §19. Pure data in, pure data out; exact ``Fraction`` standard points.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from guobiao.table.session import standard_points

__all__ = [
    "Entry",
    "HistoryLine",
    "PlayerHistory",
    "Standing",
    "TableResult",
    "format_points",
    "group_standard_points",
    "individual_ranking",
    "player_histories",
    "team_ranking",
]


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
    first hand) when known.
    """

    player: str
    score: int = 0
    seat: int | None = None
    substitute: bool = False
    absent: bool = False
    disqualified: bool = False

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

    @property
    def ranked(self) -> bool:
        """Takes a place in the group's ranking and gets standard points."""
        return not (self.substitute or self.absent or self.disqualified)


@dataclass(frozen=True, slots=True)
class TableResult:
    """The entries of one table in one session.

    ``group``: the ranking group (同组, 第十条二(二)) as a tournament setting. ``None`` makes the
    table its own group (4, 2, 1, 0); tables of a session with the same ``group`` key are ranked
    together (a group of 16: 16, 14, 13, …, 0).
    """

    session: int
    table: int
    entries: tuple[Entry, ...]
    group: str | None = None

    def __post_init__(self) -> None:
        players = [entry.player for entry in self.entries]
        if len(set(players)) != len(players):
            raise ValueError(f"a player appears twice at session {self.session} table {self.table}")


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """A player's line for one session: where they sat and what they got. ``score`` is ``None``
    when absent; ``standard_points`` is ``None`` when not ranked (substitute, absent,
    disqualified)."""

    session: int
    table: int
    seat: int | None
    score: int | None
    standard_points: Fraction | None
    substitute: bool
    absent: bool
    disqualified: bool


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
    """

    rank: int
    tied: bool
    name: str
    standard_points: Fraction
    match_points: int
    session_points: tuple[Fraction, ...]
    members: tuple[str, ...] = ()

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
    """
    groups: dict[tuple[int, str], list[Entry]] = defaultdict(list)
    sizes: dict[tuple[int, str], int] = defaultdict(int)
    for result in _check(results):
        name = result.group if result.group is not None else f"\x00table {result.table}"
        present = [entry for entry in result.entries if not entry.absent]
        groups[(result.session, name)].extend(present)
        sizes[(result.session, name)] += min(4, len(present))
    out: dict[tuple[int, str], Fraction] = {}
    for (session, name), entries in groups.items():
        ranked = {entry.player: entry.score for entry in entries if entry.ranked}
        if not ranked:
            continue
        for player, points in standard_points(ranked, sizes[(session, name)]).items():
            out[(session, player)] = points
    return out


def player_histories(results: Iterable[TableResult]) -> dict[str, PlayerHistory]:
    """Per player, in player-id order: one line per session entered, in session order."""
    tables = _check(results)
    points = group_standard_points(tables)
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


def individual_ranking(results: Iterable[TableResult]) -> list[Standing]:
    """个人名次 (第十一条): every player with at least one ranked session, by total standard
    points, then the three tiebreaks in order; a tie after them all shares the rank.

    Substitute and absent entries give no points and no place (第十二条三(二)); a player who
    only ever substituted or was absent is not in the ranking.
    """
    rows: list[tuple[str, _Key, tuple[str, ...]]] = []
    for player, history in player_histories(results).items():
        ranked = history.ranked_lines
        if not ranked:
            continue
        sessions = [line.standard_points for line in ranked if line.standard_points is not None]
        rows.append((player, _key(history.standard_points, history.match_points, sessions), ()))
    return _rank(rows)


def team_ranking(
    results: Iterable[TableResult], teams: Mapping[str, Sequence[str]]
) -> list[Standing]:
    """团体名次 (第十一条): each team by the standard points of its players' ranked entries
    summed over the sessions; the tiebreaks as for players, with the team's single-session
    standard points = the sum of its players' in that session (§19). Substitute entries
    count for nothing. Every team is listed, with 0 when none of its players was ranked.
    """
    owner: dict[str, str] = {}
    for team, members in teams.items():
        for member in members:
            if member in owner:
                raise ValueError(f"{member!r} is in teams {owner[member]!r} and {team!r}")
            owner[member] = team
    histories = player_histories(results)
    rows: list[tuple[str, _Key, tuple[str, ...]]] = []
    for team in sorted(teams):
        per_session: dict[int, Fraction] = defaultdict(Fraction)
        match = 0
        for member in teams[team]:
            history = histories.get(member)
            if history is None:
                continue
            for line in history.ranked_lines:
                per_session[line.session] += line.standard_points or Fraction(0)
                match += line.score or 0
        total = sum(per_session.values(), Fraction(0))
        rows.append((team, _key(total, match, per_session.values()), tuple(teams[team])))
    return _rank(rows)
