"""Single-leg model of Sec. III: Lagrange torques (12)-(13), Jacobian coupling (14),
inverse kinematics (15)-(17) and forward kinematics (18)-(19).

The leg lives in its own plane (x_L outward, y_L up); link masses are points at the
link ends; angles are anticlockwise about z_L, theta_h from x_L, theta_k from the
upper link.  The ``printed`` flag (``form`` at the public API) selects the gravity term of eq. (12):

* printed: (m_U - m_L) g l_U cos(theta_h), as the paper prints it;
* corrected: (m_U + m_L) g l_U cos(theta_h), what the Lagrangian of two end
  point masses gives (dV/dtheta_h with V = m_U g l_U s_h + m_L g (l_U s_h + l_L s_hk)).
  The dynamics audit names this erratum and its size.
"""

from __future__ import annotations

import math

import numpy as np

from dynval._numba_cache import njit
from dynval.handrolled import ModelInputError

FORMS = ("printed", "corrected")


def is_printed(form: str) -> bool:
    """True for the printed form, False for the corrected one; rejects anything else."""
    if form not in FORMS:
        raise ValueError(f"unknown equation form {form!r}; use 'printed' or 'corrected'")
    return form == "printed"


@njit(cache=True)
def mass_matrix(theta_k: float, m_U: float, m_L: float, l_U: float, l_L: float) -> np.ndarray:
    """M(theta) of eqs. (12)-(13): coefficients of the joint accelerations."""
    c_k = math.cos(theta_k)
    M11 = (m_U + m_L) * l_U**2 + m_L * l_L**2 + 2.0 * m_L * l_U * l_L * c_k  # eq. (12)
    M12 = m_L * l_L**2 + m_L * l_U * l_L * c_k  # eq. (12), eq. (13)
    M22 = m_L * l_L**2  # eq. (13)
    return np.array(((M11, M12), (M12, M22)))


@njit(cache=True)
def coriolis_vector(theta_k: float, thetad_h: float, thetad_k: float, m_L: float, l_U: float,
                    l_L: float) -> np.ndarray:
    """Coriolis and centrifugal torques of eqs. (12)-(13)."""
    s_k = math.sin(theta_k)
    h = m_L * l_U * l_L * s_k
    return np.array((
        -h * (2.0 * thetad_h * thetad_k + thetad_k**2),  # eq. (12)
        h * thetad_h**2,  # eq. (13)
    ))


@njit(cache=True)
def gravity_vector(theta_h: float, theta_k: float, m_U: float, m_L: float, l_U: float,
                   l_L: float, g: float, printed: bool = False) -> np.ndarray:
    """Gravity torques of eqs. (12)-(13); ``printed`` picks the printed eq. (12)."""
    m_hip = (m_U - m_L) if printed else (m_U + m_L)
    c_hk = math.cos(theta_h + theta_k)
    return np.array((
        m_hip * g * l_U * math.cos(theta_h) + m_L * g * l_L * c_hk,  # eq. (12)
        m_L * g * l_L * c_hk,  # eq. (13)
    ))


@njit(cache=True)
def joint_torques(theta: np.ndarray, thetad: np.ndarray, thetadd: np.ndarray, m_U: float,
                  m_L: float, l_U: float, l_L: float, g: float,
                  printed: bool = False) -> np.ndarray:
    """tau_T = M(theta) thetadd + C(theta, thetad) + G(theta): eqs. (12)-(13)."""
    return (
        mass_matrix(theta[1], m_U, m_L, l_U, l_L) @ thetadd
        + coriolis_vector(theta[1], thetad[0], thetad[1], m_L, l_U, l_L)
        + gravity_vector(theta[0], theta[1], m_U, m_L, l_U, l_L, g, printed)
    )


@njit(cache=True)
def forward_kinematics(theta_h: float, theta_k: float, l_U: float, l_L: float) -> np.ndarray:
    """Hip-to-foot vector (x_{h-f}, y_{h-f}) in the leg plane: eqs. (18)-(19)."""
    return np.array((
        l_U * math.cos(theta_h) + l_L * math.cos(theta_h + theta_k),  # eq. (18)
        l_U * math.sin(theta_h) + l_L * math.sin(theta_h + theta_k),  # eq. (19)
    ))


@njit(cache=True)
def jacobian(theta_h: float, theta_k: float, l_U: float, l_L: float) -> np.ndarray:
    """d(x_{h-f}, y_{h-f})/d(theta_h, theta_k): the J of eq. (14)."""
    s_h, c_h = math.sin(theta_h), math.cos(theta_h)
    s_hk, c_hk = math.sin(theta_h + theta_k), math.cos(theta_h + theta_k)
    return np.array((
        (-l_U * s_h - l_L * s_hk, -l_L * s_hk),
        (l_U * c_h + l_L * c_hk, l_L * c_hk),
    ))


class UnreachableFootError(ModelInputError):
    """The requested foot position is outside the leg's workspace."""


def inverse_kinematics(x: float, y: float, l_U: float, l_L: float) -> tuple[float, float]:
    """Reference joint angles for a foot x outward and y *below* the hip: eqs. (15)-(17).

    The paper's y is the leg height (positive downward), the reading under which
    eq. (15) puts the foot at (x, -y) in the leg plane and eq. (16) bends the knee
    backwards (theta_k <= 0) as Fig. 7 describes.
    """
    theta_h, theta_k, reachable = ik_angles(x, y, l_U, l_L)
    if not reachable:
        raise UnreachableFootError(
            f"foot at x={x:.4f} m, y={y:.4f} m is out of reach of links {l_U} m and {l_L} m"
        )
    return theta_h, theta_k


@njit(cache=True)
def ik_angles(x: float, y: float, l_U: float, l_L: float) -> tuple[float, float, bool]:
    """Eqs. (15)-(17) for :func:`inverse_kinematics` and compiled controllers: the two
    angles and whether the foot is within reach (NaN angles where it is not)."""
    l = y / math.cos(math.atan(x / y))  # eq. (17)
    c_hip = (l_U**2 + l**2 - l_L**2) / (2.0 * l_U * l)
    c_knee = (l_U**2 + l_L**2 - l**2) / (2.0 * l_U * l_L)
    if not (-1.0 <= c_hip <= 1.0 and -1.0 <= c_knee <= 1.0):
        return math.nan, math.nan, False
    theta_h = math.atan(x / y) + math.acos(c_hip) - math.pi / 2  # eq. (15)
    theta_k = math.acos(c_knee) - math.pi  # eq. (16)
    return theta_h, theta_k, True


@njit(cache=True)
def forward_dynamics(theta: np.ndarray, thetad: np.ndarray, tau: np.ndarray, F_ext: np.ndarray,
                     m_U: float, m_L: float, l_U: float, l_L: float, g: float,
                     printed: bool = False) -> np.ndarray:
    """Joint accelerations from eq. (14): M thetadd + C + G = tau + J^T F_ext."""
    M = mass_matrix(theta[1], m_U, m_L, l_U, l_L)
    rhs = (
        tau
        + jacobian(theta[0], theta[1], l_U, l_L).T @ F_ext  # eq. (14)
        - coriolis_vector(theta[1], thetad[0], thetad[1], m_L, l_U, l_L)
        - gravity_vector(theta[0], theta[1], m_U, m_L, l_U, l_L, g, printed)
    )
    return np.linalg.solve(M, rhs)
