"""The Botzone bot protocol (docs/botzone.md): requests and responses, the seat tracker, the
transports of `guobiao botzone-bot`, and a whole hand of the guobiao engine replayed through four
trackers."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guobiao.bots import make_bot
from guobiao.botzone.protocol import (
    BOTZONE_RULES,
    KEEP_RUNNING,
    BotzoneSeat,
    BugangEvent,
    ChiEvent,
    DealRequest,
    DrawEvent,
    DrawRequest,
    FlowerEvent,
    GangEvent,
    PengEvent,
    PlayEvent,
    ProtocolError,
    Request,
    Response,
    SeatRequest,
    action_to_response,
    choose_response,
    parse_request,
    parse_response,
    response_to_actions,
    run,
)
from guobiao.core.context import Wind
from guobiao.core.melds import MeldKind
from guobiao.core.tiles import TILES, Tile
from guobiao.table.game import PASS, WIN, Action, ActionKind, Game, Phase, SeatView
from guobiao.table.rules import TableRules

ROOT = Path(__file__).resolve().parents[1]
A = ActionKind


def t(name: str) -> Tile:
    return Tile.parse(name)


def tiles(text: str) -> list[str]:
    return text.split()


# ---------------------------------------------------------------------------------------------
# Requests and responses
# ---------------------------------------------------------------------------------------------

playing = st.sampled_from(TILES[:34])
flowers = st.sampled_from(TILES[34:])
seats = st.integers(0, 3)
middles = st.sampled_from([x for x in TILES[:27] if x.rank not in (1, 9)])


@st.composite
def deals(draw: st.DrawFn) -> DealRequest:
    counts = draw(st.tuples(*(st.integers(0, 2) for _ in range(4))))
    hand = tuple(draw(st.lists(playing, min_size=13, max_size=13)))
    shown = tuple(draw(st.lists(flowers, min_size=sum(counts), max_size=sum(counts))))
    return DealRequest(counts, hand, shown)


requests = st.one_of(
    st.builds(SeatRequest, seats, seats),
    deals(),
    st.builds(DrawRequest, playing),
    st.builds(FlowerEvent, seats, flowers),
    st.builds(DrawEvent, seats),
    st.builds(PlayEvent, seats, playing),
    st.builds(PengEvent, seats, playing),
    st.builds(ChiEvent, seats, middles, playing),
    st.builds(GangEvent, seats),
    st.builds(BugangEvent, seats, playing),
)
responses = st.one_of(
    st.just(Response("PASS")),
    st.just(Response("HU")),
    st.just(Response("GANG")),
    st.builds(lambda x: Response("PLAY", (x,)), playing),
    st.builds(lambda x: Response("GANG", (x,)), playing),
    st.builds(lambda x: Response("BUGANG", (x,)), playing),
    st.builds(lambda x: Response("PENG", (x,)), playing),
    st.builds(lambda m, x: Response("CHI", (m, x)), middles, playing),
)


@given(requests)
def test_a_request_formats_and_parses_back(request: Request) -> None:
    line = str(request)
    assert parse_request(line) == request
    assert str(parse_request(line)) == line
    assert "  " not in line


@given(responses)
def test_a_response_formats_and_parses_back(response: Response) -> None:
    assert parse_response(str(response)) == response


@pytest.mark.parametrize(
    "line",
    [
        "0 1 2",
        "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 J3",
        "1 1 0 2 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 J3 H1 H4 H7",
        "2 T6",
        "3 2 BUHUA H7",
        "3 2 DRAW",
        "3 2 PLAY T1",
        "3 2 PENG F1",
        "3 2 CHI T2 W3",
        "3 2 GANG",
        "3 2 BUGANG W3",
    ],
)
def test_the_wiki_examples_read_back_as_written(line: str) -> None:
    assert str(parse_request(line)) == line


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("", "empty"),
        ("4 1", "starts with"),
        ("0 4 0", "seat must be 0-3"),
        ("0 1", "0 seat quan"),
        ("2 X9", "not a tile"),
        ("2 H1", "not a flower"),
        ("3 1 BUHUA W1", "must be a flower"),
        ("3 1 JUMP", "unknown action"),
        ("3 1 PLAY", "takes 1"),
        ("3 1 CHI W1 W5", "middle tile"),
        ("1 0 0 0 0 W1 W2", "13 tiles"),
        ("1 1 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 J3", "flowers listed"),
        ("3 5 DRAW", "player must be 0-3"),
    ],
)
def test_a_bad_request_names_the_line(line: str, words: str) -> None:
    with pytest.raises(ProtocolError, match=words) as err:
        parse_request(line)
    assert line in str(err.value) or line == ""


@pytest.mark.parametrize("line", ["", "PLAY", "PASS W1", "CHI B9 W1", "EAT W1", "PLAY H3"])
def test_a_bad_response_is_refused(line: str) -> None:
    with pytest.raises(ProtocolError):
        parse_response(line)


def test_actions_and_responses_convert_both_ways() -> None:
    w2, b5, j1 = t("W2"), t("B5"), t("J1")
    cases = [
        ((PASS,), "PASS", None),
        ((WIN,), "HU", None),
        ((Action(A.DISCARD, j1),), "PLAY J1", None),
        ((Action(A.CONCEALED_KONG, b5),), "GANG B5", None),
        ((Action(A.ADDED_KONG, b5),), "BUGANG B5", None),
        ((Action(A.KONG, b5),), "GANG", b5),
        ((Action(A.PUNG, b5), Action(A.DISCARD, j1)), "PENG J1", b5),
        ((Action(A.CHOW, TILES[w2 - 1]), Action(A.DISCARD, j1)), "CHI W2 J1", w2),
    ]
    for actions, text, claimable in cases:
        assert str(action_to_response(*actions)) == text
        assert response_to_actions(parse_response(text), claimable) == actions
    with pytest.raises(ValueError, match="needs the discard"):
        action_to_response(Action(A.PUNG, b5))


# ---------------------------------------------------------------------------------------------
# The tracker
# ---------------------------------------------------------------------------------------------


def seat_after(*lines: str, seat: int = 0, quan: int = 0) -> BotzoneSeat:
    tracker = BotzoneSeat()
    tracker.feed(f"0 {seat} {quan}")
    for line in lines:
        tracker.feed(line)
    return tracker


def kinds(actions: tuple[Action, ...]) -> list[str]:
    return [str(a) for a in actions]


HAND = "W1 W1 W1 W1 B2 B3 B4 T5 T6 T7 J2 J2 F3"


def test_after_a_draw_every_tile_may_go_and_four_of_a_kind_may_be_a_kong() -> None:
    s = seat_after(f"1 0 0 0 0 {HAND}", "2 F4")
    legal = s.legal_actions
    assert Action(A.CONCEALED_KONG, t("W1")) in legal
    discards = [a.tile for a in legal if a.kind is A.DISCARD]
    assert discards == sorted(set(s.hand))
    assert len(s.hand) == 14
    assert WIN not in legal
    view = s.view()
    assert view.phase is Phase.ACT and view.drawn == t("F4") and view.seat == 0
    assert s.segments == (20, 21, 21, 21)


def test_nothing_to_decide_is_an_empty_choice_and_a_pass() -> None:
    s = seat_after(f"1 0 0 0 0 {HAND}", "2 F4", "3 0 PLAY F4", "3 1 DRAW")
    assert s.legal_actions == ()
    assert str(choose_response(make_bot("random", 1), s)) == "PASS"


def test_the_previous_seat_discard_offers_chows_pung_and_kong() -> None:
    # seat 1: seat 0 is its previous seat (上家)
    s = seat_after(f"1 0 0 0 0 {HAND}", "3 0 DRAW", "3 0 PLAY B3", seat=1)
    assert kinds(s.legal_actions) == ["chow B2B3B4", "pass"]
    s2 = seat_after(f"1 0 0 0 0 {HAND}", "3 0 DRAW", "3 0 PLAY J2", seat=2)
    assert kinds(s2.legal_actions) == ["pung J2", "pass"]  # two held: no kong
    s3 = seat_after(
        "1 0 0 0 0 W1 W1 W1 B2 B3 B4 T5 T6 T7 J2 J2 F3 F4", "3 0 DRAW", "3 0 PLAY W1", seat=2
    )
    assert kinds(s3.legal_actions) == ["pung W1", "kong W1", "pass"]
    s4 = seat_after(f"1 0 0 0 0 {HAND}", "3 0 DRAW", "3 0 PLAY B3", seat=3)
    assert kinds(s4.legal_actions) == []  # a chow only from the previous seat
    s5 = seat_after(f"1 0 0 0 0 {HAND}", "3 0 DRAW", "3 0 PLAY J2", seat=3)
    assert kinds(s5.legal_actions) == ["pung J2", "pass"]


def test_a_claim_is_answered_with_its_discard() -> None:
    s = seat_after(f"1 0 0 0 0 {HAND}", "3 0 DRAW", "3 0 PLAY J2", seat=3)

    class Punger:
        def choose(self, view: SeatView) -> Action:
            if view.phase is Phase.RESPOND:
                return Action(A.PUNG, t("J2"))
            assert view.hand.count(t("J2")) == 0 and len(view.hand) == 11
            assert view.melds[3][-1].kind is MeldKind.PUNG
            return Action(A.DISCARD, t("F3"))

    assert str(choose_response(Punger(), s)) == "PENG F3"
    s.respond("PENG F3")
    s.feed("3 3 PENG F3")
    assert s.view().melds[3][0].offered_by == 1
    assert s.view().discards[0] == ()
    assert s.view().discards[3] == (t("F3"),)
    assert len(s.hand) == 10


def test_an_illegal_choice_falls_back_to_a_safe_one() -> None:
    class Wrong:
        def choose(self, view: SeatView) -> Action:
            return Action(A.DISCARD, t("B9"))

    class Broken:
        def choose(self, view: SeatView) -> Action:
            raise RuntimeError("boom")

    s = seat_after(f"1 0 0 0 0 {HAND}", "2 F4")
    assert str(choose_response(Wrong(), s)) == "PLAY F4"  # the drawn tile
    notes: list[str] = []
    assert str(choose_response(Broken(), s, notes)) == "PLAY F4"
    assert "boom" in notes[0]
    r = seat_after(f"1 0 0 0 0 {HAND}", "3 0 DRAW", "3 0 PLAY J2", seat=3)
    assert str(choose_response(Wrong(), r)) == "PASS"


# A ready hand: 123m 456m 789m 55p + 78s waiting on 6s/9s (平和-ish, little fan) and a big one.
SMALL = "W1 W2 W3 W4 W5 W6 W7 W8 W9 B5 B5 T7 T8"  # 清龙 16 + ... on 6s/9s
CHEAP = "W1 W2 W3 W4 W5 W6 B7 B8 B9 B5 B5 T7 T8"  # 平和 2, no 8


def test_hu_only_with_eight_points() -> None:
    rich = seat_after(f"1 0 0 0 0 {SMALL}", "3 0 DRAW", "3 0 PLAY T9", seat=1)
    assert WIN in rich.legal_actions
    poor = seat_after(f"1 0 0 0 0 {CHEAP}", "3 0 DRAW", "3 0 PLAY T9", seat=1)
    assert WIN not in poor.legal_actions
    assert str(choose_response(make_bot("efficiency", 1), rich)) == "HU"


def wall_tiles(tracker: BotzoneSeat, avoid: str = "") -> Iterator[str]:
    """Tiles the tracker has not seen, in order (never a fifth copy), none of ``avoid``."""
    view = tracker.view()
    left = [4] * 34
    seen = [*view.hand, *(x for pool in view.discards for x in pool)]
    seen += [x for melds in view.melds for meld in melds for x in meld.tiles]
    for x in seen:
        left[x] -= 1
    skip = {t(name) for name in avoid.split()}
    for k in range(34):
        if TILES[k] not in skip:
            yield from [str(TILES[k])] * left[k]


def spend(tracker: BotzoneSeat, rounds: int, avoid: str = "", kong: int | None = None) -> None:
    """Whole rounds of the table from seat 0: each seat draws and discards the wall's next tile
    (my draw is '2 T', its tile my discard); ``kong``: that seat makes a concealed kong in the
    first round, so its segment runs out a turn early."""
    me = tracker.view().seat
    tiles = wall_tiles(tracker, avoid)
    for n in range(rounds):
        for seat in range(4):
            if seat == me:
                drawn = next(tiles)
                tracker.feed(f"2 {drawn}")
                tracker.feed(f"3 {me} PLAY {drawn}")
                continue
            tracker.feed(f"3 {seat} DRAW")
            if n == 0 and seat == kong:
                tracker.feed(f"3 {seat} GANG")
                tracker.feed(f"3 {seat} DRAW")
            tracker.feed(f"3 {seat} PLAY {next(tiles)}")


def before_the_last_turn() -> BotzoneSeat:
    """Seat 2 (me) ready on a small hand; seat 1 made a concealed kong: after 20 rounds its
    segment is empty and seat 0 has one tile left, so seat 0's next discard is the last."""
    s = seat_after(f"1 0 0 0 0 {CHEAP}", seat=2)
    s.feed("3 0 DRAW")
    s.feed("3 0 PLAY T9")
    assert s.legal_actions == ()  # a win below 8 points is no win
    s.feed("3 1 DRAW")
    s.feed("3 1 GANG")
    s.feed("3 1 DRAW")
    s.feed("3 1 PLAY B5")
    assert kinds(s.legal_actions) == ["pung B5", "pass"]
    s.feed("2 F1")
    s.feed("3 2 PLAY F1")
    s.feed("3 3 DRAW")
    s.feed("3 3 PLAY F2")
    spend(s, 18, avoid="T9 B5")
    for line in ["3 0 DRAW", "3 0 PLAY F3", "3 1 DRAW", "3 1 PLAY F3", "2 F4", "3 2 PLAY F4"]:
        s.feed(line)
    s.feed("3 3 DRAW")
    s.feed("3 3 PLAY T9")  # seat 3's discard: seat 0 still has a tile, not the last
    assert s.legal_actions == ()
    assert s.segments == (1, 0, 1, 1)
    return s


def test_the_last_discard_may_only_be_won_and_counts_haidi() -> None:
    s = before_the_last_turn()
    s.feed("3 0 DRAW")
    s.feed("3 0 PLAY B5")  # seat 1 (next after 0) has nothing left: the last discard
    assert s.legal_actions == ()  # no pung now
    s = before_the_last_turn()
    s.feed("3 0 DRAW")
    s.feed("3 0 PLAY T9")
    assert kinds(s.legal_actions) == ["win", "pass"]  # 海底捞月 8 makes the small hand a win
    context = s.win_context(int(t("T9")), self_drawn=False)
    assert context.last_tile and not context.self_drawn


def test_the_last_draw_counts_miaoshou() -> None:
    s = seat_after(f"1 0 0 0 0 {CHEAP}", seat=2)
    spend(s, 20, avoid="T9", kong=3)  # seat 3's segment is empty
    s.feed("3 0 DRAW")
    s.feed("3 0 PLAY F4")
    s.feed("3 1 DRAW")
    s.feed("3 1 PLAY F4")
    s.feed("2 T9")  # my draw while my next seat (3) has nothing left
    assert s.legal_actions[0] == WIN
    assert s.win_context(int(t("T9")), self_drawn=True).last_tile


def test_a_kong_needs_a_tile_in_ones_own_segment() -> None:
    s = seat_after(f"1 0 0 0 0 {HAND}", seat=0)
    spend(s, 20, avoid="F2")
    s.feed("2 F2")
    assert s.segments[0] == 0
    assert Action(A.CONCEALED_KONG, t("W1")) not in s.legal_actions  # four W1 held


def test_concealed_kong_then_replacement_is_kong_flower() -> None:
    s = seat_after(f"1 0 0 0 0 {HAND}", "2 F3")
    assert Action(A.CONCEALED_KONG, t("W1")) in s.legal_actions
    s.respond("GANG W1")
    s.feed("3 0 GANG")
    assert s.view().melds[0][0].kind is MeldKind.CONCEALED_KONG
    assert len(s.hand) == 10
    s.feed("2 J2")
    ctx = s.win_context(int(t("J2")), self_drawn=True)
    assert ctx.kong and ctx.self_drawn
    # another seat's concealed kong is face down
    o = seat_after(f"1 0 0 0 0 {HAND}", "3 0 DRAW", "3 0 GANG", "3 0 DRAW", seat=1)
    assert o.view().concealed_kongs == (1, 0, 0, 0) and o.view().melds[0] == ()
    assert o.segments[0] == 19


def test_a_concealed_kong_needs_my_answer_when_two_fours_are_held() -> None:
    s = seat_after("1 0 0 0 0 W1 W1 W1 W1 B2 B2 B2 B2 T5 T6 T7 J2 J2", "2 F3")
    with pytest.raises(ProtocolError, match="unknown"):
        s.feed("3 0 GANG")


def test_robbing_an_added_kong() -> None:
    # seat 2 waits on T6/T9 with 清龙; seat 1 punges T9, later adds the fourth: seat 2 robs it
    s = seat_after(f"1 0 0 0 0 {SMALL}", seat=2)
    s.feed("3 0 DRAW")
    s.feed("3 0 PLAY T9")
    assert WIN in s.legal_actions
    s.feed("3 1 PENG J1")
    assert s.view().melds[1][0].kind is MeldKind.PUNG
    assert s.view().melds[1][0].offered_by == 3
    for line in ["2 F1", "3 2 PLAY F1", "3 3 DRAW", "3 3 PLAY F2", "3 0 DRAW", "3 0 PLAY F3"]:
        s.feed(line)
    s.feed("3 1 DRAW")
    s.feed("3 1 BUGANG T9")
    assert s.legal_actions == (WIN, PASS)
    context = s.win_context(int(t("T9")), self_drawn=False, robbing=True)
    assert context.kong and not context.fourth_tile and not context.last_tile
    assert s.view().phase is Phase.ROB and s.view().last_discard == t("T9")
    assert str(choose_response(make_bot("fan", 3), s)) == "HU"
    with pytest.raises(ProtocolError, match="no pung"):
        s.feed("3 3 BUGANG T9")


def test_fourth_tile_counts_discards_that_stood_and_exposed_melds() -> None:
    s = seat_after(f"1 0 0 0 0 {SMALL}", seat=2)
    s.feed("3 0 DRAW")
    s.feed("3 0 PLAY T6")
    assert WIN in s.legal_actions
    for line in ["3 1 DRAW", "3 1 PLAY T6", "2 F1", "3 2 PLAY F1", "3 3 DRAW", "3 3 PLAY T6"]:
        s.feed(line)
    assert s.visible(int(t("T6"))) == 3  # the third discard is the one I may win on
    assert s.win_context(int(t("T6")), self_drawn=False).fourth_tile is False
    s.feed("3 0 DRAW")
    s.feed("3 0 PLAY T6")
    assert s.win_context(int(t("T6")), self_drawn=False).fourth_tile is True
    # a claimed discard is counted once, in the meld; my own hand never
    r = seat_after(f"1 0 0 0 0 {SMALL}", seat=2)
    r.feed("3 0 DRAW")
    r.feed("3 0 PLAY B5")
    assert r.visible(int(t("B5"))) == 1  # my two B5 are not on the table
    r2 = seat_after(f"1 0 0 0 0 {SMALL}", "3 0 DRAW", "3 0 PLAY J3", "3 1 PENG F2", seat=2)
    assert r2.visible(int(t("J3"))) == 3 and r2.view().discards[0] == ()
    # a concealed kong is face down: not on the table for 和绝张
    k = seat_after(f"1 0 0 0 0 {HAND}", "3 0 DRAW", "3 0 GANG", seat=1)
    assert k.visible(int(t("W1"))) == 0


def test_out_of_order_requests_are_refused() -> None:
    with pytest.raises(ProtocolError, match="first request"):
        BotzoneSeat().feed("2 W1")
    s = seat_after(f"1 0 0 0 0 {HAND}", seat=1)
    with pytest.raises(ProtocolError, match="must follow a discard"):
        s.feed("3 1 PENG W1")
    with pytest.raises(ProtocolError, match="do not hold"):
        s.feed("3 1 PLAY B9")
    with pytest.raises(ProtocolError, match="previous seat"):
        seat_after(f"1 0 0 0 0 {HAND}", "3 0 DRAW", "3 0 PLAY B3", seat=3).feed("3 2 CHI B3 F3")


def test_flowers_switch_to_the_shared_wall() -> None:
    s = seat_after(f"1 1 0 0 0 {HAND} H3", "3 0 BUHUA H5", seat=1)
    assert s.view().flowers == (2, 0, 0, 0)
    assert s.wall_remaining == 144 - 52 - 1 - 1


# ---------------------------------------------------------------------------------------------
# The transports and the command
# ---------------------------------------------------------------------------------------------

GAME = [
    "0 1 0",
    f"1 0 0 0 0 {SMALL}",
    "3 0 DRAW",
    "3 0 PLAY J1",
    "2 F1",
]


def play_through(requests: list[str], bot: str = "efficiency") -> list[str]:
    """Answer ``requests`` one at a time with the JSON transport, as Botzone restarts the bot."""
    answers: list[str] = []
    for n in range(1, len(requests) + 1):
        data = json.dumps({"requests": requests[:n], "responses": answers})
        out = io.StringIO()
        run(make_bot(bot, 1, BOTZONE_RULES), io.StringIO(data + "\n"), out)
        answers.append(json.loads(out.getvalue())["response"])
    return answers


def test_json_transport_answers_each_turn_legally() -> None:
    answers = play_through(GAME)
    assert answers[:4] == ["PASS"] * 4
    assert answers[4].startswith("PLAY ")
    assert answers[4].split()[1] in [*SMALL.split(), "F1"]


def test_simple_and_json_agree() -> None:
    answers = play_through(GAME)
    lines = [str(len(GAME))]
    for request, answer in zip(GAME[:-1], answers[:-1], strict=True):
        lines += [request, answer]
    lines += [GAME[-1], "some data", "some globaldata"]
    out = io.StringIO()
    run(make_bot("efficiency", 1), io.StringIO("\n".join(lines) + "\n"), out)
    assert out.getvalue() == answers[-1] + "\n"


def cli(*args: str) -> list[str]:
    code = "import sys; from guobiao.cli import main; sys.exit(main())"
    return [sys.executable, "-c", code, "botzone-bot", *args]


def test_cli_json_and_simple() -> None:
    data = json.dumps({"requests": GAME, "responses": ["PASS"] * 4})
    done = subprocess.run(
        cli("--bot", "fan", "--seed", "3"), input=data, text=True, capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)["response"]
    assert answer.startswith("PLAY ")
    simple = "\n".join(["5", *[x for r in GAME[:-1] for x in (r, "PASS")], GAME[-1]]) + "\n"
    done = subprocess.run(
        cli("--bot", "fan", "--seed", "3"),
        input=simple,
        text=True,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == answer + "\n"


def test_cli_keep_running_reads_one_request_a_turn() -> None:
    proc = subprocess.Popen(
        cli("--bot", "efficiency", "--seed", "1", "--keep-running"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("1\n0 1 0\n")
    proc.stdin.flush()
    assert proc.stdout.readline() == "PASS\n"
    assert proc.stdout.readline() == KEEP_RUNNING + "\n"
    for request in GAME[1:4]:
        proc.stdin.write(request + "\n")
        proc.stdin.flush()
        assert proc.stdout.readline() == "PASS\n"
        assert proc.stdout.readline() == KEEP_RUNNING + "\n"
    proc.stdin.write(GAME[4] + "\n")
    proc.stdin.flush()
    answer = proc.stdout.readline()
    assert answer.startswith("PLAY ")
    assert proc.stdout.readline() == KEEP_RUNNING + "\n"
    played = answer.split()[1]
    proc.stdin.write(f"3 1 PLAY {played}\n")
    proc.stdin.flush()
    assert proc.stdout.readline() == "PASS\n"
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0


def test_cli_keep_running_json() -> None:
    first = json.dumps({"requests": GAME[:1], "responses": []})
    # later turns: a JSON string (Botzone's JSON keep-running), a plain line, a JSON object
    lines = [first, json.dumps(GAME[1]), GAME[2], json.dumps({"requests": [GAME[3]]}), GAME[4]]
    done = subprocess.run(
        cli("--transport", "json", "--keep-running", "--bot", "random", "--seed", "2"),
        input="\n".join(lines) + "\n",
        text=True,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    answers = [json.loads(x)["response"] for x in out if x != KEEP_RUNNING]
    assert out.count(KEEP_RUNNING) == len(GAME)
    assert answers[:4] == ["PASS"] * 4 and answers[4].startswith("PLAY ")


@pytest.mark.parametrize(
    ("stdin", "args", "words"),
    [
        ("hello\n", [], "first line"),
        ('{"requests": ["0 1 0", "2 W1"], "responses": []}\n', [], "one more request"),
        ('{"requests": ["0 1 0", "9"], "responses": ["PASS"]}\n', [], "'9'"),
        ("2\n0 1 0\nPASS\n", [], "ended"),
        ("{not json\n", [], "not JSON"),
        ("1\n0 1 0\n", ["--transport", "json"], "must be an object"),
        ("", [], "ended"),
    ],
)
def test_cli_bad_input_is_one_line_on_stderr_and_exit_2(
    stdin: str, args: list[str], words: str
) -> None:
    done = subprocess.run(cli(*args), input=stdin, text=True, capture_output=True, check=False)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert words in done.stderr
    assert "Traceback" not in done.stderr


def test_cli_help_teaches_an_example() -> None:
    done = subprocess.run(cli("--help"), text=True, capture_output=True, check=False)
    assert done.returncode == 0
    assert "3 0 PLAY" in done.stdout and "keep-running" in done.stdout


# ---------------------------------------------------------------------------------------------
# A whole hand of the engine, seen through four trackers
# ---------------------------------------------------------------------------------------------

RULES = TableRules(flowers=False, fan_profile="mil")


class Table:
    """Drive a guobiao Game and feed each seat the requests Botzone would send it."""

    def __init__(
        self, seed: int, bots: tuple[str, str, str, str], rules: TableRules = RULES
    ) -> None:
        self.quan = seed % 4
        self.segmented = rules.wall_build == "botzone"  # the engine plays Botzone's wall too
        self.game = Game(rules, seed=seed, round_wind=Wind(self.quan))
        # the 1998 engine's shared wall: the trackers count it as one (docs/botzone.md)
        self.trackers = [BotzoneSeat(rules, shared_wall=not self.segmented) for _ in range(4)]
        self.bots = [make_bot(kind, seed * 10 + i, rules) for i, kind in enumerate(bots)]
        self.claim: tuple[int, Action] | None = None  # a chow or pung awaiting its discard
        self.compared = 0
        self.logs: list[list[str]] = [[] for _ in range(4)]  # the requests each seat got
        self.answers: list[dict[int, str]] = [{} for _ in range(4)]  # request index -> answer
        self.claim_at = 0  # the request index the pending claim answers
        drawn = self.game.view(0).drawn
        assert drawn is not None
        for s in range(4):
            self.feed(s, f"0 {s} {self.quan}")
            held = list(self.game.hand_of(s).concealed)
            if s == 0:
                held.remove(drawn)
            self.feed(s, "1 0 0 0 0 " + " ".join(map(str, held)))
        self.draw(0)

    def feed(self, seat: int, line: str) -> None:
        self.trackers[seat].feed(line)
        self.logs[seat].append(line)

    def send(self, line: str) -> None:
        for seat in range(4):
            self.feed(seat, line)

    def draw(self, seat: int) -> None:
        if self.game.is_over:
            return
        drawn = self.game.view(seat).drawn
        assert drawn is not None and self.game.current == seat
        for s in range(4):
            self.feed(s, f"2 {drawn}" if s == seat else f"3 {seat} DRAW")

    def comparable(self) -> bool:
        """Away from the end of the wall, where the segments and the shared wall differ."""
        if self.segmented:
            return True
        return self.game.wall_remaining > 0 and all(
            seg > 0 for tr in self.trackers for seg in tr.segments
        )

    def compare(self) -> None:
        game = self.game
        for s, tracker in enumerate(self.trackers):
            mine = game.view(s)
            if self.claim is not None:
                if s != self.claim[0]:
                    assert game.legal_actions(s) == ()
                    continue
                theirs = tracker.claim_view(self.claim[1])
            else:
                theirs = tracker.view()
            assert theirs.hand == mine.hand, s
            assert theirs.melds == mine.melds, s
            assert theirs.discards == mine.discards, s
            assert theirs.concealed_kongs == mine.concealed_kongs
            assert theirs.flowers == mine.flowers
            assert theirs.phase is mine.phase and theirs.current == mine.current, s
            assert theirs.drawn == mine.drawn and theirs.last_discard == mine.last_discard
            if self.comparable():
                assert sum(tracker.segments) == game.wall_remaining == theirs.wall_remaining
                assert theirs.legal_actions == mine.legal_actions, (s, game.history[-3:])
                self.compared += 1

    def play(self) -> None:
        game = self.game
        while not game.is_over:
            self.compare()
            phase, current = game.phase, game.current
            acted: dict[int, Action] = {}
            for s in game.to_act:
                action = self.bots[s].choose(game.view(s))
                acted[s] = action
                at = len(self.logs[s]) - 1
                if action.kind in (A.CHOW, A.PUNG):
                    self.claim_at = at
                elif self.claim is None or s != self.claim[0]:
                    self.answers[s][at] = str(action_to_response(action))
                game.act(s, action)
            if phase is Phase.ACT:
                self.after_own(current, acted[current])
            elif phase is Phase.RESPOND:
                self.after_responses(current, acted)
            elif not game.is_over:  # ROB passed: the replacement
                self.draw(current)

    def after_own(self, seat: int, action: Action) -> None:
        game = self.game
        if action.kind is A.WIN:
            return
        if action.kind is A.DISCARD:
            if self.claim is not None:
                claim = self.claim[1]
                assert claim.tile is not None
                self.answers[seat][self.claim_at] = str(action_to_response(claim, action))
                if claim.kind is A.PUNG:
                    self.send(f"3 {seat} PENG {action.tile}")
                else:
                    self.send(f"3 {seat} CHI {TILES[claim.tile + 1]} {action.tile}")
                self.claim = None
            else:
                self.send(f"3 {seat} PLAY {action.tile}")
            if game.phase is not Phase.RESPOND:  # nobody could claim: the next seat draws
                self.draw((seat + 1) % 4)
        elif action.kind is A.CONCEALED_KONG:
            self.trackers[seat].respond(action_to_response(action))
            self.send(f"3 {seat} GANG")
            self.draw(seat)
        elif action.kind is A.ADDED_KONG:
            self.send(f"3 {seat} BUGANG {action.tile}")
            if game.phase is not Phase.ROB:
                self.draw(seat)

    def after_responses(self, discarder: int, acted: dict[int, Action]) -> None:
        if self.game.is_over:
            return
        claims = [(s, a) for s, a in acted.items() if a.kind in (A.PUNG, A.KONG)]
        claims = claims or [(s, a) for s, a in acted.items() if a.kind is A.CHOW]
        if not claims:
            self.draw((discarder + 1) % 4)
            return
        seat, action = claims[0]
        if action.kind is A.KONG:
            self.send(f"3 {seat} GANG")
            self.draw(seat)
        else:
            self.claim = (seat, action)


@pytest.mark.parametrize("seed", range(60))
def test_four_trackers_follow_a_whole_hand_of_the_engine(seed: int) -> None:
    bots = (
        ("random", "efficiency", "random", "efficiency"),
        ("fan", "random", "efficiency", "random"),
    )
    table = Table(seed, bots[seed % 2])
    table.play()
    assert table.compared > 40


@pytest.mark.parametrize("seed", range(60))
def test_trackers_agree_with_the_engine_on_botzone_walls_to_the_last_tile(seed: int) -> None:
    rules = TableRules(flowers=False, fan_profile="mil", wall_build="botzone")
    bots = (
        ("random", "efficiency", "random", "efficiency"),
        ("fan", "random", "efficiency", "random"),
    )
    table = Table(seed, bots[seed % 2], rules)
    table.play()
    assert table.compared > 40


def test_the_docs_example_hand_is_answered_as_shown() -> None:
    text = (ROOT / "docs" / "botzone.md").read_text(encoding="utf-8")
    block = text.split("### A hand, as seat 1 sees it")[1].split("```text\n")[1].split("```")[0]
    rows = [re.split(r"\s{2,}", line.strip()) for line in block.splitlines() if line.strip()]
    seat, bot = BotzoneSeat(), make_bot("fan", 1, BOTZONE_RULES)
    for request, answer in rows:
        seat.feed(request)
        response = choose_response(bot, seat)
        seat.respond(response)
        assert str(response) == answer, request
    assert [r for r, _ in rows] == [*GAME[:4], *(r for r, _ in rows[4:])]


def check_answers(requests: list[str], answers: list[str]) -> None:
    """Every answer is legal for the state its request leaves (a claim's discard too)."""
    tracker = BotzoneSeat(RULES)
    for request, answer in zip(requests, answers, strict=True):
        tracker.feed(request)
        response = parse_response(answer)
        legal = tracker.legal_actions
        if not legal:
            assert answer == "PASS", request
        else:
            actions = response_to_actions(response, tracker.view().last_discard)
            assert actions[0] in legal, (request, answer)
            if len(actions) == 2:
                assert actions[1] in tracker.claim_view(actions[0]).legal_actions
        tracker.respond(response)


@pytest.mark.parametrize(("seed", "seat"), [(3, 1), (8, 2), (13, 3)])
def test_cli_plays_a_whole_hand_in_every_transport(seed: int, seat: int) -> None:
    rules = TableRules(flowers=False, fan_profile="mil", wall_build="botzone")
    kinds = ("fan", "efficiency", "random", "efficiency")
    table = Table(seed, kinds, rules)
    table.play()
    requests = table.logs[seat]
    bot = ["--bot", kinds[seat], "--seed", str(seed * 10 + seat)]
    done = subprocess.run(
        cli(*bot, "--keep-running"),
        input="1\n" + "\n".join(requests) + "\n",
        text=True,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1::2] == [KEEP_RUNNING] * len(requests)
    answers = lines[0::2]
    check_answers(requests, answers)
    # the same bot sees the same view: the engine's very choices
    expected = [table.answers[seat].get(i, "PASS") for i in range(len(requests))]
    assert answers == expected
    # restarted each turn (JSON, simple) at a few turns: the whole history in, one answer out
    for n in sorted({len(requests) // 3, 2 * len(requests) // 3, len(requests)}):
        history = json.dumps({"requests": requests[:n], "responses": answers[: n - 1]})
        simple = [str(n), *(x for pair in zip(requests, answers, strict=True) for x in pair)][
            : 2 * n
        ]
        for stdin in (history + "\n", "\n".join(simple) + "\n"):
            done = subprocess.run(
                cli(*bot), input=stdin, text=True, capture_output=True, check=False
            )
            assert done.returncode == 0, done.stderr
            out = done.stdout.strip()
            answer = json.loads(out)["response"] if out.startswith("{") else out
            check_answers(requests[:n], [*answers[: n - 1], answer])
