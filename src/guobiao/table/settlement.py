"""Settlement of a hand (盘的计分, 第十条一) and the penalties settled with it (第十三条, 第十四条).

Seats are indexed by seat wind within the hand: 0 East (the dealer), 1 South, 2 West, 3 North.
Readings of the open points are recorded in docs/rules.md §15 and §17.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = [
    "BASE_POINTS",
    "VIOLATION_AMOUNTS",
    "HandOutcome",
    "Penalty",
    "PenaltyKind",
    "escalating_fine",
    "penalty_for",
    "settle",
    "win_deltas",
]

BASE_POINTS = 8
"""底分 (第五条三十四(五), 第十条一(二)1): what each player who did not win pays the winner."""

VIOLATION_AMOUNTS = (5, 10, 20, 30, 40, 50, 60)
"""The seven fines of 第十三条二(二): 「分别扣除5分、10分、20分、30分、40分、50分、60分7种罚分」."""

_SEATS = range(4)


class PenaltyKind(Enum):
    """What a penalty is for. ``Penalty.amount`` means something different for each (see there)."""

    FALSE_WIN = "错和"
    """错和 (below the minimum) and 和错牌 (ready, the tile does not complete the hand): 第十四条六(一)(三).
    停和, and 10 to each other player; play continues."""
    FAKE_WIN = "诈和"
    """诈和, one tile from ready (第十四条六(二)): 停和, and 20 to each other player; play continues."""
    INTENTIONAL_FAKE_WIN = "有意诈和"
    """有意诈和, two or more tiles from ready (第十四条六(四)): disqualification. No points move."""
    WRONG_COUNT = "相公"
    """相公, too many or too few tiles (第十四条九): no right to win, plays on. No points move."""
    VIOLATION = "违例"
    """A table violation fined one of the seven amounts (第十三条二(二)): empty calls, drawing early,
    late pungs (第十四条三-五), exposing another's hand (七(三), paid to the disturbed player)."""

    @property
    def zh(self) -> str:
        return self.value

    @property
    def bars_win(self) -> bool:
        """Whether the offender loses the right to win this hand (停和, 第十三条三)."""
        return self is not PenaltyKind.VIOLATION


@dataclass(frozen=True, slots=True)
class Penalty:
    """A penalty on ``seat``, settled at the end of the hand (第十条一(二)3).

    ``amount`` is, by kind:

    - FALSE_WIN, FAKE_WIN: paid to **each** other player (「罚向各家支付10分」, 「罚给各家20分」);
      the offender loses 3 × amount.
    - VIOLATION: the **total** fine. With ``payee`` it is paid to that seat (第十四条七(三)
      「给被干扰者」); without, it is deducted from the offender and goes to nobody (「扣除」).
    - INTENTIONAL_FAKE_WIN, WRONG_COUNT: always 0 (the text sets no fine).
    """

    seat: int
    kind: PenaltyKind
    amount: int = 0
    payee: int | None = None

    def __post_init__(self) -> None:
        if self.seat not in _SEATS:
            raise ValueError(f"penalty seat {self.seat} is not a seat 0-3")
        if not isinstance(self.kind, PenaltyKind):
            raise ValueError(f"not a PenaltyKind: {self.kind!r}")
        if self.amount < 0:
            raise ValueError(f"a {self.kind.zh} penalty of {self.amount} is negative")
        if self.kind in (PenaltyKind.INTENTIONAL_FAKE_WIN, PenaltyKind.WRONG_COUNT) and self.amount:
            # 第十四条六(四), 九: no fine, only 停赛 / 停和
            raise ValueError(f"{self.kind.zh} carries no fine, got amount {self.amount}")
        if self.kind is PenaltyKind.VIOLATION and self.amount not in VIOLATION_AMOUNTS:
            # 第十三条二(二): 7种罚分
            raise ValueError(
                f"a 违例 fine must be one of {VIOLATION_AMOUNTS} (第十三条二(二)), got {self.amount}"
            )
        if self.payee is not None:
            if self.kind is not PenaltyKind.VIOLATION:
                raise ValueError(f"only a 违例 fine has a payee, not {self.kind.zh}")
            if self.payee not in _SEATS or self.payee == self.seat:
                raise ValueError(f"payee {self.payee} must be another seat 0-3 than {self.seat}")

    @property
    def deducted(self) -> int:
        """The points this penalty takes out of the table (a 违例 fine paid to nobody), else 0."""
        if self.kind is PenaltyKind.VIOLATION and self.payee is None:
            return self.amount
        return 0

    def deltas(self) -> tuple[int, int, int, int]:
        """The score change of each seat that this penalty alone causes."""
        out = [0, 0, 0, 0]
        if self.kind in (PenaltyKind.FALSE_WIN, PenaltyKind.FAKE_WIN):
            for seat in _SEATS:  # 第十四条六(一)(二): to each other player
                out[seat] = -3 * self.amount if seat == self.seat else self.amount
        elif self.kind is PenaltyKind.VIOLATION:
            out[self.seat] = -self.amount
            if self.payee is not None:  # 第十四条七(三): 给被干扰者
                out[self.payee] = self.amount
        return out[0], out[1], out[2], out[3]


def penalty_for(
    seat: int,
    kind: PenaltyKind,
    *,
    amount: int | None = None,
    payee: int | None = None,
    false_win_penalty: int = 10,
    fake_win_penalty: int = 20,
) -> Penalty:
    """The penalty of ``kind`` on ``seat`` with the table's amounts.

    ``false_win_penalty`` (第十四条六(一)(三)) and ``fake_win_penalty`` (六(二)) are per other
    player; a VIOLATION needs ``amount`` (one of ``VIOLATION_AMOUNTS``, see ``escalating_fine``).
    """
    if kind is PenaltyKind.VIOLATION:
        if amount is None:
            raise ValueError("a 违例 penalty needs an amount")
        return Penalty(seat, kind, amount, payee)
    if amount is not None or payee is not None:
        raise ValueError(f"the amount of a {kind.zh} penalty comes from the table's rules")
    if kind is PenaltyKind.FALSE_WIN:
        return Penalty(seat, kind, false_win_penalty)
    if kind is PenaltyKind.FAKE_WIN:
        return Penalty(seat, kind, fake_win_penalty)
    return Penalty(seat, kind)


def escalating_fine(offence: int) -> int:
    """The fine for the ``offence``-th (1-based) empty call, early draw or late pung in one hand.

    第十四条三-五: 「第一次警告，第二次罚5分，第三次罚10分，第四次罚20分，以此类推」, kept to the seven
    amounts of 第十三条二(二) by doubling and capping (docs/rules.md §15): 0 (a warning), 5, 10,
    20, 40, 60, 60, ...
    """
    if offence < 1:
        raise ValueError(f"offences are counted from 1, got {offence}")
    if offence == 1:
        return 0
    return min(5 << (offence - 2), VIOLATION_AMOUNTS[-1])


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """How a hand ended: the winner (None: 荒牌, a draw), who discarded the winning tile (None: a
    self-drawn win, 自摸, 第五条二十三), the fan points without flowers, the flowers, and the
    penalties of the hand."""

    winner: int | None = None
    discarder: int | None = None
    fan_points: int = 0
    flowers: int = 0
    penalties: tuple[Penalty, ...] = ()

    def __post_init__(self) -> None:
        if self.winner is not None and self.winner not in _SEATS:
            raise ValueError(f"winner {self.winner} is not a seat 0-3")
        if self.discarder is not None and self.discarder not in _SEATS:
            raise ValueError(f"discarder {self.discarder} is not a seat 0-3")
        if self.fan_points < 0 or self.flowers < 0:
            raise ValueError(
                f"negative points: fan points {self.fan_points}, flowers {self.flowers}"
            )
        if self.flowers > 8:  # 第三条: 8 flowers
            raise ValueError(f"{self.flowers} flowers: there are 8")
        if not isinstance(self.penalties, tuple) or not all(
            isinstance(p, Penalty) for p in self.penalties
        ):
            raise ValueError("penalties must be a tuple of Penalty")
        if self.winner is None:
            if self.discarder is not None:
                raise ValueError("a discarder without a winner")
            if self.fan_points or self.flowers:
                raise ValueError("a drawn hand (荒牌) has no fan points or flowers")
            return
        if self.winner == self.discarder:
            raise ValueError(f"seat {self.winner} cannot win on its own discard")
        for penalty in self.penalties:
            if penalty.seat == self.winner and penalty.kind.bars_win:
                # 第十三条三 停和; 第十四条六, 九
                raise ValueError(
                    f"seat {self.winner} has no right to win this hand ({penalty.kind.zh})"
                )

    @property
    def self_drawn(self) -> bool:
        """A self-drawn win (自摸和, 第五条二十三; 杠上开花 and flower-replacement wins included)."""
        return self.winner is not None and self.discarder is None

    @property
    def is_draw(self) -> bool:
        """荒牌 (第五条三十): no one won."""
        return self.winner is None

    @property
    def points(self) -> int:
        """基本分 as paid: fan points plus flowers (flowers count once the win is valid, #81)."""
        return self.fan_points + self.flowers

    @property
    def deducted(self) -> int:
        """The points the hand's fines take out of the table (违例 fines paid to nobody)."""
        return sum(p.deducted for p in self.penalties)

    @property
    def disqualified(self) -> tuple[int, ...]:
        """Seats disqualified in this hand (有意诈和, 第十四条六(四)), in seat order."""
        return tuple(
            sorted({p.seat for p in self.penalties if p.kind is PenaltyKind.INTENTIONAL_FAKE_WIN})
        )


def win_deltas(
    winner: int, discarder: int | None, points: int, base: int = BASE_POINTS
) -> tuple[int, int, int, int]:
    """The score change of each seat for a win worth ``points`` (基本分, flowers included), before
    penalties: 第十条一(三)."""
    out = [0, 0, 0, 0]
    for seat in _SEATS:
        if seat == winner:
            continue
        pays = base  # 第十条一(三)2: 底分 × 3方
        if discarder is None or seat == discarder:
            pays += points  # 第十条一(三)1 (each pays), 2 (the discarder pays)
        out[seat] -= pays
        out[winner] += pays
    return out[0], out[1], out[2], out[3]


def settle(
    outcome: HandOutcome, *, base: int = BASE_POINTS, minimum: int = 8
) -> tuple[int, int, int, int]:
    """The score change of each seat (East, South, West, North) at the end of the hand.

    第十条一(三): self-drawn, each of the other three pays 底分 + 基本分; on a discard, each of the
    other three pays 底分 and the discarder also pays 基本分. 基本分 here includes the flowers, which
    count only once the fan points reach ``minimum`` (第五条三十四(二)). Penalties are then settled
    (第十条一(二)3). The changes sum to ``-outcome.deducted``: zero unless a 违例 fine goes to no one.
    """
    if base < 0:
        raise ValueError(f"底分 {base} is negative")
    out = [0, 0, 0, 0]
    winner = outcome.winner
    if winner is not None:
        if outcome.fan_points < minimum:  # 第十条一(一)2, 第十四条六(一): below 起和分 is 错和
            raise ValueError(
                f"{outcome.fan_points} fan points is below the {minimum}-point minimum: not a win"
            )
        out = list(win_deltas(winner, outcome.discarder, outcome.points, base))
    for penalty in outcome.penalties:  # 第十条一(二)3: 在每盘结束时扣除
        for seat, delta in enumerate(penalty.deltas()):
            out[seat] += delta
    return out[0], out[1], out[2], out[3]
