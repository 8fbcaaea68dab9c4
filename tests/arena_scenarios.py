"""Helpers of the arena tests: walls built to order and scripted players."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from guobiao.botzone.arena import Reply
from guobiao.core.tiles import Tile


def build_wall(hands: Mapping[int, str], draws: Mapping[int, str] | None = None) -> list[int]:
    """A Botzone wall string (as tile ints) dealing ``hands[seat]`` (13 tiles, Botzone names
    separated by spaces) and then drawing ``draws[seat]`` in order (``?``: any tile); the rest
    is filled with the unused tiles, lowest first, in wall order."""
    wall: list[int | None] = [None] * 136
    left = [4] * 34
    for seat, text in hands.items():
        tiles = text.split()
        assert len(tiles) == 13, (seat, len(tiles))
        for k, name in enumerate(tiles):
            wall[34 * seat + 33 - k] = int(Tile.parse(name))
    for seat, text in (draws or {}).items():
        for k, name in enumerate(text.split()):
            if name != "?":  # any tile
                wall[34 * seat + 20 - k] = int(Tile.parse(name))
    for t in wall:
        if t is not None:
            left[t] -= 1
            assert left[t] >= 0, f"more than four of {Tile(t)}"
    spare = [t for t in range(34) for _ in range(left[t])]
    # fill each segment's free places from the far end (drawn last), so the filler is drawn
    # only after the scripted draws
    out = list(wall)
    for i in range(136):
        if out[i] is None:
            out[i] = spare.pop(0)
    return [int(t) for t in out if t is not None]


class Scripted:
    """A player that answers ``script`` (request -> response, in order) and otherwise passes, or
    discards the tile it drew."""

    def __init__(self, script: Sequence[tuple[str, str]] = ()) -> None:
        self.name = "scripted"
        self.script = list(script)
        self.requests: list[str] = []

    def start(self, seat: int) -> None:
        self.requests = []

    def ask(self, request: str) -> Reply:
        self.requests.append(request)
        if self.script and request == self.script[0][0]:
            return Reply("OK", self.script.pop(0)[1])
        if request.startswith("2 "):
            return Reply("OK", "PLAY " + request.split()[1])
        return Reply("OK", "PASS")

    def close(self) -> None:
        pass
