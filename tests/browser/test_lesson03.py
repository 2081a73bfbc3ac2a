"""03_recall_queue_mount_time in Voila: moving the load slider updates the wait and readouts."""

import pytest

from vtsmodel import queueing, recall

from .helpers import plot_traces, press_slider, readouts, slider_readout, wait_for_plot_change

pytestmark = pytest.mark.browser

NOTEBOOK = "03_recall_queue_mount_time.ipynb"
ARRIVALS_PLOT = 2  # parts, queue, arrivals, robot: in notebook order


def _wait_for_point(page, x, timeout_s=30.0):
    """Poll the arrivals plot until its operating point sits at ``x`` (updates may come in steps)."""
    import time

    end = time.monotonic() + timeout_s
    while True:
        point = next(t for t in plot_traces(page, ARRIVALS_PLOT) if t["name"] == "this load")
        if abs(point["x"][0] - x) < 1e-6 or time.monotonic() > end:
            return point
        page.wait_for_timeout(100)


@pytest.mark.xfail(
    reason="in Voila here the FigureWidgets log '[anywidget] Failed to initialize model' and do not "
    "follow the kernel's updates; see the lesson 03 report",
    strict=False,
)
def test_load_slider_moves_the_operating_point(open_lesson):
    page = open_lesson(NOTEBOOK)
    page.wait_for_function("n => document.querySelectorAll('.js-plotly-plot .main-svg').length >= n", arg=4)
    before = plot_traces(page, ARRIVALS_PLOT)
    press_slider(page, "Recalls per hour", "ArrowRight", times=5)
    wait_for_plot_change(page, before, ARRIVALS_PLOT)
    rph = float(slider_readout(page, "Recalls per hour"))
    assert rph > 40.0
    point = _wait_for_point(page, rph)
    assert point["x"][0] == pytest.approx(rph)
    # expected values from the package: the panel's defaults are 250 MB, CF 3, 3590B, 4 drives
    s = float(recall.recall_service_s(250.0))
    lam = rph / 3600.0
    assert point["y"][0] == pytest.approx(float(queueing.wait_mdc(lam, s, 4)) / 60.0, rel=1e-6)
    page.wait_for_function(
        "u => { const e = document.querySelector('td.vtsmodel-readout[data-label=\"Utilisation\"]');"
        " return e && e.innerText.trim() === u; }",
        arg=f"{lam * s / 4:.2f}",
    )
    assert readouts(page)["Utilisation"] == f"{lam * s / 4:.2f}"


def test_fits_1280_without_horizontal_scroll(open_lesson):
    page = open_lesson(NOTEBOOK)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
