"""The landing gear's compiled forms, kept apart from the readable model they copy
(model.py, contact.py, control.py, single_leg.py):

- ``loop``: the hand-rolled closed loop with the shared contact law over many steps, and
  the contact law and controllers the engines' compiled chunks call between steps.

They exist for speed only; the ci tier's readable run holds them to the readable model
(ladder.readable), and tests/test_landing_gear_fast_paths.py step by step."""
