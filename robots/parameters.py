"""Every robot parameter held with its unit, valid range and source next to its value.

A robot's parameters are a table, ``robots/<robot>/params.toml``, one entry a parameter::

    [m_U]
    value = 0.10
    unit = "kg"
    range = "(0, inf)"
    source = "Table 1"
    about = "upper link mass"

and its ``params.py`` makes the frozen dataclass of them with :func:`parameter_class`
(fields in table order; the class adds what is derived: properties, relations). The table
is data, so a robot declares its numbers without code, and the report, ``dynval list``
and the validation read the same rows.

The range is written as an interval, ``(`` / ``)`` open and ``[`` / ``]`` closed, ``inf``
for no bound (a real value must be finite even where the bound is ``inf``);
``integer >= N`` or ``integer in [N, M]`` for a count; ``{A, B, C}`` for a choice among
names; ``text`` for a free string (checked where it is used, e.g. a soil name). From
these declarations come :func:`validate_params`, which every set of overridden parameters
passes before anything runs, and :func:`parameter_table`, the report's parameter appendix.

Relations between parameters (a body mass left positive, a foot within reach) are checked
by a ``check_relations()`` method of the dataclass where it has one.

What the ranges guard: values a model cannot honour (a zero or negative mass, length or
step, a negative passive damping or friction coefficient, a fractional segment count, NaN),
and values no run could finish with: an integration step below 0.1 us (1e-7 s; a simulation
rate above 10 MHz) would take hours for any scenario here and overflows the compiled loops'
step counts; a count of legs above 1000 would fill memory.
Controller gains may take any finite value: a destabilising gain is a legitimate
experiment (the divergence check is there to stop it).
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, TypeVar

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from dynval.robots import Param

_SPEC = "dynval.param"


class ParameterError(ValueError):
    """A parameter value outside its declared range; the message is one sentence naming
    ``robot.parameter``, the value and the valid range."""


@dataclass(frozen=True)
class Range:
    """The values a parameter may take (see the module docstring for the notation)."""

    kind: str  # "real", "integer", "choice" or "text"
    lo: float = -math.inf
    hi: float = math.inf
    lo_open: bool = True
    hi_open: bool = True
    choices: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Range:
        """A range from its notation: "(0, inf)", "[-180, 180]", "integer >= 2", "{A, B}",
        "text"."""
        t = text.strip()
        if t == "text":
            return cls("text")
        m = re.fullmatch(r"integer >= (-?\d+)", t)
        if m:
            return cls("integer", float(m.group(1)), math.inf, False, True)
        m = re.fullmatch(r"integer in \[(-?\d+), (-?\d+)\]", t)
        if m:
            return cls("integer", float(m.group(1)), float(m.group(2)), False, False)
        m = re.fullmatch(r"\{(.+)\}", t)
        if m:
            return cls("choice", choices=tuple(c.strip() for c in m.group(1).split(",")))
        m = re.fullmatch(r"([(\[])\s*([^,]+),\s*([^)\]]+)([)\]])", t)
        if not m:
            raise ValueError(f"cannot read the range {text!r}")
        lo, hi = float(m.group(2)), float(m.group(3))
        if lo > hi or (math.isinf(lo) and m.group(1) == "[") or (
                math.isinf(hi) and m.group(4) == "]"):
            raise ValueError(f"the range {text!r} is empty or closed at infinity")
        return cls("real", lo, hi, m.group(1) == "(", m.group(4) == ")")

    def __str__(self) -> str:
        if self.kind == "text":
            return "any text"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "integer":
            if math.isfinite(self.hi):
                return f"integer in [{self.lo:g}, {self.hi:g}]"
            return f"integer >= {self.lo:g}"
        return (f"{'(' if self.lo_open else '['}{self.lo:g}, "
                f"{self.hi:g}{')' if self.hi_open else ']'}")

    def problem(self, value: Any, unit: str = "-") -> str | None:
        """Why ``value`` is not in the range, as the end of a sentence that names the range
        ("is outside its valid range (0, inf) kg"), or None when it is in it."""
        if self.kind == "text":
            return None if isinstance(value, str) and value.strip() else "is not a name"
        if self.kind == "choice":
            return None if value in self.choices else f"is not {self}"
        where = str(self) if unit == "-" else f"{self} {unit}"
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"is not a number; its valid range is {where}"
        if not math.isfinite(value):
            return f"is not a finite number; its valid range is {where}"
        if self.kind == "integer":
            if not (isinstance(value, int) or float(value).is_integer()):
                return f"is not a whole number; it must be an {where}"
            inside = self.lo <= value <= self.hi
            return None if inside else f"is outside its valid range: an {where}"
        below = value <= self.lo if self.lo_open else value < self.lo
        above = value >= self.hi if self.hi_open else value > self.hi
        return f"is outside its valid range {where}" if below or above else None


@dataclass(frozen=True)
class Spec:
    """What :func:`param` records about one parameter."""

    unit: str
    range: Range
    source: str
    doc: str


TABLE = "params.toml"
_ROW_KEYS = ("value", "unit", "range", "source", "about")
_TEXT_KEYS = ("unit", "range", "source", "about")

_T = TypeVar("_T")


def read_table(path: Path) -> dict[str, tuple[Any, Spec]]:
    """The parameters of a table, in table order, each as its value and its
    :class:`Spec`; a malformed row raises ValueError naming the file and the parameter."""
    try:
        rows = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ValueError(f"cannot read the parameter table {path}: {e}") from e
    table = {}
    for name, row in rows.items():
        keys = tuple(row) if isinstance(row, dict) else ()
        if sorted(keys) != sorted(_ROW_KEYS):
            raise ValueError(f"{path}: parameter {name!r} must have exactly the keys "
                             f"{', '.join(_ROW_KEYS)}")
        value = row["value"]
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError(f"{path}: parameter {name!r} has a value that is not a number "
                             "or a name")
        if not all(isinstance(row[k], str) for k in _TEXT_KEYS):
            raise ValueError(f"{path}: parameter {name!r} must give its "
                             f"{', '.join(_TEXT_KEYS)} as text")
        try:
            valid = Range.parse(row["range"])
        except ValueError as e:
            raise ValueError(f"{path}: parameter {name!r}: {e}") from e
        table[name] = (value, Spec(row["unit"], valid, row["source"], row["about"]))
    return table


FIELDS_BEGIN = "    # --- fields of params.toml, in its order (python -m dynval.robots.generate)"
FIELDS_END = "    # --- end of fields"


def fields_block(path: Path) -> str:
    """The lines that declare a parameter class's fields, one per row of the table at
    ``path`` with its type and unit (what ``python -m dynval.robots.generate`` writes into
    the class, between FIELDS_BEGIN and FIELDS_END)."""
    lines = [FIELDS_BEGIN]
    for name, (value, declared) in read_table(path).items():
        unit = f"  # [{declared.unit}]" if declared.unit not in ("", "-", "1") else ""
        lines.append(f"    {name}: {type(value).__name__}{unit}")
    return "\n".join([*lines, FIELDS_END]) + "\n"


def parameter_class(cls: type[_T]) -> type[_T]:
    """Make ``cls`` the frozen dataclass of the parameters in the ``params.toml`` beside
    its module: one field a row, in table order, typed by its value, with its unit, range
    and source attached (see :func:`spec`). The class declares its fields (name and type,
    as a type checker sees them; ``python -m dynval.robots.generate`` writes them from the
    table) and they must be the table's, in its order; it keeps its own members
    (properties, ``check_relations``) and gains ``ROBOT``, the robot's name (its folder's,
    unless the class gives one), and ``with_(**changes)``, a copy with some values changed
    (used by sweeps and the error budget)."""
    path = Path(sys.modules[cls.__module__].__file__).with_name(TABLE)
    if "ROBOT" not in cls.__dict__:
        cls.ROBOT = path.parent.name  # type: ignore[attr-defined]
    table = read_table(path)
    declared = {name: kind.__name__ if isinstance(kind, type) else str(kind)
                for name, kind in cls.__dict__.get("__annotations__", {}).items()
                if "ClassVar" not in str(kind)}  # ROBOT: ClassVar[str] is no field
    expected = {name: type(value).__name__ for name, (value, _) in table.items()}
    if list(declared.items()) != list(expected.items()):
        said = next((f"{n}: {declared.get(n, 'nothing')} where the table has "
                     f"{expected.get(n, 'no such row')}"
                     for n in [*expected, *declared] if declared.get(n) != expected.get(n)),
                    "the same fields in another order")
        raise TypeError(f"{cls.__name__} declares other fields than {path} ({said}); run "
                        "python -m dynval.robots.generate to write them from the table")
    for name, (value, row) in table.items():
        if name in cls.__dict__:
            raise TypeError(f"{cls.__name__}.{name} is given a value in the class; its value "
                            f"is the one in {path}")
        setattr(cls, name, field(default=value, metadata={_SPEC: row}))
    if "with_" not in cls.__dict__:
        cls.with_ = _with  # type: ignore[attr-defined]
    return dataclass(frozen=True)(cls)


def _with(self: _T, **changes: Any) -> _T:
    """A copy with some values changed (used by sweeps and the error budget)."""
    return replace(self, **changes)


def spec(params_type: Any, name: str) -> Spec:
    """The declaration of parameter ``name`` of a parameter dataclass (or instance)."""
    for f in fields(params_type):
        if f.name == name:
            if _SPEC not in f.metadata:
                raise KeyError(f"{name} of {robot_of(params_type)} has no unit and range")
            return f.metadata[_SPEC]
    raise KeyError(f"robot {robot_of(params_type)} has no parameter {name!r}")


def specs(params_type: Any) -> dict[str, Spec]:
    """Every field's declaration, in field order (a field without one raises KeyError)."""
    return {f.name: spec(params_type, f.name) for f in fields(params_type)}


def robot_of(params: Any) -> str:
    """The robot a parameter dataclass belongs to (its ``ROBOT`` class attribute)."""
    return params.ROBOT


def _value_text(value: Any, unit: str) -> str:
    """The value as the message shows it: a number with its unit, a name quoted."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return repr(value)
    if not math.isfinite(value):
        return str(value)
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return text if unit == "-" else f"{text} {unit}"


def check_value(params_type: Any, name: str, value: Any) -> None:
    """Raise :class:`ParameterError` when ``value`` is not valid for parameter ``name``."""
    s = spec(params_type, name)
    why = s.range.problem(value, s.unit)
    if why is None:
        return
    what = f" ({s.doc})" if s.doc else ""
    raise ParameterError(f"{robot_of(params_type)}.{name}{what} = "
                         f"{_value_text(value, s.unit)} {why}")


def validate_params(params: Any) -> None:
    """Check every parameter against its declared range and the relations between them;
    raise :class:`ParameterError` (a ValueError) naming the first one that fails."""
    for f in fields(params):
        check_value(params, f.name, getattr(params, f.name))
    relations = getattr(params, "check_relations", None)
    if relations is not None:
        relations()


def parameter_table(params: Any, names: list[str] | None = None) -> list[Param]:
    """The report's table rows (symbol, value, unit, source) of the numeric parameters, in
    field order, or of ``names`` in that order."""
    all_specs = specs(params)
    if names is None:
        names = [n for n, s in all_specs.items() if s.range.kind in ("real", "integer")]
    return [Param(n, float(getattr(params, n)), all_specs[n].unit, all_specs[n].source)
            for n in names]


def describe(params: Any) -> list[dict[str, str]]:
    """One row per parameter for listings (``dynval list``): name, value, unit, range,
    description and source."""
    return [{"parameter": f"{robot_of(params)}.{n}", "value": str(getattr(params, n)),
             "unit": s.unit, "range": str(s.range), "description": s.doc, "source": s.source}
            for n, s in specs(params).items()]
