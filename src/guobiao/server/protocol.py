"""The WebSocket message protocol of ``guobiao serve`` (docs/web.md): what goes over the wire.

Plain data only (no web framework): a seat's view as JSON (:func:`view_json`), the view a
spectator gets (:func:`spectator_view`: no concealed tile of anyone), the hint panel
(:func:`hints`), a hand's end (:func:`hand_end_json`), a finished hand's replay frames
(:func:`replay_frames`: every seat face up, one frame per action), and the one reader of client
messages (:func:`parse_client_message`), which refuses anything that is not a well-formed message.

Client → server (JSON text frames):

- ``{"type": "action", "action": "discard W5"}`` (``str(Action)``: ``discard W5``, ``chow W3W4W5``,
  ``pung F1``, ``kong J1``, ``concealed_kong W1``, ``added_kong B2``, ``win``, ``pass``)
- ``{"type": "ping"}`` → ``{"type": "pong"}``
- ``{"type": "ready"}``: this person may go on to the next hand
- ``{"type": "resume"}``: a person on auto-play takes their place back

Server → client: ``welcome``, ``state``, ``event``, ``timeout``, ``hand_end``, ``session_end``,
``error``, ``pong`` (see docs/web.md).
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from guobiao.bots import BOT_KINDS, BOT_NAMES, LEVEL_NAMES, LEVEL_OF
from guobiao.core.melds import Meld
from guobiao.core.shanten import discard_options, shanten, useful_tiles, waits
from guobiao.core.tiles import TILES, Tile
from guobiao.table.game import Action, ActionKind, Game, HandResult, Phase, SeatView
from guobiao.table.glossary import glossary_data

__all__ = [
    "CLIENT_TYPES",
    "MAX_MESSAGE",
    "ClientMessage",
    "ProtocolError",
    "action_json",
    "glossary_script",
    "hand_end_json",
    "hints",
    "meld_json",
    "not_found_page",
    "parse_client_message",
    "replay_frame",
    "replay_frames",
    "spectator_view",
    "tile_table",
    "view_json",
]

MAX_MESSAGE: Final = 1024
"""Longest client message accepted (characters); a longer one is refused unread."""

CLIENT_TYPES: Final = ("action", "ping", "ready", "resume")


class ProtocolError(ValueError):
    """A client message that cannot be read: ``code`` is sent back in the error reply."""

    def __init__(self, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params or {}


@dataclass(frozen=True, slots=True)
class ClientMessage:
    type: str
    action: Action | None = None
    decision: int | None = None  # the state's ``decision`` an action answers, when sent


def parse_client_message(text: str) -> ClientMessage:
    """Read one client frame; raise :class:`ProtocolError` for anything malformed."""
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(
            "too_long", f"a message is at most {MAX_MESSAGE} characters", {"max": MAX_MESSAGE}
        )
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "the message is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "bad_message",
            f"type must be one of {', '.join(CLIENT_TYPES)}",
            {"types": list(CLIENT_TYPES)},
        )
    if kind != "action":
        return ClientMessage(kind)
    text_action = data.get("action")
    if not isinstance(text_action, str) or not text_action.strip():
        raise ProtocolError("bad_message", 'an action message needs "action": "discard W5" etc.')
    try:
        action = Action.parse(text_action)
    except ValueError as err:
        raise ProtocolError("bad_action", str(err), {"action": text_action[:50]}) from None
    tile = action.tile
    if tile is not None and (
        tile.is_flower
        or (action.kind is ActionKind.CHOW and not (tile.is_suited and tile.rank <= 7))
    ):
        # no action names a flower (they are shown and replaced), and a chow runs from a suited
        # 1-7: such an action is no action at all (``chow H7`` has no three tiles to write)
        raise ProtocolError(
            "bad_action",
            f"not an action of the game: {text_action[:50]!r}",
            {"action": text_action[:50]},
        )
    decision = data.get("decision")
    if decision is not None and (
        type(decision) is not int or not 0 <= decision < 2**53  # (a bool is not taken)
    ):
        raise ProtocolError("bad_message", '"decision" is the state\'s decision counter')
    return ClientMessage("action", action, decision)


def tile_table() -> dict[str, dict[str, str]]:
    """Every tile's names for the page: Botzone name → glyph, 中文, compact."""
    return {str(t): {"glyph": t.glyph, "zh": t.chinese, "compact": t.compact} for t in TILES}


def glossary_script() -> str:
    """``/static/glossary.js``: the glossary (``guobiao.table.glossary``) and the bots' names as the
    global ``GLOSSARY`` of the pages, which take their terms from it (static/common.js)."""
    data = {
        **glossary_data(),
        "bots": {kind: BOT_NAMES[kind]._asdict() for kind in BOT_KINDS},
        "levels": {kind: LEVEL_NAMES[LEVEL_OF[kind]]._asdict() for kind in BOT_KINDS},
    }
    return f"const GLOSSARY = {json.dumps(data, ensure_ascii=False)};\n"


def _tiles(tiles: tuple[Tile, ...] | list[Tile]) -> list[str]:
    return [str(t) for t in tiles]


def meld_json(meld: Meld) -> dict[str, Any]:
    return {
        "kind": meld.kind.value,
        "tiles": _tiles(meld.tiles),
        "offered_by": meld.offered_by,
        "claimed": str(meld.claimed) if meld.claimed is not None else None,
    }


def action_json(action: Action) -> str:
    return str(action)


def view_json(
    view: SeatView, flowers: tuple[tuple[Tile, ...], ...] | None = None
) -> dict[str, Any]:
    """A :class:`SeatView` as JSON. ``flowers``: the flower tiles each seat has shown (public)."""
    return {
        "seat": view.seat,
        "round_wind": view.round_wind.letter,
        "phase": view.phase.value,
        "current": view.current,
        "hand": _tiles(view.hand),
        "drawn": str(view.drawn) if view.drawn is not None else None,
        "melds": [[meld_json(m) for m in seat] for seat in view.melds],
        "concealed_kongs": list(view.concealed_kongs),
        "discards": [_tiles(pool) for pool in view.discards],
        "flowers": [_tiles(f) for f in flowers] if flowers is not None else None,
        "flower_counts": list(view.flowers),
        "wall_remaining": view.wall_remaining,
        "last_discard": str(view.last_discard) if view.last_discard is not None else None,
        "legal_actions": [str(a) for a in view.legal_actions],
        "scores": list(view.scores),
    }


def spectator_view(game: Game) -> SeatView:
    """What a spectator sees: every seat's exposed melds and discards, no concealed tile at all
    (no hand, and the concealed kongs face down for every seat until the hand is over)."""
    base = game.view(0)
    other = game.view(1)  # seat 0's melds as another seat sees them (concealed kongs hidden)
    return replace(
        base,
        seat=-1,
        hand=(),
        drawn=None,
        legal_actions=(),
        melds=(other.melds[0], *base.melds[1:]),
    )


def hints(view: SeatView) -> dict[str, Any] | None:
    """The hint panel of a seat (from its own view only): shanten, and either the best discards
    (with their useful tiles and how many are live) or the useful tiles / waits of a 13-form hand;
    ``unseen``: copies of each of the 34 kinds this seat has not seen."""
    if view.phase is Phase.OVER or view.seat < 0:
        return None
    counts = [0] * 34
    for t in view.hand:
        counts[t] += 1
    melds = len(view.melds[view.seat])
    visible = view.visible_counts()
    unseen = [max(0, 4 - counts[t] - visible[t]) for t in range(34)]
    try:
        if len(view.hand) % 3 == 2:
            options = discard_options(counts, melds, visible)
            return {
                "shanten": options[0].shanten if options else shanten(counts, melds),
                "discards": [
                    {
                        "tile": str(o.tile),
                        "shanten": o.shanten,
                        "useful": _tiles(o.useful),
                        "live": o.live,
                    }
                    for o in options[:6]
                ],
                "useful": [],
                "waits": [],
                "unseen": unseen,
            }
        distance = shanten(counts, melds)
        useful = useful_tiles(counts, melds)
        ready = waits(counts, melds) if distance == 0 else []
        return {
            "shanten": distance,
            "discards": [],
            "useful": [{"tile": str(TILES[t]), "live": unseen[t]} for t in useful],
            "waits": [{"tile": str(TILES[t]), "live": unseen[t]} for t in ready],
            "unseen": unseen,
        }
    except ValueError:  # a hand size the shanten tables do not take (cannot happen in play)
        return None


def hand_end_json(result: HandResult, names_by_seat: list[str]) -> dict[str, Any]:
    """The settlement of a hand: the fan breakdown (中文, English, points), deltas, the winner's
    hand (shown at a win, 第八条), or a draw / forfeit."""
    out = result.summary()
    winning: dict[str, Any] | None = None
    if result.winning_hand is not None:
        hand = result.winning_hand
        winning = {
            "concealed": _tiles(hand.concealed),
            "melds": [meld_json(m) for m in hand.melds],
            "flowers": _tiles(hand.flowers),
        }
    out["winning_hand"] = winning
    out["names"] = names_by_seat
    out["self_drawn"] = result.self_drawn
    out["draw"] = result.is_draw
    return out


def public_action(action: Action) -> Action:
    """An action as the other seats may learn it: a concealed kong's tile is face down."""
    if action.kind is ActionKind.CONCEALED_KONG:
        return Action(ActionKind.CONCEALED_KONG)
    return action


def _joined(tiles: tuple[Tile, ...] | list[Tile]) -> str:
    return "".join(str(t) for t in tiles)


def replay_frame(game: Game, seat: int | None = None, action: str | None = None) -> dict[str, Any]:
    """One step of a replay: the table after ``seat``'s ``action`` (None: the deal), every seat
    face up (only for a hand that is over: a replay is public). Tiles are joined Botzone names
    (``"W1W1B5"``): ``hands`` (each seat's concealed tiles, sorted, the drawn tile apart in
    ``drawn``), ``melds`` (concealed kongs shown), ``discards``, ``flowers``; ``wall`` is the
    number of tiles left; at the end ``result`` is :meth:`HandResult.summary`."""
    current = game.current
    drawn = game.view(current).drawn if game.phase is Phase.ACT else None
    public = game.view(0)
    hands: list[str] = []
    melds: list[list[dict[str, Any]]] = []
    flowers: list[str] = []
    for s in range(4):
        hand = game.hand_of(s)
        concealed = list(hand.concealed)
        if s == current and drawn is not None and drawn in concealed:
            concealed.remove(drawn)
        hands.append(_joined(concealed))
        melds.append([meld_json(m) for m in hand.melds])
        flowers.append(_joined(hand.flowers))
    frame: dict[str, Any] = {
        "seat": seat,
        "action": action,
        "phase": game.phase.value,
        "current": current,
        "to_act": list(game.to_act),
        "hands": hands,
        "drawn": str(drawn) if drawn is not None else None,
        "melds": melds,
        "discards": [_joined(pool) for pool in public.discards],
        "flowers": flowers,
        "wall": game.wall_remaining,
        "last_discard": str(public.last_discard) if public.last_discard is not None else None,
    }
    if game.result is not None:
        frame["result"] = game.result.summary()
    return frame


def replay_frames(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A finished hand's replay from its :meth:`Game.record`: the deal, then one frame per
    recorded action (``len(record["actions"]) + 1`` frames; one more, ``"forfeit"``, if the
    hand ended by a foul). ValueError for a record that does not replay or is not over."""
    game = Game.replay(record, actions=False)
    frames = [replay_frame(game)]
    for number, (seat, text) in enumerate(record["actions"], start=1):
        try:
            action = Action.parse(str(text))
            game.act(int(seat), action)
        except ValueError as err:  # IllegalActionError is a ValueError
            raise ValueError(f"action {number} ({seat} {text}) does not replay: {err}") from None
        frames.append(replay_frame(game, int(seat), str(action)))
    foul = record.get("forfeit")
    if foul is not None:
        game.forfeit(int(foul["seat"]), str(foul["reason"]))
        frames.append(replay_frame(game, int(foul["seat"]), "forfeit"))
    if game.result is None:
        raise ValueError("the hand is not over: only a finished hand is replayed")
    expected = record.get("result")
    if expected is not None and game.result.summary() != expected:
        raise ValueError("the replayed result differs from the record's")
    return frames


def not_found_page(what_zh: str, what_en: str, back: str, back_zh: str, back_en: str) -> str:
    """A small 404 page in 中文 and English (no script, no outside resource): what was not
    found and a link back (the lobby, the tournaments). Every argument is escaped."""
    e = html.escape
    return (
        "<!doctype html>\n"
        '<html lang="zh-Hans"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>404 · 找不到 · Not found</title>"
        '<link rel="stylesheet" href="/static/app.css"></head>\n'
        '<body class="not-found"><main>'
        "<h1>404</h1>"
        f'<p lang="zh-Hans">找不到{e(what_zh)}。</p>'
        f'<p lang="en">{e(what_en)} not found.</p>'
        f'<p><a href="{e(back, quote=True)}">{e(back_zh)} · {e(back_en)}</a></p>'
        "</main></body></html>\n"
    )
