"""The local Botzone judge (guobiao.botzone.arena): scripted hands with scores worked out by hand, the
requests each seat receives, fouls, and external bot programs in every transport."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest

from arena_scenarios import Scripted, build_wall
from guobiao.botzone.arena import (
    ExternalPlayer,
    GuobiaoPlayer,
    Match,
    Player,
    Reply,
    parse_bot_spec,
    play_match,
)
from guobiao.botzone.log import match_to_record, record_to_match
from guobiao.table.game import Game
from guobiao.table.wall import shuffled_tiles

ROOT = Path(__file__).resolve().parents[1]
PASSBOT = str(ROOT / "tests" / "bots" / "passbot.py")
GUOBIAO = str(Path(sys.executable).parent / "guobiao")

READY = "W1 W2 W3 W4 W5 W6 W7 W8 W9 B2 B3 T5 T5"  # 清龙 + 平和, waits B1 / B4


def judge(wall: list[int], *players: Player, quan: int = 0) -> Match:
    match = play_match(wall, list(players), quan=quan)
    # every judged hand replays, and its two logs convert into each other
    record = match.game.record()
    Game.replay(record)
    converted = record_to_match(record)
    result = match.result
    if result.forfeit_reason == "illegal action":  # the record keeps the foul, not the answer
        key = str(result.forfeit_seat)
        illegal = {"memory": 0, "time": 0, "verdict": "OK", "response": "ILLEGAL"}
        assert converted["log"][-2][key] == illegal
        converted["log"][-2][key] = match.log["log"][-2][key]
    assert converted == match.log
    assert match_to_record(match.log) == record
    return match


def fans(match: Match) -> dict[str, int]:
    result = match.result
    assert result.fans is not None
    return {f.fan.zh: f.points * f.count for f in result.fans.fans}


# ---------------------------------------------------------------------------------------------
# Scripted hands (scores by hand: self-drawn 3(8+F) / -(8+F); on a discard 24+F, the discarder
# -(8+F), the others -8; a foul -30 / +10 each)
# ---------------------------------------------------------------------------------------------


def test_self_drawn_win() -> None:
    wall = build_wall({0: READY}, {0: "B4"})
    east = Scripted([("2 B4", "HU")])
    match = judge(wall, east, Scripted(), Scripted(), Scripted())
    # 清龙 16 + 不求人 4 + 平和 2 = 22: East gets 3 x 30, each other pays 30
    assert fans(match) == {"清龙": 16, "不求人": 4, "平和": 2}
    assert match.result.deltas == (90, -30, -30, -30)
    assert match.log["log"][-1]["output"]["display"]["action"] == "HU"


def test_the_requests_each_seat_receives() -> None:
    wall = build_wall({1: READY}, {0: "B4"})
    players = [Scripted(), Scripted([("3 0 PLAY B4", "HU")]), Scripted(), Scripted()]
    judge(wall, *players, quan=2)
    hand = " ".join(READY.split())
    assert players[1].requests == ["0 1 2", f"1 0 0 0 0 {hand}", "3 0 DRAW", "3 0 PLAY B4"]
    assert players[0].requests[:3] == ["0 0 2", players[0].requests[1], "2 B4"]
    assert players[2].requests[2:] == ["3 0 DRAW", "3 0 PLAY B4"]


def test_win_on_a_discard() -> None:
    wall = build_wall({1: READY}, {0: "B4"})
    match = judge(wall, Scripted(), Scripted([("3 0 PLAY B4", "HU")]), Scripted(), Scripted())
    # 清龙 16 + 门前清 2 + 平和 2 = 20: South 24 + 20, East (discarder) -28, the others -8
    assert fans(match) == {"清龙": 16, "门前清": 2, "平和": 2}
    assert match.result.deltas == (-28, 44, -8, -8)


def test_two_hu_claims_go_to_the_first_seat_from_the_discarder() -> None:
    hands = {1: READY, 3: "W1 W2 W3 W4 W5 W6 W7 W8 W9 B2 B3 T7 T7"}
    wall = build_wall(hands, {0: "J1", 1: "J2", 2: "B4"})
    hu = ("3 2 PLAY B4", "HU")
    match = judge(wall, Scripted(), Scripted([hu]), Scripted(), Scripted([hu]))
    # West discards: North (3) comes before South (1) counter-clockwise from West
    assert match.result.winner == 3
    assert match.result.deltas == (-8, -8, -28, 44)


def test_a_nearer_wrong_hu_forfeits_before_a_legal_one() -> None:
    wall = build_wall({1: READY}, {0: "J1", 1: "J2", 2: "B4"})
    hu = ("3 2 PLAY B4", "HU")
    match = judge(wall, Scripted([hu]), Scripted([hu]), Scripted(), Scripted())
    # from West: North, East, South; East's HU is wrong and decides
    assert match.result.forfeit_seat == 0 and match.result.forfeit_reason == "wrong win"
    assert match.result.deltas == (-30, 10, 10, 10)
    assert match.log["log"][-1]["output"]["display"]["action"] == "WH"


def test_a_wrong_hu_on_ones_own_draw() -> None:
    wall = build_wall({0: "W1 W1 W4 W7 B2 B5 B8 T3 T6 T9 F1 F2 F3"}, {0: "J1"})
    match = judge(wall, Scripted([("2 J1", "HU")]), *_passers(3))
    assert match.result.deltas == (-30, 10, 10, 10)
    assert match.result.forfeit_reason == "wrong win"


def test_a_winning_shape_under_8_points_is_a_wrong_win() -> None:
    # W123 B234 T678 F1F1 W56 + W4: 门前清 2, 连六 1 ... under 8
    wall = build_wall({1: "W1 W2 W3 B2 B3 B4 T6 T7 T8 F1 F1 W5 W6"}, {0: "W4"})
    match = judge(wall, Scripted(), Scripted([("3 0 PLAY W4", "HU")]), Scripted(), Scripted())
    assert match.result.deltas == (10, -30, 10, 10)
    assert match.result.forfeit_reason == "wrong win"


def test_robbing_an_added_kong() -> None:
    hands = {
        1: "W5 W5 F1 B1 B2 B3 B4 B5 B6 T1 T2 T3 J3",
        3: "W4 W6 B7 B8 B9 T7 T8 T9 T4 T5 T6 J2 J2",
    }
    wall = build_wall(hands, {0: "W5 F2", 1: "W5", 2: "F3", 3: "F4"})
    south = Scripted([("3 0 PLAY W5", "PENG F1"), ("2 W5", "BUGANG W5")])
    north = Scripted([("3 1 BUGANG W5", "HU")])
    match = judge(wall, Scripted(), south, Scripted(), north)
    # 抢杠和 8 + 门前清 2 + 喜相逢 x2 2 + 连六 1 + 坎张 1 = 14: North 24 + 14, South (the
    # konger) -22, the others -8
    assert fans(match) == {"抢杠和": 8, "门前清": 2, "喜相逢": 2, "连六": 1, "坎张": 1}
    assert match.result.deltas == (-8, -22, -8, 38)
    assert "3 1 PENG F1" in north.requests and "3 1 BUGANG W5" in north.requests


def test_the_fourth_tile_needs_three_other_copies_visible() -> None:
    # East waits on B3 (坎张); South and West discard B3, North holds the fourth: not 和绝张
    ready = "W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B2 B4"
    north_hand = "B3 T1 T2 T3 T4 T5 T6 T7 T8 T9 B5 B6 B7"
    wall = build_wall({0: ready, 3: north_hand}, {0: "F1 B3", 1: "B3", 2: "B3", 3: "F2"})
    match = judge(wall, Scripted([("2 B3", "HU")]), *_passers(3))
    # 清龙 16 + 不求人 4 + 平和 2 + 缺一门 1 + 坎张 1 = 24: 3 x 32
    assert "和绝张" not in fans(match)
    assert match.result.deltas == (96, -32, -32, -32)
    # with all three others discarded it counts (+4)
    wall = build_wall({0: ready}, {0: "F1 B3", 1: "B3", 2: "B3", 3: "B3"})
    match = judge(wall, Scripted([("2 B3", "HU")]), *_passers(3))
    assert fans(match)["和绝张"] == 4
    assert match.result.deltas == (108, -36, -36, -36)


def test_a_kong_on_a_discard_with_an_empty_segment_is_told_then_the_hand_is_drawn() -> None:
    # West makes a concealed kong, so its segment runs out a draw early; East's last draw is
    # the fourth J1, which West, holding three, kongs: South's segment still has a tile (not the
    # last discard), West's is empty: it cannot draw its replacement (荒牌)
    west = "W1 W1 W1 W1 W2 W2 W2 W2 J1 J1 J1 T9 T8"
    east = "B1 B2 B3 B4 B5 B6 B7 B8 B9 T2 T3 T4 T5"
    wall = build_wall({0: east, 2: west}, {0: " ".join(["?"] * 20 + ["J1"]), 2: "T1"})
    script = [("2 T1", "GANG W2"), ("3 0 PLAY J1", "GANG")]
    match = judge(wall, Scripted(), Scripted(), Scripted(script), Scripted())
    assert match.result.is_draw and match.result.deltas == (0, 0, 0, 0)
    assert match.game.segment_remaining(2) == 0 and match.game.segment_remaining(1) == 1
    requests = [e["output"]["content"]["1"] for e in match.log["log"][-5::2][:2]]
    assert requests == ["3 0 PLAY J1", "3 2 GANG"]
    # the judge prints no score for 荒牌; tileCnt: East drew 21, South 20, West 20 and a kong
    # replacement, North 20, of the 21 each segment holds after the deal
    assert match.log["log"][-1]["output"]["display"] == {
        "action": "HUANG",
        "canHu": [-4, -4, -4, -4],
        "tileCnt": [0, 1, 0, 1],
    }


@pytest.mark.parametrize(
    ("script", "seat"),
    [
        ([("3 0 PLAY B4", "PENG W1")], 1),  # a pung without two B4
        ([("3 0 PLAY B4", "CHI B3 W1")], 2),  # a chow from a seat that is not the next
        ([("3 0 DRAW", "PLAY W1")], 3),  # only the drawer plays
        ([("3 0 PLAY B4", "HU HU")], 1),  # not an answer
    ],
)
def test_an_illegal_answer_forfeits(script: list[tuple[str, str]], seat: int) -> None:
    wall = build_wall({}, {0: "B4"})
    players = [Scripted() for _ in range(4)]
    players[seat] = Scripted(script)
    match = judge(wall, *players)
    expected = [10, 10, 10, 10]
    expected[seat] = -30
    assert match.result.deltas == tuple(expected)
    assert match.result.forfeit_reason == "illegal action"
    assert match.log["log"][-1]["output"]["display"] == {
        "action": "WA",
        "canHu": [-4, -4, -4, -4],
        "player": seat,
        "score": expected,
    }


def test_the_discarder_must_pass_its_own_discard() -> None:
    wall = build_wall({}, {0: "B4"})
    match = judge(wall, Scripted([("3 0 PLAY B4", "HU")]), *_passers(3))
    assert match.result.deltas == (-30, 10, 10, 10)
    assert match.result.forfeit_reason == "illegal action"


def test_a_granted_pung_must_discard_a_tile_held() -> None:
    wall = build_wall({1: "B4 B4 W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2"}, {0: "B4"})
    match = judge(wall, Scripted(), Scripted([("3 0 PLAY B4", "PENG J3")]), *_passers(2))
    assert match.result.deltas == (10, -30, 10, 10)


def _passers(n: int) -> list[Scripted]:
    return [Scripted() for _ in range(n)]


# ---------------------------------------------------------------------------------------------
# External programs
# ---------------------------------------------------------------------------------------------


def _external(*args: str, transport: str = "keep", limit: float = 5.0) -> ExternalPlayer:
    extra = ["--keep-running"] if transport == "keep" else []
    return ExternalPlayer(
        [sys.executable, PASSBOT, *extra, *args], transport=transport, time_limit=limit
    )


def _bots(seat: int, player: Player) -> list[Player]:
    players: list[Player] = [GuobiaoPlayer(k, 7 + i) for i, k in enumerate(("fan",) * 4)]
    players[seat] = player
    return players


def _group_alive(pgid: int) -> list[int]:
    """Processes of the process group ``pgid`` that are not zombies."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(stat.parent.name))
    return alive


@pytest.mark.parametrize(
    ("misbehave", "reason", "code"),
    [
        ("sleep", "time-out", "TLE"),
        ("crash", "crash", "RE"),
        ("silent", "crash", "RE"),
        ("garbage", "illegal action", "WA"),
        ("illegal", "illegal action", "WA"),
        ("hu", "wrong win", "WH"),
    ],
)
def test_a_misbehaving_program_forfeits_and_is_killed(
    misbehave: str, reason: str, code: str
) -> None:
    wall = shuffled_tiles(random.Random(5), flowers=False)
    bot = _external("--misbehave", misbehave, "--at", "2", limit=1.0)
    started = time.monotonic()
    match = play_match(wall, _bots(2, bot))
    assert time.monotonic() - started < 10
    # this wall reaches the bot's second draw, where it misbehaves
    assert match.result.forfeit_seat is not None, "the hand ended before the bot misbehaved"
    assert match.result.forfeit_seat == 2 and match.result.forfeit_reason == reason
    assert match.result.deltas == (10, 10, -30, 10)
    assert match.log["log"][-1]["output"]["display"]["action"] == code
    assert bot.last_pid is not None
    deadline = time.monotonic() + 5  # SIGKILL reaches the children soon after
    while _group_alive(bot.last_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _group_alive(bot.last_pid) == []
    if code in ("TLE", "RE"):
        verdicts = [e["2"]["verdict"] for e in match.log["log"][1::2] if "2" in e]
        assert verdicts[-1] == code


@pytest.mark.parametrize("transport", ["keep", "json", "simple"])
def test_the_transports_give_the_same_hand(transport: str) -> None:
    wall = shuffled_tiles(random.Random(11), flowers=False)
    reference = play_match(wall, _bots(1, Scripted()))
    match = play_match(wall, _bots(1, _external(transport=transport)))
    assert match.game.record() == reference.game.record()
    responses = [e["1"]["response"] for e in match.log["log"][1::2] if "1" in e]
    assert responses == [e["1"]["response"] for e in reference.log["log"][1::2] if "1" in e]


def test_the_guobiao_bot_plays_the_same_in_process_and_through_the_protocol() -> None:
    kinds = ("fan", "efficiency", "random", "fan")
    for deal in range(2):
        wall = shuffled_tiles(random.Random(100 + deal), flowers=False)
        inside = play_match(wall, [GuobiaoPlayer(k, 40 + i) for i, k in enumerate(kinds)])
        outside = play_match(
            wall,
            [
                ExternalPlayer(
                    [GUOBIAO, "botzone-bot", "--bot", k, "--seed", str(40 + i), "--keep-running"],
                    time_limit=30,
                )
                for i, k in enumerate(kinds)
            ],
        )
        assert outside.result.deltas == inside.result.deltas
        assert outside.game.record() == inside.game.record()


def test_a_program_that_cannot_start_crashes() -> None:
    wall = shuffled_tiles(random.Random(1), flowers=False)
    match = play_match(wall, _bots(3, ExternalPlayer(["/nonexistent/bot"])))
    assert match.result.forfeit_seat == 3 and match.result.forfeit_reason == "crash"


def test_bot_specs() -> None:
    assert parse_bot_spec("FAN").kind == "fan"
    # check=False: the programs are not looked for (parse_bot_spec refuses one it cannot start)
    spec = parse_bot_spec("cmd:guobiao botzone-bot --seed {seed} --keep-running", check=False)
    assert spec.argv[:2] == ("guobiao", "botzone-bot") and spec.transport == "keep"
    assert parse_bot_spec("json:./bot", check=False).transport == "json"
    assert parse_bot_spec(PASSBOT).argv == (PASSBOT,)
    with pytest.raises(ValueError, match="not a bot"):
        parse_bot_spec("nobot")


def test_reply_log_entries() -> None:
    # Botzone's keys in Botzone's order (its wiki: memory, time, verdict, response)
    entry = Reply("OK", "PASS", 3).log_entry()
    assert list(entry.items()) == [
        ("memory", 0),
        ("time", 3),
        ("verdict", "OK"),
        ("response", "PASS"),
    ]
    entry = Reply("TLE", None, 1000).log_entry()
    assert list(entry.items()) == [("memory", 0), ("time", 1000), ("verdict", "TLE")]
