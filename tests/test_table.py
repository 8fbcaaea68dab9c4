"""Sessions played end to end by simple agents; their logs replay exactly (issue 3 item 6)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner

from guobiao.cli import main
from guobiao.table.game import Action, ActionKind, SeatView
from guobiao.table.play import play_hand, play_session
from guobiao.table.replay import read_log, session_lines, verify_log, write_log
from guobiao.table.rules import COMPETITION, TableRules


class Greedy:
    """Wins when it can, otherwise plays a random legal action."""

    name = "greedy"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        for action in view.legal_actions:
            if action.kind is ActionKind.WIN:
                return action
        return self.rng.choice(view.legal_actions)


def agents(seed: int) -> list[Greedy]:
    return [Greedy(seed * 10 + i) for i in range(4)]


def test_a_session_has_sixteen_hands_and_zero_sum_scores() -> None:
    play = play_session(agents(1), seed=1)
    session = play.session
    assert session.is_over and len(play.games) == 16 == len(session.history)
    assert sum(session.scores.values()) == 4 * COMPETITION.starting_points
    assert [r.round_wind.letter for r in session.history] == list("EEEESSSSWWWWNNNN")
    for game in play.games:
        assert game.result is not None and sum(game.result.deltas) == 0
        assert sum(game.tile_census().values()) == 144


def test_sessions_are_reproducible_from_their_seed() -> None:
    a = play_session(agents(3), seed=42)
    b = play_session(agents(3), seed=42)
    assert [g.record() for g in a.games] == [g.record() for g in b.games]
    assert a.session.scores == b.session.scores


def test_a_short_session_without_flowers() -> None:
    rules = TableRules(flowers=False, hands_per_session=4)
    play = play_session(agents(5), rules, seed=5)
    assert len(play.games) == 4
    assert all(sum(g.tile_census().values()) == 136 for g in play.games)


def test_logs_replay_exactly_and_tampering_is_reported(tmp_path: Path) -> None:
    play = play_session(agents(7), seed=7)
    log = tmp_path / "session.jsonl"
    write_log(log, session_lines(play, COMPETITION, 7))
    report = verify_log(read_log(log))
    assert report.ok and report.hands == 16 and report.scores == play.session.scores

    lines = read_log(log)
    hand = lines[2]
    hand["result"]["deltas"] = [
        d + (1 if i == 0 else -1 if i == 1 else 0) for i, d in enumerate(hand["result"]["deltas"])
    ]
    report = verify_log(lines)
    assert not report.ok and "hand 1" in report.problems[0]

    lines = read_log(log)
    lines[3]["game"]["actions"][0][1] = "discard F1"
    lines[3]["game"]["actions"][0][0] = 3
    report = verify_log(lines)
    assert not report.ok and "does not replay" in report.problems[0]


def test_replay_command(tmp_path: Path) -> None:
    play = play_session(agents(9), seed=9)
    log = tmp_path / "s.jsonl"
    write_log(log, session_lines(play, COMPETITION, 9))
    result = CliRunner().invoke(main, ["replay", str(log)])
    assert result.exit_code == 0 and "every action, settlement and score matches" in result.output
    lines = log.read_text(encoding="utf-8").splitlines()
    end = json.loads(lines[-1])
    end["scores"]["P1"] += 1
    lines[-1] = json.dumps(end)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(log)])
    assert result.exit_code == 1 and "differ" in result.output


def test_play_hand_asks_only_the_seats_to_act() -> None:
    asked: list[int] = []

    class Spy(Greedy):
        def choose(self, view: SeatView) -> Action:
            asked.append(view.seat)
            assert view.legal_actions
            return super().choose(view)

    game = play_hand([Spy(i) for i in range(4)], seed=11)
    assert game.is_over and asked
