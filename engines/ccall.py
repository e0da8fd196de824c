"""Calling C functions from numba-compiled code by their addresses.

A compiled loop that drives an engine through its C API (dynval.engines.mujoco_compiled,
dynval.engines.pybullet_compiled) needs the engine's functions inside compiled code.
numba accepts ctypes function objects as arguments, but unboxes each one on every call
from Python (1-2 us apiece: 14 us for a tuple of thirteen, more than the work of a step).
Here the functions travel as one uint64 array of addresses, and :data:`call_ptr`,
:data:`call_int` and :data:`call_void` call the function at an address with a tuple of
arguments, typed as the C prototype is (np.int32 for a C int, np.uint64 for a pointer,
np.float64 for a double), returning a pointer (uint64), an int (int32) or nothing;
:data:`load_f64` reads a double of a C array at an address.
"""

from __future__ import annotations

import ctypes

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


def _caller(result: str):
    """A numba intrinsic ``call(address, args)`` for functions returning ``result``:
    "ptr" (uint64), "int" (int32) or "void"."""
    returns = {"ptr": (types.uint64, ir.IntType(64)), "int": (types.int32, ir.IntType(32)),
               "void": (types.none, ir.VoidType())}[result]

    @intrinsic
    def call(typingctx, address, args):
        if not isinstance(args, types.BaseTuple):
            return None

        def codegen(context, builder, signature, llargs):
            values = [builder.extract_value(llargs[1], k) for k in range(len(args))]
            fnty = ir.FunctionType(returns[1], [v.type for v in values])
            out = builder.call(builder.inttoptr(llargs[0], fnty.as_pointer()), values)
            return context.get_dummy_value() if result == "void" else out

        return returns[0](types.uint64, args), codegen

    return call


call_ptr, call_int, call_void = _caller("ptr"), _caller("int"), _caller("void")


@intrinsic
def load_f64(typingctx, address, index):
    """The double at ``address`` + 8 ``index`` (a C array a function returned a pointer
    to), read in place: no copy into an array first."""
    if not (isinstance(address, types.Integer) and isinstance(index, types.Integer)):
        return None

    def codegen(context, builder, signature, llargs):
        ptr = builder.inttoptr(llargs[0], ir.DoubleType().as_pointer())
        i = context.cast(builder, llargs[1], signature.args[1], types.intp)
        return builder.load(builder.gep(ptr, [i]))

    return types.float64(address, index), codegen


def address(function: ctypes._CFuncPtr) -> int:
    """The address of a function of a loaded library (a ctypes attribute of a CDLL)."""
    return ctypes.cast(function, ctypes.c_void_p).value
