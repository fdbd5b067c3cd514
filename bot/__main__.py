"""``python -m bot`` — run the bot (with DISCORD_TOKEN) or the local console (without).

    python -m bot                     run on Discord, or the local console when DISCORD_TOKEN is unset
    python -m bot console [options]   the local console (see --help)
    python -m bot sync [--guild ID]   register the slash commands with Discord (globally or in one server)
    python -m bot backup PATH         copy the database to PATH while the bot may be running
    python -m bot check [--quick]     check the database for damage (PRAGMA integrity_check); non-zero if damaged
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import sys

import discord

from .config import Config, ConfigError


def _logging(config: Config) -> None:
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(config.log_level)))


def run_bot(config: Config) -> int:
    from .app import create_bot
    from .i18n import t
    from .store import StoreError

    _logging(config)
    bot = create_bot(config)
    try:
        bot.run(config.token, log_handler=None)
    except StoreError as err:
        # A locked, full or damaged database: say so plainly instead of a traceback.
        print(f"{t('en', err.key, **err.params)} ({config.db_path})", file=sys.stderr)
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


async def _sync(config: Config, guild_id: int | None) -> int:
    """Sync by hand (whatever the stored hash says), recording the hash so the next start-up need not; the
    other set (global, or the last development guild's) is cleared so no command is registered twice."""
    from .app import create_bot
    from .sync import sync_commands

    bot = create_bot(dataclasses.replace(config, auto_sync=False))
    async with bot:
        await bot.login(config.token)  # runs setup_hook, which builds the command tree
        outcome = await sync_commands(bot, guild_id, force=True)
        where = f"guild {guild_id}" if guild_id else "globally"
        cleared = f" (cleared: {outcome.cleared})" if outcome.cleared else ""
        print(f"synced {outcome.commands} commands {where}{cleared}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
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
        return asyncio.run(_sync(config, args.guild))
    if argv and argv[0] == "backup":
        parser = argparse.ArgumentParser(prog="python -m bot backup")
        parser.add_argument("path", help="where to write the copy")
        args = parser.parse_args(argv[1:])
        from .store import backup_main

        return asyncio.run(backup_main(config.db_path, args.path))
    if argv and argv[0] == "check":
        parser = argparse.ArgumentParser(prog="python -m bot check")
        parser.add_argument("--quick", action="store_true", help="PRAGMA quick_check only (page structure)")
        args = parser.parse_args(argv[1:])
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
    from .console import main as console_main

    print("DISCORD_TOKEN is not set: starting the local console (type /game help, Ctrl-D to quit).",
          file=sys.stderr)
    return console_main([])


if __name__ == "__main__":
    raise SystemExit(main())
