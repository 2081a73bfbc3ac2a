"""Answer key of lesson 01 (sustained vs peak write), from throughput, bottleneck and import/export."""

from __future__ import annotations

import warnings

import numpy as np

from vtsmodel import ExtrapolationWarning, escon_distance_factor, export_minutes
from vtsmodel import bottleneck as bn
from vtsmodel.app.lessons.write import evaluate_write
from vtsmodel.app.text import number, percent

EHPO_1152, EHPO_288, PAF_1728 = "tvc_1152_36gb_base_ehpo", "tvc_288_36gb_base_ehpo", "tvc_1728_36gb_paf"
EHPO_288_9GB = "tvc_288_9gb_base_ehpo"
#: The CF grid of the panel's slider, 1 to 4. [-]
_CF = np.round(np.arange(1.0, 4.0001, 0.02), 2)


def _rates(cf, config, feature, block_kb=32.0, escon_km=0.0) -> dict[str, float]:
    """Peak and sustained write as the panel evaluates them. [MB/s]"""
    return evaluate_write(cf, config, feature, block_kb, escon_km).rate


def _handover(feature: str, config: str, mode: str) -> tuple[str, float, str]:
    """The resource binding at CF 1, the CF where another takes over, and that one."""
    binds = [bn.binding_resource(cf, feature=feature, mode=mode, tvc_config=config) for cf in _CF]
    change = next(i for i in range(1, len(binds)) if binds[i] != binds[0])
    return binds[0], float(_CF[change]), binds[change]


def _s(resource: str, verb: str) -> str:
    """``verb`` agreeing with ``resource``: "the processor binds", "the tape drives bind"."""
    return verb if resource.endswith("s") else f"{verb}s"


def answers() -> list[str]:
    """The eight answers of lesson 01, at the panel's defaults (32 KB blocks, no ESCON distance)."""
    e1, e4 = (_rates(cf, EHPO_1152, "ehpo")["sustained"] for cf in (1.0, 4.0))
    small = _rates(4.0, EHPO_288, "ehpo")["sustained"]
    small_9gb = _rates(4.0, EHPO_288_9GB, "ehpo")["sustained"]
    binds_e = {bn.binding_resource(cf, feature="ehpo", mode="sustained", tvc_config=EHPO_1152) for cf in _CF}
    s_from, s_cf, s_to = _handover("paf", PAF_1728, "sustained")
    p_from, p_cf, p_to = _handover("paf", PAF_1728, "peak")
    ratio = {k: r["peak"] / r["sustained"] for k, r in (("ehpo", _rates(3.0, EHPO_1152, "ehpo")),
                                                       ("paf", _rates(3.0, PAF_1728, "paf")),
                                                       ("paf1", _rates(1.0, PAF_1728, "paf")))}  # fmt: skip
    b32, b64 = _rates(3.0, PAF_1728, "paf"), _rates(3.0, PAF_1728, "paf", block_kb=64.0)
    w20, r20 = float(escon_distance_factor(20.0)), float(escon_distance_factor(20.0, direction="read"))
    h1, h3 = (evaluate_write(cf, PAF_1728, "paf").hours_at_peak for cf in (1.0, 3.0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        e6 = _rates(6.0, EHPO_1152, "ehpo")["sustained"]
    extrapolated = any(issubclass(w.category, ExtrapolationWarning) for w in caught)

    def data_share(mb: float, mounts: int) -> float:
        """The data term's share of Eq. 1: the time less that of the same task moving no data."""
        total = float(export_minutes(mb, mounts))
        return (total - float(export_minutes(0.0, mounts))) / total

    return [
        f"EHPO with 1152 GB sustains {number(e1)} MB/s at CF 1 and {number(e4)} MB/s at CF 4, "
        f"{number(e4 / e1)} times as much for 4 times the CF; the {' and '.join(sorted(binds_e))} {_s(min(binds_e), 'bind')} all the way, "
        f"and their line rises with CF because they see compressed bytes. With 288 GB on 36 GB HDDs, 4 × (2+P) "
        f"(fewer HDDs): {number(small)} MB/s at CF 4; on 9 GB HDDs, 16 × (2+P): {number(small_9gb)} MB/s, the "
        "1152 GB slope: the layout, not the capacity, sets it.",
        f"Sustained, the {s_from} {_s(s_from, 'bind')} up to CF {number(s_cf)}, where the {s_to} "
        f"{_s(s_to, 'take')} over and the curve stops rising. In peak, the {p_from} {_s(p_from, 'bind')} up to "
        f"CF {number(p_cf)}, then the {p_to}: hence 'about 80 MB/s down to CF 2'.",
        f"At CF 3, peak ÷ sustained is {number(ratio['ehpo'])} for EHPO 1152 GB and {number(ratio['paf'])} for "
        f"PAF; at CF 1 with PAF it is {number(ratio['paf1'])}: down there the tape drives, which see compressed "
        "bytes, hold sustained write while peak needs no copy.",
        f"PAF at CF 3: peak {number(b32['peak'])} → {number(b64['peak'])} MB/s with 64 KB blocks "
        f"(+{percent(b64['peak'] / b32['peak'] - 1)}); sustained stays {number(b64['sustained'])} MB/s: the "
        "processor binds it, not the channels.",
        f"At 20 km writes keep {percent(w20)} of their rate (lose {percent(1 - w20)}), reads keep {percent(r20)} "
        f"(lose {percent(1 - r20)}): per km the rule takes {number((1 - r20) / (1 - w20))} times as much from reads.",
        f"PAF, 1728 GB: {number(h1)} h of peak at CF 1, {number(h3)} h at CF 3. The peak rate is higher at CF 3, "
        "but each host MB takes a third of the cache space, so the cache fills more slowly.",
        f"EHPO at CF 6 gives {number(e6)} MB/s sustained"
        + (
            ", and the model warns that CF 6 lies outside the validated 1 to 4: the readout says so; "
            if extrapolated
            else "; "
        )
        + "Appendix B calls such numbers 'non-validated extrapolations'.",
        f"With 2 mounts and 3,500 MB, data is {percent(data_share(3500.0, 2))} of an export's time; with 18 mounts "
        f"and 1,000 MB, {percent(data_share(1000.0, 18))}. For small nightly exports the mounts dominate: fewer, "
        "fuller cartridges (fewer mounts) speed them most.",
    ]
