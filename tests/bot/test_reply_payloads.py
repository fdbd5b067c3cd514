"""Every reply of seeded whole games sends the same payload as before the reply's build was made cheaper (issue 35,
point 6: the build got faster, not different).

Each step of bench_reply's games (Seasons with table and bot dice, Volfyirion; the quick run's steps), in English
and Japanese, compact and full: the Components V2 reply as sent, with its picture's gallery, laid out again
without its controls (an older reply retired), and the embed reply the bot sent before. Each payload's SHA-256 is
compared with ``data/reply_payloads.json``, written before the change (main at 9405b71; written again at the merge, from
the tree just before it: the same 1,696 digests as after it, the words changed meanwhile on purpose); a different payload
names its step. Regenerate (only when a reply's words or shape change on purpose) with
``.venv/bin/python -m tests.bot.test_reply_payloads``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bench.bench_reply import LOCALES, changes, controller, embed_reply
from bot.live import Posted

FIXTURE = Path(__file__).parent / "data" / "reply_payloads.json"


def digest(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


async def payloads() -> dict[str, str]:
    """The payload digests of every reply, by step, language and shape."""
    ctl = controller()
    found: dict[str, str] = {}
    for n, played in enumerate(changes(quick=True)):
        for lg, locale in LOCALES.items():
            interaction = SimpleNamespace(locale=locale)
            for full in (False, True):
                name = f"{n} {played.row.kind} ply {played.row.ply} {lg} {'full' if full else 'compact'}"
                composed = ctl.compose(interaction, played, picture=full)  # type: ignore[arg-type]
                posted = Posted(played.row.id, composed.card, composed.controls, composed.undo, picture=full)
                found[f"{name} v2"] = digest(posted.view().to_components())
                found[f"{name} v2 picture"] = digest(composed.view(picture=True).to_components())
                posted.live = False
                found[f"{name} v2 retired"] = digest(posted.view().to_components())
                found[f"{name} embed"] = digest(embed_reply(ctl, interaction, played, full))
    return found


def test_every_reply_sends_the_payload_it_sent_before() -> None:
    expected = json.loads(FIXTURE.read_text())
    found = asyncio.run(payloads())
    assert len(found) == len(expected) > 1000
    changed = [name for name, value in found.items() if expected.get(name) != value]
    assert not changed, f"{len(changed)} replies changed, the first: {changed[:5]}"


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(asyncio.run(payloads()), indent=0, sort_keys=True) + "\n")
