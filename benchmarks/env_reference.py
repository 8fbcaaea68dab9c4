"""The in-run reference of ``benchmarks/env.py``: hands per second of the PKU MCR environment.

    python benchmarks/env_reference.py --reference DIR [-n 500] [--seed 1]

``DIR`` (or the environment variable ``GUOBIAO_PKU_ENV``) holds the Python environment that Peking
University's AI lab distributes for its Chinese Official Mahjong course and Botzone competition:
``agent.py`` (``MahjongGBAgent``), ``feature.py`` (``FeatureAgent``, the baseline's 6 × 4 × 9
observation and 235-action mask) and ``env.py`` (``MahjongGBEnv``), which drive the C++ fan
calculator of PyMahjongGB (``MahjongGB``, a test dependency of guobiao). Those files are never
part of guobiao: benchmarks/env.py's docstring says where they come from. This script only
imports them (the folder first on ``sys.path``) and plays them.

The loop is the one benchmarks/env.py runs on guobiao's environment, in the reference's API:
``MahjongGBEnv(config={'agent_clz': FeatureAgent})``; ``obs = env.reset()`` returns a dict of the
agents that must answer (``'player_1'`` .. ``'player_4'``) to ``{'observation', 'action_mask'}``;
each step every agent in it plays a uniformly random index among its mask's legal ones
(``mask.nonzero()`` and ``random.Random(seed).randrange``), all given at once to
``env.step(actions)``, which returns ``(obs, rewards, done)``, until ``done``. The environment
shuffles its walls with the module-level ``random``, seeded with ``seed``. Timing starts at the
first ``reset`` of the process (the imports are timed apart), as benchmarks/env.py times guobiao's
cold run.

Prints one JSON line: hands, wall-clock and CPU-time rates, steps and decisions per hand, how the
hands ended (a win, a wall game, or an action the environment rejected), the import time.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

FILES = ("agent.py", "feature.py", "env.py")
ENV_VAR = "GUOBIAO_PKU_ENV"


def problem(folder: str | None) -> str | None:
    """Why the reference cannot run from ``folder`` (one line), or None."""
    if not folder:
        return f"no reference folder: give --reference DIR or set {ENV_VAR}"
    path = Path(folder)
    if not path.is_dir():
        return f"reference folder {folder} does not exist"
    missing = [name for name in FILES if not (path / name).is_file()]
    if missing:
        return (
            f"reference folder {folder} lacks {', '.join(missing)} "
            "(the PKU environment's agent.py, feature.py and env.py)"
        )
    if importlib.util.find_spec("MahjongGB") is None:
        return (
            f"the reference needs PyMahjongGB (module MahjongGB), not installed for "
            f"{sys.executable}: pip install PyMahjongGB"
        )
    return None


def load(folder: str) -> tuple[Any, Any]:
    """The reference's ``MahjongGBEnv`` and ``FeatureAgent``, imported from ``folder``."""
    here = str(Path(__file__).resolve().parent)
    # this folder holds another env.py (benchmarks/env.py): the reference's must win
    sys.path[:] = [p for p in sys.path if p and Path(p).resolve() != Path(here)]
    sys.path.insert(0, str(Path(folder).resolve()))
    for name in ("agent", "feature", "env"):
        sys.modules.pop(name, None)
    env_module = importlib.import_module("env")
    feature_module = importlib.import_module("feature")
    return env_module.MahjongGBEnv, feature_module.FeatureAgent


def measure(folder: str, n: int, seed: int) -> dict[str, Any]:
    start = time.perf_counter()
    env_class, agent_class = load(folder)
    imports = time.perf_counter() - start

    random.seed(seed)  # the environment's walls and prevalent winds
    rng = random.Random(seed)  # the players' choices
    env = env_class(config={"agent_clz": agent_class})
    steps = decisions = 0
    ends = {"wins": 0, "wall_games": 0, "rejected": 0}
    start = time.perf_counter()
    cpu = time.process_time()
    for _ in range(n):
        obs = env.reset()
        done = False
        rewards: dict[str, Any] = {}
        while not done:
            actions = {}
            for agent, ob in obs.items():
                legal = ob["action_mask"].nonzero()[0]
                if len(legal):
                    actions[agent] = int(legal[rng.randrange(len(legal))])
            decisions += len(actions)
            obs, rewards, done = env.step(actions)
            steps += 1
        values = sorted(rewards.values())
        if values == [-30, 10, 10, 10]:  # the environment's penalty for an invalid action
            ends["rejected"] += 1
        elif any(values):
            ends["wins"] += 1
        else:
            ends["wall_games"] += 1
    wall = time.perf_counter() - start
    cpu_time = time.process_time() - cpu
    return {
        "reference": str(Path(folder).resolve()),
        "hands": n,
        "seed": seed,
        "hands_per_s": n / wall,
        "cpu_hands_per_s": n / cpu_time,
        "seconds": wall,
        "steps_per_hand": steps / n,
        "decisions_per_hand": decisions / n,
        "ends": ends,
        "import_seconds": imports,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--reference",
        default=os.environ.get(ENV_VAR),
        metavar="DIR",
        help=f"the PKU environment's folder (default: ${ENV_VAR})",
    )
    parser.add_argument("-n", type=int, default=500, help="hands (500)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    why = problem(args.reference)
    if why:
        print(f"env_reference.py: {why}", file=sys.stderr)
        return 2
    if args.n < 1:
        print("env_reference.py: -n must be at least 1", file=sys.stderr)
        return 2
    print(json.dumps(measure(args.reference, args.n, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
