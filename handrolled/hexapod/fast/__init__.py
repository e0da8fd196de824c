"""The hexapod's compiled forms, kept apart from the readable model they copy (the
printed path: robot.PlanarHexapod, and the comparison loop's laws in Python):

- ``model``: the whole robot's Heun step and the held semi-implicit Euler step, the same
  equations in the same order as PlanarHexapod;
- ``loop``: the comparison loop's shared laws and the hand-rolled plant's loop over many
  steps (comparisons/hexapod/loop.py runs them by default);
- ``robot``: CompiledPlanarHexapod, the PlanarHexapod that steps by ``model``.

They exist for speed only; tests hold each to the readable form (tests/test_hexapod_
figures.py, tests/test_hexapod_loop_fast.py)."""
