"""Giving the memory of a burst back to the system.

After a burst (a thousand tables opening new games at once, a restart), the C allocator keeps the
pages it freed for the next allocations: the process's resident memory stays at the burst's peak.
glibc's ``malloc_trim`` returns every wholly free page to the system; the bot calls it now and then.
Elsewhere than glibc (musl, macOS) there is nothing to call and this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable
from functools import cache


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def can_release_memory() -> bool:
    """True where the C library can give free pages back (glibc)."""
    return _malloc_trim() is not None


def release_free_memory() -> bool:
    """Return the C allocator's free pages to the system; False where that cannot be done."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
