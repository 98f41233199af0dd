"""Make the web page's symbol font: soluna_tui/server/web/SolunaSymbols.ttf.

    pip install 'fonttools>=4.50,<5' 'skia-pathops>=0.8,<1'
    python docs/make_symbol_font.py [DejaVuSans.ttf]

The page's terminal font (Roboto Mono, shipped by textual-serve) has none of the symbols the game draws beyond
letters and box drawing (xterm.js draws the box and block characters itself), so without this font what a visitor
saw depended on their own fallback fonts: at 16 px the sun and the stars looked alike and the comet was a hairline.

Each glyph is DejaVu Sans's (Bitstream Vera licence, renamed as it asks: the licence is
soluna_tui/server/web/SolunaSymbols-LICENSE.txt), fitted into one cell of Roboto Mono (its advance, centred
where its capitals are). The four symbols on the discs are filled in (the moon's and the comet's outlines become
solid shapes) and made bolder by a fixed stroke, and the sun is a solid disc (DejaVu's black circle): at 9 by 19
pixels a sun with rays and a six-pointed star are the same blot, a disc beside a crescent, a star and a comet's
slant is not.
The font and its licence are committed; fontTools and skia-pathops are needed only to remake it.
"""

from __future__ import annotations

import sys
from io import BytesIO
from pathlib import Path

import pathops
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

HERE = Path(__file__).resolve().parent
TARGET = HERE.parent / "soluna_tui" / "server" / "web" / "SolunaSymbols.ttf"
SOURCE = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
FAMILY = "Soluna Symbols"
#: Roboto Mono's em, advance and line (so the symbols sit in its cells as its letters do).
EM, ADVANCE, ASCENT, DESCENT = 2048, 1229, 2146, -555
#: Where a symbol's middle sits above the baseline: halfway up Roboto Mono's capitals and a little more.
MIDDLE = 760
#: The room a symbol may take: the cell's width less a margin each side, and as tall as a capital and a half.
MARGIN, TALLEST = 70, 1500
#: The symbols on the discs: the glyph drawn for each, filled in and made bolder by this much on every side
#: (font units: 1 px at 16 px is 128); the other glyphs (the stars won and missing, the marks) are fitted only.
SOLID = {"☀": ("●", 0), "☾": ("☾", 40), "✶": ("✶", 30), "☄": ("☄", 48)}
FITTED = "★☆▶▸◂"


def outline(font: TTFont, char: str) -> pathops.Path:
    """``char``'s outline in ``font``, as a path."""
    path = pathops.Path()
    font.getGlyphSet()[font.getBestCmap()[ord(char)]].draw(path.getPen())
    return path


def filled(path: pathops.Path) -> pathops.Path:
    """Every contour's inside, holes included: an outlined moon becomes a solid crescent."""
    solid = pathops.Path()
    for contour in path.contours:
        solid = pathops.op(solid, contour, pathops.PathOp.UNION)
    return solid


def bolder(path: pathops.Path, by: float) -> pathops.Path:
    """``path`` grown by ``by`` on every side: itself and a round stroke ``2 * by`` wide along its outline."""
    stroke = pathops.Path()
    path.draw(stroke.getPen())
    stroke.stroke(2 * by, pathops.LineCap.ROUND_CAP, pathops.LineJoin.ROUND_JOIN, 4)
    stroke.convertConicsToQuads()
    return pathops.op(path, stroke, pathops.PathOp.UNION)


def fitted(path: pathops.Path, grow: float) -> pathops.Path:
    """``path`` scaled into one cell (leaving room to grow ``grow`` on every side) and centred in it."""
    left, bottom, right, top = path.bounds
    scale = min((ADVANCE - 2 * MARGIN - 2 * grow) / (right - left), (TALLEST - 2 * grow) / (top - bottom))
    return path.transform(scale, 0, 0, scale, ADVANCE / 2 - scale * (left + right) / 2,
                          MIDDLE - scale * (bottom + top) / 2)


def glyph(path: pathops.Path) -> object:
    pen = TTGlyphPen(None)
    path.draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=False))
    return pen.glyph()


def make(source: Path) -> bytes:
    font = TTFont(source)
    chars = list(SOLID) + list(FITTED)
    names = [f"uni{ord(char):04X}" for char in chars]
    glyphs = {".notdef": TTGlyphPen(None).glyph()}
    for char, name in zip(chars, names, strict=True):
        if char in SOLID:
            drawn, grow = SOLID[char]
            path = fitted(filled(outline(font, drawn)), grow)
            glyphs[name] = glyph(bolder(path, grow) if grow else path)
        else:
            glyphs[name] = glyph(fitted(outline(font, char), 0))
    builder = FontBuilder(EM, isTTF=True)
    builder.setupGlyphOrder([".notdef", *names])
    builder.setupCharacterMap({ord(char): name for char, name in zip(chars, names, strict=True)})
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics({name: (ADVANCE, 0) for name in glyphs})
    for name, drawn in glyphs.items():  # the left side bearings, from the outlines
        builder.font["hmtx"][name] = (ADVANCE, getattr(drawn, "xMin", 0))
    builder.setupHorizontalHeader(ascent=ASCENT, descent=DESCENT)
    notice = ("Copyright (c) 2003 by Bitstream, Inc. All Rights Reserved. Bitstream Vera is a trademark of "
              "Bitstream, Inc. DejaVu changes are in public domain. Glyphs of DejaVu Sans, fitted to one cell "
              "and made bolder for Soluna.")
    builder.setupNameTable({"copyright": notice, "familyName": FAMILY, "styleName": "Regular",
                            "uniqueFontIdentifier": f"{FAMILY} Regular", "fullName": f"{FAMILY} Regular",
                            "psName": FAMILY.replace(" ", "") + "-Regular", "version": "Version 1.0",
                            "licenseDescription": "Bitstream Vera Fonts Copyright and Arev Fonts Copyright: "
                                                  "see SolunaSymbols-LICENSE.txt"})
    builder.setupOS2(sTypoAscender=ASCENT, sTypoDescender=DESCENT, sTypoLineGap=0, usWinAscent=ASCENT,
                     usWinDescent=-DESCENT, achVendID="NONE", fsType=0)
    builder.setupPost(isFixedPitch=1)
    out = BytesIO()
    builder.save(out)
    return out.getvalue()


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE
    if not source.exists():
        sys.exit(f"make_symbol_font: no {source} (Debian's fonts-dejavu-core has it)")
    TARGET.write_bytes(make(source))
    print(f"{TARGET}: {TARGET.stat().st_size} bytes")


if __name__ == "__main__":
    main()
