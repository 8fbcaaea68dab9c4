"""The ``guobiao`` command: the group and its commands, each group of them in a module of its own
(:mod:`.scoring`, :mod:`.fans`, :mod:`.games`, :mod:`.botzone`, :mod:`.serve`, :mod:`.tournament`).

A command's module is imported when that command is looked up (:data:`COMMANDS`), not before:
``guobiao fan --jsonl`` loads the scoring commands and the calculator, never the bots, the server
or the tournament store, so a stream starts fast and small. ``guobiao --help`` looks every command
up and lists them as before.
"""

from __future__ import annotations

import difflib
import importlib
from typing import Any

import click

from guobiao import __version__
from guobiao.cli.help import Group

__all__ = ["COMMANDS", "EXTRAS", "main"]

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


COMMANDS = {
    "fan": ("guobiao.cli.scoring", "fan"),
    "shanten": ("guobiao.cli.scoring", "shanten"),
    "fans": ("guobiao.cli.fans", "fans"),
    "play": ("guobiao.cli.games", "play"),
    "simulate": ("guobiao.cli.games", "simulate"),
    "arena": ("guobiao.cli.botzone", "arena"),
    "replay": ("guobiao.cli.botzone", "replay"),
    "tiles": ("guobiao.cli.scoring", "tiles"),
    "botzone-bot": ("guobiao.cli.botzone", "botzone_bot"),
    "serve": ("guobiao.cli.serve", "serve"),
    "tournament": ("guobiao.cli.tournament.commands", "tournament"),  # SQLAlchemy when one runs
}
"""Every command by name -> (its module, the command object's name there), imported on demand."""


class _Guobiao(Group):
    """The ``guobiao`` group: its commands are imported when looked up (:data:`COMMANDS`); a
    command whose optional extra is not installed says which one to install (exit code 2)
    instead of ending in a traceback."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = self.commands.get(cmd_name)
        if command is None and cmd_name in COMMANDS:
            module, name = COMMANDS[cmd_name]
            command = getattr(importlib.import_module(module), name)
            assert isinstance(command, click.Command)
            self.add_command(command, cmd_name)
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as err:
            name = args[0] if args else ""
            close = difflib.get_close_matches(name, self.list_commands(ctx), n=2, cutoff=0.6)
            if close and not name.startswith("-"):
                hint = " or ".join(repr(c) for c in close)
                raise click.UsageError(f"{err.message} Did you mean {hint}?", ctx) from None
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ModuleNotFoundError as err:
            top = (err.name or "").split(".")[0]
            if top not in EXTRAS:
                raise
            from guobiao.cli.util import fail

            extra = EXTRAS[top]
            fail(
                f"guobiao {ctx.invoked_subcommand or ''} needs the {extra} extra, which is not installed "
                f"(no module {top!r}): pip install 'guobiao[{extra}]'"
            )


@click.group(cls=_Guobiao, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="guobiao")
def main() -> None:
    """guobiao: Chinese Official Mahjong (国标麻将, MCR) by the 1998 competition rules.

    Each command explains itself: guobiao COMMAND --help.

    \b
    Examples:
      guobiao fan "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"       score a hand
      guobiao fan "[123m][111z]456p78s99p +9s" --explain   and say why
      guobiao fan --jsonl --rules mil < hands.jsonl       score a stream
      guobiao shanten "W1W9B1B9T1T9F1F2F3F4J1J2J3"        how far from ready
      guobiao fans 七对                                   a fan, with an example
      guobiao play --hands 4                              play a round
      guobiao simulate -n 2 --seed 1 --log-dir logs       bots against bots
      guobiao replay logs/session-0001.jsonl              check a log
      guobiao tiles                                       the tile notations
    """
