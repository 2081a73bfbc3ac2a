"""A lesson opened in JupyterLab runs top to bottom with no error output."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import sys
from pathlib import Path

import pytest

from vtsmodel import throughput as tp
from vtsmodel.app.lessons import write as lesson01

from .conftest import NOTEBOOKS, RENDER_TIMEOUT_MS, PageWatch, free_port, served
from .helpers import move_panel_slider

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def lab_url(tmp_path_factory):
    """A JupyterLab server on 127.0.0.1 with a token, serving a copy of notebooks/.

    JupyterLab saves what it runs: the copy keeps the committed notebooks free of outputs.
    """
    root = tmp_path_factory.mktemp("lab") / "notebooks"
    shutil.copytree(NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "exports"))
    port = free_port()
    token = secrets.token_hex(16)
    # Render every cell (no windowing) so the test sees every output; no news pop-up.
    settings = Path(os.environ["JUPYTER_CONFIG_DIR"]) / "lab" / "user-settings" / "@jupyterlab"
    for ext, name, value in (
        ("notebook-extension", "tracker", {"windowingMode": "none"}),
        ("apputils-extension", "notification", {"fetchNews": "false", "checkForUpdates": False}),
    ):
        (settings / ext).mkdir(parents=True, exist_ok=True)
        (settings / ext / f"{name}.jupyterlab-settings").write_text(json.dumps(value))
    jupyter = Path(sys.executable).with_name("jupyter")
    cmd = [
        str(jupyter), "lab", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
        "--ServerApp.kernel_websocket_connection_class=vtsmodel.app._wsnodelay.NoDelayConnection",
        f"--LabApp.user_settings_dir={settings.parent}",
        "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]  # fmt: skip
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    with served("jupyterlab", cmd, f"http://127.0.0.1:{port}/api/status?token={token}", cwd=root):
        yield f"http://127.0.0.1:{port}", token


LESSON = "01_sustained_vs_peak_write.ipynb"


def test_lesson_runs_all_cells_in_jupyterlab(browser, lab_url, artifacts_dir):
    base, token = lab_url
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    watch = PageWatch(page)
    try:
        page.goto(f"{base}/lab/tree/{LESSON}?token={token}&reset", timeout=RENDER_TIMEOUT_MS)
        page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=RENDER_TIMEOUT_MS)
        # Wait for the kernel to be idle before running.
        page.wait_for_selector(
            ".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=RENDER_TIMEOUT_MS
        )
        n_code = page.locator(".jp-CodeCell").count()
        assert n_code > 0
        # Run > Run All Cells, once the command is enabled (the notebook holds its kernel); a
        # session still choosing its kernel asks which, and the answer runs the cells.
        started = "() => [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].some(e => /\\[(\\*|\\d+)\\]/.test(e.innerText))"
        # The kernel is connected when the status bar names it and says Idle.
        page.locator(".jp-StatusBar-Item", has_text="Idle").first.wait_for(timeout=RENDER_TIMEOUT_MS)
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click(timeout=RENDER_TIMEOUT_MS)
        page.locator(
            ".lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel", has_text="Run All Cells"
        ).first.click(timeout=RENDER_TIMEOUT_MS)
        page.wait_for_function(
            f"() => !!document.querySelector('.jp-Dialog') || ({started})()",
            polling=500,
            timeout=RENDER_TIMEOUT_MS,
        )
        dialog = page.locator(".jp-Dialog", has_text="Select Kernel")
        if dialog.count():
            dialog.get_by_role("button", name="Select").click(timeout=RENDER_TIMEOUT_MS)
        page.wait_for_function(started, polling=500, timeout=RENDER_TIMEOUT_MS)
        # Every code cell has run when none is pending ([*]) and all have a number.
        try:
            page.wait_for_function(
                """n => {
                    const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(e => e.innerText);
                    return prompts.length >= n && prompts.every(t => /\\[\\d+\\]/.test(t));
                }""",
                arg=n_code,
                polling=500,  # on a timer: a page busy drawing may hold animation frames back
                timeout=RENDER_TIMEOUT_MS,
            )
        except Exception:
            prompts = page.eval_on_selector_all(
                ".jp-CodeCell .jp-InputPrompt", "els => els.map(e => e.innerText)"
            )
            pytest.fail(
                f"not every cell of {n_code} ran in {LESSON}: prompts {prompts}, console: {watch.console_errors[:3]}"
            )
        page.wait_for_selector(".vtsmodel-plot .js-plotly-plot .main-svg", timeout=RENDER_TIMEOUT_MS)
        errors = page.eval_on_selector_all(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], "
            ".jp-OutputArea-output.jp-mod-error, .jp-RenderedText[data-mime-type='application/vnd.jupyter.error']",
            "els => els.map(e => e.innerText.slice(0, 500))",
        )
        assert not errors, f"error output in {LESSON}: {errors}"
        assert page.locator(".vtsmodel-panel").count() >= 1
        # The CF slider drives the plot in JupyterLab as in Voila (same widgets, same plot pane).
        panel = lesson01.write_panel()
        title = panel.title
        cf = move_panel_slider(page, panel, title, "cf", "compressibility CF", 2)
        v = panel.values
        peak = float(tp.write_rate(cf, feature=v["feature"], mode="peak", tvc_config=v["tvc_config"]))
        page.wait_for_function(
            "([cf, y]) => [...document.querySelectorAll('.vtsmodel-plot .js-plotly-plot')].some(el =>"
            " ((el.layout && el.layout.shapes) || []).some(s => s.name === 'peak at this CF'"
            " && Math.abs(Number(s.xanchor) - cf) < 1e-9 && Math.abs(Number(s.yanchor) - y) < 1e-9 * y))",
            arg=[cf, peak],
            timeout=RENDER_TIMEOUT_MS,
        )
        external = watch.external
        assert not external, f"requests left 127.0.0.1: {external}"
    finally:
        page.screenshot(path=str(artifacts_dir / "jupyterlab-01.png"))
        context.close()
