"""Fair tables: nothing a seat receives depends on what another seat may do (the claim window
after every discard, 第七条六), the time limits of 第七条四 and 六, auto-play, every clock
public (``state.timers``), the next hand when everyone is ready, 404 pages, translatable
errors (docs/web.md)."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from guobiao.server.protocol import spectator_view
from guobiao.server.rooms import Limits, Lobby, Notice, Room, RoomError, default_action, window_view
from guobiao.table.game import PASS, Action, ActionKind, Game, Phase

ROOT = Path(__file__).resolve().parents[1]
Receiver = int | None  # a place, or None: a spectator


class Table:
    """A room and what each client receives, as the server's hub delivers it: after a poll that
    changed something, every client its notices and its state; after an action only noted (a
    claim during a window), that place alone."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.log: dict[Receiver, list[tuple[float, dict[str, Any]]]] = {
            r: [] for r in (0, 1, 2, 3, None)
        }

    def publish(self, notices: list[Notice], now: float, only: int | None = None) -> None:
        for receiver, log in self.log.items():
            if only is not None and receiver != only:
                continue
            me = receiver if receiver is not None else -1
            for notice in notices:
                if notice.to is None or notice.to == me:
                    log.append((now, notice.message))
            log.append((now, self.room.state_for(receiver, now)))

    def poll(self, now: float) -> None:
        before = self.room.version
        notices = self.room.poll(now)
        if notices or self.room.version != before:
            self.publish(notices, now)

    def act(self, place: int, action: Action, now: float) -> None:
        before = self.room.version
        notices = self.room.act(place, action, now)
        self.publish(notices, now, only=None if self.room.version != before else place)

    def run(self, start: float, until: float, plan: dict[float, tuple[int, Action]]) -> None:
        """Wake up as the server does (at ``next_wake`` and at each planned action) until
        ``until``."""
        t = start
        while t <= until:
            self.poll(t)
            if t in plan:
                self.act(*plan[t], t)
            wake = self.room.next_wake(t)
            planned = [p for p in plan if p > t]
            times = [x for x in [wake, *planned] if x is not None and x > t]
            if not times:
                break
            t = min(times)


def people_room(seed: int, limits: Limits | None = None, bots: tuple[int, ...] = ()) -> Room:
    room = Lobby(limits or Limits()).create(seed=seed, name="T")
    for place in range(4):
        if place in bots:
            room.add_bots("efficiency", place)
        else:
            room.join(f"P{place}", place)
            room.connect(place)
    return room


def claimers_after(game: Game, tile: Any) -> tuple[int, ...]:
    trial = copy.deepcopy(game)
    trial.act(0, Action(ActionKind.DISCARD, tile))
    return trial.to_act if trial.phase is Phase.RESPOND else ()


def find_deal() -> tuple[int, Any, Any, tuple[int, ...], int]:
    """A seed whose dealer may discard ``quiet`` (nobody can claim) or ``open`` (some seats
    can): the seed, both tiles, the claimers and a place that can claim neither (not the
    dealer)."""
    for seed in range(300):
        room = people_room(seed)
        room.start(0.0)
        game = room.game
        assert game is not None
        tiles = sorted(
            {
                a.tile
                for a in game.legal_actions(0)
                if a.kind is ActionKind.DISCARD and a.tile is not None
            }
        )
        quiet = [t for t in tiles if not claimers_after(game, t)]
        open_ = [(t, claimers_after(game, t)) for t in tiles]
        for tile, claimers in open_:
            observers = [p for p in (1, 2, 3) if p not in claimers]
            if claimers and quiet and observers:
                return seed, quiet[0], tile, claimers, observers[0]
    raise AssertionError("no deal with both kinds of discard")


def normal(log: list[tuple[float, dict[str, Any]]], tiles: tuple[str, ...]) -> str:
    """The messages with their times, the room's id and the two discarded tiles' names masked,
    the hint panel left out (its live counts count the discard)."""
    out = []
    for t, message in log:
        message = {k: v for k, v in message.items() if k != "hints"}
        if isinstance(message.get("room"), dict):
            message["room"] = {**message["room"], "id": "?"}
        out.append([round(t, 6), message])
    text = json.dumps(out, sort_keys=True)
    for tile in tiles:
        text = re.sub(rf"\b{tile}\b", "??", text)
    return text


# -- 1. the claim window is the same whoever may claim ------------------------------------------


@pytest.mark.parametrize("answer", ["pass", "timeout"])
def test_a_seat_and_a_spectator_receive_the_same_whether_or_not_another_seat_could_claim(
    answer: str,
) -> None:
    seed, quiet, open_tile, claimers, observer = find_deal()
    logs = {}
    for tile in (quiet, open_tile):
        room = people_room(seed)
        table = Table(room)
        table.publish(room.start(0.0), 0.0)
        plan: dict[float, tuple[int, Action]] = {1.0: (0, Action(ActionKind.DISCARD, tile))}
        if tile == open_tile and answer == "pass":
            for claimer in claimers:  # the claimers pass after a second (noted, not shown)
                plan[2.0 + claimer / 10] = (room.place_at(claimer), PASS)
        table.run(0.0, 12.0, plan)
        if tile == open_tile:  # the claimers did see their claims, in their own view only
            for claimer in claimers:
                place = room.place_at(claimer)
                seen = [m for _, m in table.log[place] if m["type"] == "state"]
                assert any(len(m["view"]["legal_actions"]) > 1 for m in seen)
        logs[tile] = table.log
    names = (str(quiet), str(open_tile))
    for receiver in (observer, None):
        a, b = logs[quiet][receiver], logs[open_tile][receiver]
        assert normal(a, names) == normal(b, names), f"receiver {receiver}"
        states = [(t, m) for t, m in a if m["type"] == "state"]
        # during the window everyone sees the discard open to claims, for the fixed 3 s
        during = [m for t, m in states if 1.0 <= t < 4.0]
        assert during and all(m["view"]["phase"] == "respond" for m in during)
        assert all(m["timers"]["claim"] is not None for m in during)
        after = [m for t, m in states if t >= 4.0]
        assert after and after[0]["view"]["phase"] == "act"
        assert [t for t, m in states if 1.0 < t < 12.0] == [4.0]  # one change: the window's end


def test_the_window_views_are_the_engine_views_with_the_claims_hidden() -> None:
    """window_view (what everyone sees while the window is open) equals the engine's own view
    whenever the engine does stop for claims: the same table, only the legal actions differ."""
    checked = {ActionKind.DISCARD: 0, ActionKind.ADDED_KONG: 0}
    for seed in range(60):
        game = Game(seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            if game.phase is Phase.ACT:
                kongs = [a for a in legal if a.kind is ActionKind.ADDED_KONG]
                discards = [a for a in legal if a.kind is ActionKind.DISCARD]
                action = kongs[0] if kongs else rng.choice(discards)
                before = [game.view(s) for s in range(4)]
                spectator = spectator_view(game)
                game.act(seat, action)
                if game.phase in (Phase.RESPOND, Phase.ROB):
                    kong = None
                    if action.kind is ActionKind.ADDED_KONG:
                        kong = next(
                            m
                            for m in game.hand_of(seat).melds
                            if m.kind.value == "kong" and m.tile == action.tile
                        )
                    for s in range(4):
                        real = game.view(s)
                        assert window_view(before[s], seat, action, kong) == type(real)(
                            **{**_fields(real), "legal_actions": ()}
                        )
                    real_spec = spectator_view(game)
                    assert window_view(spectator, seat, action, kong) == real_spec
                    checked[action.kind] += 1
            else:
                claims = [a for a in legal if a is not PASS and a.kind is not ActionKind.WIN]
                game.act(seat, rng.choice(claims) if claims and rng.random() < 0.5 else PASS)
    assert checked[ActionKind.DISCARD] > 100 and checked[ActionKind.ADDED_KONG] >= 0


def _fields(view: Any) -> dict[str, Any]:
    return {name: getattr(view, name) for name in view.__dataclass_fields__}


def test_claims_are_collected_and_applied_at_the_window_end() -> None:
    seed, _, open_tile, claimers, observer = find_deal()
    room = people_room(seed)
    room.start(0.0)
    room.act(0, Action(ActionKind.DISCARD, open_tile), 1.0)
    claimer = claimers[0]
    place = room.place_at(claimer)
    legal = room.view_of(claimer).legal_actions
    claim = next(a for a in legal if a is not PASS and a.kind is not ActionKind.WIN)
    version = room.version
    assert room.act(place, claim, 1.5) == []
    assert room.version == version  # noted: nobody else learns of it now
    assert room.state_for(observer, 1.5)["view"]["phase"] == "respond"
    assert room.view_of(claimer).legal_actions == ()  # answered once
    # the claimer is shown its own answer (the page confirms the tap); nobody else sees it
    assert room.state_for(place, 1.5)["answered"] == str(claim)
    assert "answered" not in room.state_for(observer, 1.5)
    assert "answered" not in room.state_for(None, 1.5)
    with pytest.raises(RoomError) as err:
        room.act(place, PASS, 1.6)
    assert err.value.code == "not_your_turn"
    for other in claimers[1:]:
        room.act(room.place_at(other), PASS, 1.7)
    assert room.poll(3.99) == []
    notices = room.poll(4.0)
    events = [n.message for n in notices if n.message["type"] == "event"]
    assert events and events[0]["seat"] == claimer
    # 第七条六: the claimer's 15 s run from the discard: 12 s left at the window's end
    assert room.state_for(place, 4.0)["deadline"] == pytest.approx(12.0)


def test_a_table_with_no_person_resolves_claims_at_once() -> None:
    room = Lobby(Limits(bot_delay=0, bots_between=0)).create(seed=5)
    room.add_bots("efficiency")
    notices = room.start(0.0) + room.poll(0.0, max_steps=100_000)
    assert room.ended and [n.message["type"] for n in notices].count("hand_end") == 16


# -- 2. time limits (第七条四, 六) and auto-play -------------------------------------------------


def test_default_limits_are_the_competition_rules() -> None:
    limits = Limits()
    assert (limits.first_discard, limits.turn, limits.claim) == (30.0, 15.0, 3.0)
    assert limits.between_hands == 60.0 and limits.auto_after == 2


def test_turn_clocks_run_from_the_previous_discard() -> None:
    seed, quiet, _, _, _ = find_deal()
    room = people_room(seed)
    room.start(0.0)
    me = room.state_for(0, 0.0)
    assert me["deadline"] == pytest.approx(30.0)  # 第七条四: the dealer's first discard
    assert me["timers"] == {"turn": {"seat": 0, "left": 30.0}, "claim": None, "next_hand": None}
    room.act(0, Action(ActionKind.DISCARD, quiet), 5.0)
    south = room.place_at(1)
    for receiver in (0, 1, 2, 3, None):  # the same clocks for everyone
        state = room.state_for(receiver, 5.0)
        assert state["timers"] == {
            "turn": {"seat": 1, "left": 15.0},
            "claim": {"left": 3.0},
            "next_hand": None,
        }
        assert state["view"]["phase"] == "respond"
    room.poll(8.0)  # the window ends: South's 15 s started at the discard
    assert room.state_for(south, 8.0)["deadline"] == pytest.approx(12.0)
    assert room.state_for(None, 8.0)["timers"]["turn"] == {"seat": 1, "left": 12.0}
    assert room.poll(19.99) == []
    notices = room.poll(20.0)
    assert notices[0].message["type"] == "timeout" and notices[0].to is None


def test_two_turn_time_outs_in_a_row_hand_the_place_to_a_bot_until_it_acts() -> None:
    limits = Limits(first_discard=2, turn=2, claim=0.5, bot_delay=0.1, grace=1000)
    room = people_room(3, limits, bots=(1, 2, 3))
    table = Table(room)
    table.publish(room.start(0.0), 0.0)
    t = 0.0
    notices: list[dict[str, Any]] = []
    while not room.places[0].auto and t < 200:
        wake = room.next_wake(t)
        assert wake is not None
        t = max(t, wake)
        notices += [n.message for n in room.poll(t)]
    assert room.places[0].auto and room.places[0].timeouts == 2
    timeouts = [m for m in notices if m["type"] == "timeout" and m["seat"] == room.seat_of(0)]
    assert len(timeouts) == 2
    assert {"type": "notice", "code": "auto_on", "params": {"place": 0, "name": "P0"}} in notices
    assert room.info()["places"][0]["auto"] is True  # public
    assert room.bot_plays(0, t)
    # the bot plays the place: no more time-outs for it
    for _ in range(40):
        wake = room.next_wake(t)
        if wake is None or room.game is None or room.game.is_over:
            break
        t = max(t, wake)
        assert not [
            n for n in room.poll(t) if n.message["type"] == "timeout" and n.message["name"] == "P0"
        ]
    # {"type": "resume"} takes the place back
    back = room.resume(0)
    assert [n.message["code"] for n in back] == ["auto_off"]
    assert room.info()["places"][0]["auto"] is False and not room.bot_plays(0, t)
    with pytest.raises(RoomError) as err:
        room.resume(0)
    assert err.value.code == "not_auto"


def test_any_valid_action_ends_auto_play() -> None:
    limits = Limits(first_discard=2, turn=2, claim=0.5, bot_delay=5, grace=1000)
    room = people_room(3, limits, bots=(1, 2, 3))
    room.start(0.0)
    room.places[0].auto = True
    seat = room.seat_of(0)
    assert seat is not None
    action = room.view_of(seat).legal_actions[-1]
    notices = room.act(0, action, 1.0)  # before the bot's pause is over
    assert room.places[0].auto is False
    assert notices[0].message["code"] == "auto_off"


def test_a_claim_answered_on_auto_play_changes_nothing_public() -> None:
    """Ending auto-play on a claim would tell everyone that the seat could claim."""
    seed, _, open_tile, claimers, _ = find_deal()
    room = people_room(seed)
    room.start(0.0)
    room.act(0, Action(ActionKind.DISCARD, open_tile), 1.0)
    place = room.place_at(claimers[0])
    room.places[place].auto, room.places[place].timeouts = True, 1
    version = room.version
    assert room.act(place, PASS, 1.5) == []
    assert room.version == version
    assert room.places[place].auto is True and room.places[place].timeouts == 1
    assert room.info()["places"][place]["auto"] is True


def test_a_claim_time_out_does_not_count_towards_auto_play() -> None:
    seed, _, open_tile, claimers, _ = find_deal()
    room = people_room(seed)
    room.start(0.0)
    room.act(0, Action(ActionKind.DISCARD, open_tile), 1.0)
    place = room.place_at(claimers[0])
    notices = room.poll(4.0)
    private = [n for n in notices if n.message["type"] == "timeout"]
    assert private and all(n.to is not None for n in private)  # told to the seat only
    assert room.places[place].timeouts == 0 and not room.places[place].auto


# -- 3. every clock public ------------------------------------------------------------------------


def test_timers_are_the_same_for_every_receiver() -> None:
    limits = Limits(first_discard=2, turn=2, claim=0.5, bot_delay=0.1)
    room = people_room(1, limits, bots=(2, 3))
    room.start(0.0)
    t = 0.0
    seen = 0
    for _ in range(300):
        if room.ended:
            break
        states = [room.state_for(r, t) for r in (0, 1, 2, 3, None)]
        timers = [s["timers"] for s in states]
        assert all(x == timers[0] for x in timers)
        assert set(timers[0]) == {"turn", "claim", "next_hand"}
        seen += 1
        wake = room.next_wake(t)
        assert wake is not None
        t = max(t, wake) + 0.05
        room.poll(t)
        if room.game is not None and room.game.is_over and room.window is None:
            state = room.state_for(None, t)
            assert state["timers"]["next_hand"] is not None and state["timers"]["turn"] is None
            break
    assert seen > 10


# -- 4. the next hand when everyone is ready ---------------------------------------------------


def finish_hand(room: Room, t: float) -> float:
    """The people play the default action at once until the hand is over: the time then."""
    for _ in range(3000):
        game = room.game
        assert game is not None
        if game.is_over and room.window is None:
            return t
        for place in range(4):
            seat = room.seat_of(place)
            assert seat is not None
            if room.places[place].kind == "human" and room.view_of(seat).legal_actions:
                room.act(place, default_action(game, seat), t)
                break
        else:
            wake = room.next_wake(t)
            assert wake is not None
            t = max(t, wake)
            room.poll(t)
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("everyone", [True, False])
def test_the_next_hand_waits_for_every_person_to_be_ready(everyone: bool) -> None:
    limits = Limits(claim=0.2, bot_delay=0)
    room = people_room(4, limits, bots=(2, 3))
    room.start(0.0)
    with pytest.raises(RoomError) as err:
        room.set_ready(0)
    assert err.value.code == "not_between_hands"
    end = finish_hand(room, 0.0)
    assert len(room.games) == 1
    assert room.next_wake(end) == pytest.approx(end + 60.0)  # the new default
    assert room.state_for(0, end)["timers"]["next_hand"] == pytest.approx(60.0)
    room.set_ready(0)
    assert room.state_for(1, end + 1)["ready"] == [0]
    assert room.poll(end + 1) == [] and len(room.games) == 1
    if everyone:
        room.set_ready(1)
        notices = room.poll(end + 2)
    else:
        assert room.poll(end + 59.9) == []
        notices = room.poll(end + 60.0)
    assert notices[0].message["type"] == "hand_start" and len(room.games) == 2


# -- 5. 404s -------------------------------------------------------------------------------------


def test_unknown_tables_replays_and_tournaments_are_404(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from guobiao.server.app import create_app

    app = create_app(":memory:", tournament_db=f"sqlite:///{tmp_path / 't.db'}")
    with TestClient(app) as client:
        room = client.post("/api/rooms", json={"name": "t"}).json()["id"]
        assert client.get(f"/room/{room}").status_code == 200
        assert client.get(f"/room/{room}/replay").status_code == 200
        for path, back in [
            ("/room/nope", 'href="/"'),
            ("/room/nope/replay", 'href="/"'),
            ("/no/such/page", 'href="/"'),
            ("/t/nope", 'href="/t/"'),
            ("/t/nope/projector", 'href="/t/"'),
            ("/t/nope/referee", 'href="/t/"'),
            ("/t/nope/results", 'href="/t/"'),
            ("/t/nope/sheet/1/1", 'href="/t/"'),
            ("/t/%3Cscript%3E", 'href="/t/"'),
        ]:
            r = client.get(path)
            assert r.status_code == 404, path
            assert r.headers["content-type"].startswith("text/html"), path
            assert "找不到" in r.text and "not found" in r.text and back in r.text, path
            assert "<script" not in r.text
            assert r.headers["content-security-policy"].startswith("default-src 'self'")
        for path, code in [
            ("/api/rooms/nope", "no_room"),
            ("/api/rooms/nope/hands", "no_room"),
            ("/api/rooms/nope/hands/0", "no_room"),
            ("/api/t/nope", "no_tournament"),
            ("/api/t/nope/standings", "no_tournament"),
            ("/api/t/nope/clock", "no_tournament"),
            ("/api/nothing", "not_found"),
        ]:
            r = client.get(path)
            assert r.status_code == 404, path
            assert r.json()["detail"]["code"] == code, path


# -- 6. translatable messages --------------------------------------------------------------------


def test_every_error_and_notice_code_is_documented() -> None:
    source = "\n".join(
        (ROOT / "src/guobiao/server" / name).read_text()
        for name in ("rooms.py", "protocol.py", "app.py", "tournament.py")
    )
    calls = r'(?:RoomError|ProtocolError|_error|_notice|_refused)\(\s*(?:\d+,\s*)?"(\w+)"'
    codes = set(re.findall(calls, source)) | set(re.findall(r'"code": "(\w+)"', source))
    assert {"bad_token", "illegal_action", "auto_on", "auto_off", "not_found"} <= codes
    doc = (ROOT / "docs/web.md").read_text()
    missing = sorted(c for c in codes if f"`{c}`" not in doc)
    assert missing == []


def test_errors_carry_params() -> None:
    room = people_room(2)
    room.start(0.0)
    with pytest.raises(RoomError) as err:
        room.act(0, PASS, 0.0)
    assert err.value.code == "illegal_action"
    assert err.value.params["action"] == "pass" and "discard" in " ".join(err.value.params["legal"])


def test_the_hands_are_laid_open_only_once_the_hand_is_over() -> None:
    room = Lobby(Limits(bot_delay=0, bots_between=1e6, between_hands=1e6)).create(seed=5)
    room.add_bots("efficiency")
    room.start(0.0)
    game = room.games[0]
    for place in (None, 0, 1, 2, 3):  # during the hand: nobody is shown another's tiles
        assert "revealed" not in room.state_for(place, 0.0)
    room.poll(0.0, max_steps=100_000)  # the bots play the hand; the next waits
    assert game.is_over and len(room.games) == 1
    hands = [[str(t) for t in game.hand_of(s).concealed] for s in range(4)]
    for place in (None, 0, 1, 2, 3):
        assert room.state_for(place, 0.0)["revealed"] == hands
