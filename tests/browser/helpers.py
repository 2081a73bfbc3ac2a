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


#: The named marks (operating points and bands drawn as layout shapes) of a plot: name, anchor x and y,
#: the corners x0, x1, y0, y1, visible, path.
_READ_MARKS = """
(el) => ((el.layout && el.layout.shapes) || []).filter(s => s.name).map(s => ({
  name: s.name, x: s.xanchor ?? null, y: s.yanchor ?? null, visible: s.visible !== false, path: s.path ?? null,
  x0: s.x0 ?? null, x1: s.x1 ?? null, y0: s.y0 ?? null, y1: s.y1 ?? null}))
"""


def plot_marks(page, plot_index: int = 0) -> list[dict]:
    """The named marks of the n-th plot on the page (operating points, highlighted curves)."""
    return plot_locator(page, plot_index).evaluate(_READ_MARKS)


def plot_locator(page, plot_index: int = 0):
    return page.locator(".vtsmodel-plot .js-plotly-plot").nth(plot_index)


def plot_traces(page, plot_index: int = 0) -> list[dict]:
    """Every trace of the n-th plot on the page: ``name``, ``type``, ``x``, ``y``, ``z``."""
    return plot_locator(page, plot_index).evaluate(_READ_TRACES)


#: What a plot drew, element by element: the bars' and lines' paths, the points (each with how it is
#: painted), the tick labels and their places, the shapes, the annotations, the labels on bars and points,
#: the legend's entries and symbols and what a hover would show.
_DRAWN = """
(gd) => {
  const q = (sel, f) => Array.from(gd.querySelectorAll(sel)).map(f);
  const byIndex = (sel, f) => Array.from(gd.querySelectorAll(sel)).map(e => [e.closest('[data-index]'), f(e)])
    .map(([g, v]) => [g ? +g.getAttribute('data-index') : -1, v]).sort((a, b) => a[0] - b[0]).map(([i, v]) => i + ':' + v);
  // how a mark is painted (a bar or point that entered unstyled is drawn black)
  const paint = (e) => { const c = getComputedStyle(e);
    return ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity'].map(k => c.getPropertyValue(k)).join(' '); };
  return {
    bars: q('.barlayer .point path', e => e.getAttribute('d') + ' ' + paint(e)),
    lines: q('.scatterlayer .js-line', e => e.getAttribute('d') + ' ' + paint(e)),
    points: q('.scatterlayer .point', e => (e.getAttribute('transform') || '') + (e.getAttribute('d') || '') + ' ' + paint(e)),
    legendsymbols: q('.legendsymbols path', e => (e.getAttribute('d') || '') + ' ' + paint(e)),
    ticks: q('.xtick text, .ytick text, .x2tick text, .y2tick text',
             e => e.textContent + '@' + e.getAttribute('transform') + ':' + e.getAttribute('x') + ',' + e.getAttribute('y')),
    // by index: plotly.js redraws a changed shape or annotation alone, after the others in its layer
    shapes: byIndex('.shapelayer path', e => e.getAttribute('d')),
    annotations: byIndex('.annotation', e => e.textContent + '@' + e.getAttribute('transform')),
    labels: q('.textpoint text, .bartext', e => e.textContent + '@' + (e.getAttribute('transform') || '')
              + ':' + e.getAttribute('x') + ',' + e.getAttribute('y')),
    legend: q('.legendtext', e => e.textContent + '@' + e.getAttribute('x') + ',' + e.getAttribute('y')),
    hover: gd._fullData.map(t => JSON.stringify([t.name, t.hovertext, t.text])),
  };
}
"""


def drawn_unlike_a_new_plot(page, plot_index: int = 0) -> str:
    """What the n-th plot drew differently from a new plot of its own figure ('' when nothing).

    The figure (``data`` and ``layout`` as the page last gave them) is drawn afresh beside it
    with ``Plotly.newPlot``, at its size, and every drawn element compared.
    """
    return plot_locator(page, plot_index).evaluate(
        f"""async (gd) => {{
          const drawn = {_DRAWN};
          const fresh = document.createElement('div');
          fresh.style.width = gd.offsetWidth + 'px'; fresh.style.height = gd.offsetHeight + 'px';
          gd.parentElement.appendChild(fresh);
          const layout = Object.assign({{}}, gd.layout); delete layout.transition;
          try {{
            await Plotly.newPlot(fresh, JSON.parse(JSON.stringify(gd.data)), JSON.parse(JSON.stringify(layout)), gd._context);
            const now = drawn(gd), want = drawn(fresh);
            for (const k of Object.keys(want)) {{
              const a = JSON.stringify(now[k]), b = JSON.stringify(want[k]);
              if (a !== b) {{
                let i = now[k].findIndex((x, j) => JSON.stringify(x) !== JSON.stringify(want[k][j]));
                if (i < 0) i = Math.min(now[k].length, want[k].length);  // one is the other with more after it
                const show = (x) => String(JSON.stringify(x)).slice(0, 300);
                return k + ' (' + now[k].length + ' drawn, ' + want[k].length + ' new), first unlike #' + i + ': '
                  + show(now[k][i]) + ' drawn, ' + show(want[k][i]) + ' new';
              }}
            }}
            return '';
          }} finally {{ Plotly.purge(fresh); fresh.remove(); }}
        }}"""
    )


def watch_in_place(page, *plot_indices: int) -> None:
    """Count, from now, the draws of each of these plots that took plotly.js's transition path (``_plotpane.js``)."""
    for i in plot_indices:
        plot_locator(page, i).evaluate(
            "(gd, i) => { window.__inPlace = window.__inPlace || {}; window.__inPlace[i] = 0;"
            " gd.on('plotly_transitioning', () => { window.__inPlace[i] += 1; }); }",
            i,
        )


def in_place_draws(page, plot_index: int) -> int:
    """How many draws of the plot took the transition path since :func:`watch_in_place`."""
    return page.evaluate("i => (window.__inPlace || {})[i] || 0", plot_index)


def watch_traces_drawn(page, *plot_indices: int) -> None:
    """Count, from now, the changes plotly.js makes to each plot's drawn traces (its bar and scatter layers).

    A move that changes only a plot's marks (shapes, annotations) leaves them untouched unless the
    plot is redrawn in full.
    """
    for i in plot_indices:
        plot_locator(page, i).evaluate(
            "(gd, i) => { window.__tracesDrawn = window.__tracesDrawn || {}; window.__tracesDrawn[i] = 0;"
            " const seen = new MutationObserver((recs) => { window.__tracesDrawn[i] += recs.length; });"
            " for (const layer of gd.querySelectorAll('.barlayer, .scatterlayer'))"
            " seen.observe(layer, {subtree: true, childList: true, attributes: true}); }",
            i,
        )


def traces_drawn(page, plot_index: int) -> int:
    """How many changes plotly.js made to the plot's drawn traces since :func:`watch_traces_drawn`."""
    return page.evaluate("i => (window.__tracesDrawn || {})[i] || 0", plot_index)


def wait_for_plot_change(page, before: list[dict], plot_index: int = 0, timeout: int = 30_000) -> list[dict]:
    """Wait until the n-th plot's traces differ from ``before``; return the new traces."""
    page.wait_for_function(
        f"([before]) => {{ const el = document.querySelectorAll('.vtsmodel-plot .js-plotly-plot')[{plot_index}];"
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


# --- panel-scoped helpers ---------------------------------------------------------------
# A lesson page holds several panels (and scenario sheets); these helpers find a panel by
# its title and compare what the browser shows with the View the package computes. Plots
# are re-read on every poll: a changed figure replaces the whole plot element.

_PANELS_JS = (
    "(title) => [...document.querySelectorAll('.vtsmodel-panel')]"
    ".filter(p => (p.querySelector('h3')?.innerText ?? '').includes(title))"
)


def panel_locator(page, title: str):
    """The panel (``.vtsmodel-panel``) whose heading contains ``title``."""
    return page.locator(".vtsmodel-panel").filter(has=page.locator("h3", has_text=title)).first


def panel_plot_index(page, title: str, n: int = 0) -> int:
    """Page-order index (for :func:`plot_traces`) of the n-th plot of the panel titled ``title``."""
    index = page.evaluate(
        f"([title, n]) => {{ const p = ({_PANELS_JS})(title)[0]; if (!p) return -1;"
        " const mine = p.querySelectorAll('.vtsmodel-plot .js-plotly-plot')[n];"
        " return [...document.querySelectorAll('.vtsmodel-plot .js-plotly-plot')].indexOf(mine); }",
        [title, n],
    )
    assert index >= 0, f"no plot {n} in a panel titled {title!r}"
    return index


def panel_readouts(page, title: str) -> dict[str, str]:
    """The readouts of one panel: label to displayed text."""
    return (
        panel_locator(page, title)
        .locator("td.vtsmodel-readout[data-label]")
        .evaluate_all("els => Object.fromEntries(els.map(e => [e.dataset.label, e.innerText.trim()]))")
    )


def _control(page, title: str, kind: str, label_substring: str):
    return (
        panel_locator(page, title)
        .locator(kind)
        .filter(has=page.locator(".widget-label", has_text=label_substring))
        .first
    )


def press_panel_slider(
    page, title: str, label_substring: str, key: str = "ArrowRight", times: int = 1
) -> None:
    """Press ``key`` ``times`` times on a slider of the panel titled ``title``."""
    handle = _control(page, title, ".widget-slider", label_substring).locator(".noUi-handle")
    handle.scroll_into_view_if_needed()
    handle.focus()
    for _ in range(times):
        handle.press(key)


def select_panel_dropdown(page, title: str, label_substring: str, option_label: str) -> None:
    """Choose ``option_label`` in a dropdown of the panel titled ``title``."""
    _control(page, title, ".widget-dropdown", label_substring).locator("select").select_option(
        label=option_label
    )


def slider_after_keys(control, times: int) -> float:
    """The value an ipywidgets slider takes after ``times`` ArrowRight presses (negative: left)."""
    import math

    if hasattr(control, "base"):  # FloatLogSlider: steps in the exponent
        e = math.log(control.value, control.base) + times * control.step
        return control.base ** min(max(e, control.min), control.max)
    return min(max(control.value + times * control.step, control.min), control.max)


def _numbers(v) -> list | None:
    """A trace array as a flat list of floats (None and non-numbers as NaN), or None if absent."""
    import numpy as np

    if v is None:
        return None
    if isinstance(v, dict) and "bdata" in v:  # plotly's typed-array encoding, as the page gets it
        import base64

        v = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
    flat = np.asarray(v, dtype=object).ravel().tolist()
    out = []
    for x in flat:
        try:
            out.append(float(x) if x is not None else float("nan"))
        except (TypeError, ValueError):
            return flat  # categorical axis: compare as they are
    return out


def traces_mismatch(traces: list[dict], spec, *, rtol: float = 1e-6) -> str:
    """Why the browser's ``traces`` differ from figure JSON ``spec`` (empty when they match)."""
    import numpy as np

    expected = spec["data"] if isinstance(spec, dict) else [t.to_plotly_json() for t in spec.data]
    if [t["name"] for t in traces] != [t.get("name") for t in expected]:
        return f"trace names {[t['name'] for t in traces]} != {[t.get('name') for t in expected]}"
    for got, want in zip(traces, expected, strict=True):
        for axis in ("x", "y", "z"):
            a, b = _numbers(got.get(axis)), _numbers(want.get(axis))
            if a is None and b is None:
                continue
            if a is None or b is None or len(a) != len(b):
                return f"trace {want.get('name')!r} {axis}: lengths differ"
            if all(isinstance(x, float) for x in a + b):
                if not np.allclose(a, b, rtol=rtol, atol=1e-12, equal_nan=True):
                    return f"trace {want.get('name')!r} {axis}: {a[:4]}... != {b[:4]}..."
            elif a != b:
                return f"trace {want.get('name')!r} {axis}: {a[:4]} != {b[:4]}"
    return ""


def marks_mismatch(marks: list[dict], spec, *, rtol: float = 1e-6) -> str:
    """Why the browser's named marks differ from those of figure JSON ``spec`` (empty when they match)."""
    import math

    want = [s for s in spec["layout"].get("shapes", []) if s.get("name")]
    if [m["name"] for m in marks] != [s["name"] for s in want]:
        return f"mark names {[m['name'] for m in marks]} != {[s['name'] for s in want]}"
    for got, exp in zip(marks, want, strict=True):
        if got["visible"] != exp.get("visible", True):
            return f"mark {exp['name']!r}: visible {got['visible']} != {exp.get('visible', True)}"
        if "xanchor" in exp:
            for axis in ("x", "y"):
                a, b = got[axis], exp[f"{axis}anchor"]
                if not math.isclose(float(a), float(b), rel_tol=rtol, abs_tol=1e-12):
                    return f"mark {exp['name']!r} {axis}: {a} != {b}"
        elif got["path"] != exp.get("path"):
            return f"mark {exp['name']!r}: its path differs"
        for corner in ("x0", "x1", "y0", "y1"):
            if corner in exp and not _same(got.get(corner), exp[corner], rtol):
                return f"mark {exp['name']!r} {corner}: {got.get(corner)} != {exp[corner]}"
    return ""


def _same(a, b, rtol: float) -> bool:
    """Two coordinates equal: numbers within ``rtol``, anything else (a category, a date) as it is."""
    import math

    try:
        return math.isclose(float(a), float(b), rel_tol=rtol, abs_tol=1e-12)
    except (TypeError, ValueError):
        return a == b


def wait_for_panel(page, title: str, view, *, rtol: float = 1e-6, timeout_s: float = 30.0) -> None:
    """Wait until the panel's plots and readouts show ``view`` (a :class:`vtsmodel.app.panels.View`).

    Plots are matched in order to ``view.figures``: every trace and every named mark (an
    operating point drawn as a shape); readouts must equal ``view.readouts`` exactly. Fails
    with what differs when they do not within ``timeout_s``.
    """
    import time

    specs = [plot.spec() for plot in view.figures.values()]
    end = time.monotonic() + timeout_s
    while True:
        why = ""
        for n, spec in enumerate(specs):
            index = panel_plot_index(page, title, n)
            why = traces_mismatch(plot_traces(page, index), spec, rtol=rtol) or marks_mismatch(
                plot_marks(page, index), spec, rtol=rtol
            )
            if why:
                why = f"plot {n}: {why}"
                break
        if not why:
            shown = panel_readouts(page, title)
            if shown != dict(view.readouts):
                why = f"readouts {shown} != {dict(view.readouts)}"
        if not why:
            return
        if time.monotonic() > end:
            raise AssertionError(f"panel {title!r} does not show the package's view: {why}")
        page.wait_for_timeout(100)


def export_from_panel(page, title: str, format_label: str, save_dir) -> tuple[str, bytes]:
    """Export the panel's selected figure as ``format_label``: the browser downloads it.

    Returns the downloaded file's suggested name and its bytes (saved under ``save_dir``),
    after checking the status line names the file.
    """
    box = panel_locator(page, title).locator(".vtsmodel-export")
    box.scroll_into_view_if_needed()
    box.locator(".widget-dropdown").filter(has=page.locator(".widget-label", has_text="Format")).locator(
        "select"
    ).select_option(label=format_label)
    with page.expect_download(timeout=120_000) as info:
        box.locator("button.jupyter-button", has_text="Export").click()
    download = info.value
    name = download.suggested_filename
    target = save_dir / name
    download.save_as(target)
    box.locator(".vtsmodel-export-done", has_text=name).wait_for(timeout=30_000)
    return name, target.read_bytes()


def assert_valid_export(data: bytes, fmt: str) -> None:
    """PNG: the PNG signature; HTML: an offline page (no script fetched over http)."""
    if fmt == "png":
        assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:16]
        assert len(data) > 5_000
    else:
        text = data.decode("utf-8").lower()
        assert "<html" in text
        assert '<script src="http' not in text and "<script src='http" not in text


def export_png_and_html(page, title: str, panel, save_dir) -> None:
    """Export ``panel``'s first figure from the page as PNG and as offline HTML; check both downloads."""
    for label, fmt in (("PNG", "png"), ("HTML (offline)", "html")):
        name, data = export_from_panel(page, title, label, save_dir)
        assert name == f"{panel.name}_{next(iter(panel.plots))}.{fmt}"
        assert_valid_export(data, fmt)


def fits_width(page) -> bool:
    """Whether the page fits its viewport's width (no horizontal scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


#: The shown dropdowns' options wider than the dropdown shows them [CSS px], measured in the
#: select's own font: ``[label, option text, text width, room]`` each.
_CUT_OPTIONS_JS = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  const out = [];
  for (const s of document.querySelectorAll('.widget-dropdown select')) {
    if (!s.offsetParent) continue;
    const cs = getComputedStyle(s);
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const label = s.parentElement.querySelector('.widget-label');
    for (const o of s.options) {
      const width = ctx.measureText(o.text).width;
      if (width > room) out.push([label ? label.textContent.trim() : '', o.text, Math.round(width), Math.round(room)]);
    }
  }
  return out;
}"""


def cut_labels(page) -> list[str]:
    """The shown controls' labels too long for their box, and dropdown options too long for theirs.

    A person reads only the start of either: a label's box scrolls, and a dropdown shows the
    start of the option chosen (each option is measured, as any may be chosen).
    """
    labels = page.evaluate(
        "() => [...document.querySelectorAll('.widget-label, .widget-label-basic')]"
        ".filter(e => e.offsetParent && e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.trim())"
    )
    options = [
        f"{label or 'a dropdown'}: {text!r} ({width} px in {room} px)"
        for label, text, width, room in page.evaluate(_CUT_OPTIONS_JS)
    ]
    return labels + options


def table_cell(table, row: int, header: str):
    """The input of a cell of a :class:`~vtsmodel.app.tables.TableEditor` on the page, by its label.

    ``table`` locates the table (``.vtsmodel-table``); ``row`` counts from 0, ``header``
    is the column's head (its input is labelled "<header>, row <row + 1>").
    """
    return table.get_by_role("textbox", name=f"{header}, row {row + 1}", exact=True)


def type_into_table_cell(table, row: int, header: str, text: str, *, commit: str = "Enter") -> None:
    """Click a cell of an HTML table editor, type ``text`` over its text and press ``commit``."""
    cell = table_cell(table, row, header)
    cell.click()
    cell.press_sequentially(text)
    cell.press(commit)


def snap_like_browser(panel) -> dict:
    """Put the test's panel sliders where the browser puts them: on their step grid.

    A slider whose Python value is not ``min + k·step`` is moved by the browser's slider
    to the nearest step when it renders, and the kernel's panel recomputes at that value.
    Returns the controls that moved (name -> (old, new)); applies them with ``panel.set``.
    """
    import math

    moved = {}
    for key, c in panel.controls.items():
        if not hasattr(c, "step") or not hasattr(c, "readout_format") or isinstance(c.value, int):
            continue
        if hasattr(c, "base"):
            e = math.log(c.value, c.base)
            snapped = c.base ** (c.min + round((e - c.min) / c.step) * c.step)
        else:
            snapped = c.min + round((c.value - c.min) / c.step) * c.step
        if not math.isclose(snapped, c.value, rel_tol=1e-9, abs_tol=1e-12):
            moved[key] = (c.value, snapped)
    if moved:
        panel.set(**{k: new for k, (_old, new) in moved.items()})
    return moved


def move_panel_slider(page, panel, title: str, key: str, label: str, times: int):
    """Press a slider of the panel titled ``title`` ``times`` keys right (left if negative).

    The test's own ``panel`` (built from the lesson module) is set to the value the
    browser's slider reaches, so its view is what the page should show; returns that value.
    """
    value = slider_after_keys(panel.controls[key], times)
    press_panel_slider(page, title, label, "ArrowRight" if times > 0 else "ArrowLeft", times=abs(times))
    panel.set(**{key: value})
    return value


def open_lesson_with_plots(open_lesson, notebook: str, plots: int):
    """Open ``notebook`` in Voila, wait until ``plots`` plots are drawn, check it fits 1280 px."""
    page = open_lesson(notebook)
    page.wait_for_function(
        "n => document.querySelectorAll('.vtsmodel-plot .js-plotly-plot .main-svg').length >= n", arg=plots
    )
    assert fits_width(page), "the lesson scrolls horizontally at 1280 px"
    return page


def panel_as_shown(page, title: str, panel):
    """``panel`` (the test's own, at its defaults) once the page's panel ``title`` shows its view.

    Fails if a default is off its slider's grid (the browser would move it first).
    """
    assert not snap_like_browser(panel)
    wait_for_panel(page, title, panel.view)
    return panel


def move_and_check(page, panel, title: str, key: str, label: str, times: int) -> float:
    """:func:`move_panel_slider`, then wait until the page shows the panel's new view."""
    value = move_panel_slider(page, panel, title, key, label, times)
    wait_for_panel(page, title, panel.view)
    return value


def pick_file(page, bar: str, label: str, files) -> None:
    """Pick ``files`` (a path, or Playwright's ``{"name", "mimeType", "buffer"}``) in the picker ``label``
    of the file bar ``bar`` (``FileBar(bar)``): its file input is in the page, as a person's dialog fills it."""
    picker = page.locator(f".vtsmodel-{bar}-files .vtsmodel-upload", has_text=label)
    picker.locator("input[type=file]").set_input_files(files)
