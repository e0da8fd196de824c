"""PyBullet's physics client callable from numba-compiled code, so that a loop whose forces
come from shared code (a contact law, the rover's wheel-soil law) reads, pushes and steps
PyBullet without its Python API.

PyBullet's Python API costs a few microseconds a call and builds a tuple of Python floats
for every number it returns: reading a rover's state and hubs, applying its hub forces and
stepping took about 10 calls, 30-50 times the 3 us step itself.  Under that API lies
Bullet's C client API (``b3...`` in PhysicsClientC_API.h), which the pybullet extension
exports; its Python functions are thin wrappers of it (pybullet.c).  Here the same C
functions are taken from the loaded extension and called from compiled code by address
(dynval.engines.ccall), so a step is the same commands in the same order:

* one actual-state request (:func:`observe`), with forward kinematics and link velocities
  where links are read (what ``getLinkStates(..., computeLinkVelocity=1,
  computeForwardKinematics=1)`` sends), from which the base pose and velocity
  (``getBasePositionAndOrientation``, ``getBaseVelocity``), the joints
  (``getJointStates``) and the links are read (:func:`base_frame`, :func:`points`: the
  Python path's arithmetic, operation for operation);
* a torque-control command (``setJointMotorControlArray(TORQUE_CONTROL)``), one
  external-force command per force (``applyExternalForce(..., WORLD_FRAME)``) and the step
  (``stepSimulation``): :func:`step_with_point_forces`;
* the contact points of a body (``getContactPoints(bodyA=...)``): :func:`contact_forces`.

The one thing pybullet does not export is the client handle behind a physicsClientId: its
own ``getPhysicsClient(int)``, a local symbol of the extension.  :func:`client_handle`
finds it in the extension's ELF symbol table and checks what it returns (the handle must
accept commands and report the body count the Python API reports).  Where any of this is
missing (a stripped or non-ELF build, another layout), None comes back and the callers take
the Python API.  tests/test_engine_c_api.py holds both paths to the same bits.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import struct
from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from dynval._numba_cache import njit
from dynval.engines import ccall

_PTR = ctypes.c_size_t  # pointers travel as pointer-sized integers

# status types and flags of SharedMemoryPublic.h (the last two are pybullet.TORQUE_CONTROL
# and pybullet.WORLD_FRAME; this module imports pybullet only when asked for its functions)
CMD_CLIENT_COMMAND_COMPLETED = 2
CMD_ACTUAL_STATE_UPDATE_COMPLETED = 21
CMD_DESIRED_STATE_RECEIVED_COMPLETED = 25
CMD_STEP_FORWARD_SIMULATION_COMPLETED = 26
CMD_CONTACT_POINT_INFORMATION_COMPLETED = 39
CONTROL_MODE_TORQUE = 1
EF_WORLD_FRAME = 2
LINK_STATE_DOUBLES = 33  # struct b3LinkState: 3+4+3+4+3+4+3+3+3+3 doubles
# struct b3ContactPointData: five ints (flags, body A, body B, link A, link B) padded to 24
# bytes, then positions on A and B, the normal on B, distance, normal force, the two
# friction forces and their two directions: 22 eight-byte words
CONTACT_WORDS = 22
CONTACT_LINK_A = 3  # int index of link A (as int32 words)
CONTACT_NORMAL, CONTACT_NORMAL_FORCE, CONTACT_FRICTION_1, CONTACT_FRICTION_2 = 9, 13, 14, 15
CONTACT_DIRECTION_1, CONTACT_DIRECTION_2 = 16, 19


# The C functions a compiled loop calls, by their index in the address array that
# :func:`functions` returns (see dynval.engines.ccall for why addresses).
_SIGNATURES = (  # (name in the extension, result, arguments), in index order
    ("b3SubmitClientCommandAndWaitStatus", "ptr", "client, command"),
    ("b3GetStatusType", "int", "status"),
    ("b3RequestActualStateCommandInit", "ptr", "client, body"),
    ("b3RequestActualStateCommandComputeLinkVelocity", "int", "command, flag"),
    ("b3RequestActualStateCommandComputeForwardKinematics", "int", "command, flag"),
    ("b3GetStatusActualState", "int", "status, 7 out-pointers"),
    ("b3GetLinkState", "int", "client, status, link, b3LinkState*"),
    ("b3JointControlCommandInit2", "ptr", "client, body, mode"),
    ("b3JointControlSetDesiredForceTorque", "int", "command, dof, value"),
    ("b3ApplyExternalForceCommandInit", "ptr", "client"),
    ("b3ApplyExternalForce", "void", "command, body, link, F*, p*, flag"),
    ("b3InitStepSimulationCommand", "ptr", "client"),
    ("memcpy", "ptr", "dst, src, n (libc: reads through a returned pointer)"),
    ("b3InitRequestContactPointInformation", "ptr", "client"),
    ("b3SetContactFilterBodyA", "void", "command, body"),
    ("b3GetContactPointInformation", "void", "client, b3ContactInformation*"),
)
(SUBMIT, STATUS_TYPE, STATE_INIT, LINK_VELOCITY, FORWARD_KINEMATICS, ACTUAL_STATE, LINK_STATE,
 CONTROL_INIT, SET_TORQUE, FORCE_INIT, APPLY_FORCE, STEP_INIT, MEMCPY, CONTACT_INIT,
 CONTACT_FILTER_A, CONTACT_INFO) = range(len(_SIGNATURES))


_ptr, _int, _void = ccall.call_ptr, ccall.call_int, ccall.call_void


def _elf_symbol(path: Path, name: str) -> int | None:
    """The value (address relative to the load base) of the function ``name`` in the ELF
    file's full symbol table (.symtab, which holds local symbols too), or None. Reads the
    section headers, the symbol table and its strings only (the extension is ~140 MB)."""
    want = name.encode() + b"\x00"
    sym = np.dtype([("name", "<u4"), ("info", "u1"), ("other", "u1"), ("shndx", "<u2"),
                    ("value", "<u8"), ("size", "<u8")])
    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if head[:4] != b"\x7fELF" or head[4] != 2 or head[5] != 1:  # 64-bit LE only
                return None
            shoff, = struct.unpack_from("<Q", head, 0x28)
            shentsize, shnum = struct.unpack_from("<HH", head, 0x3A)
            f.seek(shoff)
            table = f.read(shentsize * shnum)
            sections = [struct.unpack_from("<IIQQQQIIQQ", table, k * shentsize)
                        for k in range(shnum)]
            for sh in sections:
                if sh[1] != 2:  # SHT_SYMTAB
                    continue
                f.seek(sh[4])
                syms = np.frombuffer(f.read(sh[5]), dtype=sym)
                strtab = sections[sh[6]]
                f.seek(strtab[4])
                strings = f.read(strtab[5])
                for s in syms[(syms["info"] & 0xF) == 2]:  # STT_FUNC
                    at = int(s["name"])
                    if strings[at:at + len(want)] == want:
                        return int(s["value"])
    except (OSError, struct.error, ValueError):
        return None
    return None


def _extension() -> Path:
    """The pybullet extension module's file."""
    import pybullet

    return Path(pybullet.__file__)


class CompiledPybullet(NamedTuple):
    """A simulation as compiled code sees it (PybulletSimulation.compiled): the C
    functions, the client handle and body, the joints' q and u indices in the state
    vectors, and the base inertial frame in the base link frame."""

    fns: np.ndarray  # the C functions' addresses (:func:`functions`)
    client: np.uint64
    body: int
    q_index: np.ndarray
    u_index: np.ndarray
    p_BI: np.ndarray
    R_BI: np.ndarray


class CompiledPoints(NamedTuple):
    """How compiled code reads the points of ``PybulletSimulation.points``: the links
    whose states the actual-state request returns (``links``, sorted), for each point the
    row of its link there (-1: the base) and its link's constant R_LI^T, and each point's
    link index (for the forces applied at it)."""

    links: np.ndarray
    rows: np.ndarray
    R_LI_T: np.ndarray
    point_links: np.ndarray


class Plant(NamedTuple):
    """What a compiled chunk takes to step a PybulletSimulation and push at, and read, the
    points ``offsets[k]`` of its links (chunk_args.step_args gathers it once): the
    simulation and the points as compiled code sees them."""

    sim: CompiledPybullet
    points: CompiledPoints
    offsets: np.ndarray


@cache
def functions() -> np.ndarray | None:
    """The addresses of the C functions of _SIGNATURES (uint64, in index order) in the
    loaded pybullet extension and libc, or None where one cannot be found (then loops take
    the Python path)."""
    try:
        lib = ctypes.CDLL(str(_extension()))
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        return np.array([ccall.address(getattr(libc if name == "memcpy" else lib, name))
                         for name, _, _ in _SIGNATURES], dtype=np.uint64)
    except (OSError, AttributeError, TypeError):
        return None


@cache
def _get_physics_client() -> ctypes._CFuncPtr | None:
    """pybullet's own ``getPhysicsClient(int physicsClientId)`` (pybullet.c), located
    through the extension's symbol table and an exported neighbour's load address."""
    path = _extension()
    local = _elf_symbol(path, "getPhysicsClient")
    anchor = _elf_symbol(path, "b3SubmitClientCommandAndWaitStatus")
    if local is None or anchor is None:
        return None
    try:
        lib = ctypes.CDLL(str(path))
        loaded = ccall.address(lib.b3SubmitClientCommandAndWaitStatus)
    except (OSError, AttributeError):
        return None
    return ctypes.CFUNCTYPE(_PTR, ctypes.c_int)(loaded - anchor + local)


def client_handle(client_id: int, bodies: int) -> int | None:
    """The C client handle of pybullet connection ``client_id``, checked: it must accept
    commands and count ``bodies`` bodies, as the Python API does; None otherwise."""
    get = _get_physics_client()
    if get is None or functions() is None:
        return None
    handle = get(client_id)
    if not handle:
        return None
    lib = ctypes.CDLL(str(_extension()))
    lib.b3CanSubmitCommand.argtypes = [_PTR]
    lib.b3GetNumBodies.argtypes = [_PTR]
    if lib.b3CanSubmitCommand(handle) != 1 or lib.b3GetNumBodies(handle) != bodies:
        return None
    return int(handle)


@njit(cache=True)
def quat_xyzw_to_R(x: float, y: float, z: float, w: float) -> np.ndarray:
    """pybullet.getMatrixFromQuaternion, operation for operation (btMatrix3x3::setRotation
    as pybullet.c writes it), so the compiled reads give the Python path's bits."""
    d = x * x + y * y + z * z + w * w
    s = 2.0 / d
    xs, ys, zs = x * s, y * s, z * s
    wx, wy, wz = w * xs, w * ys, w * zs
    xx, xy, xz = x * xs, x * ys, x * zs
    yy, yz, zz = y * ys, y * zs, z * zs
    R = np.empty((3, 3))  # filled in place: a nested list would cost 5x the arithmetic
    R[0, 0], R[0, 1], R[0, 2] = 1.0 - (yy + zz), xy - wz, xz + wy
    R[1, 0], R[1, 1], R[1, 2] = xy + wz, 1.0 - (xx + zz), yz - wx
    R[2, 0], R[2, 1], R[2, 2] = xz - wy, yz + wx, 1.0 - (xx + yy)
    return R


@njit(cache=True, inline="always")
def _matmul_into(A: np.ndarray, B: np.ndarray, out: np.ndarray) -> np.ndarray:
    """A B (or A x) into ``out``: np.dot's BLAS call, the one numpy's matmul makes on the
    Python path (the same float), without a new array for the result."""
    np.dot(A, B, out)
    return out


@njit(cache=True, inline="always")
def _is_identity(S: np.ndarray) -> bool:
    """Whether the 3 x 3 S is exactly the identity."""
    for i in range(3):
        for j in range(3):
            if S[i, j] != (1.0 if i == j else 0.0):
                return False
    return True


@njit(cache=True, inline="always")
def _turn_into(R: np.ndarray, S: np.ndarray, out: np.ndarray) -> np.ndarray:
    """R S into ``out`` as :func:`_matmul_into`, or R copied where S is exactly the
    identity (an inertial frame along its link's axes, the common case): the product's
    values are R's, since it only adds exact zeros to them (only an exact zero's sign may
    differ), without the BLAS call. The Python path (pybullet_client.turn) does the same."""
    if _is_identity(S):
        out[:, :] = R
        return out
    return _matmul_into(R, np.ascontiguousarray(S), out)


@njit(cache=True)
def observe(sim: CompiledPybullet, links: np.ndarray, base: np.ndarray, q: np.ndarray,
            qd: np.ndarray, link_states: np.ndarray) -> None:
    """One actual-state request, with forward kinematics and link velocities where
    ``links`` names any (as getLinkStates(..., computeLinkVelocity=1,
    computeForwardKinematics=1) asks; without, as getBasePositionAndOrientation and
    getJointStates ask); into the given arrays: ``base`` = (p_WI, quat xyzw, v_WI, w_WI) of
    the base inertial frame (13), the joints' positions q and rates qd at their q and u
    indices, and the b3LinkState of each link of ``links`` (rows of LINK_STATE_DOUBLES).
    Raises where PyBullet refuses."""
    fns, client, q_index, u_index = sim.fns, sim.client, sim.q_index, sim.u_index
    cmd = _ptr(fns[STATE_INIT], (client, np.int32(sim.body)))
    if links.shape[0]:
        _int(fns[LINK_VELOCITY], (cmd, np.int32(1)))
        _int(fns[FORWARD_KINEMATICS], (cmd, np.int32(1)))
    status = _ptr(fns[SUBMIT], (client, cmd))
    if _int(fns[STATUS_TYPE], (status,)) != CMD_ACTUAL_STATE_UPDATE_COMPLETED:
        raise RuntimeError("PyBullet refused the actual-state request")
    ptrs = np.zeros(2, np.uint64)  # the status' actualStateQ and actualStateQdot
    null, at = np.uint64(0), np.uint64(ptrs.ctypes.data)
    _int(fns[ACTUAL_STATE], (status, null, null, null, null, at, at + np.uint64(8), null))
    Q, U = ptrs[0], ptrs[1]  # read in place (the status' arrays)
    for i in range(7):
        base[i] = ccall.load_f64(Q, i)
    for i in range(6):
        base[7 + i] = ccall.load_f64(U, i)
    for j in range(q_index.shape[0]):
        q[j] = ccall.load_f64(Q, q_index[j])
        qd[j] = ccall.load_f64(U, u_index[j])
    for k in range(links.shape[0]):
        _int(fns[LINK_STATE], (client, status, np.int32(links[k]),
                               np.uint64(link_states[k].ctypes.data)))


@njit(cache=True)
def base_frame(base: np.ndarray, p_BI: np.ndarray, R_BI: np.ndarray):
    """PybulletSimulation._read_state from the base row of :func:`observe`: (p_WB, R_WB,
    v_WB, w_WB) of the base link frame."""
    R_WI = quat_xyzw_to_R(base[3], base[4], base[5], base[6])
    R_WB = _turn_into(R_WI, R_BI.T, np.empty((3, 3)))
    p_WB = np.zeros(3)
    if p_BI.any():  # R_WB p_BI (a zero p_BI adds exact zeros), then p_WI - it
        _matmul_into(R_WB, p_BI, p_WB)
    for i in range(3):
        p_WB[i] = base[i] - p_WB[i]
    w = base[10:13].copy()
    r0, r1, r2 = p_WB[0] - base[0], p_WB[1] - base[1], p_WB[2] - base[2]  # p_WB - p_WI
    v_WB = np.empty(3)  # v_WI + w x (p_WB - p_WI), engines.base.cross3
    v_WB[0] = base[7] + (w[1] * r2 - w[2] * r1)
    v_WB[1] = base[8] + (w[2] * r0 - w[0] * r2)
    v_WB[2] = base[9] + (w[0] * r1 - w[1] * r0)
    return p_WB, R_WB, v_WB, w


@njit(cache=True)
def points(link_states: np.ndarray, rows: np.ndarray, R_LI_T: np.ndarray,
           p_WB: np.ndarray, R_WB: np.ndarray, v_WB: np.ndarray, w_WB: np.ndarray,
           offsets: np.ndarray, P: np.ndarray, V: np.ndarray) -> None:
    """PybulletSimulation.point for each point ``offsets[k]``, operation for operation:
    from the link's CoM state (row ``rows[k]`` of :func:`observe`'s link states, its
    constant R_LI^T ``R_LI_T[k]``), or from the base frame where ``rows[k]`` is -1:
    p = a + R (o - c), v = v_a + w x (p - a)."""
    R, d, Ro, S = np.empty((3, 3)), np.empty(3), np.empty(3), np.empty((3, 3))
    a, v_a, w = np.empty(3), np.empty(3), np.empty(3)
    for k in range(offsets.shape[0]):
        r = rows[k]
        # (a, R, c, v_a, w) of the point's link, copied by index (no array views)
        if r < 0:
            for i in range(3):
                a[i], v_a[i], w[i], d[i] = p_WB[i], v_WB[i], w_WB[i], offsets[k, i] - 0.0
                for j in range(3):
                    R[i, j] = R_WB[i, j]
        else:
            for i in range(3):
                a[i], v_a[i], w[i] = link_states[r, i], link_states[r, 21 + i], \
                    link_states[r, 24 + i]
                d[i] = offsets[k, i] - link_states[r, 7 + i]
                for j in range(3):
                    S[i, j] = R_LI_T[k, i, j]
            _turn_into(quat_xyzw_to_R(link_states[r, 3], link_states[r, 4],
                                      link_states[r, 5], link_states[r, 6]), S, R)
        _matmul_into(R, d, Ro)  # BLAS, as the Python path's matmul
        for i in range(3):
            P[k, i] = a[i] + Ro[i]
        r0, r1, r2 = P[k, 0] - a[0], P[k, 1] - a[1], P[k, 2] - a[2]  # p - a
        V[k, 0] = v_a[0] + (w[1] * r2 - w[2] * r1)  # v_a + w x (p - a), engines.base.cross3
        V[k, 1] = v_a[1] + (w[2] * r0 - w[0] * r2)
        V[k, 2] = v_a[2] + (w[0] * r1 - w[1] * r0)


@njit(cache=True)
def state_and_points(plant: Plant, base: np.ndarray, q: np.ndarray, qd: np.ndarray,
                     link_states: np.ndarray, P: np.ndarray, V: np.ndarray) -> tuple:
    """PybulletSimulation's state and the plant's points from one actual-state request
    (:func:`observe`, :func:`base_frame` and :func:`points`, as PybulletSimulation.points
    and state read them: the same numbers), the joints into q, qd and the points into P,
    V; ``base`` and ``link_states``: :func:`observe`'s. Returns (p_WB, R_WB, v_WB,
    w_WB)."""
    sim, pts = plant.sim, plant.points
    observe(sim, pts.links, base, q, qd, link_states)
    p_WB, R_WB, v_WB, w_WB = base_frame(base, sim.p_BI, sim.R_BI)
    points(link_states, pts.rows, pts.R_LI_T, p_WB, R_WB, v_WB, w_WB, plant.offsets, P, V)
    return p_WB, R_WB, v_WB, w_WB


@njit(cache=True)
def _status(fns: np.ndarray, client: np.uint64, cmd: np.uint64) -> int:
    """Submit a command and wait: its status type."""
    return _int(fns[STATUS_TYPE], (_ptr(fns[SUBMIT], (client, cmd)),))


@njit(cache=True)
def step_with_point_forces(sim: CompiledPybullet, tau: np.ndarray, links: np.ndarray,
                           P: np.ndarray, F: np.ndarray) -> None:
    """PybulletSimulation.step: joint torques tau (at the joints' u indices), forces F[k]
    [N, world] at the world points P[k] of link ``links[k]`` (one command each, in order),
    then one step. Raises where PyBullet refuses a command."""
    fns, client, body, u_index = sim.fns, sim.client, sim.body, sim.u_index
    if u_index.shape[0]:
        cmd = _ptr(fns[CONTROL_INIT], (client, np.int32(body), np.int32(CONTROL_MODE_TORQUE)))
        for j in range(u_index.shape[0]):
            _int(fns[SET_TORQUE], (cmd, np.int32(u_index[j]), np.float64(tau[j])))
        if _status(fns, client, cmd) != CMD_DESIRED_STATE_RECEIVED_COMPLETED:
            raise RuntimeError("PyBullet refused the joint torques")
    for k in range(links.shape[0]):
        # one command per force, as pybullet sends them: b3ApplyExternalForce stores force
        # k's components at [k + i], the server reads them at [3 k + i], so a second force
        # in one command would overwrite the first (PhysicsClientC_API.cpp, pybullet 3.2.7)
        f = np.ascontiguousarray(F[k])
        p = np.ascontiguousarray(P[k])
        cmd = _ptr(fns[FORCE_INIT], (client,))
        _void(fns[APPLY_FORCE], (cmd, np.int32(body), np.int32(links[k]),
                                 np.uint64(f.ctypes.data), np.uint64(p.ctypes.data),
                                 np.int32(EF_WORLD_FRAME)))
        if _status(fns, client, cmd) != CMD_CLIENT_COMMAND_COMPLETED:
            raise RuntimeError("PyBullet refused an external force")
    _step(fns, client)


@njit(cache=True)
def _step(fns: np.ndarray, client: np.uint64) -> None:
    """One step command (stepSimulation). Raises where PyBullet refuses it."""
    if _status(fns, client, _ptr(fns[STEP_INIT], (client,))) \
            != CMD_STEP_FORWARD_SIMULATION_COMPLETED:
        raise RuntimeError("PyBullet refused the step")


@njit(cache=True)
def bare_steps(fns: np.ndarray, client: np.uint64, n: int) -> None:
    """n step commands and nothing else: the benchmarks' bare step, without Python."""
    for _ in range(n):
        _step(fns, client)


@njit(cache=True)
def plant_steps(plant: Plant, P: np.ndarray, n: int) -> None:
    """n plant steps as a compiled chunk makes them, without a robot's laws: zero efforts
    and zero forces at the points P (read on the current state, updated by each read),
    :func:`step_with_point_forces`, then the state and the points read
    (:func:`state_and_points`)."""
    sim, pts, offsets = plant
    nj = sim.q_index.shape[0]
    base, q, qd = np.empty(13), np.empty(nj), np.empty(nj)
    link_states = np.empty((pts.links.shape[0], LINK_STATE_DOUBLES))
    tau, F, V = np.zeros(nj), np.zeros((offsets.shape[0], 3)), np.empty((offsets.shape[0], 3))
    for _ in range(n):
        step_with_point_forces(sim, tau, pts.point_links, P, F)
        state_and_points(plant, base, q, qd, link_states, P, V)


@njit(cache=True)
def contact_forces(fns: np.ndarray, client: np.uint64, body: int, row_of_link: np.ndarray,
                   out: np.ndarray) -> None:
    """Add to out[row_of_link[l + 1]] (rows of 3, -1: not asked for) the native-contact
    force [N, world] of each of ``body``'s contact points on its link l:
    f_n n + f_1 t1 + f_2 t2, point by point in the order getContactPoints(bodyA=body)
    lists them, the sums PybulletSimulation.contact_force_rows makes."""
    cmd = _ptr(fns[CONTACT_INIT], (client,))
    _void(fns[CONTACT_FILTER_A], (cmd, np.int32(body)))
    if _status(fns, client, cmd) != CMD_CONTACT_POINT_INFORMATION_COMPLETED:
        raise RuntimeError("PyBullet refused the contact-point request")
    info = np.zeros(2, np.uint64)  # struct b3ContactInformation: int count, then a pointer
    _void(fns[CONTACT_INFO], (client, np.uint64(info.ctypes.data)))
    n = info.view(np.int32)[0]
    data = np.empty(n * CONTACT_WORDS)
    _ptr(fns[MEMCPY], (np.uint64(data.ctypes.data), info[1], np.uint64(8 * data.shape[0])))
    words = data.view(np.int32)
    for k in range(n):
        r = row_of_link[words[2 * CONTACT_WORDS * k + CONTACT_LINK_A] + 1]
        if r < 0:
            continue
        c = data[CONTACT_WORDS * k:CONTACT_WORDS * (k + 1)]
        f_n, f_1, f_2 = c[CONTACT_NORMAL_FORCE], c[CONTACT_FRICTION_1], c[CONTACT_FRICTION_2]
        for a in range(3):
            out[r, a] += (f_n * c[CONTACT_NORMAL + a] + f_1 * c[CONTACT_DIRECTION_1 + a]
                          + f_2 * c[CONTACT_DIRECTION_2 + a])
