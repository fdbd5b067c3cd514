"""What the store's errors mean to whoever runs the bot: one English sentence with what to do about it (the
players get the localized "try again in a moment" instead), and the start-up check for a database folder
this process cannot write."""

from __future__ import annotations

import os

from .base import StoreError, StoreUnavailable

# What an operator can do about a store that cannot be used (the players' message only says "try again").
_HINTS = {
    "read_only": "the bot's user (uid {uid}) cannot write the file or its folder: give it to that user "
                 "(e.g. chown -R {uid} on a host folder mounted at /data)",
    "cannot_open": "check that the folder exists and that the bot's user (uid {uid}) can write it",
    "locked": "another program holds a lock on it; stop it, or give each bot its own file",
    "disk_full": "free some space on that disk",
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


def unwritable(path: str | os.PathLike[str]) -> str | None:
    """Why this process cannot write the SQLite database at ``path`` (its folder must be writable too: SQLite
    makes its journal files there), or None. Checked at start so a wrong owner is said once, plainly."""
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    who = f"uid {os.getuid()}"
    if not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if os.path.isdir(parent) and not os.access(parent, os.W_OK | os.X_OK):
            return f"the folder {folder} does not exist and {who} may not create it in {parent}"
        return None  # the store creates it
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable by {who} (owner uid {os.stat(folder).st_uid})"
    if os.path.exists(path) and not os.access(path, os.R_OK | os.W_OK):
        return f"the file {path} is not readable and writable by {who} (owner uid {os.stat(path).st_uid})"
    return None
