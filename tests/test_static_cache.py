"""The app's static files: versioned bundles cached for good, the rest revalidated (vtsmodel.app.static_cache)."""

from __future__ import annotations

import pytest

from vtsmodel.app.static_cache import is_versioned


@pytest.mark.parametrize(
    ("path", "arguments", "versioned"),
    [
        (
            "/voila/labextensions/jupyterlab-plotly/static/0.03957c7088ad5ed0.js",
            {"v": [b"03957c7088ad5ed0"]},
            True,
        ),
        (
            "/voila/labextensions/@jupyter-widgets/jupyterlab-manager/static/remoteEntry.c8c9eed2cdefdeac.js",
            {},
            True,
        ),
        ("/voila/labextensions/anywidget/static/528.d9f5934c.js", {}, True),  # anywidget's 8-digit hashes
        (
            "/voila/labextensions/@jupyter-widgets/jupyterlab-manager/static/14ad542071f6e259fbe2.png",
            {},
            True,
        ),
        ("/voila/labextensions/jupyterlab-plotly/static/style.js", {}, False),  # no version: revalidated
        ("/voila/labextensions/jupyterlab-plotly/package.json", {}, False),
        ("/voila/labextensions/jupyterlab-plotly/static/third-party-licenses.json", {"v": [b""]}, False),
    ],
)
def test_only_a_url_that_names_its_version_is_cached_for_good(path, arguments, versioned):
    assert is_versioned(path, arguments) is versioned
