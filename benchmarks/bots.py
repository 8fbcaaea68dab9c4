"""How well and how fast the bots play: one bot type against three copies of another.

    python benchmarks/bots.py [-n 400] [--seed 1] [--match fan:efficiency ...]

Each matchup ``A:B`` plays ``-n`` hands with ``table.play_hand``: bot A sits at seat ``i % 4`` of
hand ``i`` (so it is dealer a quarter of the time) and three B bots take the other seats; hand
``i`` of every matchup uses the same deal (seed ``--seed`` + i), and each bot gets its own seed.
Printed per matchup, for bot A: win rate, average fan points of its wins (flowers excluded, and
with flowers), deal-in rate (its discards won by others), the draw rate (荒牌), its average hand
score (the result's ``deltas``), and for comparison the win rate of one B seat; then hands/s of
the whole table (engine and four bots) and bot A's time per decision. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from guobiao.bots import Bot, EfficiencyBot, FanBot, RandomBot
from guobiao.table.game import Action, SeatView
from guobiao.table.play import play_hand

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "efficiency": EfficiencyBot, "fan": FanBot}
DEFAULT_MATCHES = (
    "fan:efficiency",
    "efficiency:efficiency",
    "random:efficiency",
    "fan:fan",
    "efficiency:fan",
)


@dataclass
class Tally:
    hands: int = 0
    wins: int = 0
    fan_points: int = 0
    fan_points_with_flowers: int = 0
    deal_ins: int = 0
    draws: int = 0
    score: int = 0
    other_wins: int = 0  # wins of the B seats, all three together
    seconds: float = 0.0  # the whole table
    decisions: int = 0  # bot A's
    thinking: float = 0.0  # bot A's seconds


class Timed:
    """An agent that times another's decisions into a tally."""

    def __init__(self, bot: Bot, tally: Tally) -> None:
        self.bot = bot
        self.name = bot.name
        self.tally = tally

    def choose(self, view: SeatView) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view)
        self.tally.thinking += time.perf_counter() - start
        self.tally.decisions += 1
        return action


def play_match(hero: str, villain: str, hands: int, seed: int) -> Tally:
    tally = Tally()
    start = time.perf_counter()
    for i in range(hands):
        seat = i % 4
        agents: list[Bot | Timed] = [BOTS[villain](seed * 1_000_003 + 4 * i + s) for s in range(4)]
        agents[seat] = Timed(BOTS[hero](seed * 1_000_003 + 4 * i + seat), tally)
        result = play_hand(agents, seed=seed + i).result
        assert result is not None
        tally.hands += 1
        tally.score += result.deltas[seat]
        if result.winner is None:
            tally.draws += 1
        elif result.winner == seat:
            assert result.fans is not None
            tally.wins += 1
            tally.fan_points += result.fans.points_without_flowers
            tally.fan_points_with_flowers += result.fans.total
        else:
            tally.other_wins += 1
            if result.discarder == seat:
                tally.deal_ins += 1
    tally.seconds = time.perf_counter() - start
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--hands", type=int, default=400, help="hands per matchup")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--match",
        nargs="+",
        default=list(DEFAULT_MATCHES),
        help="matchups HERO:OTHERS among " + ", ".join(BOTS),
    )
    args = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}")
    print(f"{args.hands} hands per matchup, seed {args.seed}; the hero sits at seat i % 4")
    header = (
        f"{'hero vs 3 others':<26}{'win':>7}{'±':>6}{'fan':>7}{'+flw':>7}{'deal-in':>9}"
        f"{'draw':>7}{'score':>8}{'other win':>11}{'hands/s':>9}{'µs/dec':>8}"
    )
    print(header)
    print("-" * len(header))
    for match in args.match:
        hero, _, villain = match.partition(":")
        if hero not in BOTS or villain not in BOTS:
            parser.error(f"unknown matchup {match!r}: use HERO:OTHERS among {', '.join(BOTS)}")
        t = play_match(hero, villain, args.hands, args.seed)
        n = t.hands
        rate = t.wins / n
        stderr = (rate * (1 - rate) / n) ** 0.5
        fan = t.fan_points / t.wins if t.wins else 0.0
        fan_flowers = t.fan_points_with_flowers / t.wins if t.wins else 0.0
        print(
            f"{hero + ' vs 3 ' + villain:<26}{rate:>7.1%}{stderr:>6.1%}{fan:>7.1f}"
            f"{fan_flowers:>7.1f}{t.deal_ins / n:>9.1%}{t.draws / n:>7.1%}{t.score / n:>+8.2f}"
            f"{t.other_wins / n / 3:>11.1%}{n / t.seconds:>9.1f}"
            f"{1e6 * t.thinking / max(1, t.decisions):>8.0f}",
            flush=True,
        )
    print(
        "win: the hero's win rate per hand (± one standard error); fan: average fan points of its"
        " wins\n(+flw: with flowers); deal-in: hands whose winning tile it discarded; score: its"
        " average\nhand score (deltas); other win: the win rate of one of the three other seats;"
        "\nhands/s: the whole table; µs/dec: the hero's time per decision."
    )


if __name__ == "__main__":
    main()
