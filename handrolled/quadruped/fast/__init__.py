"""The quadruped's compiled forms, kept apart from the readable model they copy (the
printed path: rnea.py, terms.py, reduced.py, simulation.PinnedFeetSimulation):

- ``model``: the RNEA in body axes, M by composite rigid bodies, the pinned-feet forward
  dynamics and its semi-implicit Euler step;
- ``loop``: the closed loop of section 4 (gait plan, feedforward, PD) over many steps;
- ``trip``: section 6's semi-implicit Euler round trips;
- ``simulation``: CompiledPinnedFeetSimulation, the PinnedFeetSimulation that steps by
  ``model``.

They exist for speed only; tests hold each to the readable form
(tests/test_quadruped_fast.py, tests/test_quadruped_trot.py)."""
