"""The Botzone "Chinese Standard Mahjong" bot protocol, bot side (docs/botzone.md).

An adapter: it reads the judge's requests (``0 seat quan``, ``1 ...`` the deal, ``2 T`` a draw,
``3 p PLAY X`` ...), keeps what one seat can know in a :class:`BotzoneSeat`, turns that into a
guobiao :class:`~guobiao.table.game.SeatView` with the seat's legal actions under the Botzone rules,
lets any guobiao bot choose, and writes the answer (``PLAY X``, ``PENG Y``, ``CHI M Y``,
``GANG``, ``BUGANG X``, ``HU``, ``PASS``). :func:`run` speaks the three transports: one JSON
line with the whole history, the simple line format, and keep-running.

The wall is the competition one (IJCAI 2020-2023): four segments of 34 tiles, one per seat; each
seat draws (also its kong replacements) from its own segment, 21 tiles after the deal. When the
next seat's segment is empty, the current draw or discard is the last one: 妙手回春 / 海底捞月
count and the discard may only be won. A game that shows flowers is the classic Botzone game
(144 tiles, one shared wall): the tracker then counts one wall instead.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol, TextIO

from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.shanten import shanten
from guobiao.core.tiles import TILES, Tile
from guobiao.scoring.calculator import calculate
from guobiao.table.game import PASS, WIN, Action, ActionKind, Phase, SeatView
from guobiao.table.rules import TableRules

__all__ = [
    "BOTZONE_RULES",
    "KEEP_RUNNING",
    "TRANSPORTS",
    "BotzoneSeat",
    "BugangEvent",
    "ChiEvent",
    "DealRequest",
    "DrawEvent",
    "DrawRequest",
    "FlowerEvent",
    "GangEvent",
    "PengEvent",
    "PlayEvent",
    "ProtocolError",
    "Request",
    "Response",
    "SeatRequest",
    "action_to_response",
    "choose_response",
    "parse_exact",
    "parse_request",
    "parse_response",
    "response_to_actions",
    "run",
    "serve",
]

BOTZONE_RULES: Final = TableRules(fan_profile="botzone", flowers=False)
"""The judge scores with its build of the reference calculator (the ``botzone`` profile, the
``mil`` reading as that build reads it), 136 tiles, 8 points."""

KEEP_RUNNING: Final = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
TRANSPORTS: Final = ("auto", "json", "simple")
SEGMENT: Final = 34
"""Tiles in each seat's wall segment; 13 are dealt from it."""

_NAMES: Final = {str(t): t for t in TILES}


class ProtocolError(ValueError):
    """A request, response or input line that does not follow the protocol (the line is named)."""


def _tile(token: str, line: str, *, flower: bool = False) -> Tile:
    tile = _NAMES.get(token)
    if tile is None:
        raise ProtocolError(f"{line!r}: {token!r} is not a tile (W1-W9 B1-B9 T1-T9 F1-F4 J1-J3)")
    if tile.is_flower != flower:
        want = "a flower (H1-H8)" if flower else "a playing tile, not a flower"
        raise ProtocolError(f"{line!r}: {token} must be {want}")
    return tile


def _int(token: str, line: str, low: int, high: int, what: str) -> int:
    if not token.isdigit() or not low <= int(token) <= high:
        raise ProtocolError(f"{line!r}: {what} must be {low}-{high}, not {token!r}")
    return int(token)


# ---------------------------------------------------------------------------------------------
# Requests
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """``0 seat quan``: my seat (0 East, the dealer .. 3 North) and the prevalent wind."""

    seat: int
    quan: int

    def __str__(self) -> str:
        return f"0 {self.seat} {self.quan}"


@dataclass(frozen=True, slots=True)
class DealRequest:
    """``1 f0 f1 f2 f3 <13 tiles> <flowers>``: each seat's flower count, my 13 tiles, and every
    seat's flowers in seat order."""

    flower_counts: tuple[int, int, int, int]
    hand: tuple[Tile, ...]
    flowers: tuple[Tile, ...] = ()

    def __str__(self) -> str:
        words = ["1", *map(str, self.flower_counts), *map(str, self.hand), *map(str, self.flowers)]
        return " ".join(words)


@dataclass(frozen=True, slots=True)
class DrawRequest:
    """``2 T``: I drew ``tile``."""

    tile: Tile

    def __str__(self) -> str:
        return f"2 {self.tile}"


@dataclass(frozen=True, slots=True)
class FlowerEvent:
    """``3 p BUHUA H``: seat ``player`` drew flower ``tile`` and shows it."""

    player: int
    tile: Tile

    def __str__(self) -> str:
        return f"3 {self.player} BUHUA {self.tile}"


@dataclass(frozen=True, slots=True)
class DrawEvent:
    """``3 p DRAW``: another seat drew."""

    player: int

    def __str__(self) -> str:
        return f"3 {self.player} DRAW"


@dataclass(frozen=True, slots=True)
class PlayEvent:
    """``3 p PLAY X``: seat ``player`` discarded ``tile``."""

    player: int
    tile: Tile

    def __str__(self) -> str:
        return f"3 {self.player} PLAY {self.tile}"


@dataclass(frozen=True, slots=True)
class PengEvent:
    """``3 p PENG Y``: seat ``player`` punged the last discard and discarded ``discard``."""

    player: int
    discard: Tile

    def __str__(self) -> str:
        return f"3 {self.player} PENG {self.discard}"


@dataclass(frozen=True, slots=True)
class ChiEvent:
    """``3 p CHI M Y``: seat ``player`` chowed the last discard into the chow whose middle tile is
    ``middle`` and discarded ``discard``."""

    player: int
    middle: Tile
    discard: Tile

    def __str__(self) -> str:
        return f"3 {self.player} CHI {self.middle} {self.discard}"


@dataclass(frozen=True, slots=True)
class GangEvent:
    """``3 p GANG``: a melded kong of the last discard, or (after its draw) a concealed kong."""

    player: int

    def __str__(self) -> str:
        return f"3 {self.player} GANG"


@dataclass(frozen=True, slots=True)
class BugangEvent:
    """``3 p BUGANG X``: seat ``player`` added ``tile`` to its pung (others may rob it)."""

    player: int
    tile: Tile

    def __str__(self) -> str:
        return f"3 {self.player} BUGANG {self.tile}"


Request = (
    SeatRequest
    | DealRequest
    | DrawRequest
    | FlowerEvent
    | DrawEvent
    | PlayEvent
    | PengEvent
    | ChiEvent
    | GangEvent
    | BugangEvent
)
_DISCARD_EVENTS = (PlayEvent, PengEvent, ChiEvent)


def _middle(token: str, line: str) -> Tile:
    tile = _tile(token, line)
    if not tile.is_suited or tile.rank in (1, 9):
        raise ProtocolError(f"{line!r}: {token} cannot be the middle tile of a chow")
    return tile


def parse_request(text: str) -> Request:
    """Read one request line; ``str(parse_request(line)) == line`` for a well-formed line."""
    line = text.strip()
    words = line.split()
    if not words:
        raise ProtocolError("empty request line")
    head, rest = words[0], words[1:]
    if head == "0":
        if len(rest) != 2:
            raise ProtocolError(f"{line!r}: expected '0 seat quan'")
        return SeatRequest(_int(rest[0], line, 0, 3, "seat"), _int(rest[1], line, 0, 3, "quan"))
    if head == "1":
        if len(rest) < 17:
            raise ProtocolError(f"{line!r}: expected '1 f0 f1 f2 f3' and 13 tiles")
        c0, c1, c2, c3 = (_int(w, line, 0, 8, "a flower count") for w in rest[:4])
        tiles = tuple(_tile(w, line) for w in rest[4:17])
        flowers = tuple(_tile(w, line, flower=True) for w in rest[17:])
        if len(flowers) != c0 + c1 + c2 + c3:
            raise ProtocolError(
                f"{line!r}: {len(flowers)} flowers listed, the counts say {c0 + c1 + c2 + c3}"
            )
        return DealRequest((c0, c1, c2, c3), tiles, flowers)
    if head == "2":
        if len(rest) != 1:
            raise ProtocolError(f"{line!r}: expected '2 T'")
        return DrawRequest(_tile(rest[0], line))
    if head != "3":
        raise ProtocolError(f"{line!r}: a request starts with 0, 1, 2 or 3")
    if len(rest) < 2:
        raise ProtocolError(f"{line!r}: expected '3 player ACTION ...'")
    player = _int(rest[0], line, 0, 3, "player")
    verb, args = rest[1], rest[2:]
    arity = {"BUHUA": 1, "DRAW": 0, "PLAY": 1, "PENG": 1, "CHI": 2, "GANG": 0, "BUGANG": 1}
    if verb not in arity:
        raise ProtocolError(f"{line!r}: unknown action {verb!r} (one of {', '.join(arity)})")
    if len(args) != arity[verb]:
        raise ProtocolError(f"{line!r}: {verb} takes {arity[verb]} tile(s)")
    if verb == "BUHUA":
        return FlowerEvent(player, _tile(args[0], line, flower=True))
    if verb == "DRAW":
        return DrawEvent(player)
    if verb == "PLAY":
        return PlayEvent(player, _tile(args[0], line))
    if verb == "PENG":
        return PengEvent(player, _tile(args[0], line))
    if verb == "CHI":
        return ChiEvent(player, _middle(args[0], line), _tile(args[1], line))
    if verb == "GANG":
        return GangEvent(player)
    return BugangEvent(player, _tile(args[0], line))


# ---------------------------------------------------------------------------------------------
# Responses
# ---------------------------------------------------------------------------------------------

_RESPONSE_ARITY: Final = {
    "PASS": (0,),
    "HU": (0,),
    "PLAY": (1,),
    "GANG": (0, 1),
    "BUGANG": (1,),
    "PENG": (1,),
    "CHI": (2,),
}


@dataclass(frozen=True, slots=True)
class Response:
    """One answer: ``verb`` (PASS HU PLAY GANG BUGANG PENG CHI) and its tiles.

    ``PLAY X``; ``GANG X`` (concealed) or ``GANG`` (melded, on a discard); ``BUGANG X``;
    ``PENG Y`` (then discard Y); ``CHI M Y`` (chow with middle tile M, then discard Y).
    """

    verb: str
    tiles: tuple[Tile, ...] = ()

    def __post_init__(self) -> None:
        if self.verb not in _RESPONSE_ARITY:
            raise ProtocolError(f"unknown response verb {self.verb!r}")
        if len(self.tiles) not in _RESPONSE_ARITY[self.verb]:
            raise ProtocolError(f"{self.verb} takes {_RESPONSE_ARITY[self.verb]} tile(s)")
        if any(t.is_flower for t in self.tiles):
            raise ProtocolError(f"a response names no flower: {self}")

    def __str__(self) -> str:
        return " ".join([self.verb, *map(str, self.tiles)])


def parse_response(text: str) -> Response:
    """Read one response line; ``str(parse_response(line)) == line`` for a well-formed line."""
    line = text.strip()
    words = line.split()
    if not words:
        raise ProtocolError("empty response line")
    verb, args = words[0], words[1:]
    if verb not in _RESPONSE_ARITY:
        raise ProtocolError(f"{line!r}: unknown response (one of {', '.join(_RESPONSE_ARITY)})")
    if len(args) not in _RESPONSE_ARITY[verb]:
        raise ProtocolError(f"{line!r}: {verb} takes {_RESPONSE_ARITY[verb]} tile(s)")
    if verb == "CHI":
        return Response(verb, (_middle(args[0], line), _tile(args[1], line)))
    return Response(verb, tuple(_tile(w, line) for w in args))


def parse_exact(text: str) -> Response | None:
    """Read an answer as the Botzone judge does (docs/rules.md §20): it splits it on each
    single space and compares the words exactly, so only the well-formed line itself is read
    (``"PLAY T5 "``, ``"PLAY  T5"`` or ``"HU "`` is not); None for anything else."""
    try:
        response = parse_response(text)
    except ProtocolError:
        return None
    return response if str(response) == text else None


RESPONSE_PASS: Final = Response("PASS")


def action_to_response(action: Action, discard: Action | None = None) -> Response:
    """The Botzone answer for a guobiao action; a chow or pung needs its following ``discard``."""
    kind, tile = action.kind, action.tile
    if kind is ActionKind.PASS:
        return RESPONSE_PASS
    if kind is ActionKind.WIN:
        return Response("HU")
    if kind is ActionKind.KONG:
        return Response("GANG")
    assert tile is not None
    if kind is ActionKind.DISCARD:
        return Response("PLAY", (tile,))
    if kind is ActionKind.CONCEALED_KONG:
        return Response("GANG", (tile,))
    if kind is ActionKind.ADDED_KONG:
        return Response("BUGANG", (tile,))
    if discard is None or discard.kind is not ActionKind.DISCARD or discard.tile is None:
        raise ValueError(f"{action} needs the discard that follows it")
    if kind is ActionKind.PUNG:
        return Response("PENG", (discard.tile,))
    return Response("CHI", (TILES[tile + 1], discard.tile))


def response_to_actions(response: Response, claimable: Tile | None = None) -> tuple[Action, ...]:
    """The guobiao actions of a Botzone answer (a pung or chow is two: the claim, the discard).

    ``claimable`` is the discard the answer responds to (needed for ``GANG`` on a discard and
    ``PENG``). Inverse of :func:`action_to_response`.
    """
    verb, tiles = response.verb, response.tiles
    if verb == "PASS":
        return (PASS,)
    if verb == "HU":
        return (WIN,)
    if verb == "PLAY":
        return (Action(ActionKind.DISCARD, tiles[0]),)
    if verb == "BUGANG":
        return (Action(ActionKind.ADDED_KONG, tiles[0]),)
    if verb == "GANG" and tiles:
        return (Action(ActionKind.CONCEALED_KONG, tiles[0]),)
    if claimable is None:
        raise ProtocolError(f"{response} answers a discard, but there is none")
    if verb == "GANG":
        return (Action(ActionKind.KONG, claimable),)
    if verb == "PENG":
        return (Action(ActionKind.PUNG, claimable), Action(ActionKind.DISCARD, tiles[0]))
    return (
        Action(ActionKind.CHOW, TILES[tiles[0] - 1]),
        Action(ActionKind.DISCARD, tiles[1]),
    )


# ---------------------------------------------------------------------------------------------
# The seat tracker
# ---------------------------------------------------------------------------------------------

_DISCARD = tuple(Action(ActionKind.DISCARD, TILES[t]) for t in range(34))


class BotzoneSeat:
    """What one seat knows, rebuilt request by request; :meth:`view` for a guobiao bot.

    Feed every request in order with :meth:`feed`, and this seat's answer to it with
    :meth:`respond` (needed only to know which tile one's own concealed kong was).

    The wall is the judge's: four segments, each seat drawing from its own (docs/rules.md §20),
    and a request the judge never sends at its end is refused. ``shared_wall``: follow the 1998
    engine's one shared wall instead (tests), where a segment is only a count: only the whole
    wall's 84 draws are then bounded.
    """

    def __init__(self, rules: TableRules = BOTZONE_RULES, *, shared_wall: bool = False) -> None:
        self.rules = rules
        self.shared_wall = shared_wall
        self.seat: int | None = None
        self.quan = 0
        self.turn = 0  # requests fed
        self._counts = [0] * 34
        self._melds: list[list[Meld]] = [[] for _ in range(4)]
        self._hidden_kongs = [0] * 4
        self._rivers: list[list[int]] = [[] for _ in range(4)]
        self._flowers = [0] * 4
        self._my_flowers: list[Tile] = []
        self._segments = [SEGMENT - 13] * 4
        self._classic = False  # flowers seen: one shared 144-tile wall
        self._classic_left = 0
        self._phase = Phase.ACT
        self._current = 0
        self._drawn: int | None = None
        self._replacement = False  # my current draw replaces my own kong (杠上开花)
        self._next_replacement = False
        self._claimable: int | None = None  # the discard or added tile others may take now
        self._prev: Request | None = None
        self._answer: Response | None = None  # my answer to the previous request
        self._legal: tuple[Action, ...] = ()
        self._draws = 0  # tiles drawn from the wall since the deal (flowers included)
        self._seen_flowers: set[Tile] = set()

    # -- reading ------------------------------------------------------------------------------
    @property
    def legal_actions(self) -> tuple[Action, ...]:
        """My choices now, as the guobiao engine would list them; empty: answer PASS."""
        return self._legal

    @property
    def hand(self) -> tuple[Tile, ...]:
        return tuple(TILES[t] for t in range(34) for _ in range(self._counts[t]))

    @property
    def segments(self) -> tuple[int, ...]:
        """Tiles left in each seat's wall segment."""
        return tuple(self._segments)

    @property
    def wall_remaining(self) -> int:
        if self._classic:
            return self._classic_left
        return sum(self._segments)

    def view(self) -> SeatView:
        """The guobiao view of my seat now (for ``Bot.choose``)."""
        me = self._me()
        return SeatView(
            seat=me,
            round_wind=Wind(self.quan),
            phase=self._phase,
            current=self._current,
            hand=self.hand,
            drawn=TILES[self._drawn] if self._drawn is not None else None,
            melds=tuple(
                tuple(m for m in ms if s == me or m.kind is not MeldKind.CONCEALED_KONG)
                for s, ms in enumerate(self._melds)
            ),
            discards=tuple(tuple(TILES[t] for t in r) for r in self._rivers),
            flowers=tuple(self._flowers),
            wall_remaining=self.wall_remaining,
            last_discard=TILES[self._claimable]
            if self._phase in (Phase.RESPOND, Phase.ROB) and self._claimable is not None
            else None,
            legal_actions=self._legal,
            concealed_kongs=(
                self._hidden_kongs[0],
                self._hidden_kongs[1],
                self._hidden_kongs[2],
                self._hidden_kongs[3],
            ),
        )

    def claim_view(self, claim: Action) -> SeatView:
        """The view after my chow or pung of the current discard: I must discard (phase ACT)."""
        me, tile = self._me(), self._claimable
        if (
            claim.kind not in (ActionKind.CHOW, ActionKind.PUNG)
            or claim.tile is None
            or tile is None
            or self._phase is not Phase.RESPOND
            or self._current == me
        ):
            raise ValueError(f"{claim} is not a chow or pung of another seat's discard now")
        counts = list(self._counts)
        melds = [list(ms) for ms in self._melds]
        rivers = [list(r) for r in self._rivers]
        rivers[self._current].pop()
        melds[me].append(self._claim_meld(claim, me, self._current, tile, counts))
        base = self.view()
        return SeatView(
            seat=me,
            round_wind=base.round_wind,
            phase=Phase.ACT,
            current=me,
            hand=tuple(TILES[t] for t in range(34) for _ in range(counts[t])),
            drawn=None,
            melds=tuple(
                tuple(m for m in ms if s == me or m.kind is not MeldKind.CONCEALED_KONG)
                for s, ms in enumerate(melds)
            ),
            discards=tuple(tuple(TILES[t] for t in r) for r in rivers),
            flowers=base.flowers,
            wall_remaining=base.wall_remaining,
            last_discard=None,
            legal_actions=tuple(_DISCARD[t] for t in range(34) if counts[t]),
            concealed_kongs=base.concealed_kongs,
        )

    # -- feeding ------------------------------------------------------------------------------
    def respond(self, response: Response | str) -> None:
        """Note my answer to the request fed last."""
        self._answer = parse_response(response) if isinstance(response, str) else response

    def feed(self, request: Request | str) -> None:
        """Apply the next request; a request that cannot follow the state raises ProtocolError
        (the tracker is then not to be used further): out of turn (a draw when another seat
        draws, a play by a seat that has not drawn), a fifth copy of a tile, a tile or a pung I do
        not hold, a fifth meld, a draw from an empty wall or (the judge's wall) from the drawer's
        empty segment, a claim of the last discard, a concealed or added kong with no
        replacement or on the last tile, a flower shown twice, or an action of mine other than
        my answer (when :meth:`respond` gave it)."""
        req = parse_request(request) if isinstance(request, str) else request
        try:
            self._apply(req)
        except ProtocolError as err:
            raise ProtocolError(f"request {self.turn + 1} {str(req)!r}: {err}") from None
        self._prev = req
        self._answer = None
        self.turn += 1

    def _me(self) -> int:
        if self.seat is None:
            raise ProtocolError("my seat is not known yet (the first request is '0 seat quan')")
        return self.seat

    def _apply(self, req: Request) -> None:
        self._legal = ()
        if self.turn == 0 and not isinstance(req, SeatRequest):
            raise ProtocolError("the first request must be '0 seat quan'")
        if isinstance(req, SeatRequest):
            if self.turn != 0:
                raise ProtocolError("'0 seat quan' comes only first")
            self.seat, self.quan = req.seat, req.quan
            return
        me = self._me()
        if isinstance(req, DealRequest):
            if self.turn != 1:
                raise ProtocolError("the deal comes only second")
            self._deal(req, me)
            return
        if self.turn < 2:
            raise ProtocolError("the deal ('1 ...') comes before any play")
        self._check_answer(req, me)
        if isinstance(req, DrawRequest):
            self._check_turn(me, draw=True)
            self._take_from_wall(me)
            self._counts[req.tile] += 1
            self._phase, self._current, self._drawn = Phase.ACT, me, int(req.tile)
            self._replacement, self._next_replacement = self._next_replacement, False
        else:
            self._drawn = None
        if isinstance(req, FlowerEvent):
            self._check_turn(req.player, draw=True)
            if req.tile in self._seen_flowers:
                raise ProtocolError(f"{req.tile} was shown already: each flower is a single tile")
            self._seen_flowers.add(req.tile)
            self._classic = True
            self._take_from_wall(req.player)
            self._flowers[req.player] += 1
            if req.player == me:
                self._my_flowers.append(req.tile)
                self._next_replacement = False  # a flower replacement is no kong replacement
        elif isinstance(req, DrawEvent):
            if req.player == me:
                raise ProtocolError(f"my own draw comes as '2 T', never as '3 {me} DRAW'")
            self._check_turn(req.player, draw=True)
            self._take_from_wall(req.player)
            self._phase, self._current = Phase.ACT, req.player
        elif isinstance(req, PlayEvent):
            if req.player == me and self._counts[req.tile] <= 0:
                raise ProtocolError(f"I do not hold {req.tile}")
            self._check_turn(req.player, draw=False)
            self._discard(req.player, int(req.tile))
        elif isinstance(req, PengEvent | ChiEvent):
            self._claim(req, me)
        elif isinstance(req, GangEvent):
            self._gang(req.player)
        elif isinstance(req, BugangEvent):
            self._bugang(req.player, int(req.tile))
        self._check_counts(me)
        self._legal = self._legal_now(req, me)

    def _deal(self, req: DealRequest, me: int) -> None:
        if len(set(req.flowers)) != len(req.flowers):
            raise ProtocolError("a flower is listed twice: each flower is a single tile")
        for t in req.hand:
            self._counts[t] += 1
        self._check_counts(me)
        self._flowers = list(req.flower_counts)
        self._seen_flowers = set(req.flowers)
        start = sum(req.flower_counts[:me])
        self._my_flowers = list(req.flowers[start : start + req.flower_counts[me]])
        if req.flowers:
            self._classic = True
        self._classic_left = 144 - 52 - len(req.flowers)

    def _legal_now(self, req: Request, me: int) -> tuple[Action, ...]:
        """My choices after ``req`` (applied): after my draw, after another seat's discard, or
        on another seat's added kong (robbing it)."""
        if isinstance(req, DrawRequest):
            return self._act_actions()
        tile = self._claimable
        if tile is None or getattr(req, "player", me) == me:
            return ()
        if isinstance(req, _DISCARD_EVENTS):
            return self._respond_actions(req.player, tile)
        if isinstance(req, BugangEvent) and self._can_win(tile, self_drawn=False, robbing=True):
            return (WIN, PASS)
        return ()

    # -- what may come next -------------------------------------------------------------------
    def _next(self) -> tuple[int | None, int | None, int | None]:
        """After the last request: (the seat that draws next, the seat that must play or kong
        after its draw, the seat whose discard others may claim); None where there is none."""
        prev = self._prev
        if isinstance(prev, DealRequest):
            return 0, None, None
        if isinstance(prev, DrawRequest | DrawEvent):
            return None, _player(prev, self._me()), None
        if isinstance(prev, FlowerEvent | GangEvent | BugangEvent):
            return prev.player, None, None  # its next tile (a replacement after a kong)
        if isinstance(prev, _DISCARD_EVENTS):
            return (prev.player + 1) % 4, None, prev.player
        return None, None, None

    def _expected(self) -> str:
        me = self._me()
        drawer, actor, discarder = self._next()

        def whose(seat: int) -> str:
            return "my" if seat == me else f"seat {seat}'s"

        if actor is not None:
            return f"{whose(actor)} discard, kong or added kong after the draw"
        ways = []
        if discarder is not None:
            ways.append(f"a claim of {whose(discarder)} discard by another seat")
        if drawer is not None:
            ways.append(f"{whose(drawer)} draw")
        return " or ".join(ways) or "nothing"

    def _check_turn(self, seat: int, *, draw: bool) -> None:
        """``seat`` draws (``draw``) or plays after its draw now, else ProtocolError."""
        drawer, actor, _ = self._next()
        if (drawer if draw else actor) != seat:
            raise ProtocolError(f"out of turn: next comes {self._expected()}")

    def _check_answer(self, req: Request, me: int) -> None:
        """A request after my answer to the one before (when :meth:`respond` gave it) carries
        it out: my action is the one I answered; after my HU nothing comes; after my claim
        (granted, beaten by another seat's claim, or ending the hand) no seat simply draws."""
        answer = self._answer
        if answer is None:
            return
        if answer.verb == "HU":
            raise ProtocolError("my answer was HU: the hand ended with it")
        if getattr(req, "player", None) == me and isinstance(
            req, PlayEvent | PengEvent | ChiEvent | GangEvent | BugangEvent
        ):
            if isinstance(req, GangEvent):
                concealed = self._next()[1] == me  # after my draw; else of a discard
                ok = answer.verb == "GANG" and bool(answer.tiles) == concealed
                said = "GANG T" if concealed else "GANG"
            else:
                said = str(_ANSWER_OF[type(req)](req))
                ok = str(answer) == said
            if not ok:
                raise ProtocolError(f"my answer was {answer}, not {said}")
        elif isinstance(req, DrawRequest | DrawEvent | FlowerEvent) and (
            answer.verb in ("PENG", "CHI") or (answer.verb == "GANG" and not answer.tiles)
        ):
            raise ProtocolError(
                f"my answer was {answer}: a claim is granted, beaten by another seat's claim "
                "or ends the hand, and no seat simply draws after it"
            )

    def _check_counts(self, me: int) -> None:
        """No tile more than four times in my hand, the discards and the melds; and for the
        other seats' concealed kongs (their tiles face down) as many kinds none of which I see."""
        known = list(self._counts)
        for river in self._rivers:
            for t in river:
                known[t] += 1
        for melds in self._melds:  # mine include my concealed kongs; the others' never do
            for meld in melds:
                for t in meld.tiles:
                    known[t] += 1
        for t in range(34):
            if known[t] > 4:
                raise ProtocolError(
                    f"{TILES[t]} would be seen {known[t]} times (my hand, the discards and the "
                    "melds): there are four of each tile"
                )
        hidden = sum(n for s, n in enumerate(self._hidden_kongs) if s != me)
        if hidden > sum(1 for n in known if n == 0):
            raise ProtocolError(
                f"the other seats' {hidden} concealed kongs need as many kinds of tile none of "
                "which I see"
            )

    def _check_melds(self, seat: int) -> None:
        me = self._me()
        held = len(self._melds[seat]) + (self._hidden_kongs[seat] if seat != me else 0)
        if held >= 4:
            raise ProtocolError(f"seat {seat} has four melds already: a hand has no fifth")

    # -- the requests -------------------------------------------------------------------------
    def _discarder(self, req: Request) -> int:
        """The seat whose discard ``req`` claims (it must follow a discard by another seat)."""
        prev = self._prev
        if not isinstance(prev, _DISCARD_EVENTS) or self._claimable is None:
            raise ProtocolError("a claim must follow a discard")
        player = getattr(req, "player", -1)
        if prev.player == player:
            raise ProtocolError("a seat cannot claim its own discard")
        return prev.player

    def _claim(self, req: PengEvent | ChiEvent, me: int) -> None:
        claimer, discarder, tile = req.player, self._discarder(req), self._claimable
        assert tile is not None
        self._check_claimable(discarder, tile)
        if isinstance(req, PengEvent):
            claim = Action(ActionKind.PUNG, TILES[tile])
        else:
            low = int(req.middle) - 1
            if claimer != (discarder + 1) % 4:
                raise ProtocolError("a chow is made only on the previous seat's discard")
            if not low <= tile <= low + 2 or TILES[low].suit != TILES[tile].suit:
                raise ProtocolError(f"{req.middle} is not the middle of a chow with {TILES[tile]}")
            claim = Action(ActionKind.CHOW, TILES[low])
        self._check_melds(claimer)
        counts = None
        if claimer == me:  # the meld's tiles and then the discard, from my hand
            counts = list(self._counts)
            self._claim_meld(claim, claimer, discarder, tile, counts)
            if counts[req.discard] <= 0:
                raise ProtocolError(f"I do not hold {req.discard}")
            counts = self._counts
        self._rivers[discarder].pop()
        self._melds[claimer].append(self._claim_meld(claim, claimer, discarder, tile, counts))
        self._discard(claimer, int(req.discard))

    def _claim_meld(
        self, claim: Action, claimer: int, discarder: int, tile: int, counts: list[int] | None
    ) -> Meld:
        assert claim.tile is not None
        offered = (discarder - claimer) % 4
        if claim.kind is ActionKind.CHOW:
            low = int(claim.tile)
            used = [u for u in (low, low + 1, low + 2) if u != tile]
            meld = Meld(MeldKind.CHOW, TILES[low], offered, TILES[tile])
        else:
            n = 2 if claim.kind is ActionKind.PUNG else 3
            used = [tile] * n
            kind = MeldKind.PUNG if claim.kind is ActionKind.PUNG else MeldKind.KONG
            meld = Meld(kind, TILES[tile], offered)
        if counts is not None:
            for u in used:
                if counts[u] <= 0:
                    raise ProtocolError(f"I do not hold the {TILES[u]} this meld needs")
                counts[u] -= 1
        return meld

    def _take_from_wall(self, seat: int) -> None:
        # The whole wall bounds the draws: 84 after the deal, or the shared wall of the classic
        # game; and on the judge's wall each seat's own segment (§20 荒牌: the hand is drawn
        # when the seat due to draw, a kong's replacement included, has an empty segment).
        left = self._classic_left if self._classic else 4 * (SEGMENT - 13) - self._draws
        if left <= 0:
            raise ProtocolError("the wall is empty: no tile is left to draw")
        if self._segmented and self._segments[seat] <= 0:
            raise ProtocolError(
                f"{self._whose(seat)} wall segment is empty: the hand is drawn (荒牌) when the "
                "seat due to draw has no tile left in its segment, so no tile comes from it"
            )
        self._draws += 1
        self._segments[seat] = max(0, self._segments[seat] - 1)
        self._classic_left = max(0, self._classic_left - 1)

    def _discard(self, seat: int, tile: int) -> None:
        me = self._me()
        if seat == me:
            if self._counts[tile] <= 0:
                raise ProtocolError(f"I do not hold {TILES[tile]}")
            self._counts[tile] -= 1
        self._rivers[seat].append(tile)
        self._claimable = tile
        self._phase, self._current = Phase.RESPOND, seat

    def _gang(self, player: int) -> None:
        me = self._me()
        _, actor, discarder = self._next()
        if discarder is not None and discarder != player:  # a kong of the discard
            tile = self._claimable
            assert tile is not None
            self._check_claimable(discarder, tile)
            # (with its own segment empty the judge accepts it, then draws the hand: §20)
            self._check_melds(player)
            claim = Action(ActionKind.KONG, TILES[tile])
            counts = self._counts if player == me else None
            meld = self._claim_meld(claim, player, discarder, tile, counts)
            self._rivers[discarder].pop()
            self._melds[player].append(meld)
        elif actor == player:  # a concealed kong after its draw (others: the tile face down)
            self._check_kong_after_draw(player)
            self._check_melds(player)
            if player == me:
                tile = self._concealed_kong_tile()
                self._counts[tile] -= 4
                self._melds[me].append(Meld(MeldKind.CONCEALED_KONG, TILES[tile]))
            self._hidden_kongs[player] += 1
        else:
            raise ProtocolError("GANG must follow a discard by another seat or one's own draw")
        if player == me:
            self._next_replacement = True
        self._phase, self._current, self._claimable = Phase.ACT, player, None

    def _concealed_kong_tile(self) -> int:
        answer = self._answer
        if answer is not None and answer.verb == "GANG" and answer.tiles:
            tile = int(answer.tiles[0])
            if self._counts[tile] == 4:
                return tile
            raise ProtocolError(f"my answer was {answer} but I do not hold four {TILES[tile]}")
        fours = [t for t in range(34) if self._counts[t] == 4]
        if len(fours) != 1:
            raise ProtocolError("which tile my concealed kong was is unknown (give my answers)")
        return fours[0]

    def _bugang(self, player: int, tile: int) -> None:
        me = self._me()
        melds = self._melds[player]
        at = next(
            (i for i, m in enumerate(melds) if m.kind is MeldKind.PUNG and m.tile == tile), None
        )
        if at is None:
            raise ProtocolError(f"seat {player} has no pung of {TILES[tile]} to add to")
        if player == me and self._counts[tile] <= 0:
            raise ProtocolError(f"I do not hold {TILES[tile]}")
        self._check_turn(player, draw=False)
        self._check_kong_after_draw(player)
        melds[at] = Meld(MeldKind.KONG, TILES[tile], melds[at].offered_by)
        if player == me:
            self._counts[tile] -= 1
            self._next_replacement = True
        self._claimable = tile
        self._phase, self._current = Phase.ROB, player

    # -- the rules ----------------------------------------------------------------------------
    @property
    def _segmented(self) -> bool:
        """The judge's wall of four segments (not the classic game's, nor the shared one)."""
        return not self._classic and not self.shared_wall

    def _whose(self, seat: int) -> str:
        return "my" if seat == self.seat else f"seat {seat}'s"

    def _check_claimable(self, discarder: int, tile: int) -> None:
        """§20: the last discard (the next seat's segment is empty) may only be won."""
        if self._segmented and self._is_last(discarder):
            raise ProtocolError(
                f"{TILES[tile]} is the last discard (seat {(discarder + 1) % 4}'s segment is "
                "empty): it may only be won, never chowed, punged or konged"
            )

    def _check_kong_after_draw(self, seat: int) -> None:
        """§20: no concealed or added kong on the last tile or with one's own segment empty
        (the judge makes it a foul: it never tells the others of one)."""
        if self._segmented and not self._may_kong_after_draw(seat):
            why = "its segment is empty" if self._segments[seat] <= 0 else "it drew the last tile"
            raise ProtocolError(
                f"seat {seat} cannot kong now: {why}, and a kong needs a replacement tile "
                "from one's own segment"
            )

    def _may_kong_after_draw(self, seat: int) -> bool:
        """A concealed or added kong after a draw: a replacement left in the seat's own
        segment, and the tile drawn is not the last (the engine's and the judge's rule)."""
        return self._can_replace(seat) and not self._is_last(seat)

    def _is_last(self, seat: int) -> bool:
        """Is ``seat``'s current draw or discard the last of the hand (海底)?"""
        if self._classic:
            return self._classic_left == 0
        return self._segments[(seat + 1) % 4] == 0

    def _can_replace(self, seat: int) -> bool:
        """A kong needs a replacement tile from the seat's own segment."""
        if self._classic:
            return self._classic_left > 0
        return self._segments[seat] > 0

    def _act_actions(self) -> tuple[Action, ...]:
        me, counts, drawn = self._me(), self._counts, self._drawn
        assert drawn is not None
        actions: list[Action] = []
        if self._can_win(drawn, self_drawn=True):
            actions.append(WIN)
        if self._may_kong_after_draw(me):
            actions.extend(
                Action(ActionKind.CONCEALED_KONG, TILES[t]) for t in range(34) if counts[t] == 4
            )
            for meld in self._melds[me]:
                if meld.kind is MeldKind.PUNG and meld.tile == drawn:
                    actions.append(Action(ActionKind.ADDED_KONG, TILES[drawn]))
        actions.extend(_DISCARD[t] for t in range(34) if counts[t])
        return tuple(actions)

    def _respond_actions(self, discarder: int, tile: int) -> tuple[Action, ...]:
        me, counts = self._me(), self._counts
        actions: list[Action] = []
        if self._can_win(tile, self_drawn=False):
            actions.append(WIN)
        if not self._is_last(discarder):
            n = counts[tile]
            if n >= 2:
                actions.append(Action(ActionKind.PUNG, TILES[tile]))
            if n == 3 and self._can_replace(me):
                actions.append(Action(ActionKind.KONG, TILES[tile]))
            if me == (discarder + 1) % 4 and tile < 27:
                rank = tile % 9
                for low in (tile - 2, tile - 1, tile):
                    if low < tile - rank or low + 2 > tile - rank + 8:
                        continue
                    if all(counts[u] for u in (low, low + 1, low + 2) if u != tile):
                        actions.append(Action(ActionKind.CHOW, TILES[low]))
        if actions:
            actions.append(PASS)
        return tuple(actions)

    def visible(self, tile: int) -> int:
        """Copies of ``tile`` on the table: discards that stood and exposed melds (和绝张)."""
        seen = sum(r.count(tile) for r in self._rivers)
        for melds in self._melds:
            for meld in melds:
                if meld.kind is not MeldKind.CONCEALED_KONG:
                    seen += sum(1 for t in meld.tiles if t == tile)
        return seen

    def win_context(self, tile: int, *, self_drawn: bool, robbing: bool = False) -> WinContext:
        """The circumstances of my win on ``tile`` now."""
        me = self._me()
        seen = self.visible(tile)
        # a discarded winning tile stands in the discarder's pool and is one of the four
        fourth = not robbing and seen == (3 if self_drawn else 4)
        kong = self._replacement if self_drawn else robbing
        last = not robbing and self._is_last(me if self_drawn else self._current)
        return WinContext(
            TILES[tile],
            self_drawn=self_drawn,
            fourth_tile=fourth,
            kong=kong,
            last_tile=last,
            seat_wind=Wind(me),
            round_wind=Wind(self.quan),
        )

    def _can_win(self, tile: int, *, self_drawn: bool, robbing: bool = False) -> bool:
        counts = list(self._counts)
        me = self._me()
        if not self_drawn:
            counts[tile] += 1
        if shanten(counts, len(self._melds[me])) != -1:
            return False
        counts[tile] -= 1
        hand = Hand(
            tuple(TILES[t] for t in range(34) for _ in range(counts[t])), tuple(self._melds[me])
        )
        context = self.win_context(tile, self_drawn=self_drawn, robbing=robbing)
        try:
            result = calculate(hand, context, self.rules.fan_profile)
        except ValueError:
            return False
        return result.is_winning and result.points_without_flowers >= self.rules.minimum


def _player(req: DrawRequest | DrawEvent, me: int) -> int:
    return me if isinstance(req, DrawRequest) else req.player


_ANSWER_OF: Final = {
    PlayEvent: lambda r: Response("PLAY", (r.tile,)),
    PengEvent: lambda r: Response("PENG", (r.discard,)),
    ChiEvent: lambda r: Response("CHI", (r.middle, r.discard)),
    BugangEvent: lambda r: Response("BUGANG", (r.tile,)),
}
"""My answer that a request of my own action carries out (GANG: see ``_check_answer``)."""


# ---------------------------------------------------------------------------------------------
# Choosing and the transports
# ---------------------------------------------------------------------------------------------


class Chooser(Protocol):
    def choose(self, view: SeatView) -> Action: ...


def _pick(bot: Chooser, view: SeatView, notes: list[str]) -> Action:
    """The bot's choice if legal, else a safe one (PASS, the drawn tile, the first discard)."""
    legal = view.legal_actions
    try:
        action = bot.choose(view)
    except Exception as err:  # a bot that fails must not lose the game: play safe
        notes.append(f"bot failed: {err!r}")
        action = None
    if action in legal:
        assert action is not None
        return action
    if action is not None:
        notes.append(f"bot chose {action}, not legal")
    if PASS in legal:
        return PASS
    if view.drawn is not None and _DISCARD[view.drawn] in legal:
        return _DISCARD[view.drawn]
    return next(a for a in legal if a.kind is ActionKind.DISCARD)


def choose_response(bot: Chooser, seat: BotzoneSeat, notes: list[str] | None = None) -> Response:
    """Ask ``bot`` for this seat's answer now (a claim, then its discard); always legal."""
    notes = notes if notes is not None else []
    if not seat.legal_actions:
        return RESPONSE_PASS
    action = _pick(bot, seat.view(), notes)
    if action.kind in (ActionKind.CHOW, ActionKind.PUNG):
        discard = _pick(bot, seat.claim_view(action), notes)
        return action_to_response(action, discard)
    return action_to_response(action)


def _replay(requests: Sequence[str], responses: Sequence[str], rules: TableRules) -> BotzoneSeat:
    if len(requests) != len(responses) + 1:
        raise ProtocolError(
            f"{len(requests)} requests and {len(responses)} responses: "
            "expected one more request than responses"
        )
    seat = BotzoneSeat(rules)
    for request, response in zip(requests, responses, strict=False):
        seat.feed(request)
        seat.respond(response)
    seat.feed(requests[-1])
    return seat


def _json_history(line: str) -> tuple[list[str], list[str]]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as err:
        raise ProtocolError(f"the input is not JSON: {err}") from None
    if not isinstance(data, dict):
        raise ProtocolError("the JSON input must be an object with 'requests' and 'responses'")
    requests, responses = data.get("requests"), data.get("responses", [])
    if isinstance(requests, str):  # keep-running: {"requests": "<this turn's request>"}
        requests = [requests]
    if not isinstance(requests, list) or not all(isinstance(r, str) for r in requests):
        raise ProtocolError("'requests' must be a list of request strings")
    if not isinstance(responses, list) or not all(isinstance(r, str) for r in responses):
        raise ProtocolError("'responses' must be a list of response strings")
    if not requests:
        raise ProtocolError("'requests' is empty")
    return requests, responses


def _read_line(stdin: TextIO, what: str) -> str:
    line = stdin.readline()
    if not line:
        raise ProtocolError(f"the input ended before {what}")
    return line.rstrip("\r\n")


def _next_request(line: str) -> str:
    """A keep-running turn's input that is not a JSON object: a plain request line or a JSON
    string holding one."""
    text = line.strip()
    if text.startswith('"'):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as err:
            raise ProtocolError(f"{line!r}: not a JSON string: {err}") from None
        if not isinstance(value, str):
            raise ProtocolError(f"{line!r}: expected a request string")
        return value
    return text


def serve(
    kind: str = "fan",
    *,
    seed: int | None = None,
    transport: str = "auto",
    keep_running: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    rules: TableRules = BOTZONE_RULES,
) -> int:
    """What ``guobiao botzone-bot --bot KIND`` does, without a third-party package (Botzone's
    Python has neither click nor rich): the guobiao bot ``kind`` answers the judge, on standard
    input and output unless given others, under ``rules`` (:data:`BOTZONE_RULES`, the judge's
    table; ``guobiao botzone-bot --rules`` changes its fan profile). Returns the exit code:
    0, or 2 after ``error: <message>`` on standard error for input it cannot read (no answer).

    The ``__main__.py`` of a Botzone upload (docs/botzone.md)::

        import sys
        from guobiao.botzone.protocol import serve
        sys.exit(serve("fan", keep_running=True))
    """
    import sys

    from guobiao.bots import make_bot

    bot = make_bot(kind, seed, rules)
    try:
        run(
            bot,
            sys.stdin if stdin is None else stdin,
            sys.stdout if stdout is None else stdout,
            transport=transport,
            keep_running=keep_running,
            rules=rules,
        )
    except ValueError as err:  # ProtocolError, and any request the state cannot take
        message = str(err).replace("\n", " ")
        print(f"error: {message}", file=sys.stderr if stderr is None else stderr)
        return 2
    return 0


def run(
    bot: Chooser,
    stdin: TextIO,
    stdout: TextIO,
    *,
    transport: str = "auto",
    keep_running: bool = False,
    rules: TableRules = BOTZONE_RULES,
) -> int:
    """Answer Botzone's input on ``stdin`` with ``bot``; returns the number of answers written.

    ``transport``: ``json`` (one line ``{"requests": [...], "responses": [...]}``), ``simple``
    (``n``, then 2n-1 lines alternating requests and my earlier responses) or ``auto`` (``{``
    starts JSON, a number the simple format). With ``keep_running`` the process prints
    ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after each answer and reads only the next request.
    Malformed input raises :class:`ProtocolError`.
    """
    if transport not in TRANSPORTS:
        raise ValueError(f"transport must be one of {', '.join(TRANSPORTS)}, not {transport!r}")
    first = _read_line(stdin, "the first line")
    text = first.strip().lstrip("\ufeff")  # a byte order mark, as a Windows editor saves it
    if transport == "auto":
        if text.startswith("{"):
            transport = "json"
        elif text.isdigit():
            transport = "simple"
        else:
            raise ProtocolError(
                f"{first!r}: the first line must be JSON ({{...}}) or a turn count (simple)"
            )
    if transport == "json":
        requests, responses = _json_history(text)
    else:
        if not text.isdigit() or int(text) < 1:
            raise ProtocolError(f"{first!r}: the simple format starts with the turn count n >= 1")
        lines = [
            _read_line(stdin, f"line {i + 2} of the simple input") for i in range(2 * int(text) - 1)
        ]
        requests, responses = lines[0::2], lines[1::2]
    seat = _replay(requests, responses, rules)
    answers = 0
    while True:
        notes: list[str] = []
        response = choose_response(bot, seat, notes)
        seat.respond(response)
        if transport == "json":
            out: dict[str, str] = {"response": str(response)}
            if notes:
                out["debug"] = "; ".join(notes)[:1000]
            stdout.write(json.dumps(out) + "\n")
        else:
            stdout.write(f"{response}\n")
        answers += 1
        if not keep_running:
            stdout.flush()
            return answers
        stdout.write(KEEP_RUNNING + "\n")
        stdout.flush()
        line = stdin.readline()
        if not line:
            return answers
        if line.strip().startswith("{"):
            requests, responses = _json_history(line.strip())
            if len(requests) > 1:  # a whole history: start over from it
                seat = _replay(requests, responses, rules)
                continue
            seat.feed(requests[0])
            continue
        seat.feed(_next_request(line))
