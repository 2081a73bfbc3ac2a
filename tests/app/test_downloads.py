"""vtsmodel.app.downloads: downloads, uploads and the file bar every page with files uses."""

from __future__ import annotations

import pytest

from vtsmodel.app.downloads import FileBar, safe_name, upload_control, uploaded_file


def browser_upload(control, name: str, data: bytes) -> None:
    """What the browser sends when a person picks the file ``name`` in a FileUpload."""
    js = {"name": name, "type": "", "size": len(data), "content": memoryview(data), "last_modified": 0}
    control.set_state({"value": [js]})


@pytest.fixture
def bar():
    files = FileBar("demo")
    files.sent = []
    files.downloader.send = lambda content, buffers: files.sent.append((content, bytes(buffers[0])))
    return files


def test_safe_name_keeps_a_plain_name_and_drops_folders():
    assert safe_name("plan 1.json") == "plan 1.json"
    assert safe_name("../../etc/pass<wd>") == "pass_wd_"
    assert safe_name("") == "vtsmodel"


def test_a_download_sends_the_file_with_its_type_and_the_status_names_it(bar):
    state = {"doc": '{"a": 1}'}
    bar.button("Save", lambda: bar.deliver("save", lambda: ("my/sheet.json", state["doc"])))
    bar.controls["Save"].click()
    content, data = bar.sent[-1]
    assert (
        content == {"kind": "download", "name": "sheet.json", "mime": "application/json"}
        and data == b'{"a": 1}'
    )
    assert "vtsmodel-demo-done" in bar.status.value
    assert "downloaded <b>sheet.json</b> (8 bytes): see your browser's downloads" in bar.status.value
    assert bar.send("t.csv", "x,y\n") == "t.csv" and bar.sent[-1][0]["mime"] == "text/csv"


def test_a_failed_download_is_said_with_the_reason_and_sends_nothing(bar):
    def broken():
        raise RuntimeError("no browser")

    assert bar.deliver("report", broken, preparing="preparing the report…") == ""
    assert bar.sent == [] and "vtsmodel-demo-failed" in bar.status.value
    assert "report failed: no browser" in bar.status.value and "Traceback" in bar.status.value


def test_an_upload_is_read_checked_said_and_cleared(bar):
    got = []

    def read(data: bytes, name: str) -> str | None:
        if not data.startswith(b"ok"):
            raise ValueError(f"{name} is not a demo file")
        got.append((name, data))
        return None if data == b"ok" else f"read <b>{len(data)}</b> bytes"

    up = bar.upload("Load…", read, accept=".json", max_bytes=10, tooltip="A demo file")
    assert bar.controls["Load…"] is up and up.accept == ".json"
    browser_upload(up, "a.json", b"ok")
    assert got == [("a.json", b"ok")] and "loaded <b>a.json</b>" in bar.status.value
    assert up.value == ()  # the same file can be picked again
    browser_upload(up, "b.json", b"ok, more")
    assert "read <b>8</b> bytes" in bar.status.value
    browser_upload(up, "c.json", b"bad")
    assert "vtsmodel-demo-failed" in bar.status.value
    assert "<b>c.json</b> not loaded: c.json is not a demo file" in bar.status.value and len(got) == 2
    browser_upload(up, "huge.json", b"ok" * 10)  # refused before it is read
    assert (
        "<b>huge.json</b> not loaded: huge.json is larger than 10 bytes" in bar.status.value and len(got) == 2
    )


def test_the_row_and_the_status_carry_the_pages_classes(bar):
    bar.add(upload_control(".csv"))
    assert "vtsmodel-demo-files" in bar.row._dom_classes and "vtsmodel-demo-status" in bar.status._dom_classes
    assert bar.widget.children == (bar.row, bar.status, bar.downloader)


def test_uploaded_file_refuses_a_file_over_the_limit():
    up = upload_control(".json")
    assert uploaded_file(up, max_bytes=5) is None
    browser_upload(up, "x.json", b"123456")
    with pytest.raises(ValueError, match="x.json is larger than 5 bytes"):
        uploaded_file(up, max_bytes=5)
