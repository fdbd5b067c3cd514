"""``python -m bot`` — run the bot (with DISCORD_TOKEN) or the local console (without).

    python -m bot                     run on Discord; without DISCORD_TOKEN, the local console when typed on
                                      a terminal, else an error (a service without a token must not look alive)
    python -m bot console [options]   the local console (see --help)
    python -m bot sync [--guild ID]   register the slash commands with Discord (globally or in one server)
    python -m bot backup PATH         copy the database to PATH (a file, or a folder: a dated file inside it)
                                      while the bot may be running; never onto the live file, its -wal or -shm
    python -m bot health              exit 0 when the bot runs (fresh heartbeat) and its database opens
    python -m bot check [--quick]     check the database for damage (SQLite: PRAGMA integrity_check; PostgreSQL:
                                      schema version, every table read), then replay every game from its log
                                      against its latest snapshot (not with --quick); non-zero if damaged
    python -m bot migrate --to postgresql://… [--db PATH]
                                      copy the SQLite database into an empty PostgreSQL one and replay every
                                      game there to check it

On SIGTERM (``docker stop``) or SIGINT the bot lets the commands under way commit and answer, closes the
gateway and the store, and exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import signal
import sys
from collections.abc import Awaitable, Callable

import aiohttp
import discord

from . import collector
from .config import Config, ConfigError
from .health import Heartbeat, health_main

log = logging.getLogger("bot")


def _logging(config: Config) -> None:
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(config.log_level)))
    for handler in logging.getLogger().handlers:
        handler.addFilter(_OneLine())


def run_bot(config: Config) -> int:
    from .app import create_bot
    from .store import StoreError, described, unwritable

    if config.db_url is None and (why := unwritable(config.db_path)) is not None:
        # Said once at start: otherwise the bot comes up and every player is told "try again in a moment".
        print(f"cannot write the game database {config.db_path}: {why}.", file=sys.stderr)
        return 2
    _logging(config)
    _discord_at(config)
    collector.tune()
    bot = create_bot(config)

    async def settle() -> None:
        collector.settle()  # what starting made is never walked by the collector again

    try:
        asyncio.run(serve(bot, config.token or "", heartbeat=Heartbeat(config.heartbeat_path), when_ready=settle))
    except StoreError as err:
        # A locked, full or damaged database: say so plainly instead of a traceback.
        print(f"{described(err)} ({config.db_path if config.db_url is None else 'SOLO_BOT_DB'})", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print("Discord refused the token (DISCORD_TOKEN): check it in the developer portal.", file=sys.stderr)
        return 2
    except discord.ConnectionClosed as err:
        if err.code != 4011:
            raise
        print("Discord requires more shards for this many servers (close code 4011): leave SOLO_BOT_SHARDS unset "
              "for Discord's recommendation, or raise its shard count.", file=sys.stderr)
        return 2
    return 0


def _discord_at(config: Config) -> None:
    """SOLO_BOT_DISCORD_API / SOLO_BOT_DISCORD_GATEWAY: a Discord-compatible API elsewhere (the stand-in that
    the several-process tests run, a proxy); unset, discord.com's."""
    if config.api_base:
        from discord.http import Route

        Route.BASE = config.api_base
    if config.gateway_url:
        import yarl
        from discord.gateway import DiscordWebSocket

        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)


# Discord cannot be reached (no network, DNS, a refused or timed-out connection, Discord's 5xx): retried.
UNREACHABLE = (OSError, aiohttp.ClientError, discord.DiscordServerError)
RETRY_FIRST, RETRY_MAX = 1.0, 60.0


async def serve(bot: discord.Client, token: str, *, heartbeat: Heartbeat | None = None, reconnect: bool = True,
                when_ready: Callable[[], Awaitable[None]] | None = None) -> None:
    """Run ``bot`` until Discord closes the connection or a SIGTERM/SIGINT arrives; then drain and close.

    The login and the connection run in one task of ours, so a signal ends them in any state — logging in,
    connecting, connected, or asleep in discord.py's reconnect backoff — by cancelling that task; then
    ``bot.close()`` lets the changes under way commit and answer (the controller's and the sessions' drain),
    closes the gateway, then the store. ``when_ready`` runs once the client is ready (the tests' bot process
    syncs its commands there); ``heartbeat`` is written while the bot runs, for ``python -m bot health``."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    caught: list[str] = []

    def on_signal(sig: signal.Signals) -> None:
        caught.append(sig.name)
        stop.set()

    handled = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on this platform or thread
            loop.add_signal_handler(sig, on_signal, sig)
            handled.append(sig)
    beating = asyncio.create_task(heartbeat.run(bot)) if heartbeat is not None else None
    runner = asyncio.create_task(_run(bot, token, reconnect=reconnect, when_ready=when_ready))
    stopper = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper.done():
            log.info("%s: finishing the commands under way, then closing the store", caught[0])
            runner.cancel()
        else:
            stopper.cancel()
        try:
            await runner  # a store that cannot open, a refused token, too few shards: raised from here
        except asyncio.CancelledError:
            pass
        except discord.ConnectionClosed as err:  # Discord ended the session (reconnect=False): a clean end
            if err.code == 4011:
                raise
    finally:
        for task in (beating, stopper, runner):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for sig in handled:
            loop.remove_signal_handler(sig)
        if heartbeat is not None:
            heartbeat.clear()
        if not bot.is_closed():
            await bot.close()
    if caught:
        log.info("stopped cleanly after %s", caught[0])


async def _run(bot: discord.Client, token: str, *, reconnect: bool,
               when_ready: Callable[[], Awaitable[None]] | None) -> None:
    """Log in and connect, each retried with a growing delay while Discord cannot be reached (one log line a
    try, no traceback: the same as a connection lost later, which discord.py retries itself)."""
    await _retrying("log in", lambda: bot.login(token))  # opens the store (setup_hook): a StoreError ends here
    if when_ready is not None:
        async def ready() -> None:
            await bot.wait_until_ready()
            await when_ready()

        waiting = asyncio.create_task(ready())
    try:
        await _retrying("connect", lambda: bot.connect(reconnect=reconnect))
    finally:
        if when_ready is not None and not waiting.done():
            waiting.cancel()


async def _retrying(what: str, attempt: Callable[[], Awaitable[None]]) -> None:
    delay = RETRY_FIRST
    while True:
        try:
            return await attempt()
        except UNREACHABLE as exc:
            log.warning("Discord cannot be reached to %s (%s): trying again in %.0f s", what, _said(exc), delay)
        await asyncio.sleep(delay)
        delay = min(delay * 2, RETRY_MAX)


def _said(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


class _OneLine(logging.Filter):
    """discord.py logs each failed connection attempt with its traceback (every few seconds while Discord is
    away); a deployer needs one line saying what failed, so a network error's traceback becomes its message."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], (*UNREACHABLE, discord.ConnectionClosed)):
            record.msg = f"{record.getMessage()} ({_said(record.exc_info[1])})"
            record.args = None
            record.exc_info = None
        return True


async def _sync(config: Config, guild_id: int | None) -> int:
    """Sync by hand (whatever the stored hash says), recording the hash so the next start-up need not; the
    other set (global, or the last development guild's) is cleared so no command is registered twice."""
    from .app import create_bot
    from .sync import sync_commands

    token = config.token
    if not token:  # the command checks it before; nothing to sync with without it
        raise ValueError("DISCORD_TOKEN is not set")
    # The running bot may hold SOLO_BOT_HTTP_PORT (compose sets it): this short-lived client serves nothing.
    bot = create_bot(dataclasses.replace(config, auto_sync=False, http_port=None))
    async with bot:
        await bot.login(token)  # runs setup_hook, which builds the command tree
        outcome = await sync_commands(bot, guild_id, force=True)
        where = f"guild {guild_id}" if guild_id else "globally"
        cleared = f" (cleared: {outcome.cleared})" if outcome.cleared else ""
        print(f"synced {outcome.commands} commands {where}{cleared}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    from . import games

    games.install(games.registry())  # the games the store's steps, its checks and the sentences read
    try:
        config = Config.from_env()
    except ConfigError as err:
        print(err, file=sys.stderr)
        return 2
    if argv and argv[0] == "console":
        from .console import main as console_main

        return console_main(argv[1:])
    if argv and argv[0] == "sync":
        parser = argparse.ArgumentParser(prog="python -m bot sync")
        parser.add_argument("--guild", type=int, default=config.dev_guild,
                            help="sync into one server only (instant; default SOLO_BOT_GUILD)")
        args = parser.parse_args(argv[1:])
        if not config.token:
            print("DISCORD_TOKEN is not set: there is nothing to sync with.", file=sys.stderr)
            return 2
        _logging(config)
        _discord_at(config)
        return asyncio.run(_sync(config, args.guild))
    if argv and argv[0] == "backup":
        parser = argparse.ArgumentParser(prog="python -m bot backup")
        parser.add_argument("path", help="where to write the copy (a folder: a dated file inside it)")
        args = parser.parse_args(argv[1:])
        from .store import backup_main

        return asyncio.run(backup_main(config.db_target, args.path))
    if argv and argv[0] == "migrate":
        parser = argparse.ArgumentParser(prog="python -m bot migrate",
                                         description="copy the SQLite database into an empty PostgreSQL database, "
                                                     "then replay every game there to check it")
        parser.add_argument("--to", required=True, metavar="postgresql://…", help="the PostgreSQL database")
        parser.add_argument("--db", default=str(config.db_path),
                            help="the SQLite file to copy (default SOLO_BOT_DB or data/bot.sqlite3)")
        args = parser.parse_args(argv[1:])
        from .store.transfer import migrate_main

        _logging(dataclasses.replace(config, log_level="WARNING"))
        return asyncio.run(migrate_main(args.db, args.to))
    if argv and argv[0] == "health":
        return health_main(config)
    if argv and argv[0] == "check":
        parser = argparse.ArgumentParser(prog="python -m bot check")
        parser.add_argument("--quick", action="store_true", help="SQLite: PRAGMA quick_check only (page structure);"
                            " PostgreSQL: the schema and each table's first row; no game replayed")
        args = parser.parse_args(argv[1:])
        if config.db_url is not None:  # PostgreSQL: schema, tables, every active game's replay (read only)
            from .store.transfer import check_main_postgres

            return asyncio.run(check_main_postgres(config.db_url, quick=args.quick))
        from .store.sqlite import check_main

        return asyncio.run(check_main(config.db_path, quick=args.quick))
    if argv and argv[0] in ("-h", "--help", "help"):
        print(__doc__)
        return 0
    if argv:
        print(f"unknown command {argv[0]!r}\n{__doc__}", file=sys.stderr)
        return 2
    if config.token:
        return run_bot(config)
    if not sys.stdin.isatty():
        # A container or a service with no token: say so and fail, instead of a console reading an empty
        # stdin and exiting 0 into a restart loop. The console is there when asked for.
        print("DISCORD_TOKEN is not set: set it to run the bot on Discord "
              "(or run `python -m bot console` for the local console).", file=sys.stderr)
        return 2
    from .console import main as console_main

    print("DISCORD_TOKEN is not set: starting the local console (type /game help, Ctrl-D to quit).",
          file=sys.stderr)
    return console_main([])


if __name__ == "__main__":
    raise SystemExit(main())
