"""The quadruped paper's model: D-H kinematics, Craig's recursive Newton-Euler algorithm,
the assumed ground-reaction distribution, M/C/G by the RNEA and the gaits."""
