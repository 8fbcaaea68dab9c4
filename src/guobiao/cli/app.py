"""The ``guobiao`` command: the group and its commands, each group of them in a module of its own
(:mod:`.scoring`, :mod:`.games`, :mod:`.botzone`, :mod:`.serve`, :mod:`.tournament`)."""

from __future__ import annotations

from typing import Any

import click

from guobiao import __version__
from guobiao.cli.botzone import arena, botzone_bot, replay
from guobiao.cli.games import play, simulate
from guobiao.cli.scoring import fan, shanten, tiles
from guobiao.cli.serve import serve
from guobiao.cli.tournament.commands import tournament  # loads SQLAlchemy only when one runs
from guobiao.cli.util import fail

__all__ = ["EXTRAS", "main"]

EXTRAS = {
    "sqlalchemy": "tournament",
    "alembic": "tournament",
    "fastapi": "web",
    "starlette": "web",
    "pydantic": "web",
    "uvicorn": "web",
    "websockets": "web",
    "numpy": "rl",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "ray": "ray",
}
"""The third-party packages of the optional extras (pyproject.toml), by top-level module."""


class _Guobiao(click.Group):
    """The ``guobiao`` group: a command whose optional extra is not installed says which one to
    install (exit code 2) instead of ending in a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ModuleNotFoundError as err:
            top = (err.name or "").split(".")[0]
            if top not in EXTRAS:
                raise
            extra = EXTRAS[top]
            fail(
                f"guobiao {ctx.invoked_subcommand or ''} needs the {extra} extra, which is not installed "
                f"(no module {top!r}): pip install 'guobiao[{extra}]'"
            )


@click.group(cls=_Guobiao, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="guobiao")
def main() -> None:
    """guobiao: Chinese Official Mahjong (国标麻将, MCR) by the 1998 competition rules.

    \b
    Examples:
      guobiao fan "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"      score a hand
      guobiao fan "[123m][111z]456p78s99p +9s" --explain  and say why
      guobiao fan --jsonl --rules mil < hands.jsonl      score a stream
      guobiao tiles                                      the tile notations
    """


for _command in (
    fan,
    shanten,
    play,
    simulate,
    arena,
    replay,
    tiles,
    botzone_bot,
    serve,
    tournament,
):
    main.add_command(_command)
