"""A PNG copied into the PDF as it is shows the pixels reportlab's own Image shows."""

import io
import shutil
import subprocess
import zlib

import matplotlib.pyplot as plt
import pytest
from PIL import Image as PILImage
from reportlab.lib.pagesizes import A4
from reportlab.platypus import Image, SimpleDocTemplate

from dynval.reports.figures import _png
from dynval.reports.pngimage import PNGImage, parse, png_flowable


def _figure_png() -> bytes:
    f, ax = plt.subplots(figsize=(3.0, 2.0))
    ax.plot([0, 1, 2], [0, 1, 0.5], color="tab:red")
    ax.plot([0, 1, 2], [1, 0.2, 0.7], color="tab:blue")
    return _png(f).getvalue()


def _pdf(flowable, path) -> None:
    SimpleDocTemplate(str(path), pagesize=A4, invariant=1).build([flowable])


def test_a_palette_png_is_parsed_whole():
    png = _figure_png()
    data = parse(png)
    assert data is not None and data.colour_type == 3 and data.bits == 8
    im = PILImage.open(io.BytesIO(png))
    assert (data.width, data.height) == im.size
    assert len(data.palette) % 3 == 0 and len(data.palette) // 3 <= 64
    # one filter byte and one index per pixel in each row
    assert len(zlib.decompress(data.idat)) == data.height * (1 + data.width)
    assert isinstance(png_flowable(png, 100, 60), PNGImage)


def test_a_png_that_cannot_be_copied_is_left_to_reportlab():
    buf = io.BytesIO()
    PILImage.new("RGBA", (8, 4), (255, 0, 0, 128)).save(buf, format="PNG")
    assert parse(buf.getvalue()) is None
    assert isinstance(png_flowable(buf.getvalue(), 80, 40), Image)
    assert parse(b"not a png") is None


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler's pdftoppm")
def test_the_copied_png_shows_the_same_pixels(tmp_path):
    png = _figure_png()
    h = 16 * 72 / 2.54 * PILImage.open(io.BytesIO(png)).size[1] / PILImage.open(
        io.BytesIO(png)).size[0]
    _pdf(Image(io.BytesIO(png), width=16 * 72 / 2.54, height=h), tmp_path / "reportlab.pdf")
    _pdf(png_flowable(png, 16 * 72 / 2.54, h), tmp_path / "copied.pdf")
    pages = []
    for name in ("reportlab", "copied"):
        subprocess.run(["pdftoppm", "-r", "150", "-png", str(tmp_path / f"{name}.pdf"),
                        str(tmp_path / name)], check=True)
        pages.append(PILImage.open(next(tmp_path.glob(f"{name}-*.png"))).convert("RGB"))
    assert pages[0].tobytes() == pages[1].tobytes()
    assert (tmp_path / "copied.pdf").stat().st_size < (tmp_path / "reportlab.pdf").stat().st_size
