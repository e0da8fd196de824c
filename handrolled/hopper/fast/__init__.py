"""The hopper's compiled forms, kept apart from the readable model they copy (model.py,
contact.py, control.py):

- ``loop``: the closed loop over many steps (the contact law, the controller and the leg
  spring after each step), and what the engines' compiled chunks call between steps.

They exist for speed only; the ci tier's readable run holds them to the readable model
(ladder.readable), and tests/test_hopper_fast_paths.py step by step. The terms' recursion
(recursive.py), which the readable model steps with too, stays beside it."""
