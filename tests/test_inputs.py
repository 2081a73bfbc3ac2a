"""Tests of vtsmodel._inputs: one declaration checks, parses, formats and warns."""

import warnings

import numpy as np
import pytest

from vtsmodel import ExtrapolationWarning, Input, declare, declared_inputs

CF = Input(
    "compressibility CF", "-", 3.0, lo=1.0, hi=10.0, valid=(1.0, 4.0), source="ibm-vts-b18-2000, Appendix B"
)
FEATURE = Input(
    "feature", "", "paf", choices=(("base", "base"), ("EHPO", "ehpo"), ("PAF (with EHPO)", "paf"))
)
DRIVES = Input("drives", "-", 4, lo=1, hi=6, integer=True)
FLAG = Input("copy running", default=False)


def test_header_range_and_kind():
    assert CF.header == "compressibility CF [-]"
    assert FEATURE.header == "feature"
    assert CF.range_text() == "[1, 10]"
    assert DRIVES.range_text() == "whole numbers in [1, 6]"
    assert FEATURE.range_text() == "one of 'base', 'EHPO', 'PAF (with EHPO)'"
    assert (CF.kind, FEATURE.kind, DRIVES.kind, FLAG.kind) == ("number", "choice", "int", "flag")


def test_parse_numbers_text_and_labels():
    assert CF.parse("cf", " 2.5 ") == 2.5
    assert CF.parse("cf", np.float64(4)) == 4.0
    assert DRIVES.parse("drives", "3") == 3 and isinstance(DRIVES.parse("drives", 3.0), int)
    # a choice accepts the label the dropdown shows, as well as its value
    assert FEATURE.parse("feature", "EHPO") == "ehpo"
    assert FEATURE.parse("feature", "ehpo") == "ehpo"
    assert FLAG.parse("copy", "yes") is True and FLAG.parse("copy", 0) is False


@pytest.mark.parametrize(
    ("inp", "value", "match"),
    [
        (CF, "abc", r"cf='abc' is not a number; compressibility CF \[-\] must be in \[1, 10\]"),
        (CF, "", "cf is empty"),
        (CF, None, "cf is empty"),
        (CF, 0.5, r"cf=0.5 is outside the valid range \[1, 10\]"),
        (CF, float("nan"), "must be finite"),
        (CF, "inf", "must be finite"),
        (CF, True, "must be a number"),
        (CF, "1" * 100, "is not valid"),
        (DRIVES, 2.5, "must be a whole number"),
        (FEATURE, "PAFF", "choose one of 'base', 'EHPO'"),
        (FLAG, "maybe", "yes or no"),
    ],
)
def test_parse_rejects_with_the_name_the_value_and_the_range(inp, value, match):
    with pytest.raises(ValueError, match=match):
        inp.parse(inp.label.split()[-1].lower() if inp is CF else inp.label.split()[0], value)


def test_check_is_the_model_side():
    np.testing.assert_array_equal(CF.check("cf", [1.0, 4.0]), [1.0, 4.0])
    with pytest.raises(ValueError, match=r"cf=.* outside the valid range \[1, 10\]"):
        CF.check("cf", [2.0, 11.0])
    with pytest.raises(ValueError, match="choose one of"):
        FEATURE.check("feature", "EHPO")  # a model function takes the value, not the label


def test_warn_and_caption_sentence_outside_the_validated_range():
    with pytest.warns(
        ExtrapolationWarning, match=r"cf=4.75 is outside the range the source validated, \[1, 4\]"
    ):
        CF.warn("cf", 4.75)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert CF.warn("cf", 3.0) is False
    assert CF.outside_valid(3.0) == ""
    assert CF.outside_valid(4.75) == (
        "compressibility CF = 4.75 is outside the range the source validated, "
        "1 to 4 (ibm-vts-b18-2000, Appendix B): an extrapolation."
    )


def test_format_and_but():
    assert FEATURE.format("ehpo") == "EHPO"
    assert CF.format(2.5) == "2.5"
    assert DRIVES.format(4.0) == "4"
    slider = CF.but(hi=6.0, default=2.0, step=0.05)
    assert (slider.hi, slider.default, slider.label, slider.valid) == (6.0, 2.0, CF.label, CF.valid)
    assert CF.hi == 10.0  # the declaration it came from is unchanged


def test_declare_records_inputs_without_wrapping():
    def f(cf):
        return cf

    g = declare(cf=CF)(f)
    assert g is f and declared_inputs(f) == {"cf": CF}
    assert declared_inputs(len) == {}
    with pytest.raises(TypeError, match="is not an Input"):
        declare(cf=3.0)


OPTIONAL = Input("efficiency", "-", None, lo=0.001, hi=1.0, optional=True)


@pytest.mark.parametrize("empty", [None, "", "  ", float("nan"), np.float64("nan")])
def test_an_optional_input_takes_an_empty_cell_as_none_and_shows_it_empty(empty):
    assert OPTIONAL.parse("efficiency", empty) is None
    assert OPTIONAL.format(None) == "" and OPTIONAL.contains(empty)
    assert OPTIONAL.parse("efficiency", " 0.5 ") == 0.5  # a value is checked as ever
    with pytest.raises(ValueError, match=r"efficiency=1.5 is outside the valid range \[0.001, 1\] or empty"):
        OPTIONAL.parse("efficiency", 1.5)


def test_optional_is_a_declaration_field_that_but_keeps_and_check_ignores():
    inp = CF.but(optional=True)
    assert inp.optional and not CF.optional and inp.parse("cf", "") is None
    assert CF.parse("cf", "3") == inp.parse("cf", "3") == 3.0
    with pytest.raises(ValueError, match="cf is empty"):
        CF.parse("cf", "")  # not optional: empty is an error
    with pytest.raises(ValueError, match="cf"):
        inp.check("cf", None)  # a model argument is never empty
    with pytest.raises(ValueError, match="cf"):
        inp.check("cf", float("nan"))


def test_number_formats_plainly():
    from vtsmodel import number

    assert (number(2300.0), number(0.012345), number(79290.0), number(2.5), number(-0.0)) == (
        "2,300",
        "0.0123",
        "79,300",
        "2.5",
        "0",
    )
    assert (number(float("inf")), number(float("-inf")), number(float("nan"))) == ("∞", "−∞", "—")
