"""The arena's runs: the duplicate format, seeds, parallel runs equal to serial, statistics, and
the ``guobiao arena`` command."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from guobiao.botzone.arena import (
    ArenaHand,
    arena_jobs,
    parse_bot_spec,
    run_arena,
    seat_orders,
    summarize,
)
from guobiao.cli import main

ROOT = Path(__file__).resolve().parents[1]
PASSBOT = str(ROOT / "tests" / "bots" / "passbot.py")
LINEUP = [parse_bot_spec(b) for b in ("fan", "efficiency", "efficiency", "random")]


def _flat(deals: list[list[ArenaHand]]) -> list[tuple[object, ...]]:
    return [(h.deal, h.order, h.deltas, h.winner, h.forfeit_seat) for d in deals for h in d]


def test_seat_orders_put_every_bot_in_every_seat() -> None:
    for mode, count in (("none", 1), ("rotations", 4), ("all", 24)):
        orders = seat_orders(mode)
        assert len(orders) == count == len(set(orders))
        if mode != "none":
            for seat in range(4):
                assert sorted(o[seat] for o in orders) == sorted(list(range(4)) * (count // 4))
    with pytest.raises(ValueError):
        seat_orders("some")


def test_duplicate_runs_are_deterministic_and_parallel_equals_serial() -> None:
    jobs = arena_jobs(3, LINEUP, seed=5, duplicate="rotations")
    serial = run_arena(jobs)
    assert _flat(run_arena(arena_jobs(3, LINEUP, seed=5, duplicate="rotations"))) == _flat(serial)
    assert _flat(run_arena(jobs, workers=2)) == _flat(serial)
    assert _flat(run_arena(arena_jobs(3, LINEUP, seed=6, duplicate="rotations"))) != _flat(serial)
    # every hand of a deal is the same wall: the seat orders are all there
    assert [h.order for h in serial[0]] == list(seat_orders("rotations"))


def test_a_ray_run_equals_the_serial_run() -> None:
    jobs = arena_jobs(2, LINEUP, seed=9, duplicate="rotations")
    assert _flat(run_arena(jobs, workers=2, ray_address="local")) == _flat(run_arena(jobs))


def test_statistics() -> None:
    hands = [
        [
            ArenaHand(1, (0, 1, 2, 3), (90, -30, -30, -30), 0, None, None, None, 22),
            ArenaHand(1, (1, 2, 3, 0), (-28, 44, -8, -8), 1, 0, None, None, 20),
        ],
        [
            ArenaHand(2, (0, 1, 2, 3), (10, -30, 10, 10), None, None, 1, "time-out", 0),
            ArenaHand(2, (1, 2, 3, 0), (0, 0, 0, 0), None, None, None, None, 0),
        ],
    ]
    stats = summarize(LINEUP, hands)
    fan, eff = stats[0], stats[1]
    # bot 0 (fan) sat East in the first hand, North in the second of each deal
    assert fan.hands == 4 and fan.total == 90 - 8 + 10 + 0
    assert fan.wins == 1 and fan.self_drawn == 1 and fan.deal_ins == 0
    assert fan.deal_means == [41.0, 5.0]
    # ci: 1.96 * sd / sqrt(2), sd of (41, 5) = 25.456
    assert fan.ci95 == pytest.approx(1.96 * 25.4558441 / 2**0.5)
    # bot 1 sat South, then East: dealt in once, forfeited once
    assert eff.deal_ins == 1 and eff.forfeits == 1 and eff.total == -30 - 28 - 30 + 0
    assert stats[0].to_json()["hands"] == 4


def test_the_arena_command(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["arena", "--bots", "fan,efficiency,efficiency,random", "--deals", "2", "--seed", "3"]
    first = runner.invoke(main, [*args, "--duplicate", "--rotations", "--json"])
    assert first.exit_code == 0, first.output
    out = json.loads(first.output)
    assert out["hands"] == 8 and out["duplicate"] == "rotations"
    assert sum(b["total"] for b in out["bots"]) == 0
    again = runner.invoke(main, [*args, "--duplicate", "--rotations", "--json", "--workers", "2"])
    assert json.loads(again.output) == out
    table = runner.invoke(main, [*args, "--log-dir", str(tmp_path)])
    assert table.exit_code == 0 and "efficiency" in table.output
    assert len(list(tmp_path.glob("*.botzone.json"))) == 2
    assert len(list(tmp_path.glob("*.jsonl"))) == 2


def test_the_arena_command_with_an_external_bot() -> None:
    bot = f"cmd:{sys.executable} {PASSBOT} --keep-running"
    result = CliRunner().invoke(
        main, ["arena", "--bots", f"fan,fan,fan,{bot}", "--deals", "1", "--seed", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["bots"][3]["forfeits"] == 0


def test_the_arena_command_refuses_bad_bots() -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["arena", "--bots", "fan,fan,fan"]).exit_code == 2
    assert runner.invoke(main, ["arena", "--bots", "fan,fan,fan,nobot"]).exit_code == 2
    rotations = runner.invoke(main, ["arena", "--bots", "fan,fan,fan,fan", "--rotations"])
    assert rotations.exit_code == 2


def test_in_process_bots_equal_the_botzone_bot_command_in_the_arena() -> None:
    """The same run with ``fan`` and with ``guobiao botzone-bot --bot fan`` as a program (seeded
    alike through ``{seed}``) gives the same results."""
    guobiao = str(Path(sys.executable).parent / "guobiao")
    program = f"cmd:{guobiao} botzone-bot --bot efficiency --seed {{seed}} --keep-running"
    runner = CliRunner()
    common = ["--deals", "2", "--seed", "4", "--duplicate", "--rotations", "--json"]
    inside = runner.invoke(main, ["arena", "--bots", "fan,efficiency,random,fan", *common])
    outside = runner.invoke(main, ["arena", "--bots", f"fan,{program},random,fan", *common])
    assert inside.exit_code == 0 and outside.exit_code == 0, outside.output
    a, b = json.loads(inside.output), json.loads(outside.output)
    b["bots"][1]["bot"] = a["bots"][1]["bot"]
    assert a == b
