"""The interactive table: a person at a terminal against three bots (``guobiao play``).

:class:`TerminalPlayer` is an :class:`~guobiao.table.play.Agent` like the bots: at each decision it
sees only its :class:`~guobiao.table.game.SeatView` (plus the public scoreboard, :class:`Board`), shows
it, and reads the person's choice: a number from the menu of legal actions or the action typed
as text (``d W5``, ``discard 5m``, ``pung``, ``chow 345m``, ``win``/``hu``, ``pass``/``p``).
Only legal actions are ever returned, so a person cannot declare a false win.

:func:`play_at_terminal` runs a session with :func:`~guobiao.table.play.play_session`: the result
of every hand (the fan breakdown, score changes, running scores), the final standings, and the
session log for ``guobiao replay``. An adapter: it prints with rich; the core never imports it.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Literal

from rich import box
from rich.cells import cell_len
from rich.columns import Columns
from rich.console import Console
from rich.table import Table
from rich.text import Text

from guobiao.bots import BOT_KINDS, BOT_LEVELS
from guobiao.cli.util import count
from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand, parse_tiles
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.shanten import discard_options, shanten, waits
from guobiao.core.tiles import TILES, Tile, TileParseError
from guobiao.scoring.calculator import calculate
from guobiao.scoring.result import InvalidHandError
from guobiao.table.game import PASS, WIN, Action, ActionKind, Game, HandResult, Phase, SeatView
from guobiao.table.play import Agent, SessionPlay, play_session
from guobiao.table.replay import session_lines, write_log
from guobiao.table.rules import TableRules
from guobiao.table.session import Session

__all__ = [
    "BOT_KINDS",
    "EXIT_BUG",
    "STYLES",
    "Board",
    "BotFailed",
    "InputError",
    "QuitGame",
    "TerminalPlayer",
    "default_style",
    "describe",
    "menu_of",
    "parse_bots",
    "parse_input",
    "play_at_terminal",
    "tile_text",
]

STYLES = ("glyph", "chinese", "botzone")
"""How tiles are shown: Unicode tile glyphs (with the Botzone name in menus), 中文, or ``W5``."""

"""``--bots`` names: :class:`~guobiao.bots.StrongBot`, ``FanBot``, ``EfficiencyBot``, ``RandomBot``,
and the levels (:data:`guobiao.bots.BOT_LEVELS`: easy, normal, strong)."""
_BOT_ALIASES = {
    "s": "strong",
    "f": "fan",
    "e": "efficiency",
    "eff": "efficiency",
    "r": "random",
    "rand": "random",
    **BOT_LEVELS,
}

EXIT_EOF = 1
"""Exit code when the input ends (EOF) before the session does."""
EXIT_INTERRUPTED = 130
"""Exit code on Ctrl-C (128 + SIGINT, as shells report it)."""
EXIT_BUG = 70
"""Exit code when a bot (or the game) fails: a bug, said in one line (EX_SOFTWARE, sysexits.h)."""

NEXT_HAND_PROMPT = "Enter for the next hand, q to quit: "
NEXT_HAND_HELP = "  Enter: the next hand; q: quit (the complete hands count and are logged)"
"""What the next-hand prompt takes, said when ``?`` is typed there: one line within 78 cells."""

Command = Literal["quit", "help", "show"]


class InputError(ValueError):
    """Text that names no legal action now; the message says why and what to type."""


class QuitGame(Exception):
    """The person leaves the table: ``reason`` is ``"quit"`` (typed) or ``"eof"`` (input ended)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# -- tiles and actions as text --------------------------------------------------------------------


def default_style(encoding: str | None) -> str:
    """Glyphs when the output encoding is UTF-8, else plain Botzone names."""
    return "glyph" if _is_utf8(encoding) else "botzone"


def _is_utf8(encoding: str | None) -> bool:
    return (encoding or "").lower().replace("-", "").replace("_", "") in ("utf8", "utf8sig")


def tile_text(tile: Tile, style: str) -> str:
    """One tile in ``style`` (``glyph``, ``chinese`` or ``botzone``)."""
    return tile.text(style)


def _label(tile: Tile, style: str) -> str:
    """A tile in a menu: glyphs carry their Botzone name, which is what a person types."""
    if style == "glyph":
        return f"{tile.glyph} {tile}"
    return tile_text(tile, style)


def _tiles(tiles: Sequence[Tile], style: str) -> str:
    return " ".join(tile_text(t, style) for t in tiles)


CLAIMED_MARK = "*"
"""After a chow's claimed tile, the discard it took (``[W3 W4* W5]``), as the hand grammar
writes it (``[W3W4*W5:3]``)."""


def _meld_text(meld: Meld, style: str) -> str:
    """A meld as the table shows it: ``[W3 W4* W5]`` (a chow, ``*`` after the discard it
    claimed), ``[B5 B5 B5]``, ``(F1 F1 F1 F1)`` (a concealed kong, when its faces are seen)."""
    words = [tile_text(t, style) for t in meld.tiles]
    if meld.kind is MeldKind.CHOW and meld.claimed is not None:
        at = meld.tiles.index(meld.claimed)
        words[at] += CLAIMED_MARK
    body = " ".join(words)
    return f"({body})" if meld.is_concealed else f"[{body}]"


class _Flow:
    """A line of pieces laid out within ``width`` terminal cells (a Chinese character counts
    two): a piece that would pass the edge starts a new line indented by ``indent``, so that the
    terminal never folds a line inside a piece (a meld, a tile, ``drew 五万``)."""

    def __init__(self, width: int, indent: int, first: Text | str = "") -> None:
        self.width = width
        self.indent = indent
        self.text = first if isinstance(first, Text) else Text(first)
        self.column = self.text.cell_len
        self.line_start = not self.text.plain

    def add(self, piece: Text | str, style: str = "", sep: str = "  ") -> None:
        """Add ``piece`` after ``sep``, or at the start of a new line if it would not fit."""
        text = piece if isinstance(piece, Text) else Text(piece, style=style)
        size = text.cell_len
        if not self.line_start and self.column + cell_len(sep) + size > self.width:
            self.text.append("\n" + " " * self.indent)
            self.column = self.indent
        elif not self.line_start:
            self.text.append(sep)
            self.column += cell_len(sep)
        self.text.append_text(text)
        self.column += size
        self.line_start = False


def _reflow(text: Text, width: int, indent: int) -> Text:
    """A one-style line laid out by :class:`_Flow` in the phrases its commas and semicolons
    end, so that a tile or a meld named in it is never folded."""
    flow = _Flow(width, indent, Text(style=text.style))
    for phrase in re.split(r"(?<=[,;]) ", text.plain):
        flow.add(phrase, sep=" ")
    return flow.text


def describe(action: Action, style: str = "botzone") -> str:
    """A menu entry: ``discard W5``, ``chow W3 W4 W5``, ``concealed kong F1``, ``win``, ``pass``."""
    kind = action.kind
    if action.tile is None:
        return kind.value
    if kind is ActionKind.CHOW:
        return "chow " + " ".join(_label(TILES[action.tile + i], style) for i in range(3))
    return f"{kind.value.replace('_', ' ')} {_label(action.tile, style)}"


_MENU_ORDER = {
    ActionKind.WIN: 0,
    ActionKind.DISCARD: 1,
    ActionKind.CONCEALED_KONG: 2,
    ActionKind.ADDED_KONG: 3,
    ActionKind.PUNG: 4,
    ActionKind.KONG: 5,
    ActionKind.CHOW: 6,
    ActionKind.PASS: 7,
}


def menu_of(legal: Sequence[Action]) -> tuple[Action, ...]:
    """The legal actions in menu order: win, discards by tile, kongs, pung, kong, chows, pass."""
    return tuple(
        sorted(legal, key=lambda a: (_MENU_ORDER[a.kind], -1 if a.tile is None else int(a.tile)))
    )


_WORDS: dict[str, str] = {}
for _canonical, _aliases in {
    "discard": ("discard", "d", "da", "drop", "打"),
    "chow": ("chow", "c", "chi", "吃"),
    "pung": ("pung", "peng", "pong", "pon", "碰"),
    "kong": ("kong", "k", "gang", "kan", "concealed_kong", "added_kong", "杠", "槓"),
    "win": ("win", "w", "hu", "he", "mahjong", "ron", "tsumo", "和", "胡"),
    "pass": ("pass", "p", "skip", "guo", "过", "過"),
    "quit": ("quit", "q", "exit"),
    "help": ("help", "?", "h"),
    "show": ("show", "s", "table", "look"),
}.items():
    for _alias in _aliases:
        _WORDS[_alias] = _canonical
_ONE_CHAR_WORDS = "打吃碰杠槓和胡过過"


def _help(rows: Sequence[tuple[str, str]], tiles: str) -> str:
    """Two columns aligned by terminal cells (a Chinese character takes two), each line within
    78 cells: an 80-column terminal shows every line whole."""
    width = max(cell_len(left) for left, _ in rows) + 2
    lines = ["Choose by number, or type the action:"]
    lines += [f"  {left}{' ' * (width - cell_len(left))}{right}" for left, right in rows]
    return "\n".join([*lines, tiles])


HELP = _help(
    (
        ("d W5 | discard 5m | 打五万", "discard a tile (d alone: the tile you drew)"),
        ("W5 | 5m | 五万", "a tile alone also discards it"),
        ("chow 345m | c | 吃", "chow (name the tiles if there is a choice)"),
        ("pung | peng | 碰", "pung the discard"),
        ("kong | kong F1 | 杠", "kong: melded, concealed or added"),
        ("win | hu | 和", "declare a win (in the menu when it is legal)"),
        ("pass | p | Enter", "let the discard go (Enter never passes a win)"),
        ("show", "show the table again"),
        ("? | q", "this help | quit (the complete hands count)"),
    ),
    "Tiles: W1-W9 万, B1-B9 饼, T1-T9 条, F1-F4 东南西北, J1-J3 中发白;\n"
    "   or 1m-9m 1p-9p 1s-9s 1z-7z; or 五万 东风 红中.",
)

HELP_ASCII = _help(
    (
        ("d W5 | discard 5m", "discard a tile (d alone: the tile you drew)"),
        ("W5 | 5m", "a tile alone also discards it"),
        ("chow 345m | c", "chow (name the tiles if there is a choice)"),
        ("pung | peng", "pung the discard"),
        ("kong | kong F1", "kong: melded, concealed or added"),
        ("win | hu", "declare a win (in the menu when it is legal)"),
        ("pass | p | Enter", "let the discard go (Enter never passes a win)"),
        ("show", "show the table again"),
        ("? | q", "this help | quit (the complete hands count)"),
    ),
    "Tiles: W1-W9 characters, B1-B9 dots, T1-T9 bamboo, F1-F4 winds E S W N,\n"
    "   J1-J3 dragons red green white; or 1m-9m 1p-9p 1s-9s 1z-7z.",
)


def _read_tile_list(text: str) -> tuple[Tile, ...]:
    """Tiles in any notation: ``345m``, ``W3W4W5``, ``W3 W4 W5``, ``五万六万``, glyphs."""
    text = text.strip()
    try:
        return parse_tiles(text)
    except TileParseError:
        pass
    out: list[Tile] = []
    pos = 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        for size in (2, 1):
            piece = text[pos : pos + size]
            if len(piece) < size:
                continue
            try:
                out.append(Tile.parse(piece))
            except TileParseError:
                continue
            pos += size
            break
        else:
            raise InputError(
                f"not a tile: {text[pos:].split()[0]!r} (tiles look like W5, 5m, 五万)"
            )
    return tuple(out)


def _one_tile(text: str, what: str) -> Tile:
    tiles = _read_tile_list(text)
    if len(tiles) != 1:
        raise InputError(f"{what} takes one tile, e.g. '{what} W5'")
    return tiles[0]


def parse_input(
    text: str, menu: Sequence[Action], *, drawn: Tile | None = None
) -> Action | Command:
    """What the person typed: a legal action from ``menu`` or a command (quit, help, show).

    ``menu`` is the numbered list of legal actions (:func:`menu_of`); ``drawn`` the tile just
    drawn (``d`` alone discards it). Anything that is not a legal action now raises
    :class:`InputError` with a message saying why.
    """
    words = _normal(text)
    if not words:
        if PASS in menu and WIN in menu:
            raise InputError("you can win: type 'win' (or its number), or 'pass' to let it go")
        if PASS in menu:
            return PASS
        raise InputError(f"type a number 1-{len(menu)} or an action such as 'd W5' ('?' for help)")
    if words.isdigit():
        number = int(words)
        if 1 <= number <= len(menu):
            return menu[number - 1]
        raise InputError(f"there is no choice {number}: choose 1-{len(menu)}")
    head, _, rest = words.partition(" ")
    key = _WORDS.get(head.lower())
    if key is None and words[0] in _ONE_CHAR_WORDS:
        key, rest = _WORDS[words[0]], words[1:]
    if key is None:
        try:
            tiles = _read_tile_list(words)
        except InputError:
            glued = _glued(words)
            if glued is None:
                raise InputError(
                    f"not an action: {_quote(words)}; type 1-{len(menu)}, an action like "
                    "d W5, or ? for help"
                ) from None
            key, rest = glued
        else:
            if len(tiles) != 1:
                raise InputError(
                    f"{_quote(words)}: which action? e.g. 'chow {words}' or 'd {tiles[0]}'"
                )
            key, rest = "discard", words
    rest = rest.strip()
    if key in ("quit", "help", "show"):
        command: Command = "quit" if key == "quit" else "help" if key == "help" else "show"
        return command
    if key == "win":
        if WIN in menu:
            return WIN
        raise InputError("no win now: a win needs a complete hand of 8 points, flowers apart")
    if key == "pass":
        if PASS in menu:
            return PASS
        raise InputError("nothing to pass: it is your turn, discard a tile")
    if key == "discard":
        return _discard(rest, menu, drawn)
    kinds = {
        "pung": (ActionKind.PUNG,),
        "chow": (ActionKind.CHOW,),
        "kong": (ActionKind.KONG, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG),
    }[key]
    options = [a for a in menu if a.kind in kinds]
    if not options:
        raise InputError(f"you cannot {key} now")
    if rest:
        given = _read_tile_list(rest)
        if key == "chow":
            options = [a for a in options if set(given) <= set(_chow_tiles(a))]
        else:
            options = [a for a in options if set(given) == {a.tile}]
        if not options:
            raise InputError(f"you cannot {key} {rest}: you may {_choices(menu, kinds)}")
    if len(options) > 1:
        raise InputError(f"which {key}? {_choices(menu, kinds)}")
    return options[0]


def _normal(text: str) -> str:
    """The typed text made plain: full-width letters, digits and spaces (a Chinese input
    method's ``Ｗ５``, ``ｄ　５ｍ``) as ASCII, and a tile split by a space (``W 5``) joined."""
    text = unicodedata.normalize("NFKC", text).strip()
    return re.sub(r"\b([WBTFJwbtfj])\s+([1-9])\b", r"\1\2", text)


def _glued(words: str) -> tuple[str, str] | None:
    """An action word glued to its tiles (``d5m``, ``dW5``, ``chow345m``, ``pungW5``): the
    action and the tiles, or None."""
    lower = words.lower()
    for alias in sorted(_WORDS, key=len, reverse=True):
        if not alias.isascii() or not lower.startswith(alias) or len(words) == len(alias):
            continue
        key, rest = _WORDS[alias], words[len(alias) :]
        if key in ("quit", "help", "show", "win", "pass"):
            continue
        try:
            _read_tile_list(rest)
        except InputError:
            continue
        return key, rest
    return None


def _quote(words: str, limit: int = 12) -> str:
    """What was typed, quoted and cut short so that a message stays on one line."""
    return repr(words if len(words) <= limit else words[: limit - 1] + "…")


def _discard(rest: str, menu: Sequence[Action], drawn: Tile | None) -> Action:
    if not any(a.kind is ActionKind.DISCARD for a in menu):
        raise InputError("you cannot discard now: claim the tile or pass")
    if not rest:
        if drawn is None:
            raise InputError("discard which tile? e.g. 'd W5'")
        tile = drawn
    else:
        tile = _one_tile(rest, "discard")
    action = Action(ActionKind.DISCARD, tile)
    if action not in menu:
        raise InputError(f"you have no {tile} to discard")
    return action


def _chow_tiles(action: Action) -> tuple[Tile, ...]:
    assert action.tile is not None
    return tuple(TILES[action.tile + i] for i in range(3))


def _choices(menu: Sequence[Action], kinds: Sequence[ActionKind]) -> str:
    return " or ".join(f"'{a}'" for a in menu if a.kind in kinds)


def parse_bots(text: str) -> tuple[str, str, str]:
    """``--bots``: three kinds (or one for all three) from strong, fan, efficiency, random, or
    levels: easy (efficiency), normal (fan), strong."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    kinds = [_BOT_ALIASES.get(n, n) for n in names]
    unknown = [n for n, k in zip(names, kinds, strict=True) if k not in BOT_KINDS]
    if unknown:
        raise ValueError(
            f"unknown bot {', '.join(map(repr, unknown))}: choose from {', '.join(BOT_KINDS)}"
            f" or a level ({', '.join(BOT_LEVELS)})"
        )
    if len(kinds) == 1:
        kinds *= 3
    if len(kinds) != 3:
        raise ValueError(f"give three bots (or one for all three), not {len(kinds)}: {text!r}")
    return kinds[0], kinds[1], kinds[2]


# -- the person's agent ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Board:
    """The public scoreboard of the current hand: who sits where and the session scores so far."""

    hand_number: int  # 0-based
    hands: int
    names: tuple[str, str, str, str]  # players at E S W N
    scores: tuple[int, int, int, int]  # session scores by seat before this hand

    @classmethod
    def of(cls, session: Session) -> Board:
        seats = session.seats
        scores = session.scores
        return cls(
            session.hand_number,
            session.hands,
            seats,
            (scores[seats[0]], scores[seats[1]], scores[seats[2]], scores[seats[3]]),
        )


def _zh(zh: str, en: str, ascii_only: bool) -> str:
    return en if ascii_only else f"{zh} {en}"


class TerminalPlayer:
    """A person at a terminal as an :class:`~guobiao.table.play.Agent`.

    ``read_line(prompt)`` reads one line (``input`` by default): EOF raises :class:`QuitGame`
    (``"eof"``), typing ``q`` raises it with ``"quit"``; Ctrl-C (KeyboardInterrupt) passes
    through. ``board`` is the public scoreboard, set by whoever runs the session before each
    hand (:meth:`new_hand`); everything else comes from the :class:`SeatView`.
    """

    name = "human"

    def __init__(
        self,
        console: Console,
        *,
        style: str = "botzone",
        read_line: Callable[[str], str] = input,
        rules: str = "1998",
        ascii_only: bool = False,
        board: Board | None = None,
    ) -> None:
        if style not in STYLES:
            raise ValueError(f"tile style must be one of {', '.join(STYLES)}, not {style!r}")
        self.console = console
        self.style = style
        self.read_line = read_line
        self.rules = rules
        self.ascii_only = ascii_only
        self.board = board
        self._previous: SeatView | None = None

    def new_hand(self, board: Board | None = None) -> None:
        """A new hand starts: forget the last view (what changed is said from the deal on)."""
        if board is not None:
            self.board = board
        self._previous = None

    # -- the Agent protocol --------------------------------------------------------------------
    def choose(self, view: SeatView) -> Action:
        menu = menu_of(view.legal_actions)
        if not menu:
            raise ValueError("the person was asked to act with no legal action")
        before, self._previous = self._previous, view
        self.show(view, before)
        prompt = self._prompt(view, menu)
        while True:
            try:
                text = self.read_line(prompt)
            except EOFError:
                raise QuitGame("eof") from None
            try:
                choice = parse_input(text, menu, drawn=view.drawn)
            except InputError as err:
                self.console.print(Text(f"  {err}", style="red"))
                continue
            if choice == "quit":
                raise QuitGame("quit")
            if choice == "help":
                self.console.print(Text(HELP_ASCII if self.ascii_only else HELP))
                continue
            if choice == "show":
                self.show(view, before)
                continue
            assert isinstance(choice, Action)
            return choice

    # -- showing a decision ----------------------------------------------------------------------
    def show(self, view: SeatView, before: SeatView | None = None) -> None:
        """Print the table as ``view`` sees it, what changed since ``before`` (the last
        decision's view), the hint and the menu."""
        print_ = self.console.print
        print_()
        print_(self._header(view))
        newly, latest = _changes(before, view, self.style)
        for line in self._events(view, newly):
            print_(line)
        for line in self._seats(view, latest):
            print_(line)
        print_(self._hand_line(view))
        hint = self._hint(view)
        if hint is not None:  # broken, if it must be, after a comma: never inside a chow
            print_(_reflow(hint, self.console.width, 6))
        menu = menu_of(view.legal_actions)
        items = [Text(f"{i} {describe(a, self.style)}") for i, a in enumerate(menu, start=1)]
        for item, action in zip(items, menu, strict=True):
            if action.kind is ActionKind.WIN:
                item.stylize("bold green")
        print_(Columns(items, padding=(0, 3)))

    def _header(self, view: SeatView) -> Text:
        board = self.board
        wind = view.round_wind
        round_name = wind.name.title() if self.ascii_only else f"{wind.zh}风圈 {wind.name.title()}"
        dot = " | " if self.ascii_only else " · "
        number = f"Hand {board.hand_number + 1}/{board.hands}{dot}" if board is not None else ""
        text = Text(f"{number}{round_name} round{dot}wall {view.wall_remaining}{dot}you are ")
        text.append(self._wind(view.seat), style="bold")
        return text

    def _wind(self, seat: int) -> str:
        wind = Wind(seat)
        return wind.letter if self.ascii_only else f"{wind.letter} {wind.zh}"

    def _name(self, seat: int, view: SeatView) -> str:
        if self.board is not None:
            return self.board.names[seat]
        return "You" if seat == view.seat else f"seat {Wind(seat).letter}"

    def _events(self, view: SeatView, newly: dict[int, tuple[list[str], list[Tile]]]) -> list[Text]:
        lines: list[Text] = []
        for step in (1, 2, 3, 0):
            seat = (view.seat + step) % 4
            melds, discards = newly[seat]
            if seat == view.seat or not (melds or discards):
                continue
            line = _Flow(
                self.console.width,
                4,
                Text(f"  {self._wind(seat)} {self._name(seat, view)}: ", style="dim"),
            )
            line.line_start = True
            for meld in melds:
                line.add(meld, sep="; ")
            for index, tile in enumerate(discards):  # named as in the menus: a glyph and its name
                if index == 0:
                    line.add("discarded " + _label(tile, self.style), sep="; ")
                else:
                    line.add(_label(tile, self.style), sep=", ")
            lines.append(line.text)
        return lines

    def _seats(self, view: SeatView, latest: int | None) -> list[Text]:
        names = [self._name(s, view) for s in range(4)]
        width = max(len(n) for n in names)
        lines: list[Text] = []
        edge = self.console.width
        for seat in range(4):
            mine = seat == view.seat
            marker = ">" if seat == view.current and view.phase is not Phase.OVER else " "
            head = Text(f"{marker} {self._wind(seat)} ")
            head.append(names[seat].ljust(width), style="bold" if mine else "")
            if self.board is not None:
                head.append(f" {self.board.scores[seat]:>5}")
            # a meld that does not fit goes whole to the next line, under the first meld
            line = _Flow(edge, head.cell_len + 2, head)
            if view.flowers[seat]:
                line.add(f"flowers {view.flowers[seat]}")
            for meld in view.melds[seat]:
                line.add(_meld_text(meld, self.style), style="cyan")
            for _ in range(_face_down(view, seat)):  # four tiles face down
                line.add(f"[{_zh('暗杠', 'concealed kong', self.ascii_only)}]", style="cyan")
            lines.append(line.text)
            pool = view.discards[seat]
            river = _Flow(edge, 6, "      ")
            river.line_start = True
            if not pool:
                river.add("-", style="dim")
            for index, tile in enumerate(pool):
                if seat == latest and index == len(pool) - 1:
                    piece = Text(tile_text(tile, self.style), style="bold reverse")
                    piece.append("<" if self.ascii_only else "◀", style="bold")
                    river.add(piece, sep=" ")
                else:
                    river.add(tile_text(tile, self.style), sep=" ")
            lines.append(river.text)
        return lines

    def _hand_line(self, view: SeatView) -> Text:
        hand = list(view.hand)
        if view.drawn is not None:
            hand.remove(view.drawn)
        flow = _Flow(self.console.width, 11, Text("Your hand: ", style="bold"))
        flow.line_start = True  # the first piece right after the label
        for meld in view.melds[view.seat]:
            flow.add(_meld_text(meld, self.style), style="cyan")
        for index, standing in enumerate(hand):
            flow.add(tile_text(standing, self.style), style="bold", sep="  " if index == 0 else " ")
        if view.drawn is not None:
            drew = Text("drew ")
            drew.append(tile_text(view.drawn, self.style), style="bold yellow")
            flow.add(drew, sep="   ")
        line = flow.text
        if self.style == "glyph":
            names = " ".join(str(t) for t in hand)
            drew_name = f" + {view.drawn}" if view.drawn is not None else ""
            line.append(f"\n           ({names}{drew_name})", style="dim")
        if view.phase in (Phase.RESPOND, Phase.ROB) and view.last_discard is not None:
            who = f"{self._wind(view.current)} {self._name(view.current, view)}"
            tile = _label(view.last_discard, self.style)
            if view.phase is Phase.ROB:
                rob = "rob it?" if self.ascii_only else "rob it (抢杠和)?"
                line.append(f"\n{who} adds a kong with {tile}: {rob}", style="bold")
            else:
                line.append(f"\n{who} discarded {tile}", style="bold")
        return line

    def _hint(self, view: SeatView) -> Text | None:
        """Shanten, and when ready the waits with their live copies and points on a discard."""
        counts = [0] * 34
        for tile in view.hand:
            counts[tile] += 1
        own_melds = view.melds[view.seat]
        melds = len(own_melds)
        seen = view.visible_counts()
        size = sum(counts)
        try:
            if size == 14 - 3 * melds:
                return self._act_hint(view, counts, melds, seen)
            if size == 13 - 3 * melds:
                return self._wait_hint(view, counts, melds, seen)
        except ValueError:  # a hand shanten does not read (never at a legal table)
            return None
        return None

    def _act_hint(self, view: SeatView, counts: list[int], melds: int, seen: list[int]) -> Text:
        now = shanten(counts, melds)
        if now == -1:
            if WIN in view.legal_actions:
                return Text("Hint: your hand is complete: you can win!", style="bold green")
            return Text(
                "Hint: a complete shape, but not a legal win (under 8 points without flowers)",
                style="yellow",
            )
        options = discard_options(counts, melds, seen)
        best = [o for o in options if o.shanten == options[0].shanten]
        if options[0].shanten == 0:
            parts = []
            for option in best[:3]:
                rest = list(counts)
                rest[option.tile] -= 1
                parts.append(
                    f"discard {_label(option.tile, self.style)} -> waits "
                    + self._waits_text(view, rest, melds, seen)
                )
            ready = "ready" if self.ascii_only else "ready (听牌)"
            return Text(f"Hint: {ready} after a discard: " + "; ".join(parts), style="green")
        tiles = ", ".join(_label(o.tile, self.style) for o in best[:4])
        return Text(
            f"Hint: {_shanten_words(now, self.ascii_only)}; discard {tiles} "
            f"({best[0].live} tile{' improves' if best[0].live == 1 else 's improve'})",
            style="dim",
        )

    def _wait_hint(self, view: SeatView, counts: list[int], melds: int, seen: list[int]) -> Text:
        now = shanten(counts, melds)
        if now == 0:
            ready = "ready" if self.ascii_only else "ready (听牌)"
            return Text(
                f"Hint: {ready}, waits " + self._waits_text(view, counts, melds, seen),
                style="green",
            )
        claims = []
        arrow = "->" if self.ascii_only else "→"
        for action in view.legal_actions:
            after = _after_claim(counts, melds, action, view.last_discard)
            if after is not None:
                claims.append(f"{describe(action, self.style)} {arrow} {after}")
        more = f"; after {', '.join(claims)}" if claims else ""
        return Text(f"Hint: {_shanten_words(now, self.ascii_only)}{more}", style="dim")

    def _waits_text(self, view: SeatView, counts: list[int], melds: int, seen: list[int]) -> str:
        hand = Hand(
            tuple(TILES[t] for t in range(34) for _ in range(counts[t])), view.melds[view.seat]
        )
        parts = []
        for tile in waits(counts, melds):
            live = max(0, 4 - counts[tile] - seen[tile])
            context = WinContext(TILES[tile], seat_wind=view.seat_wind, round_wind=view.round_wind)
            try:
                result = calculate(hand, context, self.rules)
            except InvalidHandError:
                continue
            points = result.points_without_flowers
            worth = f"{points} pts" if points >= 8 else f"{points} pts, under 8"
            parts.append(f"{_label(TILES[tile], self.style)} ({live} left, {worth})")
        return ", ".join(parts) if parts else "none live"

    def _prompt(self, view: SeatView, menu: Sequence[Action]) -> str:
        if view.phase is Phase.ACT:
            return f"Your move [1-{len(menu)}, e.g. 'd W5'; ? help]: "
        if WIN in menu:
            return f"You can WIN: [1-{len(menu)}, 'win' or 'pass']: "
        return f"Claim? [1-{len(menu)}, Enter = pass]: "


def _after_claim(
    counts: Sequence[int], melds: int, action: Action, discard: Tile | None
) -> int | None:
    """Shanten of the standing tiles right after ``action`` claims ``discard`` (None if it is
    not a claim): a pung or chow leaves a hand to discard from, a kong one waiting for its draw."""
    if discard is None or action.tile is None:
        return None
    rest = list(counts)
    if action.kind is ActionKind.CHOW:
        low = int(action.tile)
        for tile in (low, low + 1, low + 2):
            if tile != discard:
                rest[tile] -= 1
    elif action.kind is ActionKind.PUNG:
        rest[discard] -= 2
    elif action.kind is ActionKind.KONG:
        rest[discard] -= 3
    else:
        return None
    if min(rest) < 0:  # not this hand's claim
        return None
    return shanten(rest, melds + 1)


def _shanten_words(n: int, ascii_only: bool = False) -> str:
    if n == 1:
        return "1 tile from ready" + ("" if ascii_only else " (一向听)")
    return f"{n} tiles from ready (shanten {n})"


def _changes(
    before: SeatView | None, view: SeatView, style: str = "botzone"
) -> tuple[dict[int, tuple[list[str], list[Tile]]], int | None]:
    """What each seat showed since ``before`` (new or changed melds, new discards), and the seat
    whose pool ends with the latest discard still there (None if it was claimed)."""
    newly: dict[int, tuple[list[str], list[Tile]]] = {}
    for seat in range(4):
        old_melds = before.melds[seat] if before is not None else ()
        old_pool = before.discards[seat] if before is not None else ()
        melds: list[str] = []
        for index, meld in enumerate(view.melds[seat]):
            if index < len(old_melds) and old_melds[index] == meld:
                continue
            melds.append(_meld_event(seat, meld, index < len(old_melds), style))
        hidden = _face_down(view, seat) - (_face_down(before, seat) if before is not None else 0)
        melds += ["concealed kong (face down)"] * hidden
        pool = view.discards[seat]
        keep = 0
        while keep < min(len(pool), len(old_pool)) and pool[keep] == old_pool[keep]:
            keep += 1
        newly[seat] = (melds, list(pool[keep:]))
    latest: int | None = None
    if view.phase in (Phase.RESPOND,):
        latest = view.current
    elif view.phase is Phase.ACT and view.drawn is not None:
        previous = (view.seat + 3) % 4
        if newly[previous][1]:
            latest = previous
    return newly, latest


def _face_down(view: SeatView, seat: int) -> int:
    """The concealed kongs ``seat`` has laid face down that ``view`` does not show (another
    seat's, until the hand is over): four tiles on the table, their faces unseen."""
    shown = sum(1 for m in view.melds[seat] if m.kind is MeldKind.CONCEALED_KONG)
    return max(0, view.concealed_kongs[seat] - shown)


def _meld_event(seat: int, meld: Meld, changed: bool, style: str) -> str:
    kind = meld.kind
    if kind is MeldKind.CONCEALED_KONG:
        return f"concealed kong {_label(meld.tile, style)}"
    if changed and kind is MeldKind.KONG:
        return f"added kong {_label(meld.tile, style)}"
    source = ""
    if meld.offered_by is not None:
        source = f" from {Wind((seat + meld.offered_by) % 4).letter}"
    if kind is MeldKind.CHOW:
        return f"chow {_meld_text(meld, style)[1:-1]}{source}"  # W3 W4* W5: W4 the discard
    return f"{kind.value} {_label(meld.tile, style)}{source}"


# -- hands and sessions ---------------------------------------------------------------------------


def _compact_table(ascii_only: bool) -> Table:
    """A table of a header, one rule and its rows (no frame): the end of a hand fits a 24-line
    terminal whole, its winner's line included."""
    return Table(
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        show_header=True,
        header_style="bold",
        safe_box=ascii_only,
    )


def _show_hand_result(
    console: Console,
    result: HandResult,
    record_seats: Sequence[str],
    scores: dict[str, int],
    style: str,
    ascii_only: bool,
    title: str = "",
) -> None:
    """The end of a hand, under ``title`` (``End of hand 3/16: ``): who won and how, the
    winning hand, the fans with their points, the payments and each seat's new score."""

    def who(seat: int) -> str:
        wind = Wind(seat)
        return f"{record_seats[seat]} ({wind.letter if ascii_only else wind.zh})"

    console.print()
    if result.winner is None:
        console.print(
            Text(
                title + _zh("荒牌", "exhaustive draw: no one won", ascii_only), style="bold yellow"
            )
        )
    else:
        how = (
            "by self-draw" + ("" if ascii_only else " (自摸)")
            if result.discarder is None
            else f"on a discard from {who(result.discarder)}"
        )
        verb = "win" if record_seats[result.winner] == "You" else "wins"
        console.print(Text(f"{title}{who(result.winner)} {verb} {how}", style="bold green"))
        tile, hand = result.win_tile, result.winning_hand
        assert tile is not None and hand is not None
        flow = _Flow(console.width, 6, "Hand: ")
        flow.line_start = True
        names: list[str] = []
        for meld in hand.melds:
            flow.add(_meld_text(meld, style))
            names.append(_meld_text(meld, "botzone"))
        for index, standing in enumerate(hand.concealed):
            flow.add(tile_text(standing, style), sep="  " if index == 0 else " ")
        won = Text("+ ")
        won.append(tile_text(tile, style), style="bold")
        flow.add(won)
        if hand.flowers:
            flow.add("flowers " + _tiles(hand.flowers, style), sep="   ")
        console.print(flow.text)
        if style == "glyph":  # the names a glyph may not show in every font
            names += [_tiles(hand.concealed, "botzone"), "+", str(tile)]
            console.print(Text(f"      ({' '.join(names)})", style="dim"))
        fans = result.fans
        assert fans is not None
        table = _compact_table(ascii_only)
        if not ascii_only:
            table.add_column("番种")
        for column, right in (("Fan", False), ("Points", True), ("×", True), ("Subtotal", True)):
            table.add_column(
                "x" if ascii_only and column == "×" else column,
                justify="right" if right else "left",
            )
        for fan in fans.fans:
            row = [fan.fan.en, str(fan.points), str(fan.count), str(fan.total)]
            table.add_row(*(row if ascii_only else [fan.fan.zh, *row]))
        console.print(table)
        flowers = f" (flowers {fans.flower_points})" if fans.flower_points else ""
        total = Text(f"Total: {fans.total}{flowers}", style="bold")
        paid = _payments(result, fans.total, who)
        if paid:
            total.append(f"; {paid}")
        console.print(total)
    for penalty in result.penalties:
        console.print(
            Text(f"Penalty: {who(penalty.seat)} {penalty.kind.name.lower()} {penalty.amount}")
        )
    table = _compact_table(ascii_only)
    for column, right in (("Seat", False), ("Player", False), ("Change", True), ("Score", True)):
        table.add_column(column, justify="right" if right else "left")
    for seat, delta in enumerate(result.deltas):
        name = record_seats[seat]
        table.add_row(
            _zh(Wind(seat).zh, Wind(seat).letter, ascii_only),
            name,
            f"{delta:+d}",
            str(scores[name]),
        )
    console.print(table)


def _payments(result: HandResult, total: int, who: Callable[[int], str]) -> str:
    """Who pays the winner what (第五条: 8 from each of the others, plus the total from the
    discarder, or from each on a self-drawn win), when the deltas are exactly that."""
    winner, discarder = result.winner, result.discarder
    assert winner is not None
    if result.penalties:
        return ""
    others = [s for s in range(4) if s != winner]
    if discarder is None:
        expected = {s: -(8 + total) for s in others}
        text = f"each pays 8 + {total} = {8 + total}"
    else:
        expected = {s: -(8 + total) if s == discarder else -8 for s in others}
        text = f"{who(discarder)} pays 8 + {total} = {8 + total}, the others 8 each"
    if any(result.deltas[s] != expected[s] for s in others):
        return ""
    return text


def _fraction(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def _show_standings(console: Console, session: Session, ascii_only: bool) -> None:
    scores = session.scores
    standard = session.standard_points()
    order = sorted(session.ranked, key=lambda p: -scores[p])
    table = Table(show_header=True, header_style="bold", safe_box=ascii_only)
    for column, right in (
        ("Rank", True),
        ("Player", False),
        ("Score", True),
        ("Standard points" if ascii_only else "标准分 Standard points", True),
    ):
        table.add_column(column, justify="right" if right else "left")
    for player in order:
        rank = 1 + sum(1 for p in order if scores[p] > scores[player])
        tied = sum(1 for p in order if scores[p] == scores[player]) > 1
        table.add_row(
            f"{rank}{'=' if tied else ''}", player, str(scores[player]), _fraction(standard[player])
        )
    console.print(table)


def _played(
    players: Sequence[str], rules: TableRules, games: Sequence[Game], names: Sequence[str]
) -> SessionPlay:
    """The session of the complete hands in ``games`` (ended early if it is not over)."""
    session = Session(players, starting_points=rules.starting_points, hands=rules.hands_per_session)
    for game in games:
        result = game.result
        assert result is not None
        session.record(result.deltas, result.outcome)
    if not session.is_over:
        session.end_early()
    return SessionPlay(session, tuple(games), tuple(names))


def play_at_terminal(
    console: Console,
    *,
    bots: Sequence[str] = ("fan", "fan", "fan"),
    hands: int = 16,
    seat: int = 0,
    style: str | None = None,
    rules: str = "1998",
    seed: int | None = None,
    log: Path | None = None,
    read_line: Callable[[str], str] = input,
    make: Callable[[str, int], Agent] | None = None,
) -> int:
    """Play a session: the person at initial seat ``seat`` (0 E … 3 N) against ``bots``.

    Returns the exit code: 0 when the session ends or the person quits (``q``), ``EXIT_EOF`` when
    the input ends first, ``EXIT_INTERRUPTED`` on Ctrl-C, ``EXIT_BUG`` when a bot fails (an
    error in its decision or an illegal action: :class:`BotFailed`) or the game does, said in one
    line, never a traceback. The log (``log``) is written, atomically, when the session ends, or
    with the complete hands when it stops early.
    """
    ascii_only = not _is_utf8(console.encoding)
    if ascii_only:  # whatever still cannot be encoded shows as '?', never a traceback
        reconfigure = getattr(console.file, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    if style is None:
        style = default_style(console.encoding)
    elif ascii_only and style != "botzone":
        console.print(
            f"(the output encoding {console.encoding} cannot show {style}: using botzone)"
        )
        style = "botzone"
    if len(bots) != 3:
        raise ValueError("three bots are needed")
    if seed is None:
        seed = random.randrange(2**31)
    table_rules = TableRules(fan_profile=rules, hands_per_session=hands)
    if make is None:
        from guobiao.bots import make_bot

        def make(kind: str, bot_seed: int) -> Agent:
            return make_bot(kind, bot_seed, table_rules)

    person = TerminalPlayer(
        console, style=style, read_line=read_line, rules=rules, ascii_only=ascii_only
    )
    agents: list[Agent] = []
    players: list[str] = []
    kinds = iter(bots)
    for index in range(4):
        if index == seat:
            agents.append(person)
            players.append("You")
            continue
        kind = next(kinds)
        players.append(f"{kind}-{index + 1}")
        agents.append(_Watched(make(kind, seed * 4 + index), players[-1]))
    person.new_hand(
        Board.of(Session(players, starting_points=table_rules.starting_points, hands=hands))
    )
    games: list[Game] = []

    def on_hand(session: Session, game: Game) -> None:
        games.append(game)
        record = session.history[-1]
        result = game.result
        assert result is not None
        title = f"End of hand {record.number + 1}/{hands}: "
        _show_hand_result(console, result, record.seats, session.scores, style, ascii_only, title)
        if session.is_over:
            return
        person.new_hand(Board.of(session))
        while True:
            try:
                answer = _normal(read_line(NEXT_HAND_PROMPT)).lower()
            except EOFError:
                raise QuitGame("eof") from None
            if _WORDS.get(answer) == "quit":
                raise QuitGame("quit")
            if _WORDS.get(answer) != "help":
                return  # Enter, or anything else: the next hand
            console.print(Text(NEXT_HAND_HELP))

    # two lines within the terminal's width, each broken (if it must be) between its phrases
    opening = _Flow(console.width, 2, Text(style="bold"))
    for phrase in (
        f"guobiao play: you against {', '.join(bots)};",
        f"{count(hands, 'hand')},",
        f"rules {rules},",
        f"seed {seed}",
    ):
        opening.add(phrase, sep=" ")
    console.print(opening.text)
    helping = _Flow(console.width, 2, Text(style="dim"))
    helping.add("Type ? at any prompt for help, q to quit.", sep=" ")
    helping.add(f"Same deals again: --seed {seed}", sep=" ")
    console.print(helping.text)
    code = 0
    try:
        play_session(agents, table_rules, seed, players=players, on_hand=on_hand)
    except QuitGame as stop:
        code = EXIT_EOF if stop.reason == "eof" else 0
        reason = "input ended" if stop.reason == "eof" else "you left the table"
        console.print(
            Text(
                f"\n{reason.capitalize()}: the session stops after {count(len(games), 'complete hand')}.",
                style="yellow",
            )
        )
    except KeyboardInterrupt:
        code = EXIT_INTERRUPTED
        console.print(
            Text(
                f"\nInterrupted: the session stops after {count(len(games), 'complete hand')}.",
                style="yellow",
            )
        )
    except Exception as err:  # a bug: said in a line, never a traceback
        code = EXIT_BUG
        failed = err.player if isinstance(err, BotFailed) else None
        error = err.error if isinstance(err, BotFailed) else err
        _say_bug(console, failed, error, len(games) + 1, hands)
    play = _played(players, table_rules, games, [a.name for a in agents])
    if games:
        console.print(
            Text(
                "\nFinal standings"
                if play.session.hands == len(games)
                else "\nStandings after the complete hands",
                style="bold",
            )
        )
        _show_standings(console, play.session, ascii_only)
    if log is not None:
        if not games:
            console.print("No hand was completed: no log written.")
        else:
            try:
                write_log(log, session_lines(play, table_rules, seed))
            except OSError as err:
                console.print(Text(f"error: cannot write the log {log}: {err}", style="red"))
                code = code or 1
            else:
                console.print(f"Log written to {log} (check it with: guobiao replay {log})")
    again = _again_command(bots, hands, seat, rules, seed)
    console.print(Text(f"Seed {seed}; to play the same deals against the same bots again:"))
    console.print(Text(f"  {again}"), soft_wrap=True)  # one line, to copy whole
    return code


class BotFailed(Exception):
    """A bot raised an error or answered with an illegal action: a bug in the bot."""

    def __init__(self, player: str, error: Exception) -> None:
        super().__init__(f"{player}: {type(error).__name__}: {error}")
        self.player = player
        self.error = error


class _Watched:
    """A bot at the person's table, watched: an error in its decision, or an action that is not
    legal, comes out as :class:`BotFailed` naming the player (``fan-2``), so that the person is
    told which bot failed and the hands played so far are kept."""

    def __init__(self, agent: Agent, player: str) -> None:
        self.agent = agent
        self.player = player
        self.name = agent.name

    def choose(self, view: SeatView) -> Action:
        try:
            action = self.agent.choose(view)
        except Exception as err:
            raise BotFailed(self.player, err) from err
        if action not in view.legal_actions:
            raise BotFailed(self.player, ValueError(f"it chose an illegal action, {action}"))
        return action


def _say_bug(
    console: Console, player: str | None, error: BaseException, hand: int, hands: int
) -> None:
    """A failure in one line (which bot, and that it is a bug to report with the command printed
    at the end), the error under it cut to the width, and where the session stops."""
    who = f"Bot {player}" if player is not None else "guobiao"
    console.print(
        Text(f"\n{who} failed, a bug: please report it with the command below.", style="bold red")
    )
    detail = f"{type(error).__name__}: {error}".splitlines()[0] if str(error) else ""
    detail = detail or type(error).__name__
    limit = max(20, console.width - 4)
    if cell_len(detail) > limit:
        while cell_len(detail) > limit - 1:
            detail = detail[:-1]
        detail += "…" if _is_utf8(console.encoding) else "..."
    console.print(Text(f"  {detail}", style="red"))
    console.print(
        Text(
            f"It failed in hand {hand}/{hands}: the session stops after "
            f"{count(hand - 1, 'complete hand')}.",
            style="yellow",
        )
    )


def _again_command(bots: Sequence[str], hands: int, seat: int, rules: str, seed: int) -> str:
    """The command that deals this session again: its seed and the options that differ from
    the defaults (a session is the seed with the bots, the seat, the hands and the rules)."""
    words = ["guobiao play", f"--seed {seed}"]
    if tuple(bots) != ("fan", "fan", "fan"):
        words.append("--bots " + (bots[0] if len(set(bots)) == 1 else ",".join(bots)))
    if hands != 16:
        words.append(f"--hands {hands}")
    if seat != 0:
        words.append(f"--seat {Wind(seat).letter}")
    if rules != "1998":
        words.append(f"--rules {rules}")
    return " ".join(words)
