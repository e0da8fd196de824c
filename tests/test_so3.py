"""dynval.handrolled.so3 against scipy's Rotation, an independent implementation, and against the
identities that define each function."""

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from dynval.handrolled import so3

RNG = np.random.default_rng(20250917)
ROUND_OFF = 1e-14


def random_vectors(n: int, scale: float) -> np.ndarray:
    return RNG.normal(size=(n, 3)) * scale


def assert_rotation(R: np.ndarray) -> None:
    assert np.allclose(R @ R.T, np.eye(3), atol=ROUND_OFF)
    assert np.linalg.det(R) == pytest.approx(1.0, abs=ROUND_OFF)


@pytest.mark.parametrize("fn, axis", [(so3.rot_x, "x"), (so3.rot_y, "y"), (so3.rot_z, "z")])
def test_elementary_rotations_match_scipy(fn, axis):
    for a in RNG.uniform(-7.0, 7.0, 50):
        R = fn(a)
        assert_rotation(R)
        assert np.allclose(R, Rotation.from_euler(axis, a).as_matrix(), atol=ROUND_OFF)


def test_elementary_rotations_take_complex_angles_for_the_complex_step():
    """d/da rot_x(a) = skew(e_x) rot_x(a), read from the imaginary part at h = 1e-30."""
    h, a = 1e-30, 0.7
    for fn, e in ((so3.rot_x, [1.0, 0, 0]), (so3.rot_y, [0, 1.0, 0]), (so3.rot_z, [0, 0, 1.0])):
        dR = fn(a + 1j * h).imag / h
        assert np.allclose(dR, so3.skew(np.array(e)) @ fn(a), atol=ROUND_OFF)


def test_skew_is_the_cross_product():
    for a, b in zip(random_vectors(50, 3.0), random_vectors(50, 3.0), strict=True):
        K = so3.skew(a)
        assert np.allclose(K @ b, np.cross(a, b), atol=ROUND_OFF)
        assert np.array_equal(K, -K.T)


def test_cross_is_np_cross_bit_for_bit():
    # the hopper's operator products take so3.cross for np.cross (40 us a call of axis
    # handling): the same floats, zero signs included, over scales and exact zeros
    rng = np.random.default_rng(3)
    for _ in range(20000):
        a = rng.normal(size=3) * 10.0 ** rng.integers(-6, 6)
        b = rng.normal(size=3) * 10.0 ** rng.integers(-6, 6)
        a[rng.random(3) < 0.2], b[rng.random(3) < 0.2] = 0.0, -0.0
        x, y = so3.cross(a, b), np.cross(a, b)
        assert np.array_equal(x, y) and np.array_equal(np.signbit(x), np.signbit(y))


@pytest.mark.parametrize("scale", [1e-9, 1e-3, 1.0, 3.0])
def test_exp_matches_scipy_and_is_orthonormal(scale):
    for phi in random_vectors(50, scale):
        if np.linalg.norm(phi) >= math.pi:
            continue
        R = so3.exp(phi)
        assert_rotation(R)
        assert np.allclose(R, Rotation.from_rotvec(phi).as_matrix(), atol=ROUND_OFF)


def test_exp_axis_angle_is_exp_of_the_scaled_axis():
    for u, angle in zip(random_vectors(30, 1.0), RNG.uniform(-3.0, 3.0, 30), strict=True):
        u /= np.linalg.norm(u)
        assert np.allclose(so3.exp_axis_angle(u, angle), so3.exp(angle * u), atol=ROUND_OFF)


@pytest.mark.parametrize("angle", [0.0, 1e-12, 1e-8, 1e-5, 1e-4, 0.3, 2.0, 2.1, 3.0,
                                   math.pi - 1e-5, math.pi - 1e-9, math.pi])
def test_log_inverts_exp_near_zero_and_near_pi(angle):
    for u in random_vectors(20, 1.0):
        u /= np.linalg.norm(u)
        phi = so3.log(so3.exp(angle * u))
        assert np.linalg.norm(phi) == pytest.approx(angle, abs=1e-12)
        assert np.allclose(so3.exp(phi), so3.exp(angle * u), atol=1e-13)
        if angle < math.pi - 1e-6:  # at pi, u and -u are the same rotation
            assert np.allclose(phi, angle * u, atol=1e-12)


def test_log_matches_scipy():
    for R in Rotation.random(100, random_state=7).as_matrix():
        assert np.allclose(so3.log(R), Rotation.from_matrix(R).as_rotvec(), atol=1e-12)


def test_quaternions_are_scalar_first_and_round_trip():
    for R in Rotation.random(100, random_state=3).as_matrix():
        q = so3.quat_from_matrix(R)
        x, y, z, w = Rotation.from_matrix(R).as_quat()  # scipy: scalar last
        assert q[0] >= 0.0 and np.linalg.norm(q) == pytest.approx(1.0, abs=ROUND_OFF)
        assert np.allclose(q, np.sign(w) * np.array([w, x, y, z]), atol=ROUND_OFF)
        assert np.allclose(so3.matrix_from_quat(q), R, atol=ROUND_OFF)


def test_quaternion_of_a_half_turn_and_of_an_unnormalised_quaternion():
    R = so3.rot_x(math.pi)  # trace -1: Shepperd's branch without w
    assert np.allclose(so3.quat_from_matrix(R), [0.0, 1.0, 0.0, 0.0], atol=ROUND_OFF)
    q = np.array([2.0, -1.0, 0.5, 3.0])
    assert np.allclose(so3.matrix_from_quat(q),
                       Rotation.from_quat(np.roll(q, -1)).as_matrix(), atol=ROUND_OFF)


def test_euler_zyx_round_trips_and_matches_scipy():
    for yaw, pitch, roll in zip(RNG.uniform(-3, 3, 50), RNG.uniform(-1.5, 1.5, 50),
                                RNG.uniform(-3, 3, 50), strict=True):
        R = so3.matrix_from_euler_zyx(yaw, pitch, roll)
        assert np.allclose(R, Rotation.from_euler("ZYX", [yaw, pitch, roll]).as_matrix(),
                           atol=ROUND_OFF)
        assert np.allclose(so3.euler_zyx(R), [yaw, pitch, roll], atol=1e-12)


def test_euler_yxz_round_trips_and_matches_scipy():
    for a_y, a_x, a_z in zip(RNG.uniform(-3, 3, 50), RNG.uniform(-1.5, 1.5, 50),
                             RNG.uniform(-3, 3, 50), strict=True):
        R = so3.matrix_from_euler_yxz(a_y, a_x, a_z)
        assert np.allclose(R, Rotation.from_euler("YXZ", [a_y, a_x, a_z]).as_matrix(),
                           atol=ROUND_OFF)
        assert np.allclose(so3.euler_yxz(R), (a_y, a_x, a_z), atol=1e-12)


def test_compiled_callers_can_use_exp_and_skew():
    """The landing gear's compiled step calls so3.exp; a compiled caller must work."""
    from numba import njit

    @njit
    def twice(phi):
        return so3.exp(phi) @ so3.exp(phi), so3.skew(phi)

    phi = np.array([0.1, -0.2, 0.3])
    R2, K = twice(phi)
    assert np.allclose(R2, so3.exp(2 * phi), atol=ROUND_OFF)
    assert np.array_equal(K, so3.skew(phi))
