"""Section 4.2.2's two steady-state estimates recomputed with the thesis' solver constvel
(Appendix A.3): the SSL rover on dry sand, and the Apollo LRV in each (soil, gravity)
reading, with the top speed its motors allow.

The LRV paragraph prints its inputs ("wheels 0.41 m in radius, 0.23 m in width, ... a mass
of 700 kg", "0.25 hp (186 W) drive motors at each wheel") and its findings ("would attain a
drawbar pull of zero when s = ...", "a top speed of about ..., which is near the rover's
maximum design velocity on flat ground"), but neither the soil nor the gravity. Appendix C
offers two soils; each belongs to a gravity (dry sand to the Earth of chapter 5, the lunar
soil simulant to the Moon). ``lrv_estimate`` evaluates every pairing; ``AUTHOR_READING``
(dynval.robots.rover.params.LRV_AUTHOR) is the one the text's two findings single out:

* a zero drawbar pull exists in constvel's bracket ``fzero(..., [0 1])``: not for dry sand
  in Earth gravity, where the wheel sinks 6 cm and the shear that the rim's geometry alone
  produces at s = 0 (j_x = r (theta1 - theta - (sin theta1 - sin theta)) > 0 in eq. 2.12)
  already gives H > |R| (by 66 N; 57 N without cohesion), so fzero stops;
* the top speed P / R lies near the LRV's design speed (8 mph, 3.58 m/s): the lunar soil
  simulant in lunar gravity gives 4.06 m/s; dry sand in lunar gravity (what constvel.m as
  printed gives, since it loads drysand2.soil whatever the rover) 4.91 m/s, 37 % above it;
  the lunar soil simulant in Earth gravity 0.39 m/s.
"""

from __future__ import annotations

from dataclasses import dataclass

from dynval.comparisons.ladder.metrics import check_row, recomputed_row
from dynval.handrolled.rover.steady_state import (
    NoSteadyStateError,
    SteadyState,
    constvel,
    drawbar_pull,
    sinkage_for_load,
    top_speed_from_resistance,
    top_speed_from_wheel_power,
)
from dynval.results import MetricRow
from dynval.robots.rover.params import (
    LRV,
    LRV_AUTHOR,
    LRV_DESIGN_SPEED,
    LRV_READINGS,
    SSL_ROVER,
)
from dynval.robots.rover.soil import Soil, load_soil

ROBOT = "rover"
SCENARIO = "estimates 4.2.2"
AUTHOR_READING = LRV_AUTHOR
# How near "near the rover's maximum design velocity" is taken to be: the design speed is
# quoted as 8 mph (3.58 m/s) and as "about 9 mph (14 km/h)" (3.9 m/s), 12 % apart, and the
# thesis rounds its estimate ("about"); 20 % admits either quote and the rounding.
NEAR_DESIGN = 0.20
REQ_NEAR = ("section 4.2.2: the LRV's top speed is 'near the rover's maximum design velocity "
            "on flat ground'; 'near' read as within 20 % of 8 mph = 3.58 m/s (NASA's design "
            "top speed; MSFC quotes about 9 mph, 12 % higher)")


@dataclass(frozen=True)
class LRVEstimate:
    """The LRV at zero drawbar pull in one (soil, gravity) reading.

    DP_s0: drawbar pull H - |R| at s = 0 [N] (positive: constvel's bracket [0, 1] holds no
    root); state: constvel's steady state, None where there is no root; v_top: P / R and
    v_top_power: simcore.m's motor law, both [m/s], None without a root."""

    soil: str
    g: float
    W: float
    DP_s0: float
    state: SteadyState | None
    v_top: float | None
    v_top_power: float | None


def lrv_estimate(soil: Soil, g: float) -> LRVEstimate:
    """Section 4.2.2's LRV on ``soil`` under gravity g [m/s^2]: constvel with m_seg = 2 x
    (700 kg / 4 wheels), since constvel loads each wheel with m_seg g / 2 (constvel.m:
    ``m = mseg/2``), then the top speed on 186 W per wheel both ways."""
    m_seg = 2.0 * LRV["mass"] / LRV["wheels"]
    W = 0.5 * m_seg * g
    z0 = sinkage_for_load(W, 0.0, LRV["r"], LRV["b"], soil)  # zeroFz.m at s = 0
    dp_s0 = drawbar_pull(z0, 0.0, LRV["r"], LRV["b"], soil)
    try:
        ss = constvel(m_seg, g, LRV["r"], LRV["b"], soil)
    except NoSteadyStateError:
        return LRVEstimate(soil.name, g, W, dp_s0, None, None, None)
    P = LRV["motor_power"]
    return LRVEstimate(soil.name, g, W, dp_s0, ss, top_speed_from_resistance(P, ss.R),
                       top_speed_from_wheel_power(P, ss, LRV["r"]))


def lrv_estimates() -> list[LRVEstimate]:
    """Every reading of LRV_READINGS, the author's first."""
    return [lrv_estimate(load_soil(name), g) for name, g in LRV_READINGS]


def ssl_estimate(soil: Soil) -> tuple[SteadyState, float]:
    """The SSL rover at zero drawbar pull (constvel; the text: "in loose dry sand") and the
    rolling resistance its test measured, R = 0.8 x 1.55 W / 0.20 m/s = 6.2 N [N]."""
    ssl = SSL_ROVER
    ss = constvel(2.0 * ssl["W"] / ssl["g"], ssl["g"], ssl["r"], ssl["b"], soil)
    return ss, ssl["power"] * ssl["efficiency"] / ssl["speed"]  # section 4.2.2


def estimates_422(soil: Soil) -> tuple[dict, list[MetricRow], str]:
    """The 4.2.2 table (SSL rover, then the LRV in each reading), its metric rows, and the
    SSL comparison in words (for the L5 note)."""
    s1, R_measured = ssl_estimate(soil)
    ssl_words = f"R measured {R_measured:.2f} N: differs by {100 * (s1.R / R_measured - 1):+.1f} %"
    rows = [["SSL rover", soil.name.replace("_", " "), SSL_ROVER["g"], SSL_ROVER["W"], "-",
             100 * s1.z, s1.s, s1.R, "-", "-", "-", ssl_words]]
    lrvs = lrv_estimates()
    for e in lrvs:
        who = "LRV (author's reading)" if (e.soil, e.g) == AUTHOR_READING else "LRV"
        if e.state is None:
            rows.append([who, e.soil.replace("_", " "), e.g, e.W, e.DP_s0, "-", "-", "-", "-",
                         "-", "-", "no root in s = [0, 1]"])
            continue
        ss = e.state
        rows.append([who, e.soil.replace("_", " "), e.g, e.W, e.DP_s0, 100 * ss.z, ss.s, ss.R,
                     e.v_top, e.v_top_power, 100 * (e.v_top / LRV_DESIGN_SPEED - 1),
                     f"{3.6 * e.v_top:.1f} km/h"])
    author = next(e for e in lrvs if (e.soil, e.g) == AUTHOR_READING)
    hybrid = next(e for e in lrvs if (e.soil, e.g) == ("dry_sand", AUTHOR_READING[1]))
    table = {
        "scenario": None, "title": "Section 4.2.2 recomputed: SSL rover and LRV",
        "columns": ["rover", "soil", "g [m/s^2]", "load/wheel [N]", "DP at s=0 [N]",
                    "z0 [cm]", "slip", "R [N]", "v = P/R [m/s]", "v = P r(1-s)/T [m/s]",
                    "P/R vs design [%]", "comparison"],
        "rows": rows,
        "caption": "Zero drawbar pull per wheel by constvel (Appendix A.3). SSL rover: dry "
                   "sand as the text says; its test drew 1.55 W per wheel at 0.20 m/s, with "
                   "the thesis' 0.8 motor efficiency a rolling resistance of 6.2 N. LRV: 700 "
                   "kg on four wheels (175 kg each, m_seg = 350 kg in constvel), 186 W per "
                   "wheel, in each soil of Appendix C under each gravity. The text prints "
                   "neither; the author's reading is the one its findings single out: a zero "
                   "drawbar pull inside constvel's bracket s in [0, 1] (dry sand in Earth "
                   "gravity has none) and a top speed 'near the rover's maximum design "
                   f"velocity' (8 mph = {LRV_DESIGN_SPEED:.2f} m/s): the lunar soil simulant "
                   f"in lunar gravity gives {author.v_top:.2f} m/s, dry sand in lunar gravity "
                   f"(constvel.m as printed loads drysand2.soil; this chapter's earlier "
                   f"reading) {hybrid.v_top:.2f} m/s. Top speed two ways: P / R, the "
                   "text's own arithmetic (a power at a speed is a resistance, 1.24 W at "
                   "0.20 m/s is 6.2 N), and simcore.m's motor law P = T v / ((1 - s) r), "
                   "which also pays for the slip. The text applies a 0.8 motor efficiency "
                   "only to the SSL's measured draw; with it on the LRV's 186 W the two "
                   "lunar-gravity readings would give 0.8 x the P / R column (3.24 and 3.93 "
                   "m/s), both near: it is the literal text that separates them. DP at "
                   "s=0 > 0: constvel's bracket holds no "
                   "root. Last column: the SSL's measured rolling resistance; for the LRV, "
                   "P / R in km/h. The thesis' values are held back.",
    }
    metric = [recomputed_row(ROBOT, SCENARIO, f"ssl.{sig}", "steady_value", val,
                             "section 4.2.2 recomputed by constvel, dry sand")
              for sig, val in (("sinkage", s1.z), ("slip", s1.s), ("R", s1.R))]
    a = author.state
    metric += [recomputed_row(ROBOT, SCENARIO, f"lrv.{sig}", "steady_value", val,
                              "section 4.2.2 recomputed by constvel in the author's reading "
                              "(lunar soil simulant, lunar gravity)")
               for sig, val in (("sinkage", a.z), ("slip", a.s), ("R", a.R),
                                ("v_top", author.v_top), ("v_top_power", author.v_top_power))]
    metric.append(check_row(ROBOT, SCENARIO, "-", "lrv.v_top", "handrolled", "rel_to_design",
                            author.v_top / LRV_DESIGN_SPEED - 1.0, NEAR_DESIGN, REQ_NEAR,
                            rung="L5"))
    for e in lrvs:
        tag = f"lrv.{e.soil}.g{e.g:g}"
        what = f"section 4.2.2, LRV on {e.soil} at g = {e.g:g} m/s^2"
        metric.append(recomputed_row(ROBOT, SCENARIO, f"{tag}.DP_s0", "steady_value", e.DP_s0,
                                     what + ": drawbar pull at zero slip [N]"))
        if e.state is not None:
            metric += [recomputed_row(ROBOT, SCENARIO, f"{tag}.{sig}", "steady_value", val,
                                      what) for sig, val in
                       (("sinkage", e.state.z), ("slip", e.state.s), ("R", e.state.R),
                        ("v_top", e.v_top), ("v_top_power", e.v_top_power))]
    return table, metric, ssl_words
