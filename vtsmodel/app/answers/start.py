"""Answer key of lesson 00 (start here): the catalogue and the statement ledger, counted."""

from __future__ import annotations

from vtsmodel import data, drives_needed
from vtsmodel.app.text import number, plain_math


def _first_sentence(text: str) -> str:
    text = plain_math(text).strip()
    return text.split(". ")[0].rstrip(".") + "."


def answers() -> list[str]:
    """The six answers of lesson 00, from the catalogue and the ledger as they are now."""
    cat = data.catalogue()
    derived = [r for r in cat if r["kind"] == "derived"]
    example = derived[0]
    t4 = data.load("vts_ehpo_coefficients")
    m, b = (t4.value(mode="sustained", coefficient=c, tvc_gb=1152) for c in ("m", "b"))
    cern = data.load("cern_sizing_example")
    flows = [
        {"rate_mb_s": cern.value(id=f"{f}_rate"), "peak_factor": cern.value(id=f"{f}_factor"),
         "efficiency": cern.value(id=f"{f}_efficiency")}
        for f in ("t0_to_t1", "reprocessing", "t2_analysis")
    ]  # fmt: skip
    total = drives_needed(flows, drive_speed_mb_s=cern.value(id="drive_speed")).total
    contradicted = data.statements(status="contradicted")
    calibrated, fitted = (
        data.statements(status="calibrated"),
        data.statements(status="calibrated", text="fit"),
    )
    reproduced, built = data.statements(status="reproduced"), data.statements(status="by-construction")
    return [
        f"{len(derived)} of the {len(cat)} rows are derived. The first, {example['table']}:{example['id']} "
        f"({number(example['value'])} {example['unit']}): {_first_sentence(example['note'] or example['quote'])}",
        f"{len(t4)} rows of Table 4: a slope m and an intercept b per cache column and mode. At 1152 GB, "
        f"sustained, m = {number(m)} and b = {number(b)}, so Eq. 3 gives {number(3 * m + b)} MB/s at CF 3: the "
        "EHPO sustained curve of lesson 01 at that point.",
        f"The worked example's rows (table cern_sizing_example): a {number(cern.value(id='drive_speed'))} MB/s "
        "drive; T0 → T1, reprocessing and T2/analysis at "
        + ", ".join(
            f"{number(f['rate_mb_s'])} MB/s × {number(f['peak_factor'])} ÷ {number(f['efficiency'])}"
            for f in flows
        )
        + f"; together {number(total)} drives, the note's 50.",
        f"{len(contradicted)} statements are contradicted: "
        + "; ".join(f"{r['id']} ({_first_sentence(r['claim'])})" for r in contradicted)
        + " Each note gives the gap and the reading chosen.",
        f"{len(calibrated)} statements are calibrated, {len(fitted)} of them mention a fit: the models were made "
        f"to agree with them, so they are inputs. The evidence is the {len(reproduced)} reproduced statements.",
        f"{len(built)} statements are by construction: the model encodes them (its equation or rule), so agreeing "
        f"with them checks the code, not the model. The first: {built[0]['id']}.",
    ]
