"""Rebuild the one font the pictures draw with: skirmbot/render/fonts/SkirmSans.ttf.

Pillow cannot fall back from one font file to another, so the fallback is done here, once: the
Latin, Greek and Cyrillic of Noto Sans and the common Chinese, Japanese and Korean of Noto Sans
CJK are subset and merged into one TrueType file, which draws and measures like any other font.
The characters it covers are written beside it (coverage.txt, ranges of code points), for the
stand-in of those it does not (skirmbot/render/palette.py: an emoji is drawn as its name).

Both fonts are under the SIL Open Font License 1.1 (OFL.txt beside the font), which allows
subsetting, merging and shipping them. Needs Debian's fonts-noto-core and fonts-noto-cjk and
fontTools (not a skirmbot dependency):

    apt-get install fonts-noto-core fonts-noto-cjk
    python3 -m venv /tmp/fontvenv && /tmp/fontvenv/bin/pip install fonttools==4.68.0
    /tmp/fontvenv/bin/python scripts/build_fonts.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.merge import Merger
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, TTFont, newTable

LATIN_SOURCE = Path("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf")
CJK_SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
CJK_FACE = 0  # Noto Sans CJK JP: every face of the collection holds the same glyphs
OUT = Path(__file__).resolve().parents[1] / "skirmbot" / "render" / "fonts"
FAMILY = "Skirm Sans"

# What Noto Sans gives: Latin with its diacritics, Greek, Cyrillic, and the punctuation, arrows,
# currency and symbols a caption or a name may hold.
LATIN_RANGES = [
    (0x0020, 0x007E),
    (0x00A0, 0x024F),  # Latin-1, Latin Extended-A and -B
    (0x0250, 0x02FF),  # IPA, spacing modifiers
    (0x0300, 0x036F),  # combining marks
    (0x0370, 0x03FF),  # Greek
    (0x0400, 0x052F),  # Cyrillic and its supplement
    (0x1E00, 0x1FFF),  # Latin Extended Additional (Vietnamese), Greek Extended
    (0x2000, 0x206F),  # general punctuation (…, •, ‹›)
    (0x20A0, 0x20CF),  # currency
    (0x2100, 0x215F),  # letterlike, number forms
]

# Symbols a caption or a name may hold, from whichever font has them (Noto Sans first).
SYMBOL_RANGES = [
    (0x2190, 0x21FF),  # arrows (→)
    (0x2200, 0x22FF),  # mathematical operators (±, ×, −)
    (0x2460, 0x24FF),  # enclosed alphanumerics
    (0x2500, 0x25FF),  # box drawing, block elements, geometric shapes
    (0x2600, 0x27BF),  # miscellaneous symbols (★), dingbats (✓)
]

# What Noto Sans CJK gives, limited to what names use: kana, Hangul syllables of KS X 1001 (the
# 2,350 in everyday use), and the common ideographs (JIS X 0208 level 1 for Japanese, GB 2312
# level 1 for Chinese): the whole set would be some 20 MB.
CJK_RANGES = [
    (0x3000, 0x303F),  # CJK punctuation
    (0x3040, 0x30FF),  # hiragana, katakana
    (0x3130, 0x318F),  # Hangul compatibility jamo
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0xFF00, 0xFFEF),  # full-width and half-width forms
]


def decoded_rows(codec: str, rows: range) -> list[int]:
    """The characters of a two-byte EUC codec in `rows` (first bytes): a block of its set."""
    found = []
    for first in rows:
        for second in range(0xA1, 0xFF):
            try:
                found.append(ord(bytes([first, second]).decode(codec)))
            except UnicodeDecodeError:
                continue
    return found


def common_cjk() -> list[int]:
    points = [p for first, last in CJK_RANGES for p in range(first, last + 1)]
    points += decoded_rows("euc_kr", range(0xB0, 0xC9))  # the Hangul syllables of KS X 1001
    points += decoded_rows("euc_jp", range(0xB0, 0xD0))  # JIS X 0208 level 1 kanji
    points += decoded_rows("gb2312", range(0xB0, 0xD8))  # GB 2312 level 1 hanzi
    return sorted(set(points))


def subset_font(font: TTFont, points: list[int], features: list[str]) -> TTFont:
    options = subset.Options()
    options.layout_features = features
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False  # drawn at a few sizes by FreeType's autohinter: hints are weight
    options.drop_tables += ["DSIG", "vhea", "vmtx", "VORG", "BASE", "JSTF", "MATH"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=points)
    subsetter.subset(font)
    return font


def to_truetype(font: TTFont) -> TTFont:
    """A CFF font's outlines as quadratic TrueType glyphs: fontTools merges fonts of one kind."""
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    font["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.maxZones = 1  # the rest is counted again from the glyphs when the font is saved
    for attribute in [
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
        "maxPoints",
        "maxContours",
        "maxCompositePoints",
        "maxCompositeContours",
        "maxComponentDepth",
    ]:
        setattr(maxp, attribute, 0)
    maxp.numGlyphs = len(order)
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"
    return font


def covered(font: TTFont) -> list[tuple[int, int]]:
    """The code points the font maps, as (first, last) ranges."""
    ranges: list[tuple[int, int]] = []
    for point in sorted(font.getBestCmap()):
        if ranges and ranges[-1][1] == point - 1:
            ranges[-1] = (ranges[-1][0], point)
        else:
            ranges.append((point, point))
    return ranges


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    symbols = [p for first, last in SYMBOL_RANGES for p in range(first, last + 1)]
    latin_points = [p for first, last in LATIN_RANGES for p in range(first, last + 1)] + symbols
    latin = subset_font(TTFont(LATIN_SOURCE), latin_points, ["kern", "mark", "mkmk", "ccmp"])
    in_latin = set(latin.getBestCmap())
    cjk_points = common_cjk() + [p for p in symbols if p not in in_latin]
    cjk = to_truetype(subset_font(TTCollection(CJK_SOURCE).fonts[CJK_FACE], cjk_points, []))
    latin.save(OUT / "latin.tmp.ttf")
    cjk.save(OUT / "cjk.tmp.ttf")
    merged = Merger().merge([str(OUT / "latin.tmp.ttf"), str(OUT / "cjk.tmp.ttf")])
    for record in merged["name"].names:
        if record.nameID == 0:
            record.string = f"{latin['name'].getDebugName(0)} {cjk['name'].getDebugName(0)}"
        elif record.nameID in (1, 16):
            record.string = FAMILY
        elif record.nameID == 4:
            record.string = f"{FAMILY} Regular"
        elif record.nameID == 6:
            record.string = FAMILY.replace(" ", "") + "-Regular"
    merged.save(OUT / "SkirmSans.ttf")
    (OUT / "latin.tmp.ttf").unlink()
    (OUT / "cjk.tmp.ttf").unlink()
    lines = [f"{first:04X}-{last:04X}" for first, last in covered(merged)]
    (OUT / "coverage.txt").write_text("\n".join(lines) + "\n")
    size = (OUT / "SkirmSans.ttf").stat().st_size
    print(f"SkirmSans.ttf: {len(merged.getGlyphOrder())} glyphs, {size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
