"""What the store's errors mean to whoever runs the bot: one English sentence with what to do about it (the
players get the localized "try again in a moment" instead), and the start-up check for a database folder
this process cannot write."""

from __future__ import annotations

import os
import shutil

from .base import StoreError, StoreUnavailable

# What an operator can do about a store that cannot be used (the players' message only says "try again").
_HINTS = {
    "read_only": "the file, its folder or the disk they are on is read-only: make the file and its folder "
                 "writable (chmod u+w) for the bot's user (uid {uid}), or mount the disk read-write, then start "
                 "the bot again",
    "cannot_open": "check that the folder exists and that the bot's user (uid {uid}) can write it",
    "locked": "another program holds a lock on it; stop it, or give each bot its own file",
    "disk_full": "free some space on that disk, then start the bot again",
    "unreachable": "check that the PostgreSQL server is up and that SOLO_BOT_DB names it (host, port, "
                   "user, password: percent-encode @ / # % in the password)",
}


def described(err: StoreError) -> str:
    """A store error as one English sentence for whoever runs the bot (a command's stderr, a start-up line),
    with what to do about it — never the internal key (``store.unavailable(reason='read_only')``)."""
    from ..i18n import t

    text = t("en", err.key, **err.params)
    if err.key == StoreUnavailable.key:  # drop the players' "nothing was changed, try again in a moment"
        reason = t("en", f"reason.{err.params.get('reason')}") if err.params.get("reason") else "unavailable"
        text = f"the game database cannot be used: {reason}"
    hint = _HINTS.get(str(err.params.get("reason")))
    return f"{text} ({hint.format(uid=os.getuid())})" if hint else text


def at_start(err: StoreError, lang: str) -> str:
    """A store error that stops the bot (or the console) from starting, in the reader's language: what is wrong
    and what to do before starting again — a store that is unavailable at start is not "try again in a moment"."""
    from ..i18n import t

    if err.key != StoreUnavailable.key:
        return t(lang, err.key, **err.params)
    reason = str(err.params.get("reason"))
    remedy = f"store.remedy.{reason}" if reason in ("read_only", "disk_full", "locked") else "store.remedy.other"
    return t(lang, "store.cannot_start", reason=reason, remedy=t(lang, remedy))


def unwritable(path: str | os.PathLike[str]) -> str | None:
    """Why this process cannot write the SQLite database at ``path`` (its folder must be writable too: SQLite
    makes its journal files there) and what to do about it, or None. Checked at start so a wrong owner, a
    read-only file or a read-only disk is said once, plainly, each with its own remedy."""
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    who = f"uid {os.getuid()}"
    if not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if os.path.isdir(parent) and not os.access(parent, os.W_OK | os.X_OK):
            return f"the folder {folder} does not exist and {who} may not create it in {parent}" + _remedy(parent)
        return None  # the store creates it
    if _read_only_disk(folder):
        return (f"the disk holding {folder} is mounted read-only. Mount it read-write (a Docker volume: without "
                ":ro), or point SOLO_BOT_DB at a writable disk")
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable by {who} (owner uid {os.stat(folder).st_uid})" + _remedy(folder)
    if os.path.exists(path) and not os.access(path, os.R_OK | os.W_OK):
        return (f"the file {path} is read-only for {who} (owner uid {os.stat(path).st_uid}, mode "
                f"{os.stat(path).st_mode & 0o777:o})" + _remedy(path))
    return None


def _remedy(path: str) -> str:
    """What to do about a file or folder this process may not write: its owner is another user (give it to the
    bot's user), or it is the bot's own and only lacks the write permission (chmod, not chown)."""
    uid = os.getuid()
    if os.stat(path).st_uid != uid:
        return (f". Give it to the bot's user (a host folder mounted at /data: chown -R {uid} it), or point "
                "SOLO_BOT_DB elsewhere")
    return f". It is the bot's own: make it writable (chmod u+w {path}), or point SOLO_BOT_DB elsewhere"


def _read_only_disk(folder: str) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def disk_full(folder: str | os.PathLike[str]) -> bool:
    """Whether the disk holding ``folder`` has no room left for SQLite to write a page (its -wal, its -shm):
    a start that fails on a full disk says so, not "a disk read or write failed"."""
    try:
        return shutil.disk_usage(folder).free < _ROOM
    except OSError:
        return False


# Less free space than this is a full disk to SQLite (a WAL index is 32 KiB, a page 4 KiB).
_ROOM = 64 << 10
