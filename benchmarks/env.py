"""Single Botzone-variant hands per second through the RL environment (issue 6, item 5).

    python benchmarks/env.py [-n 2000] [--seed 1] [--profile]

One process, ``rules=BOTZONE``. Each hand is one episode of the PettingZoo AEC environment
(``guobiao.env.aec``): every step takes the acting agent's observation and action mask
(``env.last()``) and plays a uniformly random index among the mask's legal ones
(``mask.nonzero()`` and ``random.Random.randrange``). The reference is
157 games/s: the figure the issue quotes for the existing Python environment driving the C++ fan
calculator, on this machine class (not measured here). Issue 14 asks for 10 × 157 hands/s in the
compiled build and 6 × 157 in pure Python, cold start included (the targets printed).

The second reference, measured in the same run, is the raw engine alone: ``Game(BOTZONE, seed)``
and uniformly random legal actions (``random.choice(game.legal_actions(seat))``), no observation
or mask. Rates are wall-clock; on a shared machine the CPU-time rates (``time.process_time``)
are printed too, as they depend less on the load. ``--profile`` runs the environment loop under
pyinstrument and prints where the time goes.

Two environment figures are printed, both labelled. The first ("cold") is the first run in a fresh
process: it also pays for filling the engine's lazily built shanten tables
(``guobiao.core.shanten``), which a process fills once. The second ("steady state") runs ``n`` more
hands with another seed (``seed + 1``) after the cold, Parallel and engine runs above (3 × ``n``
hands of warm-up, most suit patterns seen): the throughput of a long run, such as RL training's
millions of hands (the reference's 157 games/s is a long-run figure too).

The first line says which build runs: pure Python (``pip install .``, an editable install), or
the hot-path modules compiled by mypyc (``HATCH_BUILD_HOOK_ENABLE_CUSTOM=1 pip install .``,
hatch_build.py). ``scripts/bench-env`` runs this benchmark on both, in a fresh environment.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time

from guobiao.env.aec import raw_env
from guobiao.env.parallel import parallel_env
from guobiao.table.game import Game
from guobiao.table.rules import BOTZONE

REFERENCE = 157.0  # games/s, the figure for the Python environment + C++ calculator
TARGET_COMPILED = 10.0  # issue 14: the compiled build, cold start included
TARGET_PURE = 6.0  # issue 14: pure Python
_CPU: dict[str, float] = {}  # hands per CPU second of the last runs


def machine() -> str:
    """The CPU model (Linux: /proc/cpuinfo), its architecture and the CPUs this process sees."""
    model = platform.processor() or "cpu"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model} ({platform.machine()}), {os.cpu_count()} CPUs"


def build() -> str:
    """Which build runs: pure Python, or with modules compiled (hatch_build.py)."""
    compiled = sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("guobiao")
        and (getattr(module, "__file__", None) or "").endswith((".so", ".pyd"))
    )
    if not compiled:
        return "pure Python"
    return f"compiled by mypyc ({', '.join(compiled)})"


def env_hands(n: int, seed: int) -> tuple[float, int]:
    env = raw_env(BOTZONE, seed)
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for _ in range(n):
        env.reset()
        while env.agents:
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    _CPU["env"] = n / (time.process_time() - cpu)
    return n / (time.perf_counter() - start), steps


def parallel_hands(n: int, seed: int) -> float:
    env = parallel_env(BOTZONE, seed)
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(n):
        observations, _ = env.reset()
        while env.agents:
            actions = {}
            for agent, obs in observations.items():
                legal = obs["action_mask"].nonzero()[0]
                if len(legal):
                    actions[agent] = int(legal[rng.randrange(len(legal))])
            observations, *_ = env.step(actions)
    return n / (time.perf_counter() - start)


def engine_hands(n: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    seeds = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for _ in range(n):
        game = Game(BOTZONE, seeds.randrange(2**63))
        while not game.is_over:
            seat = game.to_act[0]
            game.act(seat, rng.choice(game.legal_actions(seat)))
            steps += 1
    _CPU["engine"] = n / (time.process_time() - cpu)
    return n / (time.perf_counter() - start), steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=2000, help="hands (2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile", action="store_true", help="profile the env loop (pyinstrument)"
    )
    args = parser.parse_args(argv)

    if args.profile:
        from pyinstrument import Profiler

        profiler = Profiler()
        profiler.start()
        env_hands(args.n, args.seed)
        profiler.stop()
        print(profiler.output_text(unicode=False, color=False, show_all=False))
        return 0

    env_rate, env_steps = env_hands(args.n, args.seed)
    cold_cpu = _CPU["env"]
    par_rate = parallel_hands(args.n, args.seed)
    engine_rate, engine_steps = engine_hands(args.n, args.seed)
    warm_rate, warm_steps = env_hands(args.n, args.seed + 1)
    warm_cpu = _CPU["env"]
    built = build()
    target = TARGET_PURE if built == "pure Python" else TARGET_COMPILED
    print(f"machine: {machine()}, Python {platform.python_version()}")
    print(f"build: {built}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{args.n} single Botzone-variant hands (rules=BOTZONE), random legal actions, one process"
    )
    print(
        f"AEC env, observation + mask every step, cold (fresh process, shanten tables filled "
        f"on the way): {env_rate:.0f} hands/s ({env_steps / args.n:.1f} steps/hand), "
        f"ratio to {REFERENCE:.0f} games/s: {env_rate / REFERENCE:.2f} (target {target:.2f})"
    )
    print(
        f"AEC env, steady state (seed {args.seed + 1}, after the {3 * args.n} hands above): "
        f"{warm_rate:.0f} hands/s ({warm_steps / args.n:.1f} steps/hand), "
        f"ratio {warm_rate / REFERENCE:.2f} (target {target:.2f})"
    )
    print(
        f"Parallel env, every seat's observation + mask every step: {par_rate:.0f} hands/s, "
        f"ratio {par_rate / REFERENCE:.2f}"
    )
    print(
        f"engine alone (Game + random legal actions): {engine_rate:.0f} hands/s "
        f"({engine_steps / args.n:.1f} actions/hand), ratio {engine_rate / REFERENCE:.2f}"
    )
    print(f"env (steady state) / engine: {warm_rate / engine_rate:.2f}")
    print(
        f"CPU time (process_time): AEC env cold {cold_cpu:.0f} hands/s "
        f"(ratio {cold_cpu / REFERENCE:.2f}), steady state {warm_cpu:.0f} hands/s "
        f"(ratio {warm_cpu / REFERENCE:.2f}), engine alone {_CPU['engine']:.0f} hands/s"
    )
    print(
        f"reference: {REFERENCE:.0f} games/s, the issue's figure for the existing Python "
        "environment + C++ calculator on this machine class"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
