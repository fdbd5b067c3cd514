"""How loud one whole Seasons game is in its channel: public replies, their line counts, pictures.

    python -m tools.measure_replies [--lang ja|en] [--seed N] [--difficulty wizard] [--dice table]

Plays a whole game (the engine's autoplay) through the local console (`--json`) as a player types it and
counts what the bot posted publicly (not ephemeral): messages, lines as the console prints them, pictures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.console import _embed_lines  # noqa: E402
from engine.seasons.autoplay import play_game  # noqa: E402
from tests.support.seasons_typed import seasons_console_line  # noqa: E402


def measure(lang: str, seed: int, difficulty: str, dice: str) -> dict:
    actions, _ = play_game(difficulty, dice, seed, extras=False)
    lines = [f"/seasons start difficulty:{difficulty} dice:{dice}"] + [seasons_console_line(a, lang) for a in actions]
    env = dict(os.environ, SOLO_BOT_SEED=str(seed))
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--json", "--lang", lang],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=600, check=True)
    items = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    public = [i for i in items if "error" not in i and "modal" not in i and not (i.get("flags") or 0) & 64]
    counts = [sum(len("\n".join(_embed_lines(e)).splitlines()) for e in i.get("embeds") or [])
              + len((i.get("content") or "").splitlines()) for i in public]
    pictures = sum(1 for i in public for f in i.get("files", []) if f["filename"].endswith(".png"))
    full = sum(1 for i in public if any(f["filename"] == "board.png" for f in i.get("files", [])))
    errors = [i for i in items if "error" in i]
    return {"typed": len(lines), "public_replies": len(public), "lines_total": sum(counts),
            "lines_median": statistics.median(counts) if counts else 0, "lines_max": max(counts, default=0),
            "pictures": pictures, "full_state_replies": full, "errors": len(errors)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", default="ja")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--difficulty", default="wizard")
    parser.add_argument("--dice", default="table")
    args = parser.parse_args()
    print(json.dumps(measure(args.lang, args.seed, args.difficulty, args.dice)))


if __name__ == "__main__":
    main()
