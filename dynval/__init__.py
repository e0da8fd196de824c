"""dynval's public API: audit your own robot model against its URDF/MJCF, or validate the
built-in robots, from Python.

    import dynval

    res = dynval.audit(description="my_arm.urdf")    # the engines against each other
    res = dynval.audit(MyArm(), "my_arm.urdf")       # your model against the engines
    res.passed, res.findings, res.to_dataframe()
    run = dynval.validate(robots=["landing_gear"], tier="ci")

    from dynval.testing import assert_model_matches
    from dynval.model import load_object, RobotModel

The command line is ``dynval audit --model PATH.py:OBJECT --description FILE.urdf``.
Importing dynval loads no engine, numpy or pandas: each name below is imported on first
use (``__getattr__``).
"""

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at startup
if TYPE_CHECKING:
    from dynval.api import audit, validate
    from dynval.api_results import AuditResult, ValidationResult

__version__ = "0.1.0"
__all__ = ["__version__", "audit", "validate", "AuditResult", "ValidationResult"]
_LAZY = {"audit": "dynval.api", "validate": "dynval.api",
         "AuditResult": "dynval.api_results", "ValidationResult": "dynval.api_results"}


def __getattr__(name: str) -> object:
    """The public names, each imported on first use (they need numpy and the engines)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'dynval' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(_LAZY[name]), name)
    globals()[name] = value  # the next access finds it without this hook
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
