"""Leg kinematics of section 2: D-H forward kinematics (Table 1), the foot Jacobian and
inverse kinematics with the paper's knee configuration (theta_3 < 0, Fig. 1.d)."""

from __future__ import annotations

import numpy as np

from dynval.handrolled import ModelInputError
from dynval.handrolled.quadruped.dh import link_origin, link_rotation
from dynval.handrolled.quadruped.robot import QuadrupedModel, build_model
from dynval.handrolled.vec3 import cross
from dynval.robots.quadruped.params import LEGS, QuadrupedParams


def leg_frames(model: QuadrupedModel, leg: int, theta: np.ndarray
               ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Attitudes R_Bi and origins p_Bi of frames 0..4 of one leg in the body frame."""
    R, p = [model.R_B0], [model.p_B0[leg]]
    for i in range(4):
        th = theta[i] if i < 3 else 0.0  # theta_4 = 0 (Table 1)
        p.append(p[-1] + R[-1] @ link_origin(model.alpha[i], model.a[i], 0.0))
        R.append(R[-1] @ link_rotation(model.alpha[i], th))
    return R, p


def foot_position(model: QuadrupedModel, leg: int, theta: np.ndarray) -> np.ndarray:
    """p_B4: the foot (frame 4 origin) in the body frame [m]."""
    return leg_frames(model, leg, theta)[1][4]


def standing_height(p: QuadrupedParams) -> float:
    """Body origin above the ground in the standing posture of Fig. 1.d [m], the feet
    resting on their spheres (the foot point is the sphere's centre)."""
    return float(-foot_position(build_model(p), 0, p.theta_stand)[2] + p.foot_radius)


def foot_position_and_jacobian(model: QuadrupedModel, leg: int, theta: np.ndarray
                               ) -> tuple[np.ndarray, np.ndarray]:
    """p_B4 and d p_B4 / d theta (3 x 3): column i is z_i x (p_4 - p_i) for revolute
    joint i."""
    R, p = leg_frames(model, leg, theta)
    return p[4], np.column_stack([cross(R[i][:, 2], p[4] - p[i]) for i in (1, 2, 3)])


def foot_jacobian(model: QuadrupedModel, leg: int, theta: np.ndarray) -> np.ndarray:
    """d p_B4 / d theta (3 x 3)."""
    return foot_position_and_jacobian(model, leg, theta)[1]


def inverse_kinematics(model: QuadrupedModel, leg: int, p_B4: np.ndarray) -> np.ndarray:
    """Joint angles that put the foot at p_B4, knee as in Fig. 1.d (theta_3 < 0).

    In frame 0 the foot is (u cos t1, w, u sin t1) with u = a_2 c_2 + a_3 c_23 and
    w = a_2 s_2 + a_3 s_23, so t1 follows from the x_0-z_0 plane and (t2, t3) from the
    planar two-link problem."""
    return legs_inverse_kinematics(model, np.array([leg]), np.reshape(p_B4, (1, 3)))[0]


def legs_inverse_kinematics(model: QuadrupedModel, legs: np.ndarray, p_B4: np.ndarray
                            ) -> np.ndarray:
    """:func:`inverse_kinematics` of several feet at once, row k the target of leg
    ``legs[k]`` (element by element the same floats as one at a time)."""
    l2, l3 = model.a[2], model.a[3]
    p_B4 = np.asarray(p_B4, float)
    # row k: R_B0^T (p_B4 - p_B0) (R_B0 permutes and signs the axes: exact either way)
    x, y, z = ((p_B4 - model.p_B0[legs]) @ model.R_B0).T
    t1 = np.arctan2(z, x)
    u, w = np.hypot(x, z), y
    c3 = (u * u + w * w - l2 * l2 - l3 * l3) / (2.0 * l2 * l3)
    far = np.abs(c3) > 1.0
    if far.any():
        k = int(np.argmax(far))
        raise ModelInputError(f"quadruped: foot target {np.round(p_B4[k], 4)} m (body frame) "
                              f"is out of reach of leg {LEGS[legs[k]]} with a_2 = {l2:g} m, "
                              f"a_3 = {l3:g} m")
    t3 = -np.arccos(c3)
    t2 = np.arctan2(w, u) - np.arctan2(l3 * np.sin(t3), l2 + l3 * np.cos(t3))
    return np.column_stack([t1, t2, t3])
