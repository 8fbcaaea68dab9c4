"""The guobiao command line: readable output, JSON for programs, clear errors (never a traceback)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from guobiao.cli import main
from scoring import NINE_GATES_JSON


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_fan_table_shows_names_points_and_total() -> None:
    code, out = run("fan", "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5")
    assert code == 0
    assert "九莲宝灯" in out and "Nine Gates" in out and "88" in out
    assert "Total: 91" in out and "yes" in out


def test_fan_json_and_compact_notation_agree() -> None:
    _, botzone = run("fan", "[W1W2W3][F1F1F1]B4B5B6T7T8B1B1 +T9", "--json")
    _, compact = run("fan", "[123m][111z]456p78s11p +9s", "--json")
    data = json.loads(botzone)
    assert data == json.loads(compact)
    assert data["ok"] is True and data["total"] == 12
    assert {f["zh"] for f in data["fans"]} == {"花龙", "圈风刻", "门风刻"}


def test_fan_context_options() -> None:
    _, out = run(
        "fan", "[W1W2W3][F2F2F2]B4B5B6T7T8B1B1 +T9", "--json", "--seat", "S", "--round", "W"
    )
    zh = {f["zh"] for f in json.loads(out)["fans"]}
    assert "门风刻" in zh and "圈风刻" not in zh
    _, out = run("fan", "W2W3W4W2W3W4B2B3B4B5B6B7T5 +T5", "--json", "-s", "--flowers", "2")
    data = json.loads(out)
    assert {"zh": "花牌", "en": "Flower Tiles", "points": 1, "count": 2} in data["fans"]


def test_explain_names_principles() -> None:
    code, out = run("fan", "W2W3W4W2W3W4B2B3B4B5B6B7T5 +T5", "--self-drawn", "--explain")
    assert code == 0
    assert "不得相同" in out and "不重复" in out


def test_below_minimum_is_said() -> None:
    code, out = run("fan", "[W1W2W3][B4B5B6][T2T3T4]W5W6W7F1 +F1", "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] and data["meets_minimum"] is False


def test_errors_are_messages_with_exit_codes() -> None:
    code, out = run("fan", "W1W2X3 +W4")
    assert code == 2 and "unexpected character at position 4" in out and "^" in out
    code, out = run("fan", "W1W1W1W1W1W2W3W4W5W6W7W8W9 +W9")
    assert code == 1 and "more than four of W1" in out
    code, out = run("fan", "W1W2W3W4W5W6W7W8W9B1B2B4F1 +F2")
    assert code == 1 and "not a winning hand" in out
    code, out = run("fan", "W1W1")
    assert code == 2 and "no winning tile" in out


def test_jsonl_stream_survives_bad_lines() -> None:
    good = NINE_GATES_JSON
    not_winning = dict(good, win_tile="F1")
    stdin = "\n".join([json.dumps(good), "{not json", "", json.dumps(not_winning), "[]"]) + "\n"
    code, out = run("fan", "--jsonl", "--rules", "mil", stdin=stdin)
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 4
    assert lines[0]["ok"] and lines[0]["total"] == 91
    assert lines[1] == {"ok": False, "reason": "invalid", "message": lines[1]["message"]}
    assert "line 2" in lines[1]["message"]
    assert lines[2]["reason"] == "not_winning"
    assert lines[3]["reason"] == "invalid"


def test_shanten_ready_hand_lists_waits() -> None:
    code, out = run("shanten", "W1W1W1W2W3W4W5W6W7W8W9W9W9", "--json")
    data = json.loads(out)
    assert code == 0 and data["shanten"] == 0
    assert [w["tile"] for w in data["waits"]] == [f"W{i}" for i in range(1, 10)]
    assert data["waits"][0] == {"tile": "W1", "live": 1}


def test_shanten_fourteen_tiles_gives_discards() -> None:
    _, out = run("shanten", "W1W9B1B9T1T9F1F2F3F4J1J2J3 +W5", "--json")
    data = json.loads(out)
    assert data["shanten"] == 0 and data["by_shape"]["thirteen_orphans"] == 0
    assert data["discards"][0]["discard"] == "W5" and data["discards"][0]["shanten"] == 0


def test_shanten_rejects_wrong_counts() -> None:
    code, out = run("shanten", "W1W2")
    assert code == 2 and "13 or 14 standing tiles" in out


def test_tiles_table_and_help() -> None:
    _, out = run("tiles")
    assert "J1" in out and "5z" in out and "红中" in out
    code, out = run("--help")
    assert code == 0 and "fan" in out and "shanten" in out
