"""The kinds of file vtsmodel writes, so that a page handed another kind says which it is and where it opens.

A plan file loaded into a lesson's scenario sheet is not "unknown key(s) 'answers'": it is a
plan file, which lesson 07 opens. Every file vtsmodel writes names its kind (``"schema"``).
"""

from __future__ import annotations

__all__ = ["KINDS", "wrong_kind"]

#: Schema name to what a person calls the file and where it opens.
KINDS = {
    "vtsmodel-plan": ("a plan file", "lesson 07 (Load plan…)"),
    "vtsmodel-scenarios": ("a scenario file", "the scenario sheet of its lesson (Load…)"),
    "vtsmodel-flows": ("a flows file", "lesson 05's workbench (Load…)"),
}


def wrong_kind(doc, expected: str, lesson: str | None = None) -> str | None:
    """Why ``doc`` (a parsed JSON file) is not a file of schema ``expected``, in a person's words; None if it may be.

    Another of vtsmodel's kinds is named with the place that opens it; a scenario file of another
    lesson is named with its lesson. Anything else is left to the reader's own checks (None).
    """
    if not isinstance(doc, dict):
        return None
    schema = doc.get("schema")
    if schema == expected:
        other = doc.get("lesson")
        if lesson is not None and isinstance(other, str) and other != lesson:
            return f"this is a file of lesson {other}, not of lesson {lesson}: open it in lesson {other}"
        return None
    if schema in KINDS:
        what, where = KINDS[schema]
        return f"this is {what}, not {KINDS[expected][0]}: open it in {where}"
    return None
