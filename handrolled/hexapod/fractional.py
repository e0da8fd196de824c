"""The fractional derivative of eq. (15) and its discrete approximation (16): where Table
III's coefficients come from, and the discrete controller's frequency response.

Recomputation of Table III. With the backward difference s ~ (1 - z^-1) / T_c (the
Grunwald-Letnikov definition (15b) sampled at h = T_c = 1 / f_sc), s^alpha ~ T_c^-alpha
(1 - z^-1)^alpha, whose power series in x = z^-1 has the Grunwald-Letnikov weights
w_k = (-1)^k Gamma(alpha + 1) / (Gamma(k + 1) Gamma(alpha - k + 1)) = (-1)^k C(alpha, k)
as coefficients. Table III is the [4/4] Pade approximant about x = 0 of that series,
(1 - x)^alpha ~ sum_k a_k x^k / sum_k b_k x^k, for alpha = 0.5: the rational function whose
series agrees with w_0..w_8. :func:`pade_coefficients` computes it from the weights.

Eq. (16) has one gain K_j in front of the ratio, so it can only be the derivative term
K_alpha s^alpha of (14): K_j = K_alpha T_c^-alpha, and G_c1(z) = K_p + K_j A(z^-1)/B(z^-1).

Eq. (15b) as printed sums from k = 1; the k = 0 term x(t) (weight 1) is missing, and
without it the limit h -> 0 diverges even for a constant signal (the weights from k = 1 sum
to -1, so the sum tends to -x / h^alpha). :func:`gl_weights` starts at k = 0;
``printed=True`` drops the first weight, as printed.
"""

from __future__ import annotations

import numpy as np


def gl_weights(alpha: float, N: int, printed: bool = False) -> np.ndarray:
    """w_k, k = 0..N-1, of eq. (15b): (-1)^k Gamma(alpha+1) / (Gamma(k+1) Gamma(alpha-k+1)),
    by the recursion w_k = w_{k-1} (1 - (alpha + 1) / k) (the gamma ratio overflows and
    meets poles at integer alpha - k + 1). ``printed``: w_0 = 0 as eq. (15b) is printed."""
    w = np.empty(N)
    w[0] = 1.0
    for k in range(1, N):
        w[k] = w[k - 1] * (1.0 - (alpha + 1.0) / k)
    if printed:
        w[0] = 0.0
    return w


def gl_weight_gamma(alpha: float, k: int) -> float:
    """One weight w_k written with the gamma functions exactly as eq. (15b) (small k)."""
    from scipy.special import gamma  # slow to import: only here

    return (-1) ** k * gamma(alpha + 1) / (gamma(k + 1) * gamma(alpha - k + 1))


def pade_coefficients(alpha: float, order: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """[order/order] Pade approximant of (1 - x)^alpha about x = 0 from its series w_k:
    (a_0..a_order, b_0..b_order) with b_0 = 1, the coefficients a_ijk, b_ijk of eq. (16).

    The denominator solves sum_{j=0}^{m} b_j w_{k-j} = 0 for k = m+1..2m, and the numerator
    is a_k = sum_{j<=k} b_j w_{k-j}, k = 0..m (the series of B (1-x)^alpha truncated)."""
    m = order
    w = gl_weights(alpha, 2 * m + 1)
    # unknowns b_1..b_m: sum_{j=1}^m b_j w_{k-j} = -w_k, k = m+1..2m
    Mx = np.array([[w[k - j] for j in range(1, m + 1)] for k in range(m + 1, 2 * m + 1)])
    b = np.concatenate([[1.0], np.linalg.solve(Mx, -w[m + 1: 2 * m + 1])])
    a = np.array([sum(b[j] * w[k - j] for j in range(k + 1)) for k in range(m + 1)])
    return a, b


def K_derivative(K_alpha: float, alpha: float, f_sc: float) -> float:
    """K_j of eq. (16): the derivative gain K_alpha times T_c^-alpha = f_sc^alpha."""
    return K_alpha * f_sc**alpha


def frequency_response(a: np.ndarray, b: np.ndarray, K: float, omega: np.ndarray,
                       f_sc: float) -> np.ndarray:
    """K A(z^-1) / B(z^-1) at z = exp(j omega T_c), omega in rad/s (eq. 16)."""
    x = np.exp(-1j * np.asarray(omega, float) / f_sc)
    return K * np.polyval(a[::-1], x) / np.polyval(b[::-1], x)


def s_alpha(omega: np.ndarray, alpha: float) -> np.ndarray:
    """(j omega)^alpha, the continuous operator of eq. (15a)."""
    return (1j * np.asarray(omega, float)) ** alpha


class GrunwaldLetnikov:
    """D^alpha by the sum (15b) from k = 0 over the whole memory, one call per sample at
    h = T_c: y_k = h^-alpha sum_{i=0}^{k} w_i e_{k-i} (the gain K_j carries h^-alpha, as in
    eq. (16)). No truncation: the Pade filter of eq. (16) approximates this operator."""

    def __init__(self, alpha: float, K: float = 1.0, chunk: int = 4096) -> None:
        self.alpha, self.K, self.chunk = alpha, K, chunk
        self.w = gl_weights(alpha, chunk)
        self.e: list[float] = []

    def reset(self) -> None:
        self.e = []

    def __call__(self, e_k: float) -> float:
        self.e.append(float(e_k))
        n = len(self.e)
        if n > len(self.w):
            self.w = gl_weights(self.alpha, len(self.w) + self.chunk)
        return self.K * float(self.w[:n] @ np.asarray(self.e[::-1]))


class DiscreteFilter:
    """y_k = (sum_i a_i e_{k-i} - sum_{i>=1} b_i y_{k-i}) / b_0: eq. (16) in the time
    domain, one call per controller sample."""

    def __init__(self, a: np.ndarray, b: np.ndarray, K: float = 1.0) -> None:
        self.a, self.b, self.K = np.asarray(a, float), np.asarray(b, float), K
        self.e = np.zeros(len(a))
        self.y = np.zeros(len(b))

    def reset(self) -> None:
        self.e[:] = 0.0
        self.y[:] = 0.0

    def __call__(self, e_k: float) -> float:
        self.e[1:] = self.e[:-1]  # shift the histories by one sample (in place)
        self.e[0] = e_k
        y_k = (self.a @ self.e - self.b[1:] @ self.y[:-1]) / self.b[0]
        self.y[1:] = self.y[:-1]
        self.y[0] = y_k
        return self.K * y_k
