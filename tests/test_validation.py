"""Input checking: ValueError names the parameter, its value and the valid range."""

import math
import warnings

import numpy as np
import pytest

from vtsmodel._validation import ExtrapolationWarning, as_float_array, check_choice, result, warn_outside


def test_valid_input_becomes_a_float_array():
    arr = as_float_array("cf", [1, 2.5], lo=1, hi=4)
    assert arr.dtype == float and arr.tolist() == [1.0, 2.5]
    assert as_float_array("x", 3).shape == ()


@pytest.mark.parametrize(
    ("value", "kwargs", "pattern"),
    [
        (-1.0, {"lo": 0}, r"tvc_gb=-1.0 is outside the valid range \[0, inf\)"),
        (0.0, {"lo": 0, "lo_open": True}, r"tvc_gb=0.0 is outside the valid range \(0, inf\)"),
        (math.nan, {"lo": 0}, r"tvc_gb=nan must be finite"),
        (np.inf, {}, r"tvc_gb=inf must be finite"),
        ("abc", {}, r"tvc_gb='abc' must be a number"),
        (True, {}, r"tvc_gb=True must be a number, not a boolean"),
        ([], {}, r"tvc_gb is empty"),
        (2.5, {"integer": True, "lo": 1}, r"tvc_gb=2.5 must be a whole number in \[1, inf\)"),
        ([1.0, 5.0], {"hi": 4}, r"tvc_gb=array with values \[1. 5.\] is outside the valid range \(-inf, 4\]"),
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
