"""The acrobot of acrobot.py with one deliberate error, the kind a hand derivation makes:
the Coriolis term of the shoulder has its sign flipped. dynval's audit names the term
(bias, inverse dynamics) and the coordinate (shoulder):

    dynval audit --model docs/examples/acrobot_wrong_sign.py:AcrobotWrongSign \\
        --description docs/examples/acrobot.urdf
"""

from __future__ import annotations

import math

import numpy as np
from acrobot import Acrobot


class AcrobotWrongSign(Acrobot):
    def coriolis(self, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        h = self.m2 * self.l1 * self.lc2 * math.sin(q[1])
        return np.array([+2 * h * v[0] * v[1] + h * v[1] ** 2, h * v[0] ** 2])  # sign error
