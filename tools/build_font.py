"""Build the Japanese font the pictures are drawn with: a subset of Noto Sans CJK JP (SIL OFL 1.1).

    pip install fonttools manimgx-fonts-cjk   # build-time only, never at run time
    python tools/build_font.py [PATH_TO_NotoSansCJK-VF.otf.ttc]

Takes the JP face of the variable Noto Sans CJK collection at weight 500, keeps only the characters the bot
can draw (ASCII and Latin-1 punctuation, kana, JIS level-1 kanji, and every character of the Japanese locale
files and of the card data), and writes ``bot/render/fonts/NotoSansCJKjp-Subset.otf`` beside its licence
(``OFL.txt``). The name "Source" (the licence's Reserved Font Name) is not used by the subset.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bot" / "render" / "fonts" / "NotoSansCJKjp-Subset.otf"


def characters() -> set[str]:
    chars = {chr(c) for c in range(0x20, 0x7F)} | {chr(c) for c in range(0xA0, 0x180)}
    chars |= {chr(c) for c in range(0x2000, 0x2070)}  # general punctuation (… — • ‐ ‒)
    chars |= {chr(c) for c in range(0x2190, 0x21FF)} | {chr(c) for c in range(0x2200, 0x2300)}  # arrows, − ×
    chars |= {chr(c) for c in range(0x2460, 0x24FF)} | {chr(c) for c in range(0x25A0, 0x2700)}  # ①, shapes ★
    chars |= {chr(c) for c in range(0x3000, 0x3100)}  # CJK punctuation, hiragana, katakana
    chars |= {chr(c) for c in range(0xFF00, 0xFFF0)}  # full-width forms
    for hi in range(0xB0, 0xD0):  # JIS X 0208 rows 16-47: level-1 kanji
        for lo in range(0xA1, 0xFF):
            with contextlib.suppress(UnicodeDecodeError):
                chars.add(bytes([hi, lo]).decode("euc_jp"))
    texts = [p.read_text("utf-8") for p in (ROOT / "bot" / "locales").glob("*.ja.json")]
    texts += [p.read_text("utf-8") for p in (ROOT / "engine" / "data").glob("*.json")]
    for text in texts:
        chars |= set(json.dumps(json.loads(text), ensure_ascii=False))
    return {c for c in chars if c.isprintable()}


def main() -> None:
    from fontTools import subset
    from fontTools.ttLib import TTCollection
    from fontTools.varLib import instancer

    source = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    if source is None:
        import manimgx_fonts_cjk  # type: ignore[import-not-found]

        source = Path(manimgx_fonts_cjk.__file__).parent / "NotoSansCJK-VF.otf.ttc"
    font = next(f for f in TTCollection(str(source)).fonts if f["name"].getDebugName(1).endswith(" JP"))
    options = subset.Options()
    options.layout_features = []  # no alternates: the pictures use the default forms only
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in characters()])
    subsetter.subset(font)  # first: instancing 65,000 variable glyphs would take minutes
    font = instancer.instantiateVariableFont(font, {"wght": 500})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(OUT))
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size} bytes, {len(font.getGlyphOrder())} glyphs")


if __name__ == "__main__":
    main()
