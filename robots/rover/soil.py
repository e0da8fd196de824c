"""Soil parameter sets for the rover's wheel-soil law (thesis Appendix C), read from the
key-value ``.soil`` files of loadsoil.m (Appendix A.2, A.22) stored beside this module.

File format (as loadsoil.m reads it): one ``key value`` pair per line, ``%`` starts a
comment, SI units, the friction angle phi in degrees (converted to radians on loading, as
loadsoil.m does). Unlike loadsoil.m, which silently falls back to built-in defaults for a
missing key and ignores unknown ones, every key below is required and nothing else is
accepted: a typo must not turn into a default soil.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from pathlib import Path

SOIL_DIR = Path(__file__).resolve().parent / "soils"
SOIL_NAMES: tuple[str, ...] = tuple(sorted(p.stem for p in SOIL_DIR.glob("*.soil")))


class SoilFileError(ValueError):
    """A soil file that is missing, malformed or physically impossible."""


@dataclass(frozen=True)
class Soil:
    """Bekker / Wong-Reece soil parameters, SI units, phi in radians.

    name: label (the file's ``name`` key, else its stem)
    n: sinkage exponent [-]
    c: cohesion [Pa]
    phi: internal friction angle [rad] (degrees in the file)
    kc: cohesive modulus [N/m^(n+1)]
    kphi: frictional modulus [N/m^(n+2)]
    kx0, ky0: longitudinal / lateral shear deformation moduli at zero slip angle [m]
    dkx, dky: their slopes with the slip angle, k = k0 + dk beta (simcore.m) [m/rad]
    a0, a1: maximum-stress angle parameters, theta_m = (a0 + a1 s) theta1, eq. (2.11) [-]
    density: bulk density [kg/m^3]
    """

    name: str
    n: float
    c: float
    phi: float
    kc: float
    kphi: float
    kx0: float
    ky0: float
    dkx: float
    dky: float
    a0: float
    a1: float
    density: float

    def as_tuple(self) -> tuple[float, ...]:
        """(n, c, phi, kc, kphi, kx0, ky0, dkx, dky, a0, a1): the form the compiled wheel
        force functions of dynval.handrolled.rover.terramechanics take."""
        return (self.n, self.c, self.phi, self.kc, self.kphi, self.kx0, self.ky0, self.dkx,
                self.dky, self.a0, self.a1)


REQUIRED_KEYS: tuple[str, ...] = tuple(f.name for f in fields(Soil) if f.name != "name")

# Physical range of each value as it stands in the file (phi in degrees): a test that the
# value must pass and the words that say what failed.
_RANGES = {
    "n": (lambda v: v > 0.0, "must be positive"),
    "c": (lambda v: v >= 0.0, "must not be negative"),
    "phi": (lambda v: 0.0 <= v < 90.0, "must lie in [0, 90) degrees"),
    "kc": (lambda v: v >= 0.0, "must not be negative"),
    "kphi": (lambda v: v >= 0.0, "must not be negative"),
    "kx0": (lambda v: v > 0.0, "must be positive"),
    "ky0": (lambda v: v > 0.0, "must be positive"),
    "a0": (lambda v: 0.0 < v < 1.0, "must lie in (0, 1) so that theta_m lies inside the "
                                    "contact at zero slip, eq. (2.11)"),
    "density": (lambda v: v > 0.0, "must be positive"),
}


def _resolve(path_or_name: str | Path) -> Path:
    if isinstance(path_or_name, str) and path_or_name in SOIL_NAMES:
        return SOIL_DIR / f"{path_or_name}.soil"
    path = Path(path_or_name)
    if not path.is_file():
        raise SoilFileError(f"soil {str(path_or_name)!r} is neither a known soil "
                            f"({', '.join(SOIL_NAMES)}) nor an existing file")
    return path


def load_soil(path_or_name: str | Path) -> Soil:
    """The soil of a ``.soil`` file, given by name (a file in robots/rover/soils, see
    SOIL_NAMES) or by path. Raises SoilFileError, one sentence naming the file and the key
    or line, for a missing or unknown soil, a malformed line, an unknown or repeated key,
    a missing key, a value that is not a finite number, or a non-physical value."""
    path = _resolve(path_or_name)
    values: dict[str, tuple[str, int]] = {}
    for k, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.split("%", 1)[0].strip()  # loadsoil.m: commentstyle matlab
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2:
            raise SoilFileError(f"soil file {path}, line {k}: expected 'key value', got "
                                f"{line!r}")
        key, value = parts
        if key != "name" and key not in REQUIRED_KEYS:
            raise SoilFileError(f"soil file {path}, line {k}: unknown key {key!r} (known: "
                                f"name, {', '.join(REQUIRED_KEYS)})")
        if key in values:
            raise SoilFileError(f"soil file {path}, line {k}: key {key!r} repeats line "
                                f"{values[key][1]}")
        values[key] = (value, k)
    missing = [key for key in REQUIRED_KEYS if key not in values]
    if missing:
        raise SoilFileError(f"soil file {path} lacks the key(s) {', '.join(missing)}")
    numbers: dict[str, float] = {}
    for key in REQUIRED_KEYS:
        text, k = values[key]
        try:
            v = float(text)
        except ValueError:
            v = math.nan
        if not math.isfinite(v):
            raise SoilFileError(f"soil file {path}, line {k}: {key} = {text!r} is not a "
                                "finite number")
        check = _RANGES.get(key)
        if check is not None and not check[0](v):
            raise SoilFileError(f"soil file {path}, line {k}: {key} = {text} {check[1]}")
        numbers[key] = v
    for k0, dk in (("kx0", "dkx"), ("ky0", "dky")):  # k = k0 + dk beta, beta in [0, pi/2]
        if numbers[k0] + numbers[dk] * 0.5 * math.pi <= 0.0:
            raise SoilFileError(f"soil file {path}, line {values[dk][1]}: {dk} = "
                                f"{values[dk][0]} makes {k0} + {dk} beta non-positive for a "
                                "slip angle beta in [0, pi/2]")
    numbers["phi"] = math.radians(numbers["phi"])  # loadsoil.m: degrees in the file
    name = values["name"][0] if "name" in values else path.stem
    return Soil(name=name, **numbers)
