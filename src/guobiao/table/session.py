"""A session (局) of 4 rounds (圈) × 4 hands (盘): winds, seating, session scores, standard points.

第五条三-六, 八, 九; 第六条四; 第十条二; 第十二条三; 第十三条二(一), 四. Readings: docs/rules.md §17.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from guobiao.core.context import Wind
from guobiao.table.settlement import HandOutcome

__all__ = [
    "HANDS_PER_SESSION",
    "ROUND_START",
    "STARTING_POINTS",
    "HandRecord",
    "Session",
    "SessionOverError",
    "seating",
    "standard_points",
]

STARTING_POINTS = 500
"""基础比赛分 (第五条三十四(一)): each player's points at the start of a session."""

HANDS_PER_SESSION = 16
"""4 圈 of 4 盘 (第五条三, 四): every player deals once a round; the dealer never repeats (八)."""

ROUND_START: tuple[tuple[int, int, int, int], ...] = (
    (0, 1, 2, 3),  # round 1 (东风圈): E:A S:B W:C N:D
    (1, 0, 3, 2),  # round 2 (南风圈): E and S swap, W and N swap
    (2, 3, 1, 0),  # round 3 (西风圈): E, S go opposite; W to S; N to E
    (3, 2, 0, 1),  # round 4 (北风圈): E and S swap, W and N swap
)
"""轮转 (第五条九), the Green Book scheme: for each round, which of the players A B C D (seated
E S W N at the session's first hand) sits at E, S, W, N at the round's first hand."""


class SessionOverError(RuntimeError):
    """The session has ended (all its hands played, ended early, or 三缺一)."""


def seating(hand_number: int) -> tuple[int, int, int, int]:
    """Which player (0-3: A B C D, the session's first-hand order) sits at E, S, W, N in hand
    ``hand_number`` (0-15) of a session.

    Within a round the deal passes to the 下家 every hand (第五条八 庄家不连庄): East of one hand is
    North of the next and South becomes East. Between rounds the players move by ``ROUND_START``.
    """
    if not 0 <= hand_number < HANDS_PER_SESSION:
        raise ValueError(f"hand number {hand_number} is not 0-{HANDS_PER_SESSION - 1}")
    start = ROUND_START[hand_number // 4]
    shift = hand_number % 4
    return start[shift], start[(shift + 1) % 4], start[(shift + 2) % 4], start[(shift + 3) % 4]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of a session as recorded: its number (0-based), prevalent wind, who sat where
    (by seat E S W N), each seat's score change (盘分), and the outcome when given."""

    number: int
    round_wind: Wind
    seats: tuple[str, str, str, str]
    deltas: tuple[int, int, int, int]
    outcome: HandOutcome | None = None

    @property
    def hand_in_round(self) -> int:
        return self.number % 4

    @property
    def dealer(self) -> str:
        """庄家: the East player (第五条八)."""
        return self.seats[0]

    @property
    def by_player(self) -> dict[str, int]:
        """Each player's score change in this hand."""
        return dict(zip(self.seats, self.deltas, strict=True))


class Session:
    """A session at one table (局, 第五条四): 16 hands, or fewer when it ends early (第六条四).

    ``record`` advances to the next hand. Seats are by seat wind of the current hand: 0 East (the
    dealer), 1 South, 2 West, 3 North. Session scores (局分, 第十条二(一)) start at
    ``starting_points``; they are not carried into another session.
    """

    __slots__ = (
        "_deductions",
        "_disqualified",
        "_ended_early",
        "_hands",
        "_history",
        "_participants",
        "_players",
        "_roster",
        "_starting_points",
        "_substitutes",
    )

    def __init__(
        self,
        players: Sequence[str],
        *,
        starting_points: int = STARTING_POINTS,
        hands: int = HANDS_PER_SESSION,
    ) -> None:
        players = tuple(players)
        if len(players) != 4 or len(set(players)) != 4:
            raise ValueError(f"a session needs 4 distinct players, got {players!r}")
        if not all(isinstance(p, str) and p for p in players):
            raise ValueError(f"player ids must be non-empty strings, got {players!r}")
        if not 1 <= hands <= HANDS_PER_SESSION:
            # 第五条四: four rounds at most; fewer is a session ended early (第六条四)
            raise ValueError(f"a session has 1-{HANDS_PER_SESSION} hands, got {hands}")
        if starting_points < 0:
            raise ValueError(f"starting points {starting_points} are negative")
        self._players: tuple[str, ...] = players
        self._roster = list(players)  # who now plays A, B, C, D's place (substitutes replace)
        self._participants = list(players)
        self._starting_points = starting_points
        self._hands = hands
        self._history: list[HandRecord] = []
        self._deductions: list[tuple[str, int]] = []
        self._disqualified: list[str] = []
        self._substitutes: dict[str, str] = {}
        self._ended_early = False

    # -- the plan -----------------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """The four players as seated E S W N at the session's first hand."""
        return self._players

    @property
    def participants(self) -> tuple[str, ...]:
        """Everyone who has sat at the table: the four players, then any substitutes."""
        return tuple(self._participants)

    @property
    def starting_points(self) -> int:
        return self._starting_points

    @property
    def hands(self) -> int:
        """The number of hands the session is set to (16 unless fewer were set)."""
        return self._hands

    # -- the current hand ---------------------------------------------------------------------

    @property
    def hand_number(self) -> int:
        """The current hand, 0-based; equals the number of hands recorded."""
        return len(self._history)

    @property
    def is_over(self) -> bool:
        return self._ended_early or self.hand_number >= self._hands

    @property
    def ended_early(self) -> bool:
        """Ended before its set hands: ``end_early`` (第六条四) or 三缺一 (第十二条三(一))."""
        return self._ended_early

    def _current(self) -> int:
        if self.is_over:
            raise SessionOverError(f"the session is over after {self.hand_number} hands")
        return self.hand_number

    @property
    def round_wind(self) -> Wind:
        """圈风 of the current hand (第五条五): East, South, West, North by round."""
        return Wind(self._current() // 4)

    @property
    def hand_in_round(self) -> int:
        """0-3: the current hand within its round."""
        return self._current() % 4

    @property
    def seats(self) -> tuple[str, str, str, str]:
        """The players at E, S, W, N in the current hand."""
        order = seating(self._current())
        roster = self._roster
        return roster[order[0]], roster[order[1]], roster[order[2]], roster[order[3]]

    @property
    def dealer(self) -> str:
        """庄家 of the current hand (第五条八)."""
        return self.seats[0]

    def seat_of(self, player: str) -> int:
        """The player's seat (0 E, 1 S, 2 W, 3 N) in the current hand."""
        seats = self.seats
        if player not in seats:
            raise ValueError(f"{player!r} is not seated in this session")
        return seats.index(player)

    def player_at(self, seat: int) -> str:
        """The player at ``seat`` (0 E, 1 S, 2 W, 3 N) in the current hand."""
        if seat not in range(4):
            raise ValueError(f"seat {seat} is not a seat 0-3")
        return self.seats[seat]

    # -- what happened --------------------------------------------------------------------------

    @property
    def history(self) -> tuple[HandRecord, ...]:
        return tuple(self._history)

    @property
    def disqualified(self) -> tuple[str, ...]:
        """Players disqualified (停赛, 第十三条四; 有意诈和, 第十四条六(四)), in order."""
        return tuple(self._disqualified)

    @property
    def substitutes(self) -> dict[str, str]:
        """Disqualified player → the substitute who took their place (第十二条三(二))."""
        return dict(self._substitutes)

    @property
    def deductions(self) -> tuple[tuple[str, int], ...]:
        """Session-level deductions (player, points), e.g. for lateness (第十三条二(一))."""
        return tuple(self._deductions)

    @property
    def deducted(self) -> int:
        """All points taken out of the table: 违例 fines paid to nobody and session deductions."""
        in_hands = sum(r.outcome.deducted for r in self._history if r.outcome is not None)
        return in_hands + sum(points for _, points in self._deductions)

    @property
    def scores(self) -> dict[str, int]:
        """局分 (第十条二(一)) of every participant: starting points + hand scores − deductions.

        A disqualified player keeps the score reached when they left; a substitute starts with
        ``starting_points`` of their own (docs/rules.md §17).
        """
        out = dict.fromkeys(self._participants, self._starting_points)
        for record in self._history:
            for player, delta in zip(record.seats, record.deltas, strict=True):
                out[player] += delta
        for player, points in self._deductions:
            out[player] -= points
        return out

    @property
    def ranked(self) -> tuple[str, ...]:
        """The players this session ranks: the four players less the disqualified (substitutes
        play for the table only, 「不计成绩名次」, 第十二条三(二))."""
        return tuple(p for p in self._players if p not in self._disqualified)

    def standard_points(self, group_size: int = 4) -> dict[str, Fraction]:
        """Standard points (标准分, 第十条二(二)) of the ranked players, the table as the group.

        For a larger group, merge the ranked ``scores`` of its tables and call the module's
        ``standard_points`` with the group's size.
        """
        scores = self.scores
        return standard_points({p: scores[p] for p in self.ranked}, group_size)

    # -- advancing --------------------------------------------------------------------------------

    def record(
        self,
        deltas: Sequence[int],
        outcome: HandOutcome | None = None,
        *,
        substitutes: Mapping[str, str] | None = None,
    ) -> HandRecord:
        """Record the current hand's score changes by seat (E S W N) and move to the next hand.

        The changes must sum to ``-outcome.deducted`` (zero without an outcome). Seats the outcome
        disqualifies (有意诈和) leave the session afterwards: replaced by ``substitutes[player]``
        when given, else the session ends (三缺一, 第十二条三(一)).
        """
        number = self._current()
        changes = tuple(deltas)
        if len(changes) != 4 or not all(isinstance(d, int) for d in changes):
            raise ValueError(f"a hand's score changes are 4 ints by seat, got {deltas!r}")
        expected = -outcome.deducted if outcome is not None else 0
        if sum(changes) != expected:
            raise ValueError(f"score changes {changes} sum to {sum(changes)}, not {expected}")
        seats = self.seats
        leaving = [seats[seat] for seat in outcome.disqualified] if outcome is not None else []
        chosen = dict(substitutes or {})
        strangers = sorted(set(chosen) - set(leaving))
        if strangers:
            raise ValueError(f"substitutes given for players not disqualified: {strangers}")
        if chosen and number + 1 >= self._hands:
            raise SessionOverError("no substitute can join: this was the session's last hand")
        self._check_substitutes(list(chosen.values()))
        record = HandRecord(
            number,
            Wind(number // 4),
            seats,
            (changes[0], changes[1], changes[2], changes[3]),
            outcome,
        )
        self._history.append(record)
        # the replaced first: a place left empty ends the session (三缺一)
        for player in sorted(leaving, key=lambda p: p not in chosen):
            self.disqualify(player, chosen.get(player))
        return record

    def end_early(self) -> None:
        """End the session now (第六条四: the time limit; or a set number of hands reached): the
        scores stand as reached, a hand in progress is not scored."""
        self._ended_early = True

    def disqualify(self, player: str, substitute: str | None = None) -> None:
        """Disqualify ``player`` (停赛, 第十三条四). They keep the score reached and are not ranked.
        With a ``substitute`` the session goes on with them in the player's place (第十二条三(二));
        without, it ends here and scores stand as reached (第十二条三(一))."""
        if player not in self._roster:
            raise ValueError(f"{player!r} is not seated in this session")
        if substitute is not None:
            if self.is_over:
                raise SessionOverError("no substitute can join a session that is over")
            self._check_substitutes([substitute])
        self._disqualified.append(player)
        if substitute is None:
            self._ended_early = self._ended_early or not self.is_over
            self._roster[self._roster.index(player)] = ""  # the seat is empty from now on
            return
        self._roster[self._roster.index(player)] = substitute
        self._participants.append(substitute)
        self._substitutes[player] = substitute

    def _check_substitutes(self, substitutes: list[str]) -> None:
        for substitute in substitutes:
            if not isinstance(substitute, str) or not substitute:
                raise ValueError(f"a substitute id must be a non-empty string, got {substitute!r}")
            if substitute in self._participants:
                raise ValueError(f"{substitute!r} has already played in this session")
        if len(set(substitutes)) != len(substitutes):
            raise ValueError(f"one substitute for two places: {substitutes!r}")

    def deduct(self, player: str, points: int) -> None:
        """Deduct ``points`` from ``player``'s session score, not from a hand: lateness fines
        (第十三条二(一): 「因迟到罚的分在统计局分时从积分中扣除」)."""
        if player not in self._participants:
            raise ValueError(f"{player!r} has not played in this session")
        if points <= 0:
            raise ValueError(f"a deduction is positive, got {points}")
        self._deductions.append((player, points))


def standard_points(
    scores: Mapping[str, int], group_size: int | None = None
) -> dict[str, Fraction]:
    """Standard points (标准分, 第十条二(二)) of a group's players from their session scores.

    「同组第一名得分等于参赛选手的人数，其他人得分为参赛选手数减本人所得名次」: with N players in the
    group, 1st gets N and rank r > 1 gets N − r (one table: 4, 2, 1, 0). Players with equal scores
    share equally the points of the places they cover (two tied 2nd at a table: 1.5 each).
    Exact fractions, so that sums over sessions tie exactly (第十一条). ``group_size`` defaults to
    ``len(scores)``; it may be larger when some of the group are not ranked (disqualified).
    """
    if not scores:
        return {}
    size = len(scores) if group_size is None else group_size
    if size < len(scores):
        raise ValueError(f"group size {size} is smaller than the {len(scores)} players ranked")

    def place(rank: int) -> int:
        return size if rank == 1 else size - rank

    order = sorted(scores, key=lambda player: -scores[player])
    shares: dict[str, Fraction] = {}
    first = 0
    while first < len(order):
        last = first
        while last + 1 < len(order) and scores[order[last + 1]] == scores[order[first]]:
            last += 1
        places = range(first + 1, last + 2)  # ranks covered by the tie, 1-based
        share = Fraction(sum(place(rank) for rank in places), len(places))
        for player in order[first : last + 1]:
            shares[player] = share
        first = last + 1
    return {player: shares[player] for player in scores}
