"""Replay logs in every format guobiao reads: guobiao's session logs (the versioned JSON-lines
schema of docs/replay-log.md), single hand records, and Botzone match logs, converted both ways
and checked by ``guobiao replay``."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from guobiao.botzone.arena import GuobiaoPlayer, play_match
from guobiao.botzone.log import (
    is_match_log,
    match_scores,
    match_to_record,
    record_to_match,
    verify_match,
)
from guobiao.cli import main
from guobiao.table.game import Game
from guobiao.table.replay import LOG_VERSION, hand_lines, read_log, verify_log, write_log
from guobiao.table.rules import BOTZONE
from guobiao.table.wall import shuffled_tiles

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("fan", "efficiency", "random", "fan")


def _match(seed: int) -> tuple[dict[str, object], dict[str, object]]:
    wall = shuffled_tiles(random.Random(seed), flowers=False)
    match = play_match(
        wall, [GuobiaoPlayer(k, seed + i) for i, k in enumerate(KINDS)], quan=seed % 4, srand=seed
    )
    return match.game.record(), match.log


@pytest.mark.parametrize("seed", range(6))
def test_match_logs_and_records_convert_both_ways(seed: int) -> None:
    record, log = _match(seed)
    assert is_match_log(log) and not is_match_log(record)
    assert log["initdata"]["srand"] == seed and log["initdata"]["quan"] == seed % 4
    assert len(log["initdata"]["walltiles"].split()) == 136
    assert record_to_match(record) == log
    again = match_to_record(log)
    assert again == record
    game = Game.replay(again)
    assert game.result is not None and list(game.result.deltas) == list(match_scores(log) or ())


def test_a_botzone_record_made_without_the_judge_converts() -> None:
    """A hand played on the engine directly (false_wins off: seats with no choice are never
    asked) still makes a match log that judges to the same result."""
    from guobiao.bots import make_bot

    game = Game(BOTZONE, seed=3)
    bots = [make_bot(k, 3 + i, BOTZONE) for i, k in enumerate(KINDS)]
    while not game.is_over:
        seat = game.to_act[0]
        game.act(seat, bots[seat].choose(game.view(seat)))
    assert game.result is not None
    log = record_to_match(game.record())
    check = verify_match(log)
    assert check.ok, check.problems
    assert check.scores == game.result.deltas


def test_only_botzone_records_have_a_match_log() -> None:
    game = Game(seed=1)
    with pytest.raises(ValueError, match="Botzone-variant"):
        record_to_match(game.record())


def test_a_tampered_match_log_is_a_mismatch() -> None:
    _, log = _match(2)
    tampered = json.loads(json.dumps(log))
    # a different answer from seat 0 at its first draw
    entry = next(
        i
        for i, e in enumerate(tampered["log"])
        if e.get("0", {}).get("response", "").startswith("PLAY")
    )
    tampered["log"][entry]["0"]["response"] = "PLAY J3"
    check = verify_match(tampered)
    assert not check.ok
    with pytest.raises(ValueError):
        match_to_record(tampered)


def test_the_session_log_of_one_hand_replays(tmp_path: Path) -> None:
    record, _ = _match(4)
    path = tmp_path / "hand.jsonl"
    write_log(path, hand_lines(record, ["A:fan", "B:efficiency", "C:random", "D:fan"]))
    lines = read_log(path)
    assert [line["type"] for line in lines] == ["session", "hand", "end"]
    assert lines[0]["version"] == LOG_VERSION
    report = verify_log(lines)
    assert report.ok, report.problems
    assert sum(report.scores.values()) == 4 * BOTZONE.starting_points


def test_guobiao_replay_reads_every_format(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["arena", "--bots", "fan,efficiency,random,fan", "--deals", "1", "--seed", "2"]
    result = runner.invoke(main, [*args, "--log-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    botzone = next(tmp_path.glob("*.botzone.json"))
    session = next(tmp_path.glob("*.jsonl"))
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps(read_log(session)[1]["game"]), encoding="utf-8")
    for path, kind in ((botzone, "botzone match"), (session, "session"), (hand, "hand")):
        out = runner.invoke(main, ["replay", str(path)])
        assert out.exit_code == 0, out.output
        assert f"({kind})" in out.output
    # tampered: the scores of the Botzone log, an action of the session log
    data = json.loads(botzone.read_text(encoding="utf-8"))
    data["log"][-1]["output"]["content"]["0"] += 1
    bad = tmp_path / "bad.botzone.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    out = runner.invoke(main, ["replay", str(bad)])
    assert out.exit_code == 1 and "mismatch" in out.output
    lines = read_log(session)
    first = lines[0]["players"][0]
    lines[2]["scores"][first] += 8
    write_log(tmp_path / "bad.jsonl", lines)
    out = runner.invoke(main, ["replay", str(tmp_path / "bad.jsonl")])
    assert out.exit_code == 1 and "mismatch" in out.output
    # unreadable
    (tmp_path / "junk.json").write_text("{not json", encoding="utf-8")
    assert runner.invoke(main, ["replay", str(tmp_path / "junk.json")]).exit_code == 2


def test_the_schema_document_matches_the_log() -> None:
    """docs/replay-log.md names the version and every field of each line type."""
    doc = (ROOT / "docs" / "replay-log.md").read_text(encoding="utf-8")
    assert re.search(rf"version[^\n]*\b{LOG_VERSION}\b", doc)
    record, _ = _match(1)
    lines = list(hand_lines(record, ["A", "B", "C", "D"]))
    for line in lines:
        for key in line:
            assert f"`{key}`" in doc, f"{line['type']} field {key} is not documented"
    for key in record:
        assert f"`{key}`" in doc, f"record field {key} is not documented"
