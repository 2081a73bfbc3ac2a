"""Answer keys: one computed answer per item of each lesson's "Things to try", collapsed under the list.

Each key's numbers are checked against the package's own functions here, computed in the test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from vtsmodel.app.answers import KEYS, answer_key_html, answers
from vtsmodel.app.text import number

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
DONE = ("00", "01", "02", "03", "04", "05", "06")


def _cells(lesson: str) -> list[dict]:
    path = next(NOTEBOOKS.glob(f"{lesson}_*.ipynb"))
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _things_to_try(lesson: str) -> tuple[int, list[dict]]:
    cells = _cells(lesson)
    i = next(k for k, c in enumerate(cells) if "".join(c["source"]).startswith("## Things to try"))
    return i, cells


@pytest.mark.parametrize("lesson", DONE)
def test_one_answer_per_item_shown_collapsed_under_the_list(lesson):
    i, cells = _things_to_try(lesson)
    items = re.findall(r"^\d+\. ", "".join(cells[i]["source"]), flags=re.M)
    got = answers(lesson)
    assert len(got) == len(items) and all(a.strip() for a in got)
    assert "".join(cells[i + 1]["source"]).strip().endswith(f'answer_key("{lesson}")')
    page = answer_key_html(lesson)
    assert page.startswith("<details") and " open" not in page.split(">")[0]  # collapsed by default
    assert page.count("<li") == len(items)


def test_every_lesson_has_a_key_and_an_unknown_one_is_refused():
    assert set(KEYS) >= {p.name[:2] for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")}
    with pytest.raises(ValueError, match="lesson_id='99' has no answer key"):
        answers("99")


def test_lesson_01_answers_are_the_models():
    from vtsmodel import throughput as tp

    got = answers("01")
    e1, e4 = (float(tp.write_rate(cf, feature="ehpo", mode="sustained", tvc_config="tvc_1152_36gb_base_ehpo"))
              for cf in (1.0, 4.0))  # fmt: skip
    assert f"{number(e1)} MB/s at CF 1 and {number(e4)} MB/s at CF 4" in got[0]
    p32, p64 = (float(tp.write_rate(3.0, feature="paf", mode="peak", block_kb=b, tvc_config="tvc_1728_36gb_paf"))
                for b in (32.0, 64.0))  # fmt: skip
    assert f"peak {number(p32)} → {number(p64)} MB/s" in got[3]


def test_lesson_02_answers_are_the_models():
    from vtsmodel import tvc

    got = answers("02")
    for f in (0.0, 0.5):
        h = float(
            tvc.hours_at_peak(432.0, 3.0, feature="paf", peak_copy_fraction=f, tvc_config="tvc_432_36gb_paf")
        )
        assert number(h) in got[0]
