"""Answer keys to each lesson's "Things to try", computed by the package (for a teacher).

Each lesson's key is a module here, named as the lesson's module, with ``answers() -> list[str]``:
one answer per item of the notebook's "Things to try", in order, each a few sentences whose
numbers come from the models and the data at call time (nothing typed in). A notebook shows
its key under the list, collapsed: :func:`answer_key`.

This module imports the lessons' models only when a key is asked for.
"""

from __future__ import annotations

import html
import importlib

from vtsmodel.app.lessons import LESSONS

__all__ = ["KEYS", "answer_key", "answer_key_html", "answers"]

#: Lesson number to the module of its answer key: named as the lesson's module (00: the start page).
KEYS = {"00": "start", **LESSONS}


def answers(lesson_id: str) -> list[str]:
    """The answers to lesson ``lesson_id``'s "Things to try", in order, computed now."""
    if lesson_id not in KEYS:
        raise ValueError(f"lesson_id={lesson_id!r} has no answer key; keys: {', '.join(KEYS)}")
    return list(importlib.import_module(f"vtsmodel.app.answers.{KEYS[lesson_id]}").answers())


_SUMMARY = (
    "<b>Answer key</b> (for teachers: computed by vtsmodel from the models at their defaults, "
    "so it changes when they do)"
)


def _items(lesson_id: str) -> str:
    return "".join(f"<li style='margin:4px 0'>{html.escape(a)}</li>" for a in answers(lesson_id))


def answer_key_html(lesson_id: str) -> str:
    """The answers as a collapsed block (``<details>``): a teacher opens it, a student need not see it."""
    return (
        "<details class='vtsmodel-answer-key' style='margin:8px 0;border:1px solid #ddd;padding:4px 10px'>"
        f"<summary style='cursor:pointer'>{_SUMMARY}</summary><ol style='line-height:1.4'>{_items(lesson_id)}</ol>"
        "</details>"
    )


def answer_key(lesson_id: str):
    """The answer key under a lesson's "Things to try": closed, computed when a teacher first opens it.

    The answers run the models (lesson 08's compare replacement policies: tens of seconds), so
    a page does not wait for them: the block is closed and computes its answers on opening.
    """
    import ipywidgets as w

    if lesson_id not in KEYS:
        raise ValueError(f"lesson_id={lesson_id!r} has no answer key; keys: {', '.join(KEYS)}")
    body = w.HTML("<i>computing the answers…</i>")
    key = w.Accordion(
        children=[body], titles=("Answer key (for teachers): open to compute it",), selected_index=None
    )
    key.add_class("vtsmodel-answer-key")

    def opened(change) -> None:
        if change["new"] is not None and body.value.startswith("<i>computing"):
            try:
                body.value = f"<p>{_SUMMARY}</p><ol style='line-height:1.4'>{_items(lesson_id)}</ol>"
            except Exception as exc:  # noqa: BLE001 - said on the page, never a silent empty key
                body.value = f"<p style='color:#B00020'>⚠ the answers could not be computed: {html.escape(str(exc))}</p>"

    key.observe(opened, names="selected_index")
    return key
