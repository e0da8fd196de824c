"""The hopper's compiled forms, kept apart from the readable model they copy (model.py,
contact.py, control.py):

- ``recursive``: eq. (19)'s terms by the O(n) recursions (12), (15), (18) instead of the
  operator products, and the semi-implicit Euler step with them;
- ``loop``: the closed loop over many steps (the contact law, the controller and the leg
  spring after each step), and what the engines' compiled chunks call between steps.

They exist for speed only; the ci tier's readable run holds them to the readable model
(ladder.readable), tests/test_hopper_model.py term by term and
tests/test_hopper_fast_paths.py step by step."""
