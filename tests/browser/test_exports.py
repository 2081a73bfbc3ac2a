"""Every lesson's exported figures as a reader sees them: read from the SVG files, measured in Chromium.

``vtsmodel figures`` writes each lesson's figures as SVG; each file is opened in the browser and
its drawn elements measured: a title at the top, every text (the caption's lines included)
inside the canvas, no dark filled area laid over the data (a highlighted curve drawn as a
filled polygon), and no legend item plotly draws for a shape (a hexagon, whatever the plot
draws). The legend's symbols are compared with the plotted marks in tests/app/test_figures.py.
"""

from __future__ import annotations

import pytest

from vtsmodel.app import cli
from vtsmodel.app.lessons import LESSONS, lesson_module

pytestmark = pytest.mark.browser

#: The legend glyph plotly draws for a path shape (a hexagon).
SHAPE_LEGEND_GLYPH = "M-3,5.2H3L6,0L3,-5.2H-3L-6,0Z"

MEASURE = """() => {
  const svg = document.querySelector('svg');
  const box = svg.getBoundingClientRect();
  const title = document.querySelector('.gtitle');
  const texts = [...document.querySelectorAll('text')].filter(t => t.textContent.trim()).map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent.slice(0, 60), left: r.left - box.left, right: r.right - box.left,
            top: r.top - box.top, bottom: r.bottom - box.top};
  });
  const dark = [...document.querySelectorAll('.shapelayer path')].map(p => {
    const s = getComputedStyle(p), r = p.getBoundingClientRect();
    const rgb = (s.fill.match(/[0-9.]+/g) || [255, 255, 255]).map(Number);
    const alpha = Number(s.fillOpacity) * Number(s.opacity) * (rgb.length > 3 ? rgb[3] : 1);
    const light = (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255;
    return {area: r.width * r.height, alpha, light, d: (p.getAttribute('d') || '').slice(0, 40)};
  }).filter(p => p.area > 2500 && p.alpha > 0.25 && p.light < 0.3);
  const glyphs = [...document.querySelectorAll('.legend .legendpoints path')].map(p => p.getAttribute('d'));
  const tbox = title ? title.getBoundingClientRect() : null;
  return {width: box.width, height: box.height, title: title ? title.textContent : '', texts, dark, glyphs,
          title_bottom: tbox ? tbox.bottom - box.top : 0};
}"""


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Every lesson's figures at its defaults, as SVG written by ``vtsmodel figures``."""
    out = tmp_path_factory.mktemp("figures")
    code = cli.main(["figures", str(out), "--format", "svg"])
    assert code == 0
    return out


FIGURES = [(k, name) for k in LESSONS for name in lesson_module(k).scenario_view().figures]


@pytest.mark.parametrize(("lesson", "figure"), FIGURES, ids=[f"{k}_{n}" for k, n in FIGURES])
def test_an_exported_figure_reads_whole(browser, exported, lesson, figure, artifacts_dir):
    path = exported / f"{lesson}_{figure}.svg"
    page = browser.new_page(viewport={"width": 2000, "height": 1600})
    try:
        page.goto(path.as_uri())
        got = page.evaluate(MEASURE)
    finally:
        page.close()
    assert got["title"].strip(), "the figure has a title"
    outside = [t["text"] for t in got["texts"] if t["left"] < -1 or t["right"] > got["width"] + 1]
    assert outside == [], "text runs off the canvas"
    assert got["dark"] == [], "a dark filled area lies over the plot"
    assert SHAPE_LEGEND_GLYPH not in got["glyphs"], "a legend item drawn as a hexagon"
    # nothing but the title in the top band: the first text under the title starts within 90 px of it
    below = sorted(t["top"] for t in got["texts"] if t["top"] > got["title_bottom"] - 1)
    assert below and below[0] - got["title_bottom"] < 90, "an empty band under the title"


def test_the_check_finds_a_filled_polygon_and_a_caption_off_the_canvas(browser, tmp_path):
    # The defects as they were: a path shape filled by the template's black, a caption wider than the figure.
    svg = tmp_path / "bad.svg"
    svg.write_text(
        "<svg xmlns='http://www.w3.org/2000/svg' width='400' height='300'>"
        "<text class='gtitle' x='10' y='20'>t</text>"
        "<g class='shapelayer'><path d='M10,10 L300,10 L300,200 Z' style='fill: rgb(0, 0, 0); fill-opacity: 1'/></g>"
        "<text x='10' y='280'>" + "a caption much too long for its figure " * 3 + "</text></svg>",
        encoding="utf-8",
    )
    page = browser.new_page()
    try:
        page.goto(svg.as_uri())
        got = page.evaluate(MEASURE)
    finally:
        page.close()
    assert got["dark"] and any(t["right"] > got["width"] for t in got["texts"])
