"""Answer keys: one computed answer per item of each lesson's "Things to try", collapsed under the list.

Each key's numbers are checked against the package's own functions here, computed in the test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from vtsmodel.app.answers import KEYS, answer_key, answer_key_html, answers
from vtsmodel.app.text import number

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
#: Lesson 08's key runs libCacheSim's replacement policies on the example log (about 40 s).
LESSONS = [pytest.param(k, marks=pytest.mark.slow) if k == "08" else k for k in KEYS]


def _cells(lesson: str) -> list[dict]:
    path = next(NOTEBOOKS.glob(f"{lesson}_*.ipynb"))
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _things_to_try(lesson: str) -> tuple[int, list[dict]]:
    cells = _cells(lesson)
    i = next(k for k, c in enumerate(cells) if "".join(c["source"]).startswith("## Things to try"))
    return i, cells


@pytest.mark.parametrize("lesson", LESSONS)
def test_one_answer_per_item_shown_collapsed_under_the_list(lesson):
    i, cells = _things_to_try(lesson)
    items = re.findall(r"^\d+\. ", "".join(cells[i]["source"]), flags=re.M)
    assert "".join(cells[i + 1]["source"]).strip().endswith(f'answer_key("{lesson}")')
    key = answer_key(lesson)
    assert key.selected_index is None and "<li" not in key.children[0].value  # closed, nothing computed yet
    key.selected_index = 0  # a teacher opens it
    shown = re.findall(r"<li[^>]*>(.*?)</li>", key.children[0].value)
    assert len(shown) == len(items) and all(a.strip() for a in shown)


def test_the_static_key_is_collapsed():
    page = answer_key_html("02")
    assert page.startswith("<details") and " open" not in page.split(">")[0]
    assert page.count("<li") == len(answers("02"))


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


def test_lessons_03_to_07_answers_are_the_models():
    import dataclasses
    import math

    from vtsmodel import catalog, plan, recall
    from vtsmodel import ds8000 as dc
    from vtsmodel.sizing import cern_example_flows, drives_needed

    twentieth = float(recall.recall_response_s(19, 250.0, cf=3.0, drives=4)) / 60
    assert f"ready after {number(twentieth)} min" in answers("03")[4]
    assert f"{number(catalog.streaming_check('LTO9', 2.0).min_rate_mb_s)} MB/s" in answers("04")[3]
    flows = tuple(
        dataclasses.replace(f, efficiency=0.05) if f.name.startswith("T2") else f
        for f in cern_example_flows()
    )
    assert f"needs {number(drives_needed(flows, drive_speed_mb_s=40.0).total)} drives" in answers("05")[0]
    blocks = math.ceil(float(dc.resources_for_pause(5000.0, 6.0, threshold=0.7)))
    assert f"{blocks:,} blocks" in answers("06")[6]
    rec = plan.vts_plan(plan.Plan(plan.Answers())).recommended  # the page's defaults are the planner's
    assert answers("07")[0].startswith(f"At the defaults: {rec.config.label}.")


@pytest.mark.slow
def test_lesson_08_answers_are_the_models():
    from vtsmodel.app.lessons.hit_curve import curve_of, example_source

    curve = curve_of(example_source(), 0.0)
    best = float(curve.at(1e9).read_hit_ratio[0])
    assert f"No cache does better than {number(100 * best)} %" in answers("08")[0]
