"""Full hands per second with random-legal players, in one process (issue 3, item 10).

    python benchmarks/game.py [-n 2000] [--seed 1]

Each hand is dealt (dice, wall, jump), played to its end by four players choosing uniformly among
their legal actions (a win is legal only with 8 points, so every win offer runs the fan
calculator) and settled. Nothing is printed or logged inside the loop.

The reference, measured in the same run, is the cheapest part of any hand: shuffling and dealing
the 144 tiles (``wall.deal``). The ratio hands/s ÷ deals/s says how many deals' worth of time a
whole hand costs, a number that changes little from machine to machine.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

from guobiao.table.game import ActionKind, Game
from guobiao.table.rules import COMPETITION
from guobiao.table.wall import deal


def play(seed: int, rng: random.Random) -> tuple[int, bool]:
    game = Game(COMPETITION, seed)
    actions = 0
    while not game.is_over:
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        choice = next((a for a in legal if a.kind is ActionKind.WIN), None)
        game.act(seat, choice if choice is not None else rng.choice(legal))
        actions += 1
    result = game.result
    assert result is not None
    return actions, result.winner is not None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=2000, help="hands (2000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    start = time.perf_counter()
    for i in range(args.n):
        deal(random.Random(args.seed + i), COMPETITION)
    deals_per_second = args.n / (time.perf_counter() - start)

    start = time.perf_counter()
    actions = wins = 0
    for i in range(args.n):
        n, won = play(args.seed + i, rng)
        actions += n
        wins += won
    elapsed = time.perf_counter() - start
    hands_per_second = args.n / elapsed
    print(
        f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}"
    )
    print(f"{args.n} hands, {actions} actions, {wins} wins ({wins / args.n:.1%}), {elapsed:.2f} s")
    print(f"hands/s (random legal players): {hands_per_second:.0f}")
    print(f"actions/s: {actions / elapsed:.0f}")
    print(f"reference, deals/s (shuffle + deal only): {deals_per_second:.0f}")
    print(f"ratio hands/deals: {hands_per_second / deals_per_second:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
