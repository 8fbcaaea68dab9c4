"""The seventh audit of the Botzone tracker (docs/botzone.md, docs/rules.md §20): requests the
judge never sends at the end of its segmented wall are refused, each naming the request and why.

- a draw (``2 T``, ``3 p DRAW``, a kong's replacement) for a seat whose own segment is empty:
  the judge draws the hand instead (荒牌), though other segments still hold tiles;
- a chow, pung or kong of the last discard (the next seat's segment is empty): it may only be won;
- a concealed or added kong with one's own segment empty, or on the last tile drawn: the judge
  makes it a foul, so no other seat ever hears of it. The tracker offered that kong itself after
  drawing the last tile with a tile left in its own segment (the engine and the judge do not).

A kong melded on a discard with the konger's segment empty is still taken (the judge accepts it,
then draws the hand): only the replacement that cannot come is refused.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest

import test_botzone_protocol as bz
from guobiao.botzone.protocol import BotzoneSeat, ProtocolError, Request, serve
from guobiao.core.melds import MeldKind
from guobiao.table.game import Action
from guobiao.table.game import ActionKind as A
from test_botzone_protocol import HAND, before_the_last_turn, seat_after, spend, t, wall_tiles


def refused(tracker: BotzoneSeat, line: str, *words: str) -> None:
    """``line`` is refused, the message naming it and saying why (``words``)."""
    with pytest.raises(ProtocolError) as err:
        tracker.feed(line)
    message = str(err.value)
    assert repr(line) in message, message
    for word in words:
        assert word in message, message


def after_the_last_discard() -> BotzoneSeat:
    """Seat 2 (me); seat 1's segment is empty (its concealed kong early) and seat 0 has just
    discarded T5 with its last tile: seat 1, next, has nothing left, so T5 is the last discard."""
    s = before_the_last_turn()
    assert s.view().discards[0].count(t("T5")) == 0
    s.feed("3 0 DRAW")
    s.feed("3 0 PLAY T5")
    assert s.segments == (0, 0, 1, 1) and s.wall_remaining == 2
    return s


# -- draws from an empty segment -------------------------------------------------------------


def test_a_draw_from_an_empty_segment_is_refused_though_the_wall_holds_tiles() -> None:
    s = after_the_last_discard()
    refused(s, "3 1 DRAW", "seat 1's wall segment is empty", "荒牌")
    refused(after_the_last_discard(), "2 J1", "out of turn")  # (seat 1 is due: not me)


def test_my_own_draw_from_my_empty_segment_is_refused() -> None:
    """Me (seat 0) after a concealed kong in the first round: my 21 tiles are drawn a turn
    before the others' (one each left), so seat 3's discard was the last and I draw nothing."""
    s = seat_after(f"1 0 0 0 0 {HAND}", "2 F4", seat=0)
    s.respond("GANG W1")
    s.feed("3 0 GANG")
    s.feed("2 J3")
    s.feed("3 0 PLAY J3")
    for seat in (1, 2, 3):
        s.feed(f"3 {seat} DRAW")
        s.feed(f"3 {seat} PLAY F4")
    spend(s, 19, avoid="J1")
    assert s.segments == (0, 1, 1, 1)
    refused(s, "2 J1", "my wall segment is empty")


def test_a_kongs_replacement_from_an_empty_segment_is_refused() -> None:
    """Seat 3 (segment empty: its concealed kong early) kongs seat 1's discard, which is not the
    last (seat 2 has a tile): taken, as the judge takes it; the replacement never comes."""
    s = seat_after(f"1 0 0 0 0 {bz.CHEAP}", seat=0)
    spend(s, 20, avoid="J1", kong=3)
    assert s.segments == (1, 1, 1, 0)
    drawn = next(wall_tiles(s, avoid="J1"))
    for line in (f"2 {drawn}", f"3 0 PLAY {drawn}", "3 1 DRAW", "3 1 PLAY J1", "3 3 GANG"):
        s.feed(line)
    (kong,) = s.view().melds[3]
    assert kong.kind is MeldKind.KONG and kong.tile == t("J1")
    refused(s, "3 3 DRAW", "seat 3's wall segment is empty")


# -- claims on the last discard --------------------------------------------------------------


@pytest.mark.parametrize(
    "line", ["3 1 CHI T5 J1", "3 1 CHI T6 J1", "3 1 PENG J1", "3 3 PENG J1", "3 3 GANG"]
)
def test_a_claim_on_the_last_discard_is_refused(line: str) -> None:
    s = after_the_last_discard()
    refused(s, line, "T5 is the last discard", "may only be won")


def test_a_claim_on_the_discard_before_the_last_is_taken() -> None:
    s = before_the_last_turn()  # seat 3 discarded T9; seat 0 still has a tile
    s.feed("3 0 PENG J1")
    assert [str(m.tile) for m in s.view().melds[0]] == ["T9"]


# -- kongs with no replacement ---------------------------------------------------------------


def test_a_concealed_kong_with_ones_own_segment_empty_is_refused() -> None:
    s = before_the_last_turn()
    s.feed("3 0 DRAW")  # seat 0's last tile: its segment and seat 1's are empty
    refused(s, "3 0 GANG", "seat 0 cannot kong now", "its segment is empty")


def rounds_with_kongs(s: BotzoneSeat, tiles: Iterator[str], rounds: int, kongs: int) -> None:
    """Whole rounds from seat 0 (me), each seat drawing and discarding the wall's next tile;
    seat 1 makes ``kongs`` concealed kongs in the first round (its segment runs out early)."""
    for n in range(rounds):
        drawn = next(tiles)
        s.feed(f"2 {drawn}")
        s.feed(f"3 0 PLAY {drawn}")
        for seat in (1, 2, 3):
            s.feed(f"3 {seat} DRAW")
            for _ in range(kongs if n == 0 and seat == 1 else 0):
                s.feed(f"3 {seat} GANG")
                s.feed(f"3 {seat} DRAW")
            s.feed(f"3 {seat} PLAY {next(tiles)}")


def test_no_kong_is_offered_or_taken_on_the_last_tile_drawn() -> None:
    """Me (seat 0, four W1) draw with seat 1's segment empty (two kongs early): the last tile.
    A tile is left in my own segment, but no kong is offered (§20, as the engine), and a kong
    announced then is refused."""
    s = seat_after(f"1 0 0 0 0 {HAND}", seat=0)
    tiles = wall_tiles(s, avoid="J1 J3 T9")
    rounds_with_kongs(s, tiles, 19, kongs=2)
    assert s.segments == (2, 0, 2, 2)
    s.feed(f"2 {next(tiles)}")
    assert s.segments == (1, 0, 2, 2)
    assert s.win_context(int(t("W1")), self_drawn=True).last_tile
    assert Action(A.CONCEALED_KONG, t("W1")) not in s.legal_actions
    assert s.legal_actions and all(a.kind is A.DISCARD for a in s.legal_actions)
    s.respond("GANG W1")
    refused(s, "3 0 GANG", "seat 0 cannot kong now", "it drew the last tile")


# -- the bot process -------------------------------------------------------------------------


class Recording(BotzoneSeat):
    """A tracker that keeps the requests it was fed (to give the bot process the history)."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def feed(self, request: Request | str) -> None:
        self.lines.append(str(request))
        super().feed(request)


def answers(lines: list[str], me: int) -> list[str]:
    """My answer to each request but the last: my own action where the next request is one."""
    out = []
    for after in lines[1:]:
        words = after.split()
        mine = words[0] == "3" and words[1] == str(me) and words[2] in ("PLAY", "GANG")
        out.append(" ".join(words[2:]) if mine else "PASS")
    return out


def test_the_bot_answers_a_draw_from_an_empty_segment_with_one_error_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bz, "BotzoneSeat", Recording)
    s = after_the_last_discard()
    assert isinstance(s, Recording)
    requests = [*s.lines, "3 1 DRAW"]
    data = json.dumps({"requests": requests, "responses": answers(requests, me=2)})
    out, err = io.StringIO(), io.StringIO()
    code = serve("efficiency", seed=1, stdin=io.StringIO(data + "\n"), stdout=out, stderr=err)
    assert (code, out.getvalue()) == (2, "")
    message = err.getvalue()
    assert message.count("\n") == 1 and message.startswith("error: ")
    assert f"request {len(requests)} '3 1 DRAW'" in message
    assert "seat 1's wall segment is empty" in message
