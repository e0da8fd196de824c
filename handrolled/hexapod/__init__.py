"""The planar hexapod of Silva, Tenreiro Machado and Lopes (Robotica 2005): gait and foot
trajectory planning (eqs. 1-4), the legs' Lagrange dynamics (5)-(6), the segmented body
(10), transmissions (7)-(9), the foot-ground laws (11)-(13) and the fractional-order
controller (14)-(16). No engine imports."""
