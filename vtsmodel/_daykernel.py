"""The step loop behind :func:`vtsmodel.tvc_day.simulate_tvc`, compiled (private).

:func:`vtsmodel._dayloop.loop` compiled with numba when numba is installed (the ``hits`` and
``notebooks`` extras), else run as it is. The same operations in the same order either way
(no ``fastmath``), so both give the same floats to the bit. Imported only when a day is
simulated with ``tvc_day.COMPILED_STEPS`` on, so ``import vtsmodel`` does not import numba.
"""

from __future__ import annotations

from vtsmodel import _dayloop
from vtsmodel._jit import COMPILED
from vtsmodel._jit import jit as _jit

_loop = _jit(_dayloop.loop)


def day_steps(steps, off_vol, d_r, *, P, S, f, cfc, thr_mb, span, u0):  # noqa: N803 - the model's notation
    """:func:`vtsmodel._dayloop.run` of the compiled loop (plain Python without numba)."""
    return _dayloop.run(
        _loop, COMPILED, steps, off_vol, d_r, P=P, S=S, f=f, cfc=cfc, thr_mb=thr_mb, span=span, u0=u0
    )
