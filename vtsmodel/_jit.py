"""numba's compiler for the private kernels, or nothing where numba is not installed (private).

``jit(f)`` is ``numba.njit(cache=True, nogil=True)(f)`` when numba imports (the ``hits`` and
``notebooks`` extras), else ``f`` itself, run as plain Python: one source either way. No
``fastmath``: the compiled kernel does the plain function's operations in the same order.
The compilation is cached beside the module, or in the user's cache folder where the package
is read-only; where neither is writable it is compiled once per process instead of failing.
Imported only by the kernels, which are imported only when used, so ``import vtsmodel`` does
not import numba.
"""

from __future__ import annotations

try:  # numba is optional
    import numba
except ImportError:  # pragma: no cover - exercised by subprocess tests
    numba = None

#: Whether :func:`jit` compiles.
COMPILED = numba is not None


def jit(f):
    """``f`` compiled by numba (no fastmath, the compilation cached where it can be), or ``f`` as it is."""
    if numba is None:  # pragma: no cover - exercised by subprocess tests
        return f
    try:
        return numba.njit(cache=True, nogil=True)(f)
    except RuntimeError:  # numba's "cannot cache function ...: no locator available" (no writable folder)
        return numba.njit(nogil=True)(f)
