"""Build engine/data/*.json from the card and dice facts tables (CSV, kept outside this repository: `make data` names their folder).

A developer step (`make data`); the bot and engine only read the JSON this writes.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

SET_PREFIX = {"base": "", "enchanted-kingdom": "EK", "path-of-destiny": "PD", "promo": "PR"}
ELEMENTS = ("water", "earth", "fire", "air")


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def seasons_cards(src: Path) -> list[dict]:
    cards = []
    for row in _rows(src / "seasons_cards.csv"):
        cards.append({
            "id": f"{SET_PREFIX[row['set']]}{row['number']}",
            "set": row["set"],
            "number": int(row["number"]),
            "name_en": row["name_en"],
            "name_ja": row["name_ja"] or None,
            "name_fr": row["name_fr"] or None,
            "type": row["type"],
            "prestige": int(row["prestige"]),
            # Each base and expansion card exists twice in the box (§9.5); the promos once.
            "copies": 1 if row["set"] == "promo" else 2,
        })
    return cards


def seasons_dice(src: Path) -> list[dict]:
    faces = []
    for row in _rows(src / "seasons_dice.csv"):
        faces.append({
            "season": row["season"],
            "die": int(row["die"]),
            "face": int(row["face"]),
            "energy": {e: int(row[e]) for e in ELEMENTS if int(row[e])},
            "crystals": int(row["crystals"]),
            "star": int(row["star"]),
            "draw": int(row["draw"]),
            "transmute": bool(int(row["transmute"])),
            "dots": int(row["dots"]),
        })
    return faces


def _int_or_none(text: str) -> int | None:
    return int(text) if text.strip() else None


def volfyirion_cards(src: Path) -> list[dict]:
    cards = []
    for row in _rows(src / "volfyirion_cards.csv"):
        cards.append({
            "type": row["type"],
            "name": row["name"],
            "colour": row["colour"] or None,
            "cost": _int_or_none(row["cost"]),
            "qty": int(row["qty"]),
            "cp": _int_or_none(row["cp"]),
            "bp": _int_or_none(row["bp"]),
            "kp": _int_or_none(row["kp"]),
            "defence": _int_or_none(row["defence"]),
            "secondary": row["secondary"] or None,
            "solo": row["solo"] == "yes",
        })
    return cards


def main(src: str, dst: str) -> None:
    src_dir, dst_dir = Path(src), Path(dst)
    dst_dir.mkdir(parents=True, exist_ok=True)
    outputs = {
        "seasons_cards.json": seasons_cards(src_dir),
        "seasons_dice.json": seasons_dice(src_dir),
        "volfyirion_cards.json": volfyirion_cards(src_dir),
    }
    for name, data in outputs.items():
        text = json.dumps(data, ensure_ascii=False, indent=1)
        (dst_dir / name).write_text(text + "\n", encoding="utf-8")
        print(f"wrote {dst_dir / name}: {len(data)} rows")


if __name__ == "__main__":
    if len(sys.argv) != 3:  # the facts' folder is outside this repository: `make data` names it
        sys.exit("usage: python tools/build_data.py FACTS_DIR engine/data   (or: make data)")
    main(sys.argv[1], sys.argv[2])
