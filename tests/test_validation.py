"""Input checking: ValueError names the parameter, its value and the valid range."""

import math
import re
import warnings

import numpy as np
import pytest

from vtsmodel._validation import (
    ExtrapolationWarning,
    _fmt_range,
    as_float_array,
    check_choice,
    result,
    warn_outside,
)


def test_valid_input_becomes_a_float_array():
    arr = as_float_array("cf", [1, 2.5], lo=1, hi=4)
    assert arr.dtype == float and arr.tolist() == [1.0, 2.5]
    assert as_float_array("x", 3).shape == ()


@pytest.mark.parametrize(
    ("value", "kwargs", "pattern"),
    [
        (-1.0, {"lo": 0}, r"tvc_gb=-1.0 is outside the valid range \[0, ∞\)"),
        (0.0, {"lo": 0, "lo_open": True}, r"tvc_gb=0.0 is outside the valid range \(0, ∞\)"),
        (math.nan, {"lo": 0}, r"tvc_gb=nan must be finite"),
        (np.inf, {}, r"tvc_gb=inf must be finite"),
        ("abc", {}, r"tvc_gb='abc' is text; model functions take numbers"),
        (True, {}, r"tvc_gb=True must be a number, not a boolean"),
        ([], {}, r"tvc_gb is empty"),
        (2.5, {"integer": True, "lo": 1}, r"tvc_gb=2.5 must be a whole number in \[1, ∞\)"),
        ([1.0, 5.0], {"hi": 4}, r"tvc_gb=array with values \[1. 5.\] is outside the valid range \(−∞, 4\]"),
    ],
)
def test_invalid_input_names_parameter_value_and_range(value, kwargs, pattern):
    with pytest.raises(ValueError, match=pattern):
        as_float_array("tvc_gb", value, **kwargs)


def test_check_choice_lists_the_options():
    assert check_choice("feature", "paf", ("base", "ehpo", "paf")) == "paf"
    with pytest.raises(ValueError, match="feature='PAF' is not valid; choose one of 'base', 'ehpo', 'paf'"):
        check_choice("feature", "PAF", ("base", "ehpo", "paf"))


def test_warn_outside_names_the_source_and_range():
    with pytest.warns(
        ExtrapolationWarning, match=r"cf=5 is outside the range the source validated, \[1, 4\] \(Eq. 3\)"
    ):
        assert warn_outside("cf", [2, 5], 1, 4, source="Eq. 3")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not warn_outside("cf", [1, 4], 1, 4, source="Eq. 3")


def test_result_unwraps_scalars_only():
    assert isinstance(result(np.asarray(2.0)), np.floating)
    assert isinstance(result(np.asarray([2.0])), np.ndarray)


# --- one rule for text, and the other inputs that are not numbers -----------------------------
@pytest.mark.parametrize(
    ("value", "pattern"),
    [
        ("3", r"tvc_gb='3' is text; model functions take numbers"),
        (" 2.5 ", r"tvc_gb=' 2.5 ' is text"),
        (b"3", r"tvc_gb=b'3' is text"),
        (np.str_("3"), r"tvc_gb=np.str_\('3'\) is text|tvc_gb='3' is text"),
        (np.array(["1", "2"]), r"is text"),
        (["1", 2.0], r"is text"),
        (np.array([True, False]), r"must hold numbers, not booleans"),
        (1 + 2j, r"must hold real numbers"),
        (None, r"tvc_gb=None must be a number in \[0, ∞\)"),
        (object(), r"must be a number or an array of numbers"),
        ([[1.0, 2.0], [3.0]], r"must be a number or an array of numbers"),
        (10**400, r"tvc_gb=1000.* is outside the valid range \[0, ∞\)"),
    ],
)
def test_text_and_non_numbers_are_refused_with_the_name_and_range(value, pattern):
    # Before: "3" and b"3" became 3.0 here while other functions refused them; a list of
    # strings passed too; 10**400 raised OverflowError; None read "must be finite".
    with pytest.raises(ValueError, match=pattern):
        as_float_array("tvc_gb", value, lo=0)


def test_whole_numbers_stop_where_floats_stop_being_exact():
    # Before: recall_drives(1e19, 2) returned -9223372036854775808 (an int64 wrap-around).
    from vtsmodel._validation import MAX_WHOLE

    assert as_float_array("servers", MAX_WHOLE, lo=1, integer=True) == MAX_WHOLE
    with pytest.raises(ValueError, match=r"servers=1e\+19 is too large for a whole number \(at most 2\*\*53"):
        as_float_array("servers", 1e19, lo=1, integer=True)


def test_broadcast_names_the_inputs_whose_shapes_do_not_fit():
    from vtsmodel._validation import broadcast

    assert broadcast(cf=np.ones(3), tvc_gb=np.ones((2, 1)), block_kb=2.0) == (2, 3)
    with pytest.raises(ValueError, match=r"block_kb has shape \(2,\), cf has shape \(3,\)"):
        broadcast(cf=np.ones(3), tvc_gb=1.0, block_kb=np.ones(2))


def test_as_scalar_refuses_arrays_by_name():
    from vtsmodel._validation import as_scalar

    assert as_scalar("threshold", np.array([0.5])) == 0.5
    with pytest.raises(ValueError, match=r"threshold must be a single number, not an array of shape \(2,\)"):
        as_scalar("threshold", np.array([0.5, 0.6]))


def test_an_unknown_name_is_both_a_key_error_and_a_value_error():
    from vtsmodel._validation import UnknownName

    exc = UnknownName("no drive named 'x'; valid names: a, b")
    assert isinstance(exc, KeyError) and isinstance(exc, ValueError)
    assert str(exc) == "no drive named 'x'; valid names: a, b"  # not quoted as KeyError does


@pytest.mark.parametrize(
    ("hi", "text"),
    [(1048576, "[16, 1048576]"), (1e8, "[16, 1e+08]"), (2.5, "[16, 2.5]"), (1 / 3, "[16, 0.333333]")],
)
def test_a_whole_number_bound_is_said_exactly(hi, text):
    # `--shards 0` said "valid range [16, 1.04858e+06]": a bound that is not the bound (1,048,576 is valid).
    from vtsmodel._inputs import Input

    with pytest.raises(ValueError, match=re.escape(f"outside the valid range {text}")):
        as_float_array("x", 0.0, lo=16, hi=hi)
    if hi > 16:  # the Input's own text, as a control's tooltip and a plan file's comment say it
        assert Input("x", "-", 16, lo=16, hi=hi).range_text() == text.replace("1e+08", "100000000")


_KINDS = (float, int, np.float64, np.float32, np.int64, np.int32)


@pytest.mark.parametrize("kind", _KINDS, ids=lambda k: k.__name__)
@pytest.mark.parametrize(
    ("lo", "hi", "lo_open", "hi_open", "integer"),
    [
        (0, 1e6, True, False, False),
        (None, None, False, False, False),
        (1, 100, False, True, True),
        (-5, 5, False, False, False),
    ],
)
def test_a_plain_number_is_checked_as_the_same_number_in_an_array(kind, lo, hi, lo_open, hi_open, integer):
    """The plain-number path of as_float_array (no numpy checks) accepts and refuses exactly what an array of
    that one number is accepted and refused for, and returns the same float."""
    bounds = {"lo": lo, "hi": hi, "lo_open": lo_open, "hi_open": hi_open, "integer": integer}
    edges = [b for b in (lo, hi) if b is not None]
    values = [0, 1, 2.5, -5, 5, 99, 100, 1e6, 1e6 + 1, -1, 3, 2**53, 2**53 + 2, *edges]
    for v in values:
        try:
            x = kind(v)
        except (OverflowError, ValueError):
            continue
        try:
            want = float(as_float_array("x", np.array([x]), **bounds)[0])
        except ValueError:
            with pytest.raises(ValueError) as err:
                as_float_array("x", x, **bounds)
            assert str(err.value).startswith("x=") and _fmt_range(lo, hi, lo_open, hi_open) in str(err.value)
            continue
        got = as_float_array("x", x, **bounds)
        assert got.shape == () and got.dtype == np.float64 and float(got) == want, (kind, v)


def test_a_python_int_past_the_floats_is_refused_by_name():
    with pytest.raises(ValueError, match=r"^n=1000.* is outside the valid range"):
        as_float_array("n", 10**400, lo=0)
