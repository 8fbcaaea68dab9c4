"""``guobiao serve``: the web tables and, with a tournament database, the tournament pages."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import click

from guobiao.cli.help import Command
from guobiao.cli.paths import (
    DefaultPathOption,
    default_db_url,
    default_rooms_dir,
    describe_db,
    ensure_data_dir,
    prepare_db,
)
from guobiao.cli.util import fail as _fail

__all__ = ["serve"]


def _networks(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...]:
    for address in value:
        try:
            ipaddress.ip_network(address.strip(), strict=False)
        except ValueError:
            raise click.BadParameter(f"{address!r} is no IP address or network") from None
    return value


@click.command(cls=Command)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--data",
    cls=DefaultPathOption,
    type=click.Path(file_okay=False, path_type=Path),
    default=default_rooms_dir,
    help="Directory of the rooms database (rooms.sqlite3); a restart resumes every table. "
    "The default is in the per-user data folder (GUOBIAO_HOME moves it).",
)
@click.option(
    "--turn",
    type=click.FloatRange(0.01),
    default=15.0,
    show_default=True,
    help="Seconds from the previous player's discard to one's own, claims and flowers "
    "included (第七条六).",
)
@click.option(
    "--first-discard",
    type=click.FloatRange(0.01),
    default=30.0,
    show_default=True,
    help="Seconds for the dealer's first discard, after the flowers (第七条四).",
)
@click.option(
    "--claim",
    type=click.FloatRange(0.01),
    default=3.0,
    show_default=True,
    help="Seconds of the claim window after every discard and added kong, the same whoever "
    "may claim (第七条六: 碰牌要快，3秒之内).",
)
@click.option(
    "--grace",
    type=click.FloatRange(0),
    default=30.0,
    show_default=True,
    help="Seconds before a bot plays a disconnected player.",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0),
    default=0.6,
    show_default=True,
    help="Seconds bots wait before acting.",
)
@click.option(
    "--between-hands",
    type=click.FloatRange(0),
    default=60.0,
    show_default=True,
    help="Seconds the end of a hand stays up at most: the next hand starts when every "
    "connected person is ready, or then.",
)
@click.option(
    "--bots-between",
    type=click.FloatRange(0),
    default=8.0,
    show_default=True,
    help="Seconds between hands at a table with no person connected.",
)
@click.option(
    "--auto-after",
    type=click.IntRange(1),
    default=2,
    show_default=True,
    help="Turn time-outs in a row after which a bot plays the person until they act again.",
)
@click.option(
    "--idle-close",
    type=click.FloatRange(1),
    default=1800.0,
    show_default=True,
    help="Seconds after which a table no one is connected to closes (not yet started: "
    "deleted; started: its hands stay in the database).",
)
@click.option(
    "--wait-close",
    type=click.FloatRange(1),
    default=1200.0,
    show_default=True,
    help="Seconds after its last place was taken that a table not started closes, sockets "
    "open or not (docs/web.md, What holds a table open).",
)
@click.option(
    "--quiet-close",
    type=click.FloatRange(1),
    default=1800.0,
    show_default=True,
    help="Seconds without a move of a person's own (claims and passes do not count) after "
    "which a started table with a person's place closes; its hands stay in the database. A "
    "table of bots only plays out.",
)
@click.option(
    "--linger",
    type=click.FloatRange(0),
    default=600.0,
    show_default=True,
    help="Seconds the sockets to a finished table stay open after its end.",
)
@click.option(
    "--db",
    "url",
    cls=DefaultPathOption,
    envvar="GUOBIAO_DB",
    default=default_db_url,
    help="The tournament database (as guobiao tournament --db) whose pages to serve; "
    "or set GUOBIAO_DB.",
)
@click.option(
    "--session-hours",
    type=click.FloatRange(0.01),
    default=12.0,
    show_default=True,
    help="How long a referee's login lasts.",
)
@click.option(
    "--trusted-proxy",
    "trusted_proxies",
    multiple=True,
    metavar="ADDR",
    callback=_networks,
    help="The address (or network, 10.0.0.0/8) of a reverse proxy in front of the server: "
    "X-Forwarded-For is believed only from these; repeatable. Without it the client address "
    "(of the per-address limits, docs/web.md) is the socket peer.",
)
def serve(
    host: str,
    port: int,
    data: Path,
    turn: float,
    first_discard: float,
    claim: float,
    grace: float,
    bot_delay: float,
    between_hands: float,
    bots_between: float,
    auto_after: int,
    idle_close: float,
    wait_close: float,
    quiet_close: float,
    linger: float,
    url: str,
    session_hours: float,
    trusted_proxies: tuple[str, ...],
) -> None:
    """Play in the browser: a lobby, tables with people and bots, 16-hand sessions; and the
    tournament pages of the --db database: standings, seating, score sheets, the projector
    view, referee score entry (docs/web.md). Needs the web extra: pip install 'guobiao[web]'.
    The rooms and the tournament database are kept in the per-user data folder (GUOBIAO_HOME
    moves it) unless --data and --db choose others: the defaults below. Every client is bounded
    (tables created and sockets opened per address, spectators per table; a table no one is
    connected to closes after --idle-close; failed logins): docs/web.md, Limits and security.

    \b
    Try it:
      guobiao serve --port 8000                then open http://127.0.0.1:8000/
      guobiao serve --db sqlite:///club.db     tournaments at
                                               http://127.0.0.1:8000/t/
      guobiao serve --trusted-proxy 127.0.0.1  behind a reverse proxy on this
                                               machine
    """
    try:
        import gc

        import uvicorn

        from guobiao.server.app import create_app
        from guobiao.server.rooms import Limits
    except ImportError as err:
        _fail(f"guobiao serve needs the web extra (pip install 'guobiao[web]'): {err}")
    limits = Limits(
        first_discard=first_discard,
        turn=turn,
        claim=claim,
        grace=grace,
        bot_delay=bot_delay,
        between_hands=between_hands,
        bots_between=bots_between,
        auto_after=auto_after,
        idle_close=idle_close,
        wait_close=wait_close,
        quiet_close=quiet_close,
        linger=linger,
    )
    if "://" not in url:  # a file name, as a newcomer writes it: say its URL (as tournament does)
        _fail(
            "--db (or GUOBIAO_DB) takes a database URL, not a file name: for the SQLite "
            f"file {url} write --db sqlite:///{url}"
        )
    data = ensure_data_dir(data.absolute())
    prepare_db(url)
    try:
        app = create_app(
            data / "rooms.sqlite3",
            limits=limits,
            tournament_db=url,
            session_seconds=session_hours * 3600,
            trusted_proxies=trusted_proxies,
        )
    except Exception as err:  # a bad URL, a database that is not ours
        _fail(f"cannot open the tournament database {describe_db(url)}: {err}")
    click.echo(
        f"guobiao: http://{host}:{port}/ (data in {data}, tournaments in {describe_db(url)})",
        err=True,
    )
    # What is loaded now (modules, tables, resumed rooms) lives as long as the server: keep it
    # out of the cycle collector's full passes, and run those rarely; they were pauses of 70-100
    # ms under load (docs/web.md, Load test).
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    # Client messages are at most 1,024 characters (docs/web.md): no 16 MiB WebSocket frames.
    # The client's address is the socket's peer unless --trusted-proxy names it: uvicorn's own
    # X-Forwarded-For handling (on by default for 127.0.0.1) would let anyone behind a local
    # forwarder (an ssh tunnel, stunnel) name any address and pass every per-address limit.
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65_536,
        proxy_headers=False,
    )
