"""``guobiao tournament referee``: the accounts that may enter results on the web pages.

The organiser creates one account per referee (``--add USER``: a generated password is printed
once; only its scrypt hash is stored), resets (``--reset``) or removes (``--remove``) one, or
lists them. ``guobiao serve --db URL`` then lets these accounts log in on the tournament's
referee page (docs/web.md); everyone else only reads.
"""

from __future__ import annotations

import click

from guobiao.cli.help import Command
from guobiao.cli.tournament.common import DB_OPTION
from guobiao.cli.tournament.common import open_cli_store as _store
from guobiao.cli.util import fail as _fail

__all__ = ["REFEREE_COMMANDS"]


@click.command(cls=Command)
@click.argument("name")
@click.option("--add", "add", metavar="USER", default=None, help="Create an account.")
@click.option("--reset", "reset", metavar="USER", default=None, help="A new password.")
@click.option("--remove", "remove", metavar="USER", default=None, help="Disable an account.")
@click.option(
    "--organiser",
    is_flag=True,
    help="With --add: an organiser account (results and the session clock).",
)
@DB_OPTION
def referee(
    name: str,
    add: str | None,
    reset: str | None,
    remove: str | None,
    organiser: bool,
    url: str,
) -> None:
    """Referee accounts of tournament NAME for the web pages of ``guobiao serve``: with no
    option, list them. A new or reset password is printed once: give it to the referee.

    \b
    Examples:
      guobiao tournament referee club --add li  # prints li's one-time password
      guobiao tournament referee club --add boss --organiser
      guobiao tournament referee club --reset li
      guobiao tournament referee club --remove li
    """
    from guobiao.tournament.accounts import (
        AccountError,
        add_account,
        list_accounts,
        remove_account,
        reset_password,
    )

    chosen = [o for o in (add, reset, remove) if o is not None]
    if len(chosen) > 1:
        _fail("give one of --add, --reset, --remove")
    if organiser and add is None:
        _fail("--organiser goes with --add")
    with _store(url) as store:
        try:
            if add is not None:
                role = "organiser" if organiser else "referee"
                password = add_account(store, name, add, role=role)
                click.echo(f"{role} {add.strip()} of {name!r}: password {password}")
            elif reset is not None:
                password = reset_password(store, name, reset)
                click.echo(f"{reset} of {name!r}: new password {password}")
            elif remove is not None:
                remove_account(store, name, remove)
                click.echo(f"{remove} of {name!r} can no longer log in.")
            else:
                accounts = list_accounts(store, name)
                if not accounts:
                    click.echo(f"{name!r} has no referee accounts.")
                for account in accounts:
                    state = "" if account.active else " (removed)"
                    click.echo(f"{account.username}\t{account.role}{state}")
        except AccountError as err:
            _fail(str(err), 1)


REFEREE_COMMANDS = (referee,)
