"""Options and parsers that several commands share: the hand grammar's help, reading a hand
or failing with a pointer, --seat/--round winds, --rules, --workers/--ray-address.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar
from unicodedata import east_asian_width

import click

from guobiao.cli.stream import DEFAULT_RULES
from guobiao.cli.tilehints import tile_error
from guobiao.cli.util import fail as _fail
from guobiao.core.context import Wind
from guobiao.core.hand import Hand, parse_hand
from guobiao.core.tiles import TileParseError
from guobiao.scoring.calculator import PROFILES

__all__ = [
    "HAND_HELP",
    "OVERWRITE_OPTION",
    "RULES",
    "RULES_OPTION",
    "WIND",
    "Refuse",
    "WindType",
    "parallel_options",
    "parse_hand_or_fail",
    "say_refusal",
    "tile_error",
]


HAND_HELP = """\b
HAND grammar (white space between tiles ignored):
  [W1W2W3]      an exposed meld (chow, pung or kong); [F1F1F1:2] names the
                offering seat (1 next, 2 opposite, 3 previous)
  (B5B5B5B5)    a concealed kong
  B4B5B6T7T8    standing tiles
  +T9           the winning tile
  H1H2          flowers, anywhere outside melds
Tiles: W1-W9 万 characters, B1-B9 饼 dots, T1-T9 条 bamboo, F1-F4 东南西北,
J1-J3 中发白, H1-H8 flowers; or compact: 123m 456p 789s 1234567z
(东南西北中发白) 12f (flowers), e.g. "[123m][111z]456p78s +9s"; or the
Chinese names and glyphs 'guobiao tiles' shows (一万..九条, 东风 南风 西风
北风, 红中 发财 白板, 春..菊; also 东..白 alone), e.g.
"[一万二万三万][东风东风东风]四饼五饼六饼"."""


class Refuse(Protocol):
    """How a command refuses its input: ``message`` (one line) and, for a person, ``detail``
    (more lines, e.g. a pointer under the hand); never returns."""

    def __call__(self, message: str, code: int = 2, *, detail: str = "") -> NoReturn: ...


def say_refusal(message: str, code: int = 2, *, detail: str = "") -> NoReturn:
    """The usual :class:`Refuse`: ``error: message`` and its detail on stderr."""
    _fail(message + detail, code)


def parse_hand_or_fail(text: str, refuse: Refuse = say_refusal) -> Hand:
    """The hand ``text``, or a refusal saying what is wrong and how to write it, with a pointer
    under the place."""
    try:
        return parse_hand(text)
    except TileParseError as err:
        pointer = ""
        if err.position is not None:  # under the place: a Chinese name is two columns wide
            width = sum(2 if east_asian_width(ch) in "WF" else 1 for ch in text[: err.position])
            pointer = f"\n  {text}\n  {' ' * width}^"
        refuse(tile_error(err, text), detail=pointer)


if TYPE_CHECKING:
    _WindParamType = click.ParamType[Wind, Any]
else:  # at run time the plain class: click 8.1-8.3 take no type parameters, 8.4 only one
    _WindParamType = click.ParamType


class WindType(_WindParamType):
    name = "wind"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Wind:
        if isinstance(value, Wind):
            return value
        try:
            return Wind.parse(str(value))
        except ValueError as err:
            self.fail(str(err), param, ctx)


WIND = WindType()


RULES = click.Choice(PROFILES, case_sensitive=False)
"""A fan profile's name in any case (``MIL``); the command gets its canonical spelling (``mil``)."""

RULES_OPTION = click.option(
    "--rules",
    type=RULES,
    default=DEFAULT_RULES,
    show_default=True,
    help="Fan profile: 1998 (the rules text), mil (modern reference reading) or botzone (mil as "
    "the Botzone judge reads it).",
)


if TYPE_CHECKING:
    _SeedParamType = click.ParamType[int, Any]
else:  # as for WindType
    _SeedParamType = click.ParamType


class SeedType(_SeedParamType):
    """A seed: an integer, 0 or more. Python's ``random.Random`` takes a negative seed as its
    absolute value (``-5`` deals what ``5`` deals), so a negative seed would silently repeat
    another run: it is refused, saying so."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            seed = value
        else:
            try:
                seed = int(str(value).strip(), 10)
            except ValueError:
                self.fail(f"{value!r} is not a whole number", param, ctx)
        if seed < 0:
            self.fail(
                f"{seed} is negative: seeds are 0 or more (Python's random takes {seed} as "
                f"{-seed}, so it would repeat the run of seed {-seed})",
                param,
                ctx,
            )
        return seed


SEED = SeedType()


OVERWRITE_OPTION = click.option(
    "--overwrite",
    is_flag=True,
    help="With --log-dir: delete the logs an earlier run left there (session-*.jsonl, deal-*) "
    "first; without it such a folder is refused, so that it holds one run's logs only.",
)


_F = TypeVar("_F", bound=Callable[..., Any])


def parallel_options(what: str) -> Callable[[_F], _F]:
    """--workers and --ray-address, for commands that run independent seeded jobs
    (``guobiao.jobs.workers``; docs/distributed.md)."""

    def decorate(function: _F) -> _F:
        function = click.option(
            "--ray-address",
            default=None,
            metavar="ADDR",
            help="Run on Ray: 'local' (a one-machine Ray), 'auto' or ray://HOST:10001 (a cluster).",
        )(function)
        return click.option(
            "--workers",
            type=click.IntRange(1),
            default=1,
            show_default=True,
            help=f"Play {what} in this many processes (or Ray CPUs with --ray-address local).",
        )(function)

    return decorate
