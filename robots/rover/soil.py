"""Soil parameter sets (thesis Appendix C) read from the key-value ``.soil`` files of
loadsoil.m, stored beside this module in SI units."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from pathlib import Path

SOIL_DIR = Path(__file__).resolve().parent / "soils"
SOIL_NAMES = tuple(sorted(p.stem for p in SOIL_DIR.glob("*.soil")))


class SoilFileError(ValueError):
    """A soil file that is missing, malformed or physically impossible."""


@dataclass(frozen=True)
class Soil:
    """Bekker / Wong-Reece soil parameters (SI; phi in radians)."""

    name: str
    n: float  # sinkage exponent [-]
    c: float  # cohesion [Pa]
    phi: float  # internal friction angle [rad]
    kc: float  # cohesive modulus [N/m^(n+1)]
    kphi: float  # frictional modulus [N/m^(n+2)]
    kx0: float  # longitudinal shear deformation modulus at zero slip angle [m]
    ky0: float  # lateral shear deformation modulus at zero slip angle [m]
    dkx: float  # slope of kx with slip angle [m/rad] (simcore.m)
    dky: float  # slope of ky with slip angle [m/rad]
    a0: float  # maximum-stress angle parameter, eq. (2.11) [-]
    a1: float  # maximum-stress angle parameter, eq. (2.11) [-]
    density: float  # [kg/m^3]

    def as_tuple(self) -> tuple[float, ...]:
        """(n, c, phi, kc, kphi, kx0, ky0, dkx, dky, a0, a1): the form the compiled wheel
        force functions take."""
        return (self.n, self.c, self.phi, self.kc, self.kphi, self.kx0, self.ky0, self.dkx,
                self.dky, self.a0, self.a1)


_NUMERIC = [f.name for f in fields(Soil) if f.name != "name"]
_POSITIVE = ("n", "kx0", "ky0", "density")
_NON_NEGATIVE = ("c", "phi", "kc", "kphi", "a0")


def load_soil(name_or_path: str | Path) -> Soil:
    """A soil by name (a file in robots/rover/soils) or by path; one clear error otherwise."""
    path = Path(name_or_path)
    if path.suffix != ".soil":
        if str(name_or_path) not in SOIL_NAMES:
            raise SoilFileError(f"unknown soil {name_or_path!r}; known soils: "
                                f"{', '.join(SOIL_NAMES)}")
        path = SOIL_DIR / f"{name_or_path}.soil"
    if not path.is_file():
        raise SoilFileError(f"soil file {path} does not exist")
    values: dict[str, str] = {}
    for k, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.split("%", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2:
            raise SoilFileError(f"{path}, line {k}: expected 'key value', got {raw.strip()!r}")
        key, value = parts
        if key not in _NUMERIC and key != "name":
            raise SoilFileError(f"{path}, line {k}: unknown key {key!r}")
        values[key] = value
    missing = [k for k in _NUMERIC if k not in values]
    if missing:
        raise SoilFileError(f"{path} lacks the key(s) {', '.join(missing)}")
    numbers = {}
    for key in _NUMERIC:
        try:
            numbers[key] = float(values[key])
        except ValueError:
            raise SoilFileError(f"{path}: {key} = {values[key]!r} is not a number") from None
        if not math.isfinite(numbers[key]):
            raise SoilFileError(f"{path}: {key} = {values[key]!r} is not finite")
    for key in _POSITIVE:
        if numbers[key] <= 0.0:
            raise SoilFileError(f"{path}: {key} must be positive, got {numbers[key]:g}")
    for key in _NON_NEGATIVE:
        if numbers[key] < 0.0:
            raise SoilFileError(f"{path}: {key} must not be negative, got {numbers[key]:g}")
    if not numbers["phi"] < 90.0:
        raise SoilFileError(f"{path}: phi must be below 90 deg, got {numbers['phi']:g}")
    numbers["phi"] = math.radians(numbers["phi"])  # loadsoil.m: degrees in the file
    return Soil(name=values.get("name", path.stem), **numbers)
