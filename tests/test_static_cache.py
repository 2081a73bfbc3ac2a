"""The app's static files: versioned bundles cached for good, the rest revalidated (vtsmodel.app.static_cache)."""

from __future__ import annotations

import pytest

from vtsmodel.app.static_cache import COMPILE_HINT, CompileHint, hinted, is_versioned


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


def test_a_hinted_script_is_served_whole_in_ranges_and_by_its_version(tmp_path):
    """:class:`CompileHint`: the script with V8's compile hint before it, its length, ranges and Etag of those bytes."""
    import asyncio
    import concurrent.futures
    import hashlib

    import tornado.httpclient
    import tornado.httpserver
    import tornado.netutil
    import tornado.web

    script = tmp_path / "s.js"
    script.write_bytes(b"function f(){return 1}\n" * 500)

    class Handler(CompileHint, tornado.web.StaticFileHandler):
        pass

    async def fetch(*requests):
        app = tornado.web.Application([(r"/s/(.*)", Handler, {"path": str(tmp_path)})])
        sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
        server = tornado.httpserver.HTTPServer(app)
        server.add_sockets(sockets)
        url = f"http://127.0.0.1:{sockets[0].getsockname()[1]}/s/s.js"
        client = tornado.httpclient.AsyncHTTPClient(force_instance=True)
        try:
            out = []
            for headers in requests:
                h = {k: v(out) if callable(v) else v for k, v in headers.items()}
                out.append(await client.fetch(url, headers=h, raise_error=False))
            return out
        finally:
            client.close()
            server.stop()

    expected = COMPILE_HINT + script.read_bytes()
    requests = ({}, {"Range": "bytes=0-40"}, {"If-None-Match": lambda out: out[0].headers["Etag"]})
    # In a thread of its own: the browser tests' Playwright keeps an event loop running in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        whole, part, same = pool.submit(lambda: asyncio.run(fetch(*requests))).result(timeout=120)
    assert whole.code == 200 and whole.body == expected
    assert int(whole.headers["Content-Length"]) == len(expected)
    assert part.code == 206 and part.body == expected[:41], "a range counts the hint's bytes"
    assert whole.headers["Etag"] == f'"{hashlib.sha512(expected).hexdigest()}"', (
        "the Etag is the hinted script's"
    )
    assert same.code == 304

    script.write_bytes(b"function g(){return 2}\n")  # a new version of the file is read again
    assert hinted(str(script)) == COMPILE_HINT + b"function g(){return 2}\n"
