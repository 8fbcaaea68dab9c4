"""Memory that stays flat (issue 14): every table a long run fills is bounded, and a bounded
table gives the same answers as a roomy one (a dropped entry is computed again, never wrong);
``guobiao simulate`` keeps a compact outcome per session, never its games.

Each bounded table is run with a tiny limit (so it is emptied again and again) against the same
run with a roomy one; where an independent answer exists (the regular shanten for the bots' plan
tables, ``summarize`` over whole sessions for the streamed summary) it is checked too. The memory
curve itself is measured by ``benchmarks/memory.py``, not asserted here.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, overload

import pytest

import guobiao.bots.fan as fan_module
import guobiao.bots.plans as plans_module
import guobiao.core.shanten as shanten_module
from guobiao.bots.fan import FanBot
from guobiao.core import shapes, waits
from guobiao.core.shanten import (
    clear_caches,
    discard_options,
    regular_shanten,
    useful_tiles,
)
from guobiao.jobs.simulation import (
    SessionJob,
    SessionOutcome,
    outcome_job,
    play_job,
    session_jobs,
    simulate_summary,
)
from guobiao.jobs.workers import WINDOW, iter_jobs, run_jobs
from guobiao.table.game import Action, SeatView
from guobiao.table.play import play_hand
from guobiao.table.replay import session_lines, write_log
from guobiao.table.rules import COMPETITION, TableRules
from guobiao.table.summary import summarize
from positions import shanten_answers

WALL = [t for t in range(34) for _ in range(4)]


def _hands(seed: int, count: int) -> list[tuple[list[int], int]]:
    """(14-form counts, melds) dealt from a shuffled wall."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        melds = rng.choice((0, 0, 1, 2, 3, 4))
        counts = [0] * 34
        for t in rng.sample(WALL, 14 - 3 * melds):
            counts[t] += 1
        out.append((counts, melds))
    return out


def _four_of_a_kind(*tiles: int) -> Iterator[list[int]]:
    """Four copies of each tile in turn, and nothing else (a hand of three melds)."""
    for tile in tiles:
        counts = [0] * 34
        counts[tile] = 4
        yield counts


# guobiao.core.shanten: the interning tables and the per-table limits


def test_shanten_tables_stay_within_their_limits_and_answer_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hands = _hands(21, 300)
    # four of a kind after three melds waits on a fifth copy: a pattern outside the generated
    # tables, decomposed, so that the decomposition memos fill (and overflow at a limit of 3)
    fourth = [(counts, 3) for counts in _four_of_a_kind(0, 4, 8, 10, 27, 33)]

    def answers() -> list[tuple[Any, ...]]:
        return [*shanten_answers(hands), *(useful_tiles(c, m) for c, m in fourth)]

    clear_caches()
    roomy = answers()
    tables = [
        v for v in vars(shanten_module).values() if isinstance(v, dict) and hasattr(v, "limit")
    ]
    for table in tables:
        assert table.limit <= 1 << 14  # sized to be full early in a run (the module's comment)
        monkeypatch.setattr(table, "limit", 3)
    monkeypatch.setattr(shanten_module, "_DECOMP_LIMIT", 3)
    clear_caches()
    assert answers() == roomy
    for table in tables:
        assert 0 < len(table) <= 3
    for memo in (shanten_module._DECOMP_SUITED, shanten_module._DECOMP_HONOR):
        assert 0 < len(memo) <= 3
    monkeypatch.undo()
    clear_caches()


def test_shanten_interned_values_are_shared_and_few() -> None:
    """A decomposition value is stored once however many patterns have it, and the interning
    tables hold only values that can exist: Pareto sets of (sets, partial sets) per pair count
    (at most 252 ** 2), and (rank, summary id) pairs (nine per summary id; shared in the pure
    build only: compiled, mypyc boxes such a pair anew where it is read)."""
    clear_caches()
    for counts, melds in _hands(5, 400):
        discard_options(counts, melds)
    # 1111m and 1111z after three melds wait on a fifth copy, a pattern outside the generated
    # tables, which is decomposed (and memoised)
    for counts in _four_of_a_kind(0, 27):
        useful_tiles(counts, 3)
    pareto = shanten_module._PARETO
    for memo in (shanten_module._DECOMP_SUITED, shanten_module._DECOMP_HONOR):
        assert memo
        assert all(pareto[value] is value for value in memo.values())
    assert 0 < len(pareto) <= 252**2
    pairs = shanten_module._GROWN_PAIRS
    assert 0 < len(pairs) <= 9 * len(shanten_module._VECTORS)
    for grown in (*shanten_module._SNEXT.values(), *shanten_module._HNEXT.values()):
        assert all(pair in pairs for pair in grown)
    clear_caches()


# guobiao.bots.plans: plan shanten tables


def test_plan_tables_with_a_tiny_limit_give_the_regular_shanten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bots' own per-suit tables, emptied every few patterns, still give the regular shanten
    of guobiao.core.shanten (an independent computation) and the same plan costs."""
    rng = random.Random(3)
    positions = []
    for _ in range(400):
        melds = rng.randint(0, 4)
        counts = [0] * 34
        for t in rng.sample(WALL, 13 - 3 * melds + rng.randint(0, 1)):
            counts[t] += 1
        positions.append((counts, melds))
    plans = plans_module._plans_for(0, 0)

    def answers() -> list[tuple[int, list[int | None]]]:
        out = []
        for counts, melds in positions:
            pos = plans_module._Position(counts, ())
            ids = pos.ids
            vid = plans_module._combine(
                plans_module._combine(plans_module._combine(ids[0], ids[1]), ids[2]), ids[3]
            )
            out.append((plans_module._FINALS[vid][melds], [plan.cost(pos) for plan in plans]))
        return out

    plans_module._SPLITS.clear()
    plans_module._PATTERN_IDS.clear()
    roomy = answers()
    assert [s for s, _ in roomy] == [regular_shanten(c, m) for c, m in positions]
    monkeypatch.setattr(plans_module, "_TABLE_LIMIT", 3)
    plans_module._SPLITS.clear()
    plans_module._PATTERN_IDS.clear()
    assert answers() == roomy
    assert 0 < len(plans_module._SPLITS) <= 3
    assert 0 < len(plans_module._PATTERN_IDS) <= 3
    distinct = plans_module._DISTINCT_SPLITS
    assert all(distinct[value] is value for value in plans_module._SPLITS.values())


# guobiao.bots.fan: the ready-hand tables shared by every FanBot


class _Watched:
    """A FanBot that records the largest size of the ready-hand tables after each decision."""

    def __init__(self, bot: FanBot, sizes: list[tuple[int, int]]) -> None:
        self.bot = bot
        self.name = bot.name
        self.sizes = sizes

    def choose(self, view: SeatView) -> Action:
        action = self.bot.choose(view)
        self.sizes.append((len(fan_module._READY), len(fan_module._FOURTH)))
        return action


def _fan_hands(hands: int) -> tuple[list[dict[str, Any]], list[tuple[int, int]]]:
    fan_module._READY.clear()
    fan_module._FOURTH.clear()
    sizes: list[tuple[int, int]] = []
    records = []
    for h in range(hands):
        agents = [_Watched(FanBot(1000 * h + s), sizes) for s in range(4)]
        records.append(play_hand(agents, COMPETITION, 77 + h).record())
    return records, sizes


def test_fan_bot_ready_tables_with_a_tiny_limit_play_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    roomy, roomy_sizes = _fan_hands(12)
    # Both tables were used, and kept more than the tiny limit: the comparison means something.
    assert max(r for r, _ in roomy_sizes) > 4 and max(f for _, f in roomy_sizes) > 4
    monkeypatch.setattr(fan_module, "_READY_LIMIT", 4)
    monkeypatch.setattr(fan_module, "_FOURTH_LIMIT", 4)
    tiny, tiny_sizes = _fan_hands(12)
    assert tiny == roomy
    assert max(r for r, _ in tiny_sizes) <= 4 and max(f for _, f in tiny_sizes) <= 4


# guobiao.core.waits and guobiao.core.shapes: bounded lru caches


def _suit_patterns(seed: int, count: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        size = rng.choice((7, 9))
        pattern = [0] * size
        for _ in range(rng.randint(1, 11)):
            pattern[rng.randrange(size)] += 1
        out.append(tuple(min(c, 4) for c in pattern))
    return out


def test_wait_and_split_caches_are_bounded_and_answer_as_uncached() -> None:
    patterns = _suit_patterns(9, 3000)
    for cached in (waits._only_wait, shapes._suit_splits):
        limit = cached.cache_info().maxsize
        assert limit is not None and limit <= 1 << 10
    for pattern in patterns:
        assert waits._only_wait(pattern) == waits._only_wait.__wrapped__(pattern)
        base = 27 if len(pattern) == 7 else 0
        assert shapes._suit_splits(pattern, base) == shapes._suit_splits.__wrapped__(pattern, base)
    for info in (waits._only_wait.cache_info(), shapes._suit_splits.cache_info()):
        assert info.maxsize is not None and 0 < info.currsize <= info.maxsize


# guobiao.jobs: results handed over one by one, sessions kept as compact outcomes


class _Recorded(Sequence[int]):
    """A job list that records the highest index read (what the pool was handed)."""

    def __init__(self, jobs: list[int]) -> None:
        self.jobs = jobs
        self.highest = -1

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...
    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return self.jobs[index]
        self.highest = max(self.highest, index)
        return self.jobs[index]

    def __len__(self) -> int:
        return len(self.jobs)

    def __iter__(self) -> Iterator[int]:
        for i in range(len(self.jobs)):
            yield self[i]


def _square(x: int) -> int:
    return x * x


def test_iter_jobs_yields_in_order_and_hands_out_a_bounded_window() -> None:
    jobs = _Recorded(list(range(40)))
    results = iter_jobs(_square, jobs, workers=2)
    seen = []
    for k, result in enumerate(results):
        seen.append(result)
        assert jobs.highest < k + WINDOW * 2  # never more than the window ahead of the caller
    assert seen == [x * x for x in range(40)]
    assert list(iter_jobs(_square, [3, 1, 2])) == [9, 1, 4]
    with pytest.raises(ValueError, match="at least 1"):
        iter_jobs(_square, [1], workers=0)


RULES = TableRules(hands_per_session=4)


def test_streamed_summary_equals_the_summary_of_whole_sessions() -> None:
    """Summing one-session summaries in job order gives ``summarize`` over the kept sessions,
    serially and in two processes."""
    jobs = session_jobs(5, ["fan", "efficiency", "random", "efficiency"], RULES, 17)
    whole = summarize(run_jobs(play_job, jobs), RULES.starting_points)
    for workers in (1, 2):
        outcomes: list[SessionOutcome] = []
        streamed = simulate_summary(jobs, workers=workers, on_outcome=outcomes.append)
        assert [o.number for o in outcomes] == [1, 2, 3, 4, 5]
        assert all(o.log is None for o in outcomes)
        assert streamed == whole
    assert whole.hands == 20 and whole.sessions == 5


def test_an_outcome_keeps_no_game_and_its_log_is_the_sessions_log(tmp_path: Path) -> None:
    job = session_jobs(1, ["efficiency"] * 4, RULES, 4)[0]
    bare = outcome_job(job)
    assert bare.log is None and bare.summary.sessions == 1
    logged = outcome_job(SessionJob(job.number, job.seed, job.bots, job.rules, log=True))
    assert logged.summary == bare.summary
    assert logged.log is not None
    write_log(tmp_path / "streamed.jsonl", logged.log)
    write_log(tmp_path / "whole.jsonl", session_lines(play_job(job), RULES, job.seed))
    assert (tmp_path / "streamed.jsonl").read_bytes() == (tmp_path / "whole.jsonl").read_bytes()
