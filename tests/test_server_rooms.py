"""guobiao.server.rooms and .protocol: tables, validation, time-outs, bots, persistence (no HTTP)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from guobiao.core.melds import MeldKind
from guobiao.server.protocol import (
    ProtocolError,
    hints,
    parse_client_message,
    spectator_view,
    view_json,
)
from guobiao.server.rooms import PLACES, Limits, Lobby, Notice, Room, RoomError, default_action
from guobiao.server.store import RoomStore
from guobiao.table.game import PASS, Action, ActionKind, Game

FAST = Limits(first_discard=30, turn=15, claim=5, grace=30, bot_delay=0, between_hands=0, rate=20)


def human_room(seed: int = 7, limits: Limits = FAST, bots: str = "efficiency") -> Room:
    room = Lobby(limits).create(seed=seed, bot_kind=bots)
    place, token = room.join("me", 0)
    assert (place, token) == (0, room.places[0].token)
    room.add_bots(bots)
    room.connect(0)
    return room


def types(notices: list[Notice]) -> list[str]:
    return [n.message["type"] for n in notices]


def until_mine(room: Room, place: int, t: float) -> float:
    """Poll at each wake-up until the place has something to do (or the hand is over and no
    claim window open): the time then."""
    for _ in range(2000):
        room.poll(t)
        game = room.game
        assert game is not None
        if game.is_over and room.window is None:
            return t
        seat = room.seat_of(place)
        if room.view_of(seat).legal_actions:
            return t
        wake = room.next_wake(t)
        assert wake is not None
        t = max(t, wake)
    raise AssertionError("the table is stuck")


# -- before the start -------------------------------------------------------------------------


def test_join_places_and_refusals() -> None:
    room = Lobby(FAST).create()
    assert room.join("Ann")[0] == 0
    assert room.join("Bob", 2)[0] == 2
    with pytest.raises(RoomError) as err:
        room.join("Cid", 2)
    assert err.value.code == "taken"
    invisible = (
        "\u200b",  # zero width space
        "Ann\u202e",  # right-to-left override: spoofs the names after it
        "A\x00",
        "\x1b[31mred",
        "\u3164",  # Hangul filler: a letter that draws nothing
        "Bo\U000e0041",  # a tag character
        "\u0301\u0301",  # combining marks alone
    )
    for bad in ("", " ", "x" * 25, *invisible):
        with pytest.raises(RoomError) as err:
            room.join(bad)
        assert err.value.code == "bad_name", repr(bad)
    for good in ("李明", "José", "Zoë", "Ann-Marie O'Neil", "김민준", "🀄 Lucky"):
        other = Lobby(FAST).create()
        place, _ = other.join(good)
        assert other.places[place].name == good
    with pytest.raises(RoomError) as err:
        room.join("Dee", 7)
    assert err.value.code == "bad_place"
    with pytest.raises(RoomError) as err:
        room.start(0.0)
    assert err.value.code == "not_full"
    assert room.add_bots("random") == [1, 3]
    with pytest.raises(RoomError) as err:
        room.join("Eve")
    assert err.value.code == "started" or err.value.code == "full"
    with pytest.raises(RoomError) as err:
        room.add_bots("nonsense")
    assert err.value.code == "bad_bot"
    notices = room.start(0.0)
    assert types(notices) == ["hand_start"]
    with pytest.raises(RoomError) as err:
        room.join("Eve")
    assert err.value.code == "started"
    assert room.place_of_token(room.places[0].token) == 0
    assert room.place_of_token("forged") is None


def test_private_rooms_need_the_invite_to_watch() -> None:
    lobby = Lobby(FAST)
    private = lobby.create(private=True)
    public = lobby.create()
    assert private.invite
    assert not private.may_watch("") and not private.may_watch("nope")
    assert private.may_watch(private.invite) and private.may_watch(private.watch_token)
    assert public.may_watch("") and public.may_watch(public.watch_token)
    assert not public.may_watch("forged")
    assert [r["id"] for r in lobby.public()] == [public.id]
    assert "token" not in json.dumps(private.info())


def test_the_lobby_lists_no_table_its_people_have_left() -> None:
    """Open tables: waiting ones, and started ones only while a person is connected (bots may
    finish a left table, but the lobby does not pile them up)."""
    lobby = Lobby(FAST)
    waiting = lobby.create()
    waiting.join("Ann", 0)
    left = lobby.create()
    left.join("Bo", 0)
    left.add_bots()
    left.start(0.0)
    assert [r["id"] for r in lobby.public()] == [waiting.id]  # nobody at the started table
    left.connect(0)
    assert [r["id"] for r in lobby.public()] == [waiting.id, left.id]
    left.connect(None)  # a spectator is not a player
    left.disconnect(0, 1.0)
    assert [r["id"] for r in lobby.public()] == [waiting.id]
    bots_only = lobby.create()
    bots_only.add_bots()
    bots_only.start(0.0)
    assert bots_only.id not in [r["id"] for r in lobby.public()]


# -- acting -----------------------------------------------------------------------------------


def test_act_is_validated_against_the_legal_actions() -> None:
    room = human_room()
    with pytest.raises(RoomError) as err:
        room.act(0, PASS, 0.0)
    assert err.value.code == "not_started"
    room.start(0.0)
    game = room.game
    assert game is not None
    seat = room.seat_of(0)
    assert seat == 0  # place A deals the first hand
    legal = game.legal_actions(seat)
    before = json.dumps(room.state_for(0, 0.0), sort_keys=True)
    for bad in (PASS, Action(ActionKind.PUNG, game.view(0).hand[0]), Action(ActionKind.WIN)):
        if bad in legal:
            continue
        with pytest.raises(RoomError) as err:
            room.act(0, bad, 0.0)
        assert err.value.code == "illegal_action"
    assert json.dumps(room.state_for(0, 0.0), sort_keys=True) == before  # nothing changed
    # a bot's place has nothing to do now
    with pytest.raises(RoomError) as err:
        room.act(1, legal[-1], 0.0)
    assert err.value.code == "not_your_turn"
    discard = next(a for a in legal if a.kind is ActionKind.DISCARD)
    notices = room.act(0, discard, 0.0)
    assert {"type": "event", "seat": 0, "action": str(discard)} in [n.message for n in notices]
    assert len(game.history) == 1


def test_bots_play_until_the_person_must_act() -> None:
    room = human_room(seed=11)
    room.start(0.0)
    game = room.game
    assert game is not None
    rng = random.Random(3)
    t = 0.0
    for _ in range(400):
        t = until_mine(room, 0, t)
        if game.is_over and room.window is None:
            break
        seat = room.seat_of(0)
        assert seat is not None
        # bots act at once (bot_delay 0); a claim window lasts its 5 s whoever may claim
        legal = room.view_of(seat).legal_actions
        action = Action(ActionKind.WIN) if Action(ActionKind.WIN) in legal else rng.choice(legal)
        room.act(0, action, t)
    assert game.is_over


def test_a_whole_session_of_bots_ends_with_scores_and_standard_points() -> None:
    room = Lobby(FAST).create(seed=5)
    room.add_bots("efficiency")
    notices = room.start(0.0) + room.poll(0.0, max_steps=100_000)
    assert room.ended
    assert types(notices).count("hand_start") == 16
    assert types(notices).count("hand_end") == 16
    end = notices[-1].message
    assert end["type"] == "session_end"
    assert sum(end["scores"]) == 4 * 500
    assert len(end["standard_points"]) == 4
    wins = [n.message for n in notices if n.message["type"] == "hand_end"]
    won = [m for m in wins if m["result"]["winner"] is not None]
    assert won, "efficiency bots win some hands"
    fans = won[0]["result"]["fans"]
    assert all({"zh", "en", "points", "count"} <= set(f) for f in fans)
    assert won[0]["result"]["winning_hand"]["concealed"]


# -- time -------------------------------------------------------------------------------------


def test_time_outs_act_for_the_person_with_the_documented_default() -> None:
    limits = Limits(
        first_discard=3, turn=2, claim=1, grace=100, bot_delay=0, between_hands=0, auto_after=999
    )
    room = human_room(seed=2, limits=limits)
    room.start(10.0)
    game = room.game
    assert game is not None
    drawn = game.view(0).drawn
    assert drawn is not None
    assert room.state_for(0, 11.0)["deadline"] == pytest.approx(2.0)
    assert room.poll(12.9) == []  # 30 s for the dealer's first discard: not yet
    assert room.next_wake(12.0) == pytest.approx(13.0)
    notices = room.poll(13.0)
    timeout = notices[0].message
    action = f"discard {drawn}"
    assert timeout == {
        "type": "timeout",
        "code": "timeout",
        "params": {"seat": 0, "name": "me", "action": action},
        "seat": 0,
        "name": "me",
        "action": action,
    }
    assert game.history[0] == (0, Action(ActionKind.DISCARD, drawn))
    assert notices[0].to is None  # a turn's time-out is told to everyone
    # later turns: 2 s from the previous discard; claims: the 1 s window, then a pass
    t = 13.0
    kinds = set()
    for _ in range(300):
        if game.is_over and room.window is None:
            break
        seat = room.seat_of(0)
        assert seat is not None
        window = room.window
        legal = room.view_of(seat).legal_actions
        if legal:
            claiming = window is not None
            expected = default_action(game, seat)
            ends = window.ends if window is not None else room.decision_at + 2.0
            assert room.poll(ends - 0.01) == []
            t = ends
            got = [n for n in room.poll(t) if n.message["type"] == "timeout"]
            assert got[0].message["action"] == str(expected)
            # a claim's time-out only to the seat: others must not learn it could claim
            assert got[0].to == (0 if claiming else None)
            kinds.add(claiming)
        else:
            wake = room.next_wake(t)
            assert wake is not None
            t = max(t, wake)
            room.poll(t)
    assert game.is_over
    assert kinds == {True, False}


def test_default_action() -> None:
    rng = random.Random(0)
    seen: set[str] = set()
    picked: set[bool] = set()  # whether the lot fell on the highest tile
    for seed in range(200):
        game = Game(seed=seed)
        while not game.is_over and (len(seen) < 3 or len(picked) < 2):
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            choice = default_action(game, seat)
            assert choice in legal
            view = game.view(seat)
            if PASS in legal:
                assert choice == PASS
                seen.add("pass")
            elif view.drawn is not None:
                assert choice == Action(ActionKind.DISCARD, view.drawn)
                seen.add("drawn")
            else:
                assert choice.kind is ActionKind.DISCARD and choice.tile in view.hand
                assert default_action(game, seat) == choice  # the same when asked again
                seen.add("after a claim")
                picked.add(choice.tile == max(view.hand))
            claims = [a for a in legal if a.kind in (ActionKind.CHOW, ActionKind.PUNG)]
            game.act(seat, claims[0] if claims else rng.choice(legal))
        if len(seen) == 3 and len(picked) == 2:
            break
    assert seen == {"pass", "drawn", "after a claim"}
    # by lot, not a rule the others could read the hand from (the highest tile was once)
    assert picked == {True, False}
    with pytest.raises(ValueError):
        default_action(game, (game.to_act[0] + 1) % 4 if game.to_act else 0)


def test_a_disconnected_person_is_played_by_a_bot_after_the_grace_period() -> None:
    limits = Limits(first_discard=100, turn=100, claim=100, grace=5, bot_delay=0, between_hands=0)
    room = human_room(seed=4, limits=limits)
    room.start(0.0)
    game = room.game
    assert game is not None
    room.disconnect(0, 1.0)
    assert room.poll(5.9) == []
    assert room.next_wake(2.0) == pytest.approx(6.0)
    assert room.bot_plays(0, 6.0)
    notices = room.poll(6.0, max_steps=5)
    assert "timeout" not in types(notices)
    assert game.history and game.history[0][0] == 0
    room.connect(0)  # back: the seat is the person's again
    assert not room.bot_plays(0, 100.0)
    room.poll(7.0)
    assert room.seat_of(0) in game.to_act or game.is_over


def test_a_grace_period_already_over_when_the_server_looks_is_told_at_once() -> None:
    # Bo never came; Ann (connected) has the first discard. A loaded server first asks when to
    # wake after Bo's grace ended: at once (his place flagged "bot playing", every page told),
    # not at Ann's time-out 100 s on
    limits = Limits(first_discard=100, turn=100, claim=100, grace=5, bot_delay=0, between_hands=0)
    room = Lobby(limits).create(seed=4, bot_kind="efficiency")
    room.join("Ann", 0)
    room.join("Bo", 1)
    room.add_bots("efficiency")
    room.connect(0)
    room.start(0.0)
    assert room.game is not None and room.game.to_act == (room.seat_of(0),)
    room.poll(4.9)
    assert not room.places[1].bot_playing
    assert room.next_wake(7.0) == pytest.approx(7.0)
    version = room.version
    room.poll(7.0)
    assert room.places[1].bot_playing and room.version == version + 1
    assert room.next_wake(7.0) == pytest.approx(100.0)  # told once: Ann's turn again


# -- what a seat sees -------------------------------------------------------------------------


def _find_concealed_kong() -> Game:
    for seed in range(2000):
        game = Game(seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            kongs = [a for a in legal if a.kind is ActionKind.CONCEALED_KONG]
            if kongs:
                game.act(seat, kongs[0])
                return game
            wins = [a for a in legal if a.kind is not ActionKind.WIN]
            game.act(seat, rng.choice(wins))
    raise AssertionError("no concealed kong in 2000 hands")


def test_views_hide_concealed_tiles_and_face_down_kongs() -> None:
    game = _find_concealed_kong()
    konger = next(
        s for s in range(4) if any(m.kind is MeldKind.CONCEALED_KONG for m in game.hand_of(s).melds)
    )
    spectator = spectator_view(game)
    assert spectator.hand == () and spectator.drawn is None and spectator.legal_actions == ()
    assert all(m.kind is not MeldKind.CONCEALED_KONG for melds in spectator.melds for m in melds)
    assert spectator.concealed_kongs[konger] == 1
    for seat in range(4):
        data = view_json(game.view(seat))
        assert data["hand"] == [str(t) for t in sorted(game.hand_of(seat).concealed)]
        kinds = [m["kind"] for m in data["melds"][konger]]
        assert ("concealed_kong" in kinds) == (seat == konger)
        assert "wall" not in data  # only its size
    text = json.dumps(view_json(spectator))
    assert '"hand": []' in text


def test_state_messages_carry_only_the_own_hand() -> None:
    room = human_room(seed=9)
    room.start(0.0)
    room.poll(0.0)
    game = room.game
    assert game is not None
    mine = room.state_for(0, 0.0)
    seat = room.seat_of(0)
    assert seat is not None
    assert mine["view"]["hand"] == [str(t) for t in sorted(game.hand_of(seat).concealed)]
    assert mine["hints"] is not None and "shanten" in mine["hints"]
    watcher = room.state_for(None, 0.0)
    assert watcher["view"]["hand"] == [] and watcher["hints"] is None
    assert watcher["view"]["legal_actions"] == []

    def keys(obj: Any) -> set[str]:
        if isinstance(obj, dict):
            return set(obj) | {k for v in obj.values() for k in keys(v)}
        if isinstance(obj, list):
            return {k for v in obj for k in keys(v)}
        return set()

    for state in (mine, watcher):
        assert not keys(state) & {"wall", "walls", "build", "dice", "deal", "token", "actions"}


def test_hints() -> None:
    game = Game(seed=1)
    got = hints(game.view(0))  # the dealer holds 14: the best discards
    assert got is not None and got["discards"] and len(got["unseen"]) == 34
    assert got["shanten"] == got["discards"][0]["shanten"]
    other = hints(game.view(1))  # 13: useful tiles with live counts
    assert other is not None and not other["discards"] and other["useful"]


def test_client_messages_are_parsed_strictly() -> None:
    assert parse_client_message('{"type": "ping"}').type == "ping"
    msg = parse_client_message('{"type": "action", "action": "chow W3W4W5"}')
    assert msg.action == Action(ActionKind.CHOW, Action.parse("chow W3W4W5").tile)
    assert msg.decision is None
    answered = parse_client_message('{"type": "action", "action": "pass", "decision": 7}')
    assert answered.decision == 7 and answered.action == Action.parse("pass")
    for text, code in [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": "hack"}', "bad_message"),
        ('{"type": "action"}', "bad_message"),
        ('{"type": "action", "action": 5}', "bad_message"),
        ('{"type": "action", "action": "steal W1"}', "bad_action"),
        ('{"type": "action", "action": "discard Z9"}', "bad_action"),
        ('{"type": "action", "action": "pass", "decision": true}', "bad_message"),
        ('{"type": "action", "action": "pass", "decision": -1}', "bad_message"),
        ('{"type": "action", "action": "pass", "decision": "3"}', "bad_message"),
        ('{"type": "action", "action": "pass", "decision": 1.5}', "bad_message"),
        ("[" * 5000, "too_long"),
    ]:
        with pytest.raises(ProtocolError) as err:
            parse_client_message(text)
        assert err.value.code == code, text


# -- persistence ------------------------------------------------------------------------------


def test_a_room_round_trips_mid_hand(tmp_path: Any) -> None:
    room = human_room(seed=21)
    room.start(0.0)
    rng = random.Random(1)
    game = room.game
    assert game is not None
    t = 0.0
    for _ in range(6):
        t = until_mine(room, 0, t)
        seat = room.seat_of(0)
        assert seat is not None
        legal = [a for a in room.view_of(seat).legal_actions if a.kind is not ActionKind.WIN]
        room.act(0, rng.choice(legal), t)
    t = until_mine(room, 0, t)
    assert room.window is None
    store = RoomStore(tmp_path / "rooms.sqlite3")
    store.save(room.id, room.to_dict())
    store.close()
    (data,) = RoomStore(tmp_path / "rooms.sqlite3").load_all()
    back = Room.from_dict(data, FAST, 50.0)
    for place in (0, 1, 2, 3, None):
        old = room.state_for(place, t)
        new = back.state_for(place, 50.0)
        assert new["view"] == old["view"]
        assert new["scores"] == old["scores"]
    assert back.place_of_token(room.places[0].token) == 0
    assert back.owner_token == room.owner_token
    assert back.places[0].left_at == 50.0  # the person must reconnect
    # the same action plays on both
    seat = room.seat_of(0)
    assert seat is not None
    action = room.game.legal_actions(seat)[0]  # type: ignore[union-attr]
    room.act(0, action, t)
    back.act(0, action, 50.0)
    assert back.state_for(0, 50.0)["view"] == room.state_for(0, t)["view"]


def test_a_finished_session_round_trips() -> None:
    room = Lobby(FAST).create(seed=8)
    room.add_bots("random")
    room.start(0.0)
    room.poll(0.0, max_steps=100_000)
    back = Room.from_dict(json.loads(json.dumps(room.to_dict())), FAST, 0.0)
    assert back.ended and back.scores() == room.scores()
    assert back.session_end() == room.session_end()
    assert back.next_wake(0.0) is None


def test_places_are_players_a_to_d_who_rotate_seats() -> None:
    room = Lobby(FAST).create(seed=3)
    room.add_bots("random")
    room.start(0.0)
    seats = []
    for _ in range(5):
        seats.append(room.seat_of(0))
        room.poll(0.0, max_steps=1)  # one action at a time until the hand ends
        while room.game is not None and not (room.game.is_over and room.window is None):
            room.poll(0.0, max_steps=1)
        room.poll(0.0, max_steps=1)  # the next hand
    assert seats[0] == 0 and seats[1] == 3  # 庄家不连庄: the dealer is North next hand
    assert PLACES == ("A", "B", "C", "D")


def test_between_hands_every_place_still_sees_its_own_seat_of_the_finished_hand() -> None:
    limits = Limits(bot_delay=0, between_hands=100, bots_between=100)
    room = Lobby(limits).create(seed=6)
    room.add_bots("efficiency")
    room.start(0.0)
    room.poll(0.0, max_steps=100_000)
    game = room.game
    assert game is not None and game.is_over and room.session is not None
    assert room.session.hand_number == 1  # recorded: the session seats the next hand already
    played = room.session.history[0].seats
    for place in range(4):
        state = room.state_for(place, 1.0)
        seat = played.index(PLACES[place])
        assert state["seat"] == seat
        assert state["view"]["hand"] == [str(t) for t in sorted(game.hand_of(seat).concealed)]
        assert state["last_hand"]["hand_number"] == 0
        assert state["next_hand_in"] == pytest.approx(99.0)
    assert room.names_by_seat() == [room.places[PLACES.index(p)].name for p in played]
    room.poll(100.0, max_steps=1)  # the next hand starts
    assert len(room.games) == 2 and room.seat_of(0) == room.session.seat_of("A") == 3


def test_the_number_of_open_rooms_is_capped() -> None:
    lobby = Lobby(Limits(max_rooms=2))
    lobby.create()
    lobby.create()
    with pytest.raises(RoomError) as err:
        lobby.create()
    assert err.value.code == "busy"
