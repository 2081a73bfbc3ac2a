"""Least-squares fits that keep their inputs, parameters, uncertainty and residuals.

A model that is fitted to source data ships a :class:`Fit`: the data it was fitted to
(with the row ids it came from), the parameter values, their covariance and standard
errors, and the residuals. Tests refit from ``data/`` and compare with what ships.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Fit", "fit_curve"]


@dataclass(frozen=True)
class Fit:
    """A fitted curve ``y = func(x, *params)`` with its evidence.

    Attributes
    ----------
    name : str
        What was fitted, e.g. ``"paf_sustained"``.
    func : callable
        ``func(x, *params)``, vectorized.
    param_names : tuple of str
    params : numpy.ndarray
        Best-fit parameter values.
    cov : numpy.ndarray
        Parameter covariance (scaled by the residual variance when ``absolute_sigma`` is
        false, as scipy does).
    x, y : numpy.ndarray
        The data fitted.
    sigma : numpy.ndarray or None
        Per-point standard uncertainty used as weights.
    ids : tuple of str
        The data rows the points came from.
    """

    name: str
    func: Callable = field(repr=False)
    param_names: tuple[str, ...]
    params: np.ndarray
    cov: np.ndarray = field(repr=False)
    x: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    sigma: np.ndarray | None = field(default=None, repr=False)
    ids: tuple[str, ...] = ()

    def __call__(self, x):
        """Evaluate the fitted curve at ``x``."""
        return self.func(np.asarray(x, dtype=float), *self.params)

    @property
    def stderr(self) -> np.ndarray:
        """Standard errors of the parameters (square roots of the covariance diagonal)."""
        with np.errstate(invalid="ignore"):
            return np.sqrt(np.clip(np.diag(self.cov), 0.0, np.inf))

    @property
    def residuals(self) -> np.ndarray:
        """Data minus fit at the fitted points."""
        return self.y - self(self.x)

    @property
    def rms(self) -> float:
        """Root-mean-square residual."""
        return float(np.sqrt(np.mean(self.residuals**2)))

    def as_dict(self) -> dict[str, float]:
        """Parameter name to value."""
        return dict(zip(self.param_names, map(float, self.params), strict=True))

    def summary(self) -> str:
        """A short text table of parameters, standard errors and residuals."""
        lines = [f"fit {self.name}: {len(self.x)} points, rms residual {self.rms:.3g}"]
        for n, p, s in zip(self.param_names, self.params, self.stderr, strict=True):
            lines.append(f"  {n:>12} = {p:.6g} ± {s:.2g}")
        lines.append("  residuals: " + ", ".join(f"{r:+.3g}" for r in self.residuals))
        return "\n".join(lines)


def fit_curve(
    name: str,
    func: Callable,
    x: Sequence[float],
    y: Sequence[float],
    p0: Sequence[float],
    *,
    param_names: Sequence[str],
    sigma: Sequence[float] | None = None,
    bounds=(-np.inf, np.inf),
    ids: Sequence[str] = (),
) -> Fit:
    """Fit ``func`` to ``(x, y)`` with scipy's ``curve_fit`` and keep the evidence.

    With as many points as parameters the fit interpolates and the covariance is
    undefined (reported as inf).
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    sig = None if sigma is None else np.asarray(sigma, dtype=float)
    if len(param_names) != len(p0):
        raise ValueError(f"param_names has {len(param_names)} names for {len(p0)} parameters")
    import warnings

    from scipy.optimize import OptimizeWarning, curve_fit  # not at package import

    with warnings.catch_warnings():
        # A fit with as many points as parameters has no covariance estimate.
        warnings.simplefilter("ignore", OptimizeWarning)
        params, cov = curve_fit(func, x, y, p0=p0, sigma=sig, bounds=bounds, maxfev=20000)
    return Fit(
        name=name,
        func=func,
        param_names=tuple(param_names),
        params=np.asarray(params, dtype=float),
        cov=np.asarray(cov, dtype=float),
        x=x,
        y=y,
        sigma=sig,
        ids=tuple(ids),
    )
