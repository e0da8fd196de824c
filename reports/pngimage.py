"""A PNG image flowable whose compressed pixels go into the PDF as they are.

reportlab's ``Image`` decodes a PNG to RGB and deflates the pixels again (a few hundred
milliseconds per 200 dpi figure, most of the report's build).  A non-interlaced PNG's
IDAT stream is already what a PDF image with ``/FlateDecode`` and the PNG predictor
(``/Predictor 15``) holds, and a palette PNG maps to an ``/Indexed`` colour space, so the
bytes are copied through: the same pixels, in less time and fewer bytes.  A PNG this does
not map (interlaced, alpha or a transparent colour, 16-bit samples) is drawn by
reportlab's ``Image``."""

from __future__ import annotations

import hashlib
import io
import struct
from dataclasses import dataclass

from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFDictionary,
    PDFName,
    PDFStream,
    PDFStreamFilterZCompress,
)
from reportlab.platypus import Flowable, Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 3: 1}  # PNG colour type -> samples per pixel (grey, RGB, palette)


@dataclass(frozen=True)
class PNGData:
    """What a PDF image XObject needs of a PNG: size, sample depth, colour type, the
    palette (colour type 3) and the concatenated IDAT data (zlib, PNG-filtered rows)."""

    width: int
    height: int
    bits: int
    colour_type: int
    palette: bytes
    idat: bytes


def parse(png: bytes) -> PNGData | None:
    """The PNG's pixel data as a PDF can take it, or None when it cannot be copied through
    (not a PNG, interlaced, transparency, 16-bit or an unusual colour type)."""
    if not png.startswith(SIGNATURE):
        return None
    pos, header, palette, idat = len(SIGNATURE), None, b"", []
    while pos + 8 <= len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = body
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"tRNS":
            return None  # transparency: leave it to reportlab's soft mask
        elif kind == b"IEND":
            break
    if header is None or not idat:
        return None
    width, height, bits, colour_type, compression, filtering, interlace = header
    if (colour_type not in _CHANNELS or compression or filtering or interlace
            or bits not in ((1, 2, 4, 8) if colour_type == 3 else (8,))
            or (colour_type == 3 and not palette)):
        return None
    return PNGData(width, height, bits, colour_type, palette, b"".join(idat))


def xobject(data: PNGData) -> PDFStream:
    """The PDF image XObject of a parsed PNG (its IDAT bytes as the stream content)."""
    channels = _CHANNELS[data.colour_type]
    if data.colour_type == 3:
        lookup = PDFStream(content=data.palette, filters=[PDFStreamFilterZCompress()])
        space = PDFArray([PDFName("Indexed"), PDFName("DeviceRGB"),
                          len(data.palette) // 3 - 1, lookup])
    else:
        space = PDFName("DeviceRGB" if channels == 3 else "DeviceGray")
    parms = PDFDictionary({"Predictor": 15, "Colors": channels,
                           "BitsPerComponent": data.bits, "Columns": data.width})
    d = PDFDictionary({"Type": PDFName("XObject"), "Subtype": PDFName("Image"),
                       "Width": data.width, "Height": data.height,
                       "BitsPerComponent": data.bits, "ColorSpace": space,
                       "Filter": PDFName("FlateDecode"), "DecodeParms": parms})
    return PDFStream(d, data.idat)


class PNGImage(Flowable):
    """A parsed PNG drawn at ``width`` x ``height`` points, centred like reportlab's
    ``Image``; the same pixels are stored once however often they are drawn."""

    def __init__(self, data: PNGData, width: float, height: float) -> None:
        super().__init__()
        self.data, self.width, self.height = data, width, height
        self.hAlign = "CENTER"
        h = hashlib.sha256(repr((data.width, data.height, data.bits, data.colour_type))
                           .encode() + data.palette + data.idat)
        self.name = "png" + h.hexdigest()[:32]  # deterministic: the file is reproducible

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        if not c.hasForm(self.name):
            c._doc.addForm(self.name, xobject(self.data))
        c._currentPageHasImages = 1  # the page's resources list the image procedures
        c.saveState()
        c.scale(self.width, self.height)
        c.doForm(self.name)
        c.restoreState()


def png_flowable(png: bytes, width: float, height: float) -> Flowable:
    """The PNG as a flowable: copied through where it can be, else reportlab's Image."""
    data = parse(png)
    if data is not None:
        return PNGImage(data, width, height)
    return Image(io.BytesIO(png), width=width, height=height)
