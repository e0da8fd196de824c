"""What a compiled chunk of a closed loop takes from an engine simulation to step it and
read points of its links without Python (comparisons/*/compiled.py), gathered once: the
records (mujoco_compiled.Plant, pybullet_compiled.Plant) whose fields
mujoco_compiled.step_and_forward and state_and_points, or
pybullet_compiled.step_with_point_forces and state_and_points, read."""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from dynval.engines import mujoco_compiled, pybullet_compiled


def available(sim) -> bool:
    """Whether the engine's compiled calls are at hand for ``sim``."""
    if sim.name == "mujoco":
        return sim.floating and sim.compiled() is not None
    return sim.name == "pybullet" and sim.compiled() is not None


def contacts_readable(sim) -> bool:
    """Whether compiled code can read the engine's own contact forces for ``sim``:
    PyBullet's C client, or MuJoCo's library and its contact list
    (MujocoSimulation.compiled_contacts), whatever the model's root."""
    return sim.compiled() is not None and (sim.name == "pybullet"
                                           or sim.compiled_contacts() is not None)


def native_available(sim) -> bool:
    """Whether a chunk that reads a free root (:func:`available`) can run ``sim`` with
    its own contact (:func:`contacts_readable`)."""
    return available(sim) and contacts_readable(sim)


def contact_args(sim, links: Sequence[str], native: bool
                 ) -> tuple[np.ndarray, mujoco_compiled.ContactList | None]:
    """What a chunk reads of the engine's own contact: the contact-row table of ``links``
    (empty without ``native``) and, for MuJoCo, its contact list (NO_CONTACTS where it is
    not at hand; None for PyBullet, whose chunk asks its client)."""
    if native and not contacts_readable(sim):
        raise ValueError("compiled chunks with an engine's own contact need its contact "
                         "list at hand in compiled code")
    rows = sim.contact_row_table(tuple(links)) if native else np.empty(0, dtype=np.int64)
    if sim.name != "mujoco":
        return rows, None
    return rows, sim.compiled_contacts() or mujoco_compiled.NO_CONTACTS


def step_args(sim, links: Sequence[str], offsets: np.ndarray
              ) -> mujoco_compiled.Plant | pybullet_compiled.Plant:
    """What a compiled chunk takes from ``sim`` to push at, and read, the points
    ``offsets[k]`` of ``links[k]``: mujoco_compiled.Plant or pybullet_compiled.Plant."""
    if sim.name == "mujoco":
        bodies = np.array([sim.body_id(link) for link in links], dtype=np.int64)
        return mujoco_compiled.Plant(sim.compiled(), bodies, offsets, sim.split_step())
    return pybullet_compiled.Plant(sim.compiled(), sim.compiled_points(list(links)), offsets)


def plant_step_seconds(sim, links: Sequence[str], offsets: np.ndarray, n: int
                       ) -> float | None:
    """Seconds per plant step as a compiled chunk makes it, the robot's laws left out:
    joint efforts and forces at the points ``offsets[k]`` of ``links[k]``, the step, the
    state and the points read (mujoco_compiled.plant_steps, pybullet_compiled.plant_steps),
    over n steps from the current state, which is restored afterwards: what the engine
    side of a loop costs, against its bare step. None where the compiled calls are not at
    hand."""
    if not available(sim):
        return None
    plant = step_args(sim, links, np.ascontiguousarray(offsets, dtype=float))
    with sim.restored():
        if sim.name == "mujoco":
            def steps(k: int) -> None:
                mujoco_compiled.plant_steps(plant, k)
        else:
            P = sim.points(list(links), plant.offsets)[0].copy()

            def steps(k: int) -> None:
                pybullet_compiled.plant_steps(plant, P, k)
        steps(1)  # compiled on first use
        t0 = time.perf_counter()
        steps(n)
        return (time.perf_counter() - t0) / n
