"""The JSON the engine writes and reads: below both the model (actions, events, states) and the result, which
each say what they write in these terms."""

from __future__ import annotations

from typing import Any

# What the engine writes (``to_json``): JSON values all the way down, so what is stored is JSON by its type.
JSONValue = None | bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"]
JSONObject = dict[str, JSONValue]
# What it reads back (a stored state, an action's arguments): the values stay ``Any`` until they are read into a
# typed state, which is what the bot is handed (a recursive type here would mean a check at every read).
JSON = dict[str, Any]
