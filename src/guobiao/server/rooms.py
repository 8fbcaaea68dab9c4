"""Rooms: one table of four places playing a 16-hand session, as the server's only authority.

Pure Python (no web framework, no clock of its own): every method that depends on time takes
``now`` (seconds, :func:`time.monotonic` in the server), so tests drive time by hand.

- A room has four *places* (A B C D: the players seated E S W N at the session's first hand; the
  seats then rotate as :func:`guobiao.table.session.seating` says). A place is empty, a person (with a
  secret join token) or a bot.
- :meth:`Room.act` validates a person's message against ``game.legal_actions(seat)``: anything
  else is a :class:`RoomError` and changes nothing.
- :meth:`Room.poll` moves the table on: bots act (after ``bot_delay``), a person who lets their
  time run out is acted for (:func:`default_action`: pass on a claim, discard the drawn tile or
  else the last tile of the hand; twice in a row on a turn and a bot plays them, ``auto``, until
  they act or resume), a disconnected person is played by a bot after ``grace``, the next hand
  starts when every connected person is ready, at most ``between_hands`` after a hand ends.
- Fairness (第七条六): after every discard and added kong a claim window of ``Limits.claim``
  seconds, the same whoever may claim (:class:`_Window`, :func:`window_view`): every client sees
  the same table at the same times, a seat its own claims only; claims are applied at its end.
  Turn clocks run from the previous discard (15 s; 30 s for the dealer's first discard, 第七条四);
  :meth:`Room.timers` shows every clock to everyone.
- :meth:`Room.replay`: a hand that is over, one frame per action, every seat face up (never the
  hand still in play); :meth:`Room.hands_info` lists the hands.
- :meth:`Room.to_dict` / :meth:`Room.from_dict`: the whole room as JSON (every hand's
  ``Game.record()``), so that a restarted server resumes it where it stood.
- Seeds are the server's (:mod:`secrets`): a chosen one is only for a *practice* table, where
  every other place is a bot (``info()["practice"]`` tells everyone).
- An empty place is taken with the room's invite (every room has one; the creator shares it).
- :meth:`Lobby.sweep`: rooms whose session is over, and rooms no socket has been open to for
  ``Limits.idle_close`` seconds, leave the lobby (the server keeps their hands in its database);
  so do, sockets open or not, a room not started ``Limits.wait_close`` after its last place was
  taken, and a started room with a person's place where no person has made a move of their own
  for ``Limits.quiet_close`` (:attr:`Room.active_at`).
"""

from __future__ import annotations

import functools
import random
import secrets
import unicodedata
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Final, Literal

from guobiao.bots import BOT_KINDS, Bot, make_bot
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.tiles import Tile
from guobiao.server.breakdown import hand_breakdown
from guobiao.server.protocol import (
    hand_end_json,
    hints,
    meld_json,
    public_action,
    replay_frames,
    spectator_view,
    view_json,
)
from guobiao.table.game import (
    PASS,
    Action,
    ActionKind,
    Game,
    IllegalActionError,
    Phase,
    SeatView,
)
from guobiao.table.glossary import BOT_NAME, TABLE_NAME
from guobiao.table.rules import COMPETITION
from guobiao.table.session import Session

__all__ = [
    "PLACES",
    "Limits",
    "Lobby",
    "Notice",
    "Place",
    "Room",
    "RoomError",
    "default_action",
    "same",
    "window_view",
]

THREADED_BOTS: Final = frozenset({"strong"})
"""Bots that may think up to a second: their decisions run in a worker thread (``_THINKERS``),
so that :meth:`Room.poll`, which the server calls on its event loop, never waits for them."""
THINK_POLL: Final = 0.02
"""Seconds between polls while a threaded bot thinks."""
_THINKERS: Final = ThreadPoolExecutor(max_workers=2, thread_name_prefix="guobiao-bot")

PLACES: Final = ("A", "B", "C", "D")
"""Session player ids of the four places (seated E S W N at the first hand)."""

LOBBY_PAGE: Final = 50
"""The open tables ``GET /api/rooms`` lists at most (``Lobby.listing``); it tells how many more."""

ROOM_VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class Limits:
    """Time limits (第七条四, 六) and the server's other knobs, in seconds."""

    first_discard: float = 30.0  # 第七条四: the dealer's first discard (after the flowers)
    turn: float = 15.0  # 第七条六: from the previous discard to one's own, claims included
    claim: float = 3.0  # 第七条六 碰牌要快，3秒之内: the claim window after every discard
    grace: float = 30.0  # a disconnected person is played by a bot after this
    bot_delay: float = 0.6  # bots wait this long before acting (so people can follow)
    between_hands: float = 60.0  # the hand's end stays up until all are ready, at most this
    bots_between: float = 8.0  # ... and this long when no person is connected
    auto_after: int = 2  # turn time-outs in a row after which a bot plays the person
    rate: int = 20  # client messages per second per connection; more are refused
    max_rooms: int = 1000  # rooms not yet over; creating more is refused
    idle_close: float = 1800.0  # a room with no socket open this long is closed (not over)
    unclaimed_close: float = 120.0  # ... and sooner when no socket was ever open to it
    wait_close: float = 1200.0  # a room not started closes this long after its last place taken
    quiet_close: float = 1800.0  # a started room with a person's place closes when none acted
    linger: float = 600.0  # sockets to a finished table are closed this long after its end
    address_rooms: int = 20  # rooms not yet over that one client address may hold
    kept_rooms: int = 5000  # closed rooms kept for their replays (then the oldest deleted)
    rebuild_burst: int = 30  # closed rooms one address may have rebuilt at once (replays) ...
    rebuild_every: float = 0.5  # ... and then one more every this many seconds
    create_burst: int = 20  # rooms one client address may create at once ...
    create_every: float = 30.0  # ... and then one more every this many seconds
    socket_burst: int = 30  # sockets one client address may open at once ...
    socket_every: float = 1.0  # ... and then one more every this many seconds
    spectators: int = 20  # spectator sockets per room
    seat_sockets: int = 3  # sockets per place (a second tab, a reconnection)
    address_sockets: int = 64  # sockets per client address, all rooms together
    max_sockets: int = 4096  # sockets to live rooms, all addresses together
    tracked_addresses: int = 10_000  # client addresses the creation limit remembers (LRU)
    http_burst: int = 600  # HTTP requests one client address may make at once ...
    http_every: float = 0.02  # ... and then one more every this many seconds (50 a second)
    replay_bytes: int = 8 * 2**20  # replays (and closed rooms' hands) kept, as JSON, at most


@functools.cache
def _limits_json(limits: Limits) -> dict[str, Any]:
    """``asdict(limits)``, made once per :class:`Limits` (frozen): every room's info and every
    state carry it, and ``asdict`` took half of ``info``'s time (~0.1 ms; 50 rooms a listing)."""
    return asdict(limits)


class RoomError(Exception):
    """A refused request: ``code`` for clients, ``message`` for people (English), ``params``
    the numbers and names in it (for a client translating the code). Nothing changed."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params or {}


@dataclass(frozen=True, slots=True)
class Notice:
    """A message for clients: ``to`` one place (0-3), the spectators (-1), or everyone (``None``,
    spectators included)."""

    message: dict[str, Any]
    to: int | None = None


@dataclass(slots=True)
class Place:
    name: str = ""
    kind: Literal["empty", "human", "bot"] = "empty"
    token: str = ""
    bot_kind: str = "efficiency"
    connections: int = 0  # open sockets
    left_at: float | None = None  # when the last socket closed (None: connected)
    timeouts: int = 0  # turn time-outs in a row
    auto: bool = False  # a person played by a bot (time ran out twice) until they act again
    bot_playing: bool = False  # a person's place a bot plays now (Room.bot_plays; public)

    def public(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "bot_kind": self.bot_kind if self.kind == "bot" else None,
            "connected": self.kind == "bot" or self.connections > 0,
            "auto": self.auto,
            # a bot plays for this person now (on auto-play, or away for the grace or more):
            # public, as everyone sees the bot's moves; never true of a bot's own place
            "bot_playing": self.bot_playing,
        }


@dataclass(slots=True)
class _Window:
    """A claim window (第七条六): open after every discard and every added kong for the same
    time whoever may claim. ``views``: the table as every seat sees it meanwhile (the engine may
    already have moved on when nobody can claim); ``answers``: the claims collected, applied
    when the window ends."""

    seat: int  # the discarder (or the konger)
    ends: float
    views: list[SeatView]
    spectator: SeatView
    flowers: tuple[tuple[Tile, ...], ...]
    answers: dict[int, Action] = field(default_factory=dict)
    # the bots' answers (and those of the places bots play), decided while the window is open,
    # just after it was shown: its end then waits for no bot's thinking (the time a bot took
    # would tell everyone that it could claim); a person's own answer comes first
    bots: dict[int, Action] = field(default_factory=dict)


def window_view(before: SeatView, actor: int, action: Action, kong: Meld | None = None) -> SeatView:
    """The view a seat had ``before`` ``actor``'s discard (or added kong ``action``), as it is
    during the claim window that follows, with no legal action: what every seat sees whether
    or not anyone may claim. ``kong``: the added kong's meld."""
    tile = action.tile
    assert tile is not None
    hand = before.hand
    if before.seat == actor:
        i = hand.index(tile)
        hand = hand[:i] + hand[i + 1 :]
    discards = before.discards
    melds = before.melds
    if action.kind is ActionKind.DISCARD:
        phase = Phase.RESPOND
        discards = tuple((*d, tile) if s == actor else d for s, d in enumerate(discards))
    else:
        assert kong is not None
        phase = Phase.ROB
        own = tuple(kong if m.kind is MeldKind.PUNG and m.tile == tile else m for m in melds[actor])
        melds = tuple(own if s == actor else m for s, m in enumerate(melds))
    return replace(
        before,
        phase=phase,
        current=actor,
        hand=hand,
        drawn=None,
        discards=discards,
        melds=melds,
        last_discard=tile,
        legal_actions=(),
    )


def default_action(game: Game, seat: int) -> Action:
    """What the server does for a seat whose time ran out: pass on a claim (or a robbing
    chance); discard the drawn tile; with no drawn tile (after a claim) one of the hand's tiles
    drawn by lot from the hand's secret seed and the moves so far (the same every time it is
    asked, so a replay agrees; and it tells the others nothing but that the tile was held, where
    a rule such as "the highest tile" would tell them that none higher is)."""
    legal = game.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do")
    if PASS in legal:
        return PASS
    view = game.view(seat)
    if view.drawn is not None:
        drawn = Action(ActionKind.DISCARD, view.drawn)
        if drawn in legal:
            return drawn
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    if not discards:
        return legal[0]
    lot = random.Random(f"timeout/{game.seed}/{len(game.history)}/{seat}")
    return discards[lot.randrange(len(discards))]


def _notice(code: str, **params: Any) -> dict[str, Any]:
    """A public notice for clients to show in their language: a stable ``code`` and its
    ``params`` (docs/web.md lists them)."""
    return {"type": "notice", "code": code, "params": params}


def _token() -> str:
    return secrets.token_urlsafe(18)


def same(given: str, secret: str) -> bool:
    """A client's token against a secret, in constant time (as bytes: any text a client sends
    compares, none raises)."""
    return secrets.compare_digest(given.encode(), secret.encode())


def _check_kind(kind: str) -> str:
    if kind not in BOT_KINDS:
        raise RoomError(
            "bad_bot",
            f"unknown bot {kind!r}: choose from {', '.join(BOT_KINDS)}",
            {"kind": kind[:50], "kinds": list(BOT_KINDS)},
        )
    return kind


# Characters that draw nothing but are letters or symbols by their category (Hangul fillers, the
# blank Braille pattern): a name of them would show blank in the lobby.
_BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Control, format (zero-width, bidirectional overrides), private-use and unpaired surrogate code
# points, and line or paragraph separators: never in a name others see.
_HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


MARKS_IN_A_ROW: Final = 3
"""Combining marks (accents, vowel signs, variation selectors) one character of a name may carry:
Vietnamese, Hindi, Thai, Hebrew and Tibetan need two or three; a stack of more is drawn over the
lines above and below ("Zalgo" text), or pads a name with marks that draw nothing ("Ann" and 21
variation selectors looks like another player's "Ann")."""


def _check_name(name: str) -> str:
    name = unicodedata.normalize("NFC", " ".join(name.split()))
    if not name or len(name) > 24:
        raise RoomError("bad_name", "a name is 1-24 characters", {"min": 1, "max": 24})
    if any(unicodedata.category(c) in _HIDDEN_CATEGORIES or c in _BLANK_LETTERS for c in name):
        raise RoomError(
            "bad_name",
            "a name is 1-24 visible characters: no control, invisible or direction characters",
            {"min": 1, "max": 24},
        )
    if all(unicodedata.category(c)[0] in "MZ" for c in name):  # only marks and spaces
        raise RoomError("bad_name", "a name is 1-24 characters", {"min": 1, "max": 24})
    row = 0
    for i, c in enumerate(name):
        row = row + 1 if unicodedata.category(c)[0] == "M" else 0
        # a stack, or a mark with nothing under it (first, or on a space)
        if row and (row > MARKS_IN_A_ROW or row > i or name[i - row] == " "):
            raise RoomError(
                "bad_name",
                f"a name is 1-24 characters, each with at most {MARKS_IN_A_ROW} accents or "
                "marks, none on its own",
                {"min": 1, "max": 24},
            )
    return name


class Room:
    """One table: places, the session, the current hand, its timers and the clients' notices."""

    def __init__(
        self,
        room_id: str,
        *,
        name: str = "",
        private: bool = False,
        bot_kind: str = "efficiency",
        limits: Limits | None = None,
        seed: int | None = None,
        practice: bool = False,
        now: float = 0.0,
    ) -> None:
        self.id = room_id
        self.name = name or TABLE_NAME.en.format(id=room_id[:4])
        self.private = private
        self.practice = practice  # every place but the creator's is a bot (a seed may be chosen)
        self.bot_kind = _check_kind(bot_kind)
        self.limits = limits or Limits()
        self.seed = seed if seed is not None else secrets.randbelow(2**63)
        self.owner_token = _token()
        self.watch_token = _token()
        self.invite = _token()  # takes an empty place; in a private room also watches
        self.sockets = 0  # open sockets, players' and spectators'
        self.idle_since = now  # when the last socket closed (or the room was made)
        self.ever_connected = False  # a socket was open to it once (else it closes sooner)
        # when a person last did something public that moves the table on (made, a place taken,
        # started, a move of their own): a room quiet too long closes, sockets or not
        self.active_at = now
        self.creator = ""  # the client address (its limits' key) that made it; not saved
        self.places = [Place() for _ in range(4)]
        self.owner_place: int | None = None  # the creator's place (None: created without one)
        self.next: str | None = None  # the table that plays again after this one (its id)
        self.next_invite = ""  # ... and its invite, for this table's players only
        self.session: Session | None = None
        self.games: list[Game] = []
        self.decision_at = 0.0  # when the turn clock started (the previous discard, 第七条六)
        self.shown_at = 0.0  # when the current decision was shown (bots wait bot_delay from it)
        self.discarded = False  # a discard made in this hand (else the dealer's first: 第七条四)
        self.window: _Window | None = None  # the claim window open now
        self.decision = 0  # counts decisions (a client answers each state's decision once)
        self.hand_over_at = 0.0
        self.ready: set[int] = set()  # places that said they are ready for the next hand
        self.version = 0  # bumped on every change clients should see
        self.saved_version = -1  # the version last written to the store
        self._bots: dict[int, Bot] = {}
        # threaded bots' decisions under way: (hand, decision, seat) -> the bot's answer
        self._thinking: dict[tuple[int, int, int], Future[Action]] = {}

    # -- reading ------------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.session is not None

    @property
    def ended(self) -> bool:
        return self.session is not None and self.session.is_over

    @property
    def game(self) -> Game | None:
        return self.games[-1] if self.games else None

    def may_replay(self, token: str) -> bool:
        """Finished hands may be replayed by anyone who may watch the room or holds one of its
        tokens (a private room's replays need one)."""
        if not self.private or self.may_watch(token):
            return True
        if token and same(token, self.owner_token):
            return True
        return bool(token) and self.place_of_token(token) is not None

    def replay_tokens(self) -> tuple[str, ...]:
        """Every token :meth:`may_replay` accepts in a private room (for answers kept closed)."""
        found = [self.watch_token, self.invite, self.owner_token]
        found += [p.token for p in self.places if p.kind == "human"]
        return tuple(t for t in found if t)

    def place_of_token(self, token: str) -> int | None:
        for i, place in enumerate(self.places):
            if place.kind == "human" and same(token, place.token):
                return i
        return None

    def check_invite(self, invite: str | None) -> bool:
        """The invite an empty place is taken with (constant-time comparison)."""
        return bool(invite) and same(invite or "", self.invite)

    def idle_for(self, now: float) -> float:
        """How long no socket has been open to the room (0 while one is)."""
        return 0.0 if self.sockets > 0 else max(0.0, now - self.idle_since)

    def may_watch(self, token: str) -> bool:
        """Spectators: the watch token or the invite; in a public room also no token at all (a
        wrong token is refused, not taken for a spectator)."""
        if not token:
            return not self.private
        good = [self.watch_token, self.invite]
        return any(g and same(token, g) for g in good)

    def _seats(self) -> tuple[str, str, str, str]:
        """Who sits where in the hand on the table: the last hand dealt, even once it is over
        and recorded (the session has then moved on to the next hand's seating)."""
        session = self.session
        assert session is not None
        number = len(self.games) - 1
        if 0 <= number < len(session.history):
            return session.history[number].seats
        return session.seats

    def seat_of(self, place: int) -> int | None:
        """The seat (0 E … 3 N) of a place in the hand on the table (None before the start)."""
        if self.session is None:
            return None
        return self._seats().index(PLACES[place])

    def place_at(self, seat: int) -> int:
        return PLACES.index(self._seats()[seat])

    def names_by_seat(self) -> list[str]:
        return [self.places[self.place_at(s)].name for s in range(4)]

    def bot_plays(self, place: int, now: float) -> bool:
        """A bot plays this place: a bot seat, a person on auto-play (time ran out twice), or a
        person disconnected for ``grace`` or more."""
        p = self.places[place]
        if p.kind != "human" or p.auto:
            return True
        return p.connections == 0 and p.left_at is not None and now - p.left_at >= self.limits.grace

    def _bot_flag(self, place: int, now: float | None) -> bool:
        """Whether a bot plays this person's place now (``Place.bot_playing``): only a person's
        place, only while the session plays; ``now`` None: as it was, unless connected."""
        p = self.places[place]
        if p.kind != "human" or self.session is None or self.ended:
            return False
        if p.auto:
            return True
        if p.connections > 0:
            return False
        return p.bot_playing if now is None else self.bot_plays(place, now)

    def refresh_bot_flags(self, now: float | None) -> bool:
        """Set every place's ``bot_playing``; a change is one clients see (``version``)."""
        changed = False
        for i, p in enumerate(self.places):
            flag = self._bot_flag(i, now)
            if flag != p.bot_playing:
                p.bot_playing = flag
                changed = True
        if changed:
            self.version += 1
        return changed

    def _grace_ends(self, now: float) -> float | None:
        """When the next away person's grace runs out (a bot then plays for them, and everyone
        is told): ``now`` for a grace already over but not yet told (a loaded server asked
        after its end: waiting for the turn's time-out kept the others' pages unaware for up to
        30 s); None if nobody is away unflagged."""
        if self.session is None or self.ended:
            return None
        ends = [
            max(now, p.left_at + self.limits.grace)
            for p in self.places
            if p.kind == "human" and not p.bot_playing and p.connections == 0
            if p.left_at is not None
        ]
        return min(ends) if ends else None

    def people_present(self) -> bool:
        """Some person has a socket open to the table."""
        return any(p.kind == "human" and p.connections > 0 for p in self.places)

    def limit(self) -> float:
        """The turn's time limit: 30 s for the dealer's first discard (第七条四), 15 s for every
        other, counted from the previous discard (第七条六)."""
        return self.limits.turn if self.discarded else self.limits.first_discard

    def turn_deadline(self) -> float:
        """When the current turn's time runs out (never before it was shown)."""
        return max(self.decision_at + self.limit(), self.shown_at)

    def next_hand_at(self) -> float:
        """When the next hand starts: at once when every connected person (not on auto-play)
        is ready, else ``between_hands`` after the end (``bots_between`` with nobody there)."""
        waiting = [
            i
            for i, p in enumerate(self.places)
            if p.kind == "human" and p.connections > 0 and not p.auto
        ]
        if not waiting:
            return self.hand_over_at + min(self.limits.between_hands, self.limits.bots_between)
        if all(i in self.ready for i in waiting):
            return self.hand_over_at
        return self.hand_over_at + self.limits.between_hands

    def timers(self, now: float) -> dict[str, Any]:
        """Every clock on the table, the same for every receiver: the turn's (whose, seconds
        left: during a claim window the next player's, whose 15 s run from the discard), the
        claim window's, the time to the next hand."""
        out: dict[str, Any] = {"turn": None, "claim": None, "next_hand": None}
        game = self.game
        if game is None or self.ended:
            return out
        if game.is_over and self.window is None:
            out["next_hand"] = round(max(0.0, self.next_hand_at() - now), 3)
            return out
        window = self.window
        if window is not None:
            view = window.spectator
            seat = (window.seat + 1) % 4 if view.phase is Phase.RESPOND else window.seat
            out["claim"] = {"left": round(max(0.0, window.ends - now), 3)}
        else:
            seat = game.current
        out["turn"] = {
            "seat": seat,
            "left": round(max(0.0, self.decision_at + self.limit() - now), 3),
        }
        return out

    def view_of(self, seat: int | None) -> SeatView:
        """What a seat (None: a spectator) sees now; during a claim window the same table for
        everyone, and a seat's own claims only in its own view."""
        game = self.game
        assert game is not None
        window = self.window
        if window is None:
            return game.view(seat) if seat is not None else spectator_view(game)
        if seat is None:
            return window.spectator
        view = window.views[seat]
        if seat not in window.answers and game.phase in (Phase.RESPOND, Phase.ROB):
            legal = game.legal_actions(seat)
            if legal:
                return replace(view, legal_actions=legal)
        return view

    def info(self) -> dict[str, Any]:
        """What anyone may know of the room (the lobby): no token. ``owner_place``: the
        creator's place (None: none); ``next``: the table playing again after this one (a
        public room's only: a private room's next table is told to its players alone, in their
        ``state``)."""
        session = self.session
        return {
            "id": self.id,
            "name": self.name,
            "private": self.private,
            "practice": self.practice,
            "bot_kind": self.bot_kind,
            "owner_place": self.owner_place,
            "next": None if self.private else self.next,
            "places": [p.public() for p in self.places],
            "started": self.started,
            "ended": self.ended,
            "hand": session.hand_number if session is not None else 0,
            "hands": session.hands if session is not None else COMPETITION.hands_per_session,
            "limits": dict(_limits_json(self.limits)),
        }

    def scores(self) -> list[int]:
        """Session scores by place."""
        if self.session is None:
            return [COMPETITION.starting_points] * 4
        scores = self.session.scores
        return [scores[p] for p in PLACES]

    def state_for(self, place: int | None, now: float) -> dict[str, Any]:
        """The ``state`` message for a place (``None``: a spectator): only what it may see."""
        out: dict[str, Any] = {
            "type": "state",
            "room": self.info(),
            "you": place,
            "scores": self.scores(),
            "view": None,
            "hints": None,
            "deadline": None,
            "must_act": False,
        }
        if place is not None and self.next is not None:
            # the table playing again: its invite to this table's players only (never to a
            # spectator, who may not take a place at it)
            out["next"] = {"room": self.next, "invite": self.next_invite}
        game = self.game
        if game is None or self.session is None:
            return out
        seat = self.seat_of(place) if place is not None else None
        view = self.view_of(seat)
        window = self.window
        flowers = window.flowers if window is not None else None
        if flowers is None:
            flowers = tuple(game.hand_of(s).flowers for s in range(4))
        out["view"] = view_json(view, flowers)
        out["seat"] = seat
        out["places_by_seat"] = [self.place_at(s) for s in range(4)]
        out["names_by_seat"] = self.names_by_seat()
        out["hand_number"] = len(self.games) - 1
        out["decision"] = self.decision
        out["timers"] = self.timers(now)
        if seat is not None:
            out["hints"] = hints(view)
            out["must_act"] = bool(view.legal_actions)
            if window is not None and seat in window.answers:  # this seat's own, noted
                out["answered"] = str(window.answers[seat])
            if view.legal_actions:  # this seat's own decision time
                ends = window.ends if window is not None else self.turn_deadline()
                out["deadline"] = round(max(0.0, ends - now), 3)
        if game.is_over and window is None:  # a client arriving between hands: the settlement
            out["last_hand"] = self.hand_end(game)
            # the hand is over: every hand laid open (the concealed tiles, by seat)
            out["revealed"] = [[str(t) for t in game.hand_of(s).concealed] for s in range(4)]
            if self.ended:
                out["session_end"] = self.session_end()
            else:
                out["next_hand_in"] = round(max(0.0, self.next_hand_at() - now), 3)
                out["ready"] = sorted(self.ready)
        return out

    # -- before the start -------------------------------------------------------------------
    def _touch(self, now: float | None) -> None:
        if now is not None:
            self.active_at = max(self.active_at, now)

    def join(
        self, name: str, place: int | None = None, *, now: float | None = None
    ) -> tuple[int, str]:
        """Take an empty place (the first one if none is named): its index and secret token.
        ``now``: when (the table's ``wait_close`` runs again from it)."""
        name = _check_name(name)
        if self.started:
            raise RoomError("started", "the session has started")
        free = [i for i, p in enumerate(self.places) if p.kind == "empty"]
        if place is None:
            if not free:
                raise RoomError("full", "every place is taken")
            place = free[0]
        if place not in range(4):
            raise RoomError("bad_place", "a place is 0-3", {"min": 0, "max": 3})
        if place not in free:
            raise RoomError("taken", f"place {PLACES[place]} is taken", {"place": PLACES[place]})
        token = _token()
        self.places[place] = Place(name=name, kind="human", token=token, bot_kind=self.bot_kind)
        self.version += 1
        self._touch(now)
        return place, token

    def add_bots(
        self, kind: str | None = None, place: int | None = None, *, now: float | None = None
    ) -> list[int]:
        """Seat bots: at ``place``, or at every empty place. Returns the places filled (a place
        filled at ``now`` counts as one taken, as :meth:`join`)."""
        kind = _check_kind(kind or self.bot_kind)
        if self.started:
            raise RoomError("started", "the session has started")
        if place is not None and place not in range(4):
            raise RoomError("bad_place", "a place is 0-3", {"min": 0, "max": 3})
        targets = [place] if place is not None else list(range(4))
        filled = []
        for i in targets:
            if self.places[i].kind == "empty":
                self.places[i] = Place(
                    name=BOT_NAME.en.format(kind=kind, place=PLACES[i]), kind="bot", bot_kind=kind
                )
                filled.append(i)
            elif place is not None:
                raise RoomError("taken", f"place {PLACES[i]} is taken", {"place": PLACES[i]})
        self.version += 1
        if filled:
            self._touch(now)
        return filled

    def start(self, now: float) -> list[Notice]:
        if self.started:
            raise RoomError("started", "the session has started")
        if any(p.kind == "empty" for p in self.places):
            raise RoomError("not_full", "seat a person or a bot at every place first")
        rules = COMPETITION
        self.session = Session(
            PLACES, starting_points=rules.starting_points, hands=rules.hands_per_session
        )
        for p in self.places:
            if p.kind == "human" and p.connections == 0:
                p.left_at = now  # never came: the grace period runs from the start
        self.active_at = now
        return self._new_hand(now)

    # -- connections ------------------------------------------------------------------------
    def connect(self, place: int | None) -> None:
        """A socket opened: a place's (``place``) or a spectator's (None)."""
        self.sockets += 1
        self.ever_connected = True
        if place is None:
            return
        p = self.places[place]
        p.connections += 1
        p.left_at = None
        p.bot_playing = self._bot_flag(place, None)
        self.version += 1

    def disconnect(self, place: int | None, now: float) -> None:
        self.sockets = max(0, self.sockets - 1)
        if self.sockets == 0:
            self.idle_since = now
        if place is None:
            return
        p = self.places[place]
        p.connections = max(0, p.connections - 1)
        if p.connections == 0:
            p.left_at = now
        p.bot_playing = self._bot_flag(place, now)
        self.version += 1

    # -- playing ------------------------------------------------------------------------------
    def act(self, place: int, action: Action, now: float) -> list[Notice]:
        """A person's action: refused (:class:`RoomError`, nothing changes) unless it is one of
        the seat's legal actions now. A claim (or a pass) during a claim window is only noted:
        nobody else learns of it (``version`` does not move) until the window ends. Any valid
        action out of a claim window ends the place's auto-play."""
        game = self.game
        if game is None or self.session is None:
            raise RoomError("not_started", "the session has not started")
        if game.is_over and self.window is None:
            raise RoomError("hand_over", "the hand is over")
        seat = self.seat_of(place)
        assert seat is not None
        legal = self.view_of(seat).legal_actions
        if not legal:
            raise RoomError("not_your_turn", "you have nothing to do now")
        if action not in legal:
            raise RoomError(
                "illegal_action",
                f"{action} is not legal now; legal: {', '.join(str(a) for a in legal)}",
                {"action": str(action), "legal": [str(a) for a in legal]},
            )
        window = self.window
        if window is not None:  # collected; applied when the window ends (第七条六)
            # nothing public moves, not even auto-play or the time-out count: that the seat
            # could claim is its secret
            window.answers[seat] = action
            return []
        notices = self._resume(place)
        self.places[place].timeouts = 0
        # a move of the person's own (public, as the move is): the table is played
        self.active_at = now
        return notices + self._apply(seat, action, now)

    def resume(self, place: int) -> list[Notice]:
        """``{"type": "resume"}``: a person on auto-play takes their place back."""
        if not self.places[place].auto:
            raise RoomError("not_auto", "you are playing already")
        return self._resume(place)

    def _resume(self, place: int) -> list[Notice]:
        p = self.places[place]
        if not p.auto:
            return []
        p.auto = False
        p.timeouts = 0
        p.bot_playing = self._bot_flag(place, None)
        self.version += 1
        return [Notice(_notice("auto_off", place=place, name=p.name))]

    def set_ready(self, place: int) -> None:
        """``{"type": "ready"}``: this person may go on to the next hand."""
        game = self.game
        if game is None or not game.is_over or self.window is not None or self.ended:
            raise RoomError("not_between_hands", "there is no next hand to be ready for")
        if place not in self.ready:
            self.ready.add(place)
            self.version += 1

    def poll(self, now: float, max_steps: int = 1000) -> list[Notice]:
        """Move the table on as far as time allows: the claim window's end, bots, time-outs, the
        next hand (at most ``max_steps`` actions: the server lets other rooms in between)."""
        notices: list[Notice] = []
        for _ in range(max_steps):
            if not self._step(now, notices):
                break
        self.refresh_bot_flags(now)  # a bot now plays for someone (or no longer): told
        return notices

    def next_wake(self, now: float) -> float | None:
        """When :meth:`poll` may next have something to do (None: only on a client message)."""
        wake = self._next_wake(now)
        grace = self._grace_ends(now)  # everyone is told when a bot starts playing for someone
        if grace is not None:
            wake = grace if wake is None else min(wake, grace)
        if any(not f.done() for f in self._thinking.values()):
            # a threaded bot thinks: its answer may come at any moment, not at once
            soon = now + THINK_POLL
            return soon if wake is None or wake <= now else min(wake, soon)
        return wake

    def _next_wake(self, now: float) -> float | None:
        game = self.game
        if game is None or self.ended:
            return None
        window = self.window
        if window is not None:
            if game.phase in (Phase.RESPOND, Phase.ROB) and any(
                s not in window.bots and self.bot_plays(self.place_at(s), now) for s in game.to_act
            ):
                return now  # the bots decide at once (after the window's state went out)
            return window.ends
        if game.is_over:
            return self.next_hand_at()
        times = []
        for seat in game.to_act:
            place = self.place_at(seat)
            p = self.places[place]
            if self.bot_plays(place, now):
                times.append(self.shown_at + self.limits.bot_delay)
            else:
                times.append(self.turn_deadline())
                if p.left_at is not None:
                    times.append(p.left_at + self.limits.grace)
        return min(times) if times else now

    def _step(self, now: float, notices: list[Notice]) -> bool:
        game = self.game
        if game is None or self.ended:
            return False
        if self.window is not None:
            window = self.window
            claims = game.phase in (Phase.RESPOND, Phase.ROB)
            for seat in game.to_act:  # threaded bots think while the window is open
                place = self.place_at(seat)
                if self.bot_plays(place, now):
                    ready = self._bot_answer_ready(seat, place)
                    if claims and ready and seat not in window.bots:
                        window.bots[seat] = self._bot_choice(seat, place)
            # The window ends on time whoever thinks: waiting for a bot that may claim would
            # tell everyone that it may (a bot still thinking then passes, as a person would).
            if now < self.window.ends:
                return False
            notices.extend(self._close_window(now))
            return True
        if game.is_over:
            if now >= self.next_hand_at():
                notices.extend(self._new_hand(now))
                return True
            return False
        for seat in game.to_act:  # a turn (claims are answered in a window)
            place = self.place_at(seat)
            if self.bot_plays(place, now):
                ready = self._bot_answer_ready(seat, place)  # a threaded bot starts at once
                if now < self.shown_at + self.limits.bot_delay or not ready:
                    continue
                notices.extend(self._apply(seat, self._bot_choice(seat, place), now))
                return True
            if now >= self.turn_deadline():
                action = default_action(game, seat)
                p = self.places[place]
                # a turn's time-out is told to everyone (its discard is public anyway)
                notices.append(Notice(self._timeout(seat, place, action)))
                p.timeouts += 1
                if p.timeouts >= self.limits.auto_after and not p.auto:
                    p.auto = True  # 2 time-outs in a row: a bot plays until they act again
                    notices.append(Notice(_notice("auto_on", place=place, name=p.name)))
                notices.extend(self._apply(seat, action, now))
                return True
        return False

    def _timeout(self, seat: int, place: int, action: Action) -> dict[str, Any]:
        name = self.places[place].name
        return {
            "type": "timeout",
            "code": "timeout",
            "params": {"seat": seat, "name": name, "action": str(action)},
            "seat": seat,
            "name": name,
            "action": str(action),
        }

    def _bot_answer_ready(self, seat: int, place: int) -> bool:
        """Whether :meth:`_bot_choice` can answer now: always for a quick bot; a threaded bot
        (:data:`THREADED_BOTS`) is set thinking in a worker thread, and is ready when done."""
        bot = self._bot(place)
        if bot.name not in THREADED_BOTS:
            return True
        game = self.game
        assert game is not None
        key = (len(self.games), self.decision, seat)
        future = self._thinking.get(key)
        if future is None:
            for old, running in list(self._thinking.items()):
                if old[2] == seat:
                    if not running.done():
                        return False  # one decision at a time per bot
                    del self._thinking[old]  # the table moved on: a stale answer
            # a SeatView is immutable: the thread reads nothing the table changes
            future = self._thinking[key] = _THINKERS.submit(bot.choose, game.view(seat))
        return future.done()

    def _bot_choice(self, seat: int, place: int) -> Action:
        game = self.game
        assert game is not None
        view = game.view(seat)
        future = self._thinking.pop((len(self.games), self.decision, seat), None)
        if future is not None:
            if not future.done():  # a claim window ended first: the bot passes
                action = default_action(game, seat)
            else:
                try:
                    action = future.result()
                except Exception:  # a bot bug must not stop the table
                    action = default_action(game, seat)
        else:
            action = self._bot(place).choose(view)
        if action not in view.legal_actions:  # a bot bug must not stop the table
            action = default_action(game, seat)
        return action

    def _close_window(self, now: float) -> list[Notice]:
        """The claim window's end: every claim collected is applied (a bot decides now, a
        person who did not answer passes, told privately), the engine resolves them, and the
        table moves on for everyone at once."""
        game = self.game
        window = self.window
        assert game is not None and window is not None
        self.window = None
        notices: list[Notice] = []
        if game.phase in (Phase.RESPOND, Phase.ROB):
            before = game.phase
            melds_before = [len(game.hand_of(s).melds) for s in range(4)]
            for seat in tuple(game.to_act):
                if game.phase is not before:
                    break
                place = self.place_at(seat)
                action = window.answers.get(seat)
                if action is None:
                    if self.bot_plays(place, now):
                        action = window.bots.get(seat)
                        if action is None:
                            action = self._bot_choice(seat, place)
                    else:
                        action = default_action(game, seat)
                        # a claim's time-out only to the seat: that it could claim is its secret
                        notices.append(Notice(self._timeout(seat, place, action), to=place))
                try:
                    game.act(seat, action)
                except IllegalActionError as err:  # validated before: only a bug gets here
                    raise RoomError("illegal_action", str(err), {"action": str(action)}) from None
            result = game.result
            if result is not None and result.winner is not None:
                notices.append(Notice({"type": "event", "seat": result.winner, "action": "win"}))
            else:
                for s in range(4):
                    melds = game.hand_of(s).melds
                    if len(melds) > melds_before[s]:
                        meld = melds[-1]
                        claim = Action(ActionKind(meld.kind.value), meld.tile)
                        notices.append(Notice({"type": "event", "seat": s, "action": str(claim)}))
        # the turn clock keeps running from the discard (第七条六: claims are inside the 15 s)
        self.shown_at = now
        self.decision += 1
        self.version += 1
        if game.is_over:
            notices.extend(self._hand_over(game, now))
        return notices

    def _bot(self, place: int) -> Bot:
        bot = self._bots.get(place)
        if bot is None:
            p = self.places[place]
            kind = p.bot_kind if p.kind == "bot" else self.bot_kind
            bot = make_bot(kind, (self.seed + place) % 2**63, COMPETITION)
            self._bots[place] = bot
        return bot

    def _hand_seed(self, number: int) -> int:
        return random.Random(f"{self.seed}/{number}").randrange(2**63)

    def _new_hand(self, now: float) -> list[Notice]:
        session = self.session
        assert session is not None
        number = session.hand_number
        game = Game(COMPETITION, self._hand_seed(number), round_wind=session.round_wind)
        self.games.append(game)
        self.decision_at = now  # 第七条四: 30 s for the dealer's first discard, flowers done
        self.shown_at = now
        self.discarded = False
        self.window = None
        self.ready = set()
        self.decision += 1
        self.version += 1
        notices = [
            Notice(
                {
                    "type": "hand_start",
                    "hand_number": number,
                    "round_wind": session.round_wind.letter,
                    "names_by_seat": self.names_by_seat(),
                }
            )
        ]
        if game.is_over:  # a hand can end in the deal (the wall runs out of flower replacements)
            notices.extend(self._hand_over(game, now))
        return notices

    def _open_window(
        self,
        game: Game,
        seat: int,
        action: Action,
        before: list[SeatView],
        spectator: SeatView,
        flowers: tuple[tuple[Tile, ...], ...],
    ) -> _Window:
        kong = None
        if action.kind is ActionKind.ADDED_KONG:
            kong = next(
                m
                for m in game.hand_of(seat).melds
                if m.kind is MeldKind.KONG and m.tile == action.tile
            )
        return _Window(
            seat=seat,
            ends=0.0,
            views=[window_view(v, seat, action, kong) for v in before],
            spectator=window_view(spectator, seat, action, kong),
            flowers=flowers,
        )

    def _apply(self, seat: int, action: Action, now: float) -> list[Notice]:
        """A turn's action (discard, kong, win). After a discard or an added kong the claim
        window opens, whether or not anyone may claim (第七条六)."""
        game = self.game
        assert game is not None and game.phase is Phase.ACT
        opens = action.kind in (ActionKind.DISCARD, ActionKind.ADDED_KONG)
        if opens:  # the table as it stands now: the window shows it with the tile given out
            before = [game.view(s) for s in range(4)]
            spectator = spectator_view(game)
            flowers = tuple(game.hand_of(s).flowers for s in range(4))
        try:
            game.act(seat, action)
        except IllegalActionError as err:  # validated before: only a bug gets here
            raise RoomError("illegal_action", str(err), {"action": str(action)}) from None
        self.version += 1
        self.decision += 1
        self.shown_at = now
        notices: list[Notice] = []
        public = public_action(action)
        for place in range(4):
            shown = action if self.place_at(seat) == place else public
            notices.append(Notice({"type": "event", "seat": seat, "action": str(shown)}, to=place))
        notices.append(Notice({"type": "event", "seat": seat, "action": str(public)}, to=-1))
        if action.kind is not ActionKind.WIN:
            # 第七条六: the next turn's 15 s run from this discard; a kong's replacement draw
            # starts a new turn for the konger
            self.decision_at = now
        if action.kind is ActionKind.DISCARD:
            self.discarded = True
        if opens:
            window = self._open_window(game, seat, action, before, spectator, flowers)
            # 第七条六 碰牌要快，3秒之内: the same window whoever may claim; with no person at
            # the table (bots and spectators only) it lasts no longer than a bot's pause
            length = self.limits.claim
            if not self.people_present():
                length = min(length, self.limits.bot_delay)
            window.ends = now + length
            self.window = window
            return notices
        if game.is_over:
            notices.extend(self._hand_over(game, now))
        return notices

    def _hand_over(self, game: Game, now: float) -> list[Notice]:
        session = self.session
        result = game.result
        assert session is not None and result is not None
        names = self.names_by_seat()  # before recording: the seats of this hand
        session.record(result.deltas, result.outcome)
        self.hand_over_at = now
        notices = [Notice(self._hand_end(game, names))]
        if session.is_over:
            notices.append(Notice(self.session_end()))
        return notices

    def hand_end(self, game: Game) -> dict[str, Any]:
        """The ``hand_end`` message of the last hand (which is over)."""
        return self._hand_end(game, self.names_by_seat())

    def _hand_end(self, game: Game, names: list[str]) -> dict[str, Any]:
        result = game.result
        assert result is not None
        return {
            "type": "hand_end",
            "hand_number": len(self.games) - 1,
            "result": hand_end_json(result, names),
            "explain": hand_breakdown(result, game.round_wind, game.rules),
            "scores": self.scores(),
        }

    def session_end(self) -> dict[str, Any]:
        session = self.session
        assert session is not None
        points = session.standard_points()
        return {
            "type": "session_end",
            "names": [p.name for p in self.places],
            "scores": self.scores(),
            "standard_points": [
                str(points[p]) if p in points else None for p in PLACES
            ],  # exact fractions as text ("3/2")
        }

    # -- replays -------------------------------------------------------------------------------
    def names_of_hand(self, number: int) -> list[str]:
        """Who sat E S W N in hand ``number`` (0-based) of the session."""
        session = self.session
        assert session is not None
        history = session.history
        seats = history[number].seats if number < len(history) else session.seats
        return [self.places[PLACES.index(p)].name for p in seats]

    def _hand_done(self, number: int) -> bool:
        """Hand ``number`` is over for everyone: its result, and no claim window open on it. The
        engine ends a hand at a last discard nobody may claim before the window (the same 3 s
        whoever may claim) is over: until then the table is told nothing, nor is anyone else."""
        if not self.games[number].is_over:
            return False
        return number < len(self.games) - 1 or self.window is None

    def hands_info(self) -> list[dict[str, Any]]:
        """Every hand dealt so far: its number, round wind, whether it is over and, if so, how it
        ended (winner, discarder, total, deltas). Nothing of a hand still in play but its number."""
        out: list[dict[str, Any]] = []
        for number, game in enumerate(self.games):
            over = self._hand_done(number)
            item: dict[str, Any] = {
                "number": number,
                "round_wind": game.round_wind.letter,
                "over": over,
                "names_by_seat": self.names_of_hand(number),
            }
            result = game.result
            if result is not None and over:
                item.update(
                    winner=result.winner,
                    discarder=result.discarder,
                    total=result.fans.total if result.fans is not None else 0,
                    deltas=list(result.deltas),
                )
            out.append(item)
        return out

    def replay(self, number: int) -> dict[str, Any]:
        """The replay of hand ``number`` (0-based): ``frames`` (:func:`replay_frames`, the last
        with the ``result``), the names by seat, the winner's hand. Refused (``no_hand``) for a
        hand not dealt, (``hand_live``) for one still in play: its tiles and wall stay secret."""
        if self.session is None or not 0 <= number < len(self.games):
            raise RoomError("no_hand", "no such hand")
        game = self.games[number]
        result = game.result
        if result is None or not self._hand_done(number):
            raise RoomError("hand_live", "the hand is still in play: only a hand that is over")
        winning = None
        if result.winning_hand is not None:
            hand = result.winning_hand
            winning = {
                "concealed": [str(t) for t in hand.concealed],
                "melds": [meld_json(m) for m in hand.melds],
                "flowers": [str(t) for t in hand.flowers],
            }
        return {  # built afresh (a few ms): nothing kept in memory
            "room": self.id,
            "name": self.name,
            "hand_number": number,
            "hands": self.session.hands,
            "round_wind": game.round_wind.letter,
            "names_by_seat": self.names_of_hand(number),
            "winning_hand": winning,
            "explain": hand_breakdown(result, game.round_wind, game.rules),
            "frames": replay_frames(game.record()),
        }

    # -- persistence --------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "version": ROOM_VERSION,
            "id": self.id,
            "name": self.name,
            "private": self.private,
            "practice": self.practice,
            "bot_kind": self.bot_kind,
            "seed": self.seed,
            "owner_token": self.owner_token,
            "watch_token": self.watch_token,
            "invite": self.invite,
            "owner_place": self.owner_place,
            "next": self.next,
            "next_invite": self.next_invite,
            "places": [
                {"name": p.name, "kind": p.kind, "token": p.token, "bot_kind": p.bot_kind}
                for p in self.places
            ],
            "started": self.started,
            "hands": [g.record() for g in self.games],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], limits: Limits, now: float) -> Room:
        """Rebuild a room saved by :meth:`to_dict`: every hand is replayed from its record; the
        clocks start again at ``now``; people are disconnected (their grace runs from now)."""
        if data.get("version") != ROOM_VERSION:
            raise ValueError(f"unsupported room version {data.get('version')!r}")
        room = cls(
            str(data["id"]),
            name=str(data["name"]),
            private=bool(data["private"]),
            bot_kind=str(data["bot_kind"]),
            limits=limits,
            seed=int(data["seed"]),
            practice=bool(data.get("practice", False)),
            now=now,
        )
        room.owner_token = str(data["owner_token"])
        room.watch_token = str(data["watch_token"])
        room.invite = str(data["invite"] or room.invite)  # rooms saved before every room had one
        room.ever_connected = True  # resumed: its people have idle_close to come back
        owner = data.get("owner_place")  # None in rooms saved before it was kept
        room.owner_place = owner if owner in range(4) else None
        room.next = str(data["next"]) if data.get("next") else None
        room.next_invite = str(data.get("next_invite") or "")
        room.places = [
            Place(
                name=str(p["name"]),
                kind=p["kind"],
                token=str(p["token"]),
                bot_kind=str(p["bot_kind"]),
                left_at=now if p["kind"] == "human" else None,
            )
            for p in data["places"]
        ]
        if data["started"]:
            rules = COMPETITION
            session = Session(
                PLACES, starting_points=rules.starting_points, hands=rules.hands_per_session
            )
            room.session = session
            for record in data["hands"]:
                game = Game.replay(record)
                room.games.append(game)
                result = game.result
                if result is not None:
                    session.record(result.deltas, result.outcome)
            room.decision_at = now
            room.shown_at = now
            room.hand_over_at = now
            last = room.game
            room.discarded = last is not None and any(
                a.kind is ActionKind.DISCARD for _, a in last.history
            )
            if last is not None and last.phase in (Phase.RESPOND, Phase.ROB):
                # saved within a claim window: it opens again, as long, from now
                room.window = _Window(
                    seat=last.current,
                    ends=now + limits.claim,
                    views=[replace(last.view(s), legal_actions=()) for s in range(4)],
                    spectator=spectator_view(last),
                    flowers=tuple(last.hand_of(s).flowers for s in range(4)),
                )
            if room.game is None:
                room._new_hand(now)
        room.version += 1
        room.saved_version = room.version
        return room


@dataclass
class Lobby:
    """Every room of the server by id."""

    limits: Limits = field(default_factory=Limits)
    rooms: dict[str, Room] = field(default_factory=dict)

    def create(
        self,
        *,
        name: str = "",
        private: bool = False,
        bot_kind: str = "efficiency",
        seed: int | None = None,
        practice: bool = False,
        now: float = 0.0,
        creator: str = "",
    ) -> Room:
        """A new room (its idle time counted from ``now``). ``seed``: the server's choice unless
        given (the app takes a client's only for a practice table). ``creator``: the client
        address (its limits' key), which may hold ``limits.address_rooms`` rooms not over."""
        if name:
            name = _check_name(name)
        if self.full():
            raise RoomError("busy", "the server has as many tables as it takes")
        cap = self.limits.address_rooms
        if creator and sum(1 for r in self.rooms.values() if r.creator == creator) >= cap:
            raise RoomError(
                "slow_down",
                f"your address has {cap} tables open already: finish or leave one first",
                {"max": cap},
            )
        room_id = secrets.token_urlsafe(9)
        room = Room(
            room_id,
            name=name,
            private=private,
            bot_kind=bot_kind,
            limits=self.limits,
            seed=seed,
            practice=practice,
            now=now,
        )
        room.creator = creator
        self.rooms[room_id] = room
        return room

    def full(self) -> bool:
        return sum(1 for r in self.rooms.values() if not r.ended) >= self.limits.max_rooms

    def sweep(self, now: float) -> list[Room]:
        """Take out of the lobby, and return, the rooms to close: those whose session is over,
        and those no socket has been open to for ``limits.idle_close`` seconds (not started:
        expired; started: abandoned), or for ``limits.unclaimed_close`` when none ever was (made
        and left: a table no one plays does not hold a place for half an hour). Sockets open or
        not, a room not started closes ``limits.wait_close`` after its last place was taken (a
        silent socket holds no table), and a started room with a person's place when no person
        has acted there for ``limits.quiet_close`` (a table of bots only is exempt: it plays
        its 16 hands at the bots' pace and ends). Memory then holds only the rooms in use."""
        gone = [r for r in self.rooms.values() if self._due(r, now)]
        for room in gone:
            del self.rooms[room.id]
        return gone

    def _due(self, room: Room, now: float) -> bool:
        limits = self.limits
        if room.ended:
            return True
        unclaimed = min(limits.idle_close, limits.unclaimed_close)
        if room.idle_for(now) >= (limits.idle_close if room.ever_connected else unclaimed):
            return True
        quiet = now - room.active_at
        if not room.started:
            return quiet >= limits.wait_close
        people = any(p.kind == "human" for p in room.places)
        return people and quiet >= limits.quiet_close

    def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise RoomError("no_room", "no such room")
        return room

    def public(self) -> list[dict[str, Any]]:
        """The lobby's open tables: public, not over, and either waiting for players or played
        by someone connected (a table its people have left is not listed while bots finish it
        or it waits to close: no pile of abandoned tables)."""
        return [r.info() for r in self._open()]

    def _open(self) -> list[Room]:
        """The rooms :meth:`public` lists, in the order they were made."""
        return [
            r
            for r in self.rooms.values()
            if not r.private and not r.ended and (not r.started or r.people_present())
        ]

    def listing(self, limit: int = LOBBY_PAGE) -> tuple[list[dict[str, Any]], int]:
        """The lobby's open tables (``public``), at most ``limit`` of them: those waiting for
        players first (a place to take), then those in play, each in the order they were made;
        and how many more open tables there are (not listed). Only the rooms listed are turned
        into their ``info``: 1,000 rooms cost a page, not a megabyte."""
        open_rooms = self._open()
        ordered = [r for r in open_rooms if not r.started] + [r for r in open_rooms if r.started]
        return [r.info() for r in ordered[:limit]], max(0, len(ordered) - limit)

    def finished(self, limit: int = 20) -> list[dict[str, Any]]:
        """Public rooms whose session is over, the latest first (at most ``limit``)."""
        done = [r for r in self.rooms.values() if not r.private and r.ended]
        return [r.info() for r in reversed(done[-limit:])]
