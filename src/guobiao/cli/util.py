"""What every command of the command line shares: the console and how a refusal is said."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

import click

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["console", "fail"]


def console(ascii_only: bool = False) -> Console:
    """The output console: no markup guessing, no emoji codes; ASCII boxes when asked."""
    from rich.console import Console  # only the commands that print load rich

    return Console(highlight=False, emoji=False, safe_box=ascii_only)


def fail(message: str, code: int = 2) -> NoReturn:
    """Say what is wrong on stderr and exit: 2 for bad input, 1 for a refused action."""
    click.echo(f"error: {message}", err=True)
    sys.exit(code)
