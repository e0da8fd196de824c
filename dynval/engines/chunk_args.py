"""What a compiled chunk of a closed loop takes from an engine simulation to step it and
read points of its links without Python (comparisons/*/compiled.py), gathered once: the
arguments that mujoco_compiled.step_and_forward and state_and_points, or
pybullet_compiled.step_with_point_forces and state_and_points, read."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dynval.engines import mujoco_compiled


def available(sim) -> bool:
    """Whether the engine's compiled calls are at hand for ``sim``."""
    if sim.name == "mujoco":
        return sim.floating and mujoco_compiled.step_addresses() is not None \
            and sim.compiled() is not None
    return sim.name == "pybullet" and sim.compiled() is not None


def step_args(sim, links: Sequence[str], offsets: np.ndarray) -> tuple:
    """The engine's handles for forces at (and reads of) the points ``offsets[k]`` of
    ``links[k]``.  MuJoCo: (step addresses, m, d, qfrc_applied, dofs, qpos, qvel, qadr,
    (xpos, xmat, cvel, subtree_com, body_rootid), the links' body ids, offsets, whether
    the split step applies); PyBullet: (fns, client, body, q_index, u_index, p_BI, R_BI,
    the plan's links, rows, R_LI_T and point links, offsets)."""
    if sim.name == "mujoco":
        c = sim.compiled()
        return (mujoco_compiled.step_addresses(), np.uint64(c.m), np.uint64(c.d),
                c.qfrc_applied, c.dofs, c.qpos, c.qvel, c.qadr,
                (c.xpos, c.xmat, c.cvel, c.subtree_com, c.body_rootid),
                np.array([sim.body_id(link) for link in links], dtype=np.int64), offsets,
                sim._split_step())
    c, plan = sim.compiled(), sim.compiled_points(list(links))
    return (c.fns, c.client, c.body, c.q_index, c.u_index, c.p_BI, c.R_BI, plan.links,
            plan.rows, plan.R_LI_T, plan.point_links, offsets)
