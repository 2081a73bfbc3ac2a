"""01_sustained_vs_peak_write in Voila: the CF slider moves plot and readouts; export works."""

import pytest

from vtsmodel import bottleneck as bn
from vtsmodel import throughput as tp
from vtsmodel.app.lessons import write as lesson01

from .helpers import (
    click_button,
    plot_traces,
    press_slider,
    readouts,
    select_dropdown,
    slider_readout,
    wait_for_plot_change,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "01_sustained_vs_peak_write.ipynb"
WRITE_PLOT = 0  # the write panel's first figure: peak and sustained vs CF


def _point(page, name):
    return next(t for t in plot_traces(page, WRITE_PLOT) if t["name"] == name)


def _settled_point(page, name, cf, timeout_ms=30_000):
    """The operating point once it sits at ``cf`` (key presses may arrive as several updates)."""
    page.wait_for_function(
        "([i, name, cf]) => { const el = document.querySelectorAll('.vtsmodel-plot .js-plotly-plot')[i];"
        " const t = el && el.data.find(d => d.name === name);"
        " return t && Math.abs(Number(t.x[0]) - cf) < 1e-9; }",
        arg=[WRITE_PLOT, name, cf],
        timeout=timeout_ms,
    )
    return _point(page, name)


def test_cf_slider_moves_plot_and_readouts_then_export_writes_png_and_html(open_lesson, export_dir):
    # One page visit for both checks: each visit loads six FigureWidgets (see the report on
    # anywidget's 2 s initialisation limit), so fewer visits mean fewer chances to hit it.
    page = open_lesson(NOTEBOOK)
    default = lesson01.SCENARIO_PARAMS["cf"].default
    before = plot_traces(page, WRITE_PLOT)
    assert _point(page, "peak at this CF")["x"][0] == pytest.approx(default)
    press_slider(page, "compressibility CF", "ArrowLeft", times=20)
    wait_for_plot_change(page, before, WRITE_PLOT)
    cf = float(slider_readout(page, "compressibility CF"))
    assert cf < default
    peak_pt = _settled_point(page, "peak at this CF", cf)
    sus_pt = _settled_point(page, "sustained at this CF", cf)
    # Expected values from the package, at the panel's defaults (PAF, 1728 GB, 32 KB, 0 km).
    peak = float(tp.write_rate(cf, mode="peak"))
    sus = float(tp.write_rate(cf))
    assert peak_pt["y"][0] == pytest.approx(peak, rel=1e-9)
    assert sus_pt["y"][0] == pytest.approx(sus, rel=1e-9)
    page.wait_for_function(
        "v => { const e = document.querySelector('td.vtsmodel-readout[data-label=\"peak write [MB/s]\"]');"
        " return e && e.innerText.trim() === v; }",
        arg=f"{peak:.3g}",
    )
    shown = readouts(page)
    assert shown["peak write [MB/s]"] == f"{peak:.3g}"
    assert shown["sustained write [MB/s]"] == f"{sus:.3g}"
    assert shown["binds in sustained"] == bn.binding_resource(cf)

    # Export the current figure (at the new CF) as PNG, then as offline HTML.
    for label, fmt in (("PNG", "png"), ("HTML (offline)", "html")):
        select_dropdown(page, "Format", label)
        click_button(page, "Export")
        target = export_dir / f"01_write_write.{fmt}"
        page.locator(".vtsmodel-export-done", has_text=target.name).first.wait_for(timeout=120_000)
        data = target.read_bytes()
        if fmt == "png":
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
        else:
            text = data.decode("utf-8")
            assert "<html" in text.lower() and "Plotly.newPlot" in text and "ibm-vts-b18-2000" in text
