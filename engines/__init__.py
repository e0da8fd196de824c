"""Engine adapters: MuJoCo, PyBullet and Pinocchio behind small typed interfaces.
Nothing here imports a hand-rolled model; engines load description files by path."""

from __future__ import annotations

ENGINE_NAMES: tuple[str, ...] = ("mujoco", "pybullet")
TERM_ENGINES: tuple[str, ...] = ("mujoco", "pybullet", "pinocchio")


class UnknownEngineError(KeyError):
    """An engine name that dynval does not know."""

    def __str__(self) -> str:
        return self.args[0]


class DescriptionError(ValueError):
    """A description file that an engine cannot load or that is inconsistent."""


def check_engine(name: str, allowed: tuple[str, ...] = ENGINE_NAMES) -> str:
    """``name`` if it is one of ``allowed``, else an error saying what it can do instead."""
    if name in TERM_ENGINES and name not in allowed:
        raise UnknownEngineError(f"engine {name!r} computes dynamics terms only and cannot run "
                                 "a scenario; it serves 'dynval audit'")
    if name not in allowed:
        raise UnknownEngineError(f"unknown engine {name!r}; known engines: {', '.join(allowed)}")
    return name


def versions() -> dict[str, str]:
    """Installed engine versions, for the report cover."""
    import mujoco
    import pinocchio
    import pybullet

    return {
        "mujoco": mujoco.__version__,
        "pybullet": str(pybullet.getAPIVersion()),
        "pinocchio": pinocchio.__version__,
    }
