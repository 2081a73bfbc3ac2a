"""A plan evaluated whole: the VTS plan, the tape-library plan and the sensitivity (:func:`evaluate`)."""

from __future__ import annotations

from dataclasses import dataclass

from vtsmodel._inputs import declare
from vtsmodel._validation import as_scalar
from vtsmodel.plan.files import Plan, check_plan
from vtsmodel.plan.library import LibraryPlan, library_plan
from vtsmodel.plan.sensitivity import FRACTION, Sensitivity, sensitivity
from vtsmodel.plan.vts import STEP, VtsPlan, _check_step, vts_plan

__all__ = ["PlanResult", "evaluate"]


@dataclass(frozen=True)
class PlanResult:
    """A plan evaluated: the VTS plan (None: a library's plan alone), the tape-library plan and the sensitivity."""

    plan: Plan
    vts: VtsPlan | None
    library: LibraryPlan
    sensitivity: Sensitivity | None

    def _both(self, name: str) -> tuple:
        return tuple(
            dict.fromkeys(
                (getattr(self.vts, name) if self.vts is not None else ()) + getattr(self.library, name)
            )
        )

    @property
    def models(self) -> tuple[str, ...]:
        """Every model function used, by dotted name."""
        return self._both("models")

    @property
    def tables(self) -> tuple[str, ...]:
        """Every data table read."""
        return self._both("tables")

    @property
    def rows(self) -> tuple[tuple[str, str], ...]:
        """Data rows the planner read itself."""
        return self._both("rows")

    @property
    def sources(self) -> tuple[str, ...]:
        """Source ids of every table and row used (the report's references)."""
        return self._both("sources")

    @property
    def notes(self) -> tuple[str, ...]:
        """The VTS plan's and the library plan's notes, each once."""
        return self._both("notes")

    def headline(self) -> str:
        """The recommendation in two or three sentences."""
        return (
            self.library.headline()
            if self.vts is None
            else f"{self.vts.headline()} {self.library.headline()}"
        )


@declare(fraction=FRACTION.but(optional=True), step_minutes=STEP)
def evaluate(plan: Plan, *, fraction: float | None = 0.2, step_minutes: float = 5.0) -> PlanResult:
    """The VTS plan (unless the plan is a library's alone), the tape-library plan and the sensitivity.

    The sensitivity is of a plan with a VTS, unless ``fraction`` is None.

    Parameters
    ----------
    plan : Plan
    fraction : float or None
        The sensitivity's move of each input, in (0, 1) (:func:`sensitivity`); None: no
        sensitivity. [-]
    step_minutes : float
        Time step of the day simulation, 0.5 to 60. [min]

    Returns
    -------
    PlanResult
    """
    check_plan(plan)
    if fraction is not None:
        fraction = as_scalar("fraction", FRACTION.check("fraction", fraction))
    step_minutes = _check_step(step_minutes)
    vts = vts_plan(plan, step_minutes=step_minutes) if plan.vts else None
    lib = library_plan(plan)
    sens = None
    if fraction is not None and vts is not None:
        sens = sensitivity(
            plan, fraction=fraction, configuration=vts.closest.config, step_minutes=step_minutes
        )
    return PlanResult(plan, vts, lib, sens)
