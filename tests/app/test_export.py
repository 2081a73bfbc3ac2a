"""Export for proposals: atomic, never-overwriting writes; valid PNG, SVG, PDF, HTML and CSV."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET

import plotly.graph_objects as go
import pytest

from vtsmodel.app import export


@pytest.fixture(scope="module")
def fig():
    f = go.Figure(go.Scatter(x=[1, 2, 3], y=[3, 1, 2], mode="lines+markers", name="demo"))
    f.update_layout(title="A test figure")
    return f


def _leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --- atomic_write ----------------------------------------------------------------------------
def test_atomic_write_writes_text_and_bytes(tmp_path):
    assert export.atomic_write(tmp_path / "a.txt", "héllo").read_text(encoding="utf-8") == "héllo"
    assert (
        export.atomic_write(tmp_path / "sub" / "b.bin", b"\x00\x01", parents=True).read_bytes() == b"\x00\x01"
    )
    assert _leftovers(tmp_path) == []


def test_atomic_write_never_overwrites_unless_asked(tmp_path):
    path = export.atomic_write(tmp_path / "a.txt", "first")
    with pytest.raises(FileExistsError, match="overwrite=True"):
        export.atomic_write(path, "second")
    assert path.read_text() == "first"
    export.atomic_write(path, "second", overwrite=True)
    assert path.read_text() == "second"
    assert _leftovers(tmp_path) == []


def test_failure_at_the_rename_keeps_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    path = export.atomic_write(tmp_path / "a.txt", "the old, good content")

    def fail(*_args, **_kw):
        raise OSError("rename failed (simulated)")

    monkeypatch.setattr(export.os, "replace", fail)
    with pytest.raises(OSError, match="simulated"):
        export.atomic_write(path, "new content", overwrite=True)
    assert path.read_text() == "the old, good content"
    assert _leftovers(tmp_path) == []


def test_failure_while_writing_keeps_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    path = export.atomic_write(tmp_path / "a.txt", "the old, good content")

    def fail(_fd):
        raise OSError("disk full (simulated)")

    monkeypatch.setattr(export.os, "fsync", fail)
    with pytest.raises(OSError, match="simulated"):
        export.atomic_write(path, "x" * 100_000, overwrite=True)
    assert path.read_text() == "the old, good content"
    assert _leftovers(tmp_path) == []


def test_failure_writing_a_new_file_leaves_nothing(tmp_path, monkeypatch):
    def fail(*_args, **_kw):
        raise PermissionError("link refused (simulated)")

    monkeypatch.setattr(export.os, "link", fail)
    monkeypatch.setattr(export.os, "replace", fail)
    with pytest.raises(OSError, match="simulated"):
        export.atomic_write(tmp_path / "new.txt", "content")
    assert list(tmp_path.iterdir()) == []


# --- figures ---------------------------------------------------------------------------------
@pytest.mark.slow
def test_png_svg_pdf_are_valid_files(fig, tmp_path):
    caption = "Settings: CF [-] = 3.\nSources: a test."
    paths = export.export_figures(
        [
            (fig, tmp_path / "f.png", caption),
            (fig, tmp_path / "f.svg", caption),
            (fig, tmp_path / "f.pdf", caption),
        ]
    )
    png, svg, pdf = (p.read_bytes() for p in paths)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert b"Sources: a test." in svg  # the caption is part of the figure
    assert pdf.startswith(b"%PDF")
    assert pdf.rstrip().endswith(b"%%EOF")
    from pypdf import PdfReader

    assert PdfReader(io.BytesIO(pdf)).metadata.title == "A test figure"  # not kaleido's page name
    assert _leftovers(tmp_path) == []


@pytest.mark.slow
def test_export_many_reports_each_item_and_goes_on(fig, tmp_path):
    # An existing file is kept, a bad format is refused, a render failure is reported;
    # every other item is written, in order, with progress after each.
    (tmp_path / "kept.png").write_bytes(b"old")
    seen = []
    out = export.export_many(
        [
            (fig, tmp_path / "a.png", "cap"),
            (fig, tmp_path / "kept.png", "cap"),
            (fig, tmp_path / "bad.gif", "cap"),
            (fig, tmp_path / "b.svg", "cap"),
            (fig, tmp_path / "c.html", "cap"),
        ],
        progress=lambda done, total, path: seen.append((done, total, path.name)),
    )
    kinds = [type(r).__name__ if isinstance(r, Exception) else r.name for _p, r in out]
    assert kinds == ["a.png", "FileExistsError", "ValueError", "b.svg", "c.html"]
    assert (tmp_path / "kept.png").read_bytes() == b"old"
    assert (tmp_path / "a.png").read_bytes().startswith(b"\x89PNG")
    assert [d for d, _t, _n in seen] == [1, 2, 3, 4, 5] and {t for _d, t, _n in seen} == {5}
    assert _leftovers(tmp_path) == []


def test_render_failure_is_reported_for_that_item_only(fig, tmp_path, monkeypatch):
    def half_fails(jobs, *, scale=2.0):
        for i, _job in enumerate(jobs):
            yield i, (RuntimeError("simulated render failure") if i == 0 else b"\x89PNG\r\n\x1a\nfake")

    monkeypatch.setattr(export, "render_static", half_fails)
    out = export.export_many([(fig, tmp_path / "x.png", ""), (fig, tmp_path / "y.png", "")])
    assert isinstance(out[0][1], RuntimeError) and out[1][1] == tmp_path / "y.png"
    assert not (tmp_path / "x.png").exists() and _leftovers(tmp_path) == []
    with pytest.raises(RuntimeError, match="simulated"):
        export.export_figures([(fig, tmp_path / "z.png", "")])


@pytest.mark.slow
def test_figure_export_never_overwrites_unless_asked(fig, tmp_path):
    path = export.export_figure(fig, tmp_path / "f.svg")
    before = path.read_bytes()
    with pytest.raises(FileExistsError):
        export.export_figure(fig, path)
    assert path.read_bytes() == before
    fig2 = go.Figure(fig).update_layout(title="changed")
    export.export_figure(fig2, path, overwrite=True)
    assert b"changed" in path.read_bytes()


def test_html_is_standalone_and_offline(fig, tmp_path):
    path = export.export_figure(fig, tmp_path / "f.html", caption="Sources: a test.")
    text = path.read_text(encoding="utf-8")
    assert "Plotly" in text and len(text) > 1_000_000  # plotly.js is inline
    assert not re.search(r"<script[^>]+src=[\"']?(https?:)?//", text, re.IGNORECASE)
    assert text.count("Sources: a test.") == 1  # the caption once, as text under the figure
    assert "<title>A test figure</title>" in text


def test_layout_keeps_title_legend_and_caption_apart():
    # Issue 15: a bottom legend was drawn over the caption; the caption was 7 pt in a PDF.
    f = go.Figure(
        go.Scatter(x=[1, 2], y=[1, 2], name="a"),
        layout={"title": "T", "legend": {"orientation": "h", "y": -0.3}},
    )
    caption = "Settings: " + "a long setting; " * 30 + "\nSources: a test."
    spec = export.export_spec(f, caption, size=(960, 640))
    lay = spec["layout"]
    assert (
        lay["legend"]["y"] > 1 and lay["legend"]["yanchor"] == "bottom"
    )  # above the plot, not on the caption
    note = lay["annotations"][-1]
    assert note["font"]["size"] * 0.75 >= 9  # at least 9 pt where a CSS pixel prints as 0.75 pt
    lines = note["text"].split("<br>")
    plot_width = 960 - lay["margin"]["l"] - lay["margin"]["r"]
    assert len(lines) > 2 and max(len(x) for x in lines) * 0.52 * note["font"]["size"] <= plot_width
    assert note["yanchor"] == "top" and note["y"] == 0 and note["yshift"] < 0  # under the axis title
    assert lay["height"] == 640 + 17 * len(lines) + 20 and lay["margin"]["b"] >= 60 + 17 * len(lines)
    assert lay["title"]["xref"] == "paper" and lay["title"]["x"] == 0


def test_unknown_format_and_size_are_rejected(fig, tmp_path):
    with pytest.raises(ValueError, match="fmt='eps'"):
        export.export_figure(fig, tmp_path / "f.eps")
    with pytest.raises(ValueError, match="size='poster'"):
        export.figure_bytes(fig, "html", size="poster")
    assert list(tmp_path.iterdir()) == []


# --- CSV ------------------------------------------------------------------------------------------
def test_csv_is_valid_and_carries_the_caption(tmp_path):
    rows = [{"name": "a, with comma", "rate [MB/s]": 1.5}, {"name": 'quote "b"', "rate [MB/s]": 2.0}]
    path = export.export_csv(rows, tmp_path / "t.csv", caption="Sources: a test.")
    text = path.read_text()
    body = "\n".join(ln for ln in text.splitlines() if not ln.startswith("#"))
    parsed = list(csv.DictReader(io.StringIO(body)))
    assert parsed == [
        {"name": "a, with comma", "rate [MB/s]": "1.5"},
        {"name": 'quote "b"', "rate [MB/s]": "2.0"},
    ]
    assert text.splitlines()[-1] == "# Sources: a test."
    with pytest.raises(FileExistsError):
        export.export_csv(rows, path)
    with pytest.raises(ValueError, match="nothing to write"):
        export.export_csv([], tmp_path / "empty.csv")


@pytest.mark.parametrize("style", ["light", "print"])
def test_export_spec_styles_as_style_figure_does(fig, style):
    # Exports style the figure's JSON; the result must be what figures.style_figure gives.
    import json

    import plotly.io as pio

    from vtsmodel.app.figures import style_figure

    spec = export.export_spec(fig, "", size=None, style=style)
    want = json.loads(pio.to_json(style_figure(go.Figure(fig), style)))["layout"]
    got = json.loads(pio.to_json(spec, validate=False))["layout"]
    # the export also puts the title over the plot area's left edge, clear of the image's edge
    assert got.pop("title") == {**want.pop("title"), "x": 0, "xref": "paper", "xanchor": "left"}
    assert got.pop("margin")["t"] >= 50 and "margin" not in want
    assert got == want


# --- a missing, broken or stuck browser: one clear error, in bounded time ---------------------
from vtsmodel.app import _browser  # noqa: E402

#: Longest a failing export may take in these tests (a hang fails the test, not the run). [s]
DEADLINE_S = 60.0


def _script(folder, name, body):
    path = folder / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


def _export_failing(fig, target):
    """export_figure(fig, target) run under a deadline; the exception it raised."""
    import threading

    box = {}

    def run():
        try:
            export.export_figure(fig, target)
        except BaseException as exc:  # noqa: BLE001 - the test inspects it
            box["exc"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(DEADLINE_S)
    assert not t.is_alive(), f"export did not end within {DEADLINE_S} s"
    assert "exc" in box, "export succeeded with a broken browser"
    return box["exc"]


@pytest.fixture
def short_limits(monkeypatch):
    monkeypatch.setattr(_browser, "PROBE_TIMEOUT_S", 2.0)
    monkeypatch.setattr(export, "START_TIMEOUT_S", 4.0)
    export.stop_browser()  # a browser a previous test started must not serve these
    yield
    export.stop_browser()


def _broken_browsers(tmp_path):
    pids = tmp_path / "pids"
    version = 'if [ "$1" = "--version" ]; then echo "Chromium 999.0.1 (a test stand-in)"; exit 0; fi\n'
    plain = tmp_path / "plain.txt"
    plain.write_text("not a program")
    plain.chmod(0o644)
    return {
        "missing": (str(tmp_path / "no-such-browser"), "no such file"),
        "a folder": (str(tmp_path), "is a folder"),
        "not executable": (str(plain), "is not executable"),
        "/bin/true": ("/bin/true", "not a Chromium-family browser"),
        "exits with an error": (
            str(_script(tmp_path, "fails", "echo 'cannot open display' >&2; exit 3\n")),
            "exited with status 3: cannot open display",
        ),
        "hangs on everything": (
            str(_script(tmp_path, "hangs", f"echo $$ >> {pids}\nsleep 1000 &\necho $! >> {pids}\nwait\n")),
            "did not answer `--version` within 2 s and was stopped",
        ),
        "closes when started": (str(_script(tmp_path, "closes", version + "exit 1\n")), "failed to start"),
        "hangs when started": (
            str(
                _script(
                    tmp_path, "stuck", version + f"echo $$ >> {pids}\nsleep 1000 &\necho $! >> {pids}\nwait\n"
                )
            ),
            "did not start within 4 s and was stopped",
        ),
    }


CASES = (
    "missing",
    "a folder",
    "not executable",
    "/bin/true",
    "exits with an error",
    "hangs on everything",
    "closes when started",
    "hangs when started",
)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_a_broken_browser_gives_one_clear_error_no_file_no_process(case, fig, tmp_path, monkeypatch,
                                                                   short_limits, capfd):  # fmt: skip
    # Before: every case but "missing" waited for ever (kaleido's server thread died and its
    # queue was never answered), printed a traceback from that thread, and left the hung
    # browser running; a missing BROWSER_PATH silently fell back to another browser.
    browser, says = _broken_browsers(tmp_path)[case]
    monkeypatch.setenv("BROWSER_PATH", browser)
    out = tmp_path / "out"
    out.mkdir()
    exc = _export_failing(fig, out / "f.png")
    assert isinstance(exc, _browser.BrowserError), repr(exc)
    assert says in str(exc) and browser in str(exc)
    assert list(out.iterdir()) == []  # no file, no partial file, no temp file
    pids = tmp_path / "pids"
    if pids.exists():
        started = [int(p) for p in pids.read_text().split()]
        assert started and not [p for p in started if _alive(p)]  # no orphaned process
    assert "Traceback" not in capfd.readouterr().err
    assert not export._renderer.running  # the next export starts afresh


def test_no_browser_anywhere_says_how_to_get_one(fig, tmp_path, monkeypatch, short_limits):
    monkeypatch.delenv("BROWSER_PATH", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(_browser, "PATHS", ())
    monkeypatch.setattr(_browser, "_downloaded_chrome", lambda: None)
    exc = _export_failing(fig, tmp_path / "f.svg")
    assert isinstance(exc, _browser.BrowserError) and str(exc) == _browser.HOW_TO_GET
    assert not (tmp_path / "f.svg").exists()


@pytest.mark.slow
def test_a_browser_that_dies_is_replaced_on_the_next_export(fig, tmp_path):
    export.start_browser()
    _browser.kill_group(export._renderer.kaleido.subprocess)
    with pytest.raises(_browser.BrowserError, match="stopped while rendering"):
        export.figure_bytes(fig, "svg")
    assert export.figure_bytes(fig, "svg").lstrip().startswith(b"<svg")  # a new browser


@pytest.mark.slow
def test_the_panel_export_reports_a_broken_browser(tmp_path, monkeypatch, short_limits):
    from vtsmodel.app.lessons import efficiency

    monkeypatch.setenv("BROWSER_PATH", "/bin/true")
    panel = efficiency.efficiency_panel()
    with pytest.raises(_browser.BrowserError, match="not a Chromium-family browser"):
        panel.export("png", path=tmp_path / "p.png")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("fig_arg", "path", "match"),
    [
        (None, "f.png", "fig=None is not a figure"),
        ("a string", "f.png", "fig='a string' is not a figure"),
        ("fig", None, "path=None is not valid"),
        ("fig", 3, "path=3 is not valid"),
    ],
)
def test_wrong_arguments_are_value_errors(fig, tmp_path, fig_arg, path, match):
    # Before: AttributeError ('NoneType' object has no attribute 'to_dict') or TypeError.
    with pytest.raises(ValueError, match=match):
        export.export_figure(
            fig if fig_arg == "fig" else fig_arg, tmp_path / path if isinstance(path, str) else path
        )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_the_export_button_shows_a_broken_browser_in_bounded_time(monkeypatch, short_limits):
    # Before: the lesson's Export button waited for ever (the kernel stayed busy).
    import threading

    from vtsmodel.app.lessons import efficiency

    monkeypatch.setenv("BROWSER_PATH", "/bin/true")
    panel = efficiency.efficiency_panel()
    panel._fmt.value = "png"
    t = threading.Thread(target=panel._on_export, daemon=True)
    t.start()
    t.join(DEADLINE_S)
    assert not t.is_alive(), f"the Export button did not return within {DEADLINE_S} s"
    status = panel._status.value
    assert "export failed" in status and "not a Chromium-family browser" in status


def test_a_lessons_plot_exports_as_its_figure_json():
    # The benchmark and the API hand a lesson's Plot (view.figures) to the export.
    from vtsmodel.app.lessons import efficiency

    plot = next(iter(efficiency.efficiency_panel().view.figures.values()))
    assert export.export_spec(plot, "cap") == export.export_spec(plot.spec(), "cap")
    assert b"<title>Efficiency" in export.figure_bytes(plot, "html")


def test_a_caption_url_wider_than_the_figure_is_cut_after_a_slash_and_loses_nothing():
    url = "https://www.ibm.com/support/knowledgecenter/en/STQRQ9/com.ibm.storage.ts4500.doc/performance_specs_lto_drives.html"
    ref = f"[ibm-ts4500-lto-perf] IBM. Performance specifications for LTO tape drives. n.d. {url}. Accessed 23 November 2026."
    width = 600
    chars = int(width / (export._GLYPH * export.CAPTION_FONT_PX))
    lines = export._wrap_caption(ref, width)
    assert max(map(len, lines)) <= chars < len(url)  # every line fits, though the URL alone would not
    assert any(line.startswith("https://") and line.endswith("/") for line in lines)  # cut after a slash
    assert " ".join(lines).replace("/ ", "/") == ref  # nothing lost: the words, and the URL once joined
