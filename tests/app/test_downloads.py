"""vtsmodel.app.downloads: downloads, the file picker, and the file bar every page with files uses.

The picker's script (the size check in the browser, the refusal beside the button, the
one-message send) is tested in the browser (tests/browser/test_hits_page.py); here, what the
kernel does with what the script sends, and the refusal text the script writes the same way.
"""

from __future__ import annotations

import pytest

from vtsmodel.app.downloads import MAX_UPLOAD_BYTES, FileBar, FilePicker, refusal, safe_name, size_text

from .uploads import browser_upload


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


def test_an_upload_is_read_checked_and_said_and_the_same_file_can_come_again(bar):
    got = []

    def read(data: bytes, name: str) -> str | None:
        if not data.startswith(b"ok"):
            raise ValueError(f"{name} is not a demo file")
        got.append((name, data))
        return None if data == b"ok" else f"read <b>{len(data)}</b> bytes"

    up = bar.upload("Load…", read, accept=".json", max_bytes=10, tooltip="A demo file")
    assert bar.controls["Load…"] is up and isinstance(up, FilePicker)
    assert (up.accept, up.description, up.tooltip, up.max_bytes) == (".json", "Load…", "A demo file", 10)
    browser_upload(up, "a.json", b"ok")
    assert got == [("a.json", b"ok")] and "loaded <b>a.json</b>" in bar.status.value
    browser_upload(up, "a.json", b"ok")  # picked again: read again
    assert len(got) == 2 and up.received == 2
    browser_upload(up, "b.json", b"ok, more")
    assert "read <b>8</b> bytes" in bar.status.value
    browser_upload(up, "c.json", b"bad")
    assert "vtsmodel-demo-failed" in bar.status.value
    assert "<b>c.json</b> not loaded: c.json is not a demo file" in bar.status.value and len(got) == 3


def test_a_reason_that_names_the_file_first_names_it_once(bar):
    def read(data: bytes, name: str) -> None:
        raise ValueError(f"{name}, line 3: size='-5' is outside the valid range [0, 1e+08] MB")

    bar.load("log.csv", b"x", read)
    assert "<b>log.csv</b> not loaded: line 3: size=&#x27;-5&#x27; is outside" in bar.status.value


def test_a_file_over_the_limit_that_reaches_the_kernel_is_refused_unread(bar):
    """The script never sends it; should one arrive (an older script), the kernel says the same."""
    got = []
    up = bar.upload("Load…", lambda d, n: got.append(n), accept=".csv", max_bytes=10,
                    larger="use the command line")  # fmt: skip
    browser_upload(up, "huge.csv", b"x" * 25)
    assert got == [] and up.received == 1 and "vtsmodel-demo-failed" in bar.status.value
    assert (
        "⚠ <b>huge.csv</b> is 25 bytes; this page reads files up to 10 bytes: use the command line"
        in bar.status.value
    )


def test_other_messages_to_the_picker_are_ignored():
    up = FilePicker(".csv")
    seen = []
    up.on_pick(lambda n, d: seen.append(n))
    up._handle_custom_msg({"kind": "something else"}, [])
    up._handle_custom_msg("not a dict", [])
    assert seen == [] and up.received == 0


def test_the_row_and_the_status_carry_the_pages_classes(bar):
    bar.add(FilePicker(".csv"))
    assert "vtsmodel-demo-files" in bar.row._dom_classes and "vtsmodel-demo-status" in bar.status._dom_classes
    assert bar.widget.children == (bar.row, bar.status, bar.downloader)


def test_the_picker_takes_no_limit_above_what_one_message_carries():
    """10 MiB is the server's largest websocket message; the limit leaves room for the envelope."""
    assert MAX_UPLOAD_BYTES + 100_000 < 10 * 1024 * 1024
    assert FilePicker(max_bytes=MAX_UPLOAD_BYTES).max_bytes == MAX_UPLOAD_BYTES
    for bad in (0, MAX_UPLOAD_BYTES + 1):
        with pytest.raises(ValueError, match=rf"max_bytes={bad} is outside the valid range \[1, 8000000\]"):
            FilePicker(".csv", max_bytes=bad)


@pytest.mark.parametrize(
    ("n", "text"),
    [(0, "0 bytes"), (999, "999 bytes"), (1000, "1 kB"), (1234, "1.23 kB"), (1_048_576, "1.05 MB"),
     (8_000_000, "8 MB"), (14_200_000, "14.2 MB"), (14_250_000, "14.3 MB"), (999_950, "1000 kB"),
     (2_345_678_901, "2.35 GB")],
)  # fmt: skip
def test_sizes_read_as_a_person_reads_them_with_halves_rounded_up_as_the_script_does(n, text):
    assert size_text(n) == text


def test_the_refusal_says_the_size_the_limit_and_what_to_do():
    assert refusal("file.csv", 14_200_000, 8_000_000, "use the command line (vtsmodel hits LOG.csv) for larger ones") == (
        "file.csv is 14.2 MB; this page reads files up to 8 MB: use the command line (vtsmodel hits LOG.csv) "
        "for larger ones"
    )  # fmt: skip
    # sizes that read alike at three digits are given in bytes
    assert refusal("a.json", 8_000_001, 8_000_000) == (
        "a.json is 8,000,001 bytes; this page reads files up to 8,000,000 bytes"
    )
