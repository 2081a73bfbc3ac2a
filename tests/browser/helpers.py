"""Small helpers to drive ipywidgets and read plotly figures in a Playwright page."""

from __future__ import annotations

import json

#: Decode plotly's typed-array encoding ({dtype, bdata}) and read every trace of a plot.
_READ_TRACES = """
(el) => {
  const decode = (v) => {
    if (v === undefined || v === null) return null;
    if (Array.isArray(v)) return v;
    if (ArrayBuffer.isView(v)) return Array.from(v);
    if (typeof v === 'object' && v.bdata !== undefined) {
      const bin = atob(v.bdata);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      const T = {f8: Float64Array, f4: Float32Array, i4: Int32Array, u4: Uint32Array,
                 i2: Int16Array, u2: Uint16Array, i1: Int8Array, u1: Uint8Array}[v.dtype];
      return Array.from(new T(bytes.buffer));
    }
    return v;
  };
  return el.data.map(t => ({name: t.name ?? null, type: t.type ?? 'scatter',
                            x: decode(t.x), y: decode(t.y), z: decode(t.z)}));
}
"""


def plot_locator(page, plot_index: int = 0):
    return page.locator(".js-plotly-plot").nth(plot_index)


def plot_traces(page, plot_index: int = 0) -> list[dict]:
    """Every trace of the n-th plot on the page: ``name``, ``type``, ``x``, ``y``, ``z``."""
    return plot_locator(page, plot_index).evaluate(_READ_TRACES)


def wait_for_plot_change(page, before: list[dict], plot_index: int = 0, timeout: int = 30_000) -> list[dict]:
    """Wait until the n-th plot's traces differ from ``before``; return the new traces."""
    page.wait_for_function(
        f"([before]) => {{ const el = document.querySelectorAll('.js-plotly-plot')[{plot_index}];"
        f" const read = {_READ_TRACES}; return JSON.stringify(read(el)) !== before; }}",
        arg=[json.dumps(before, separators=(",", ":"))],
        timeout=timeout,
    )
    return plot_traces(page, plot_index)


def slider_handle(page, label_substring: str):
    """The handle of the slider whose label contains ``label_substring``."""
    slider = page.locator(".widget-slider", has=page.locator(".widget-label", has_text=label_substring))
    return slider.first.locator(".noUi-handle")


def press_slider(page, label_substring: str, key: str = "ArrowRight", times: int = 1) -> None:
    """Move a slider by pressing ``key`` on its handle ``times`` times."""
    handle = slider_handle(page, label_substring)
    handle.focus()
    for _ in range(times):
        handle.press(key)


def slider_readout(page, label_substring: str) -> str:
    slider = page.locator(".widget-slider", has=page.locator(".widget-label", has_text=label_substring))
    return slider.first.locator(".widget-readout").inner_text()


def readouts(page) -> dict[str, str]:
    """The panel readouts on the page: label to displayed text."""
    return page.eval_on_selector_all(
        "td.vtsmodel-readout[data-label]",
        "els => Object.fromEntries(els.map(e => [e.dataset.label, e.innerText.trim()]))",
    )


def wait_for_readout_change(page, label: str, before: str, timeout: int = 30_000) -> str:
    page.wait_for_function(
        '([label, before]) => { const e = document.querySelector(`td.vtsmodel-readout[data-label="${label}"]`);'
        " return e && e.innerText.trim() !== before; }",
        arg=[label, before],
        timeout=timeout,
    )
    return readouts(page)[label]


def select_dropdown(page, label_substring: str, option_label: str) -> None:
    """Choose ``option_label`` in the dropdown whose label contains ``label_substring``."""
    dd = page.locator(".widget-dropdown", has=page.locator(".widget-label", has_text=label_substring))
    dd.first.locator("select").select_option(label=option_label)


def click_button(page, text: str) -> None:
    page.locator("button.jupyter-button", has_text=text).first.click()
