"""Bit operations on 64-bit bitboards, compiled to single machine instructions.

numba has no built-in bit scan, so these are LLVM intrinsics (``cttz``, ``ctlz``,
``ctpop``) wrapped for use inside other kernels.

>>> import numpy as np
>>> int(lsb(np.uint64(0b1000))), int(msb(np.uint64(0b1010))), int(popcount(np.uint64(7)))
(3, 3, 3)
"""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.uint64), codegen


@intrinsic
def _ctlz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.uint64), codegen


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


@njit(cache=True, inline="always")
def lsb(bb):
    """Index of the lowest set bit of a non-zero bitboard."""
    return _cttz(bb)


@njit(cache=True, inline="always")
def msb(bb):
    """Index of the highest set bit of a non-zero bitboard."""
    return 63 - _ctlz(bb)


@njit(cache=True, inline="always")
def popcount(bb):
    """Number of set bits."""
    return _ctpop(bb)
