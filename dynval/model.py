"""The protocol a user's hand-derived model implements, and how dynval loads and checks it.

A model is any Python object with ``joint_names`` (the description's joint names, in the
order of the model's q) and any of the term methods below; dynval audits what is there
and says what it could not check. Arrays are numpy; q, v, vdot have one entry per joint.

    class MyArm:
        joint_names = ("shoulder", "elbow")
        frames = ("hand",)                      # frames frame_position/frame_jacobian know
        def mass_matrix(self, q): ...           # (n, n)
        def bias(self, q, v): ...               # C(q, v) v + G(q), (n,)
        def gravity(self, q): ...               # G(q), (n,)
        def inverse_dynamics(self, q, v, vdot): ...   # (n,)
        def frame_position(self, name, q): ...  # (3,), world frame
        def frame_jacobian(self, name, q): ...  # (3, n), linear
        includes = ("damping", "limits", "mimic")  # optional: the file's joint damping
                                                # is in inverse_dynamics and
                                                # forward_dynamics; the model holds within
                                                # the joint ranges; q holds the URDF's
                                                # independent joints only
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
import sysconfig
import traceback
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from dynval import _layout

TERM_METHODS = ("mass_matrix", "bias", "gravity", "inverse_dynamics", "frame_position",
                "frame_jacobian")


class ModelError(ValueError):
    """A user model that cannot be loaded or returns something unusable (one sentence)."""


class NonFiniteError(ModelError):
    """A model method that returned NaN or infinity: at a state a trajectory reached, the
    sign that the trajectory diverged."""


@runtime_checkable
class RobotModel(Protocol):
    """The least a model has: the joint names in the order of its coordinates."""

    joint_names: tuple[str, ...]


def load_object(spec: str) -> Any:
    """The model named by ``PATH.py:OBJECT`` or ``package.module:OBJECT``; a class or a
    factory function is called without arguments."""
    if ":" not in spec:
        raise ModelError(f"--model {spec!r} must read MODULE:OBJECT (e.g. my_arm.py:MyArm)")
    where, name = spec.rsplit(":", 1)
    try:
        if where.endswith(".py") or "/" in where:
            path = Path(where).resolve()
            if not path.is_file():
                raise ModelError(f"--model {spec!r}: no file {where}")
            sys.path.insert(0, str(path.parent))  # the model's own imports (its siblings)
            try:
                mod_spec = importlib.util.spec_from_file_location(path.stem, path)
                module = importlib.util.module_from_spec(mod_spec)
                mod_spec.loader.exec_module(module)
            finally:
                sys.path.remove(str(path.parent))
        else:
            module = importlib.import_module(where)
    except ModelError:
        raise
    except Exception as exc:  # the user's module may raise anything while importing
        raise ModelError(f"--model {spec!r} does not import: {type(exc).__name__}: {exc}"
                         f"{where_raised(exc)}") from None
    if not hasattr(module, name):
        raise ModelError(f"--model {spec!r}: {where} has no object {name!r}")
    obj = getattr(module, name)
    if inspect.isclass(obj) or (callable(obj) and not hasattr(obj, "joint_names")):
        try:
            obj = obj()
        except Exception as exc:
            raise ModelError(f"--model {spec!r}: calling {name}() failed: "
                             f"{type(exc).__name__}: {exc}{where_raised(exc)}") from None
    return check_model(obj, name)


def check_model(model: Any, label: str = "the model") -> Any:
    """The model itself, after checking that it names its joints and has a term method."""
    names = getattr(model, "joint_names", None)
    if names is None or isinstance(names, str) or not all(isinstance(n, str) for n in names):
        raise ModelError(f"{label} has no joint_names (a sequence of the description's "
                         "joint names, in the order of its q)")
    if not any(callable(getattr(model, m, None)) for m in TERM_METHODS):
        raise ModelError(f"{label} has none of the protocol's methods "
                         f"({', '.join(TERM_METHODS)})")
    return model


def capabilities(model: Any) -> list[str]:
    """The term methods the model has."""
    return [m for m in TERM_METHODS if callable(getattr(model, m, None))]


def where_raised(exc: BaseException) -> str:
    """' (my_arm.py, line 42, in bias)': where in the user's own code ``exc`` was raised,
    so that a failing model method points at its line rather than at dynval.  The frame is
    the innermost one outside dynval and outside installed libraries (numpy, the standard
    library), else the innermost outside dynval; '' where every frame is dynval's."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not _layout.owns(f.filename)]
    own = [f for f in frames if not _library(f.filename)]
    if not (own or frames):
        return ""
    f = (own or frames)[-1]
    return f" ({Path(f.filename).name}, line {f.lineno}, in {f.name})"


def _library(filename: str) -> bool:
    """Whether a file belongs to an installed library or the standard library, not to the
    user's own code."""
    if filename.startswith("<"):  # "<frozen importlib._bootstrap>", or exec'd "<string>"
        return filename.startswith("<frozen")
    path = Path(filename)
    if "site-packages" in path.parts or "dist-packages" in path.parts:
        return True
    return path.resolve().is_relative_to(Path(sysconfig.get_paths()["stdlib"]).resolve())


def call(model: Any, label: str, method: str, shape: tuple[int, ...], *args: Any) -> np.ndarray:
    """model.method(*args) as a float array of the given shape; a wrong shape, a NaN or an
    exception is a ModelError naming the object and the method."""
    try:
        out = np.asarray(getattr(model, method)(*args), dtype=float)
    except Exception as exc:
        raise ModelError(f"{label}.{method} raised {type(exc).__name__}: {exc}"
                         f"{where_raised(exc)}") from None
    if out.shape != shape:
        raise ModelError(f"{label}.{method} returned shape {out.shape}; expected {shape}")
    if not np.all(np.isfinite(out)):
        bad = int(np.flatnonzero(~np.isfinite(out.ravel()))[0])
        raise NonFiniteError(f"{label}.{method} returned a non-finite value "
                         f"({out.ravel()[bad]}) at index {bad}")
    return out
