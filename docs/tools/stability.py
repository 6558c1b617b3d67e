#!/usr/bin/env python3
"""Linear stability bounds of the TSSIMPVI schemes, from the same discrete action the library uses.

For the oscillator L = v^2/2 - x^2/2 (omega = 1) one step (q_j, p_j) -> (q_{j+1}, p_{j+1}) is a linear map of
determinant 1 (symplectic); it is stable (bounded powers) while |trace| < 2. This script builds that map from the
nodes, weights and the matrices B_ki = phi_i(tau_k), D_ki = phi_i'(tau_k) of docs/mathematics.md, for h = z, and finds
by bisection the first z where |trace| reaches 2.

  stability.py          print, for each scheme, the bound on omega*h (infinite: unconditionally stable up to z = 50)
  stability.py --check  exit 1 unless the bounds are those docs/mathematics.md states (2, 2 sqrt 2, 3.11, none)
Python 3 standard library only.
"""
import math
import sys

SQ5, SQ3 = math.sqrt(5), math.sqrt(3)
LOBATTO_NODES = {1: [0, 1], 2: [0, 0.5, 1], 3: [0, (1 - 1 / SQ5) / 2, (1 + 1 / SQ5) / 2, 1]}
LOBATTO_WEIGHTS = {1: [0.5, 0.5], 2: [1 / 6, 4 / 6, 1 / 6], 3: [1 / 12, 5 / 12, 5 / 12, 1 / 12]}
GAUSS = {1: ([0.5], [1.0]), 2: ([0.5 - SQ3 / 6, 0.5 + SQ3 / 6], [0.5, 0.5])}
SCHEMES = [("midpoint", 1, "gauss"), ("trapezoid", 1, "lobatto"), ("simpson", 2, "lobatto"), ("lobatto", 3, "lobatto"),
           ("gauss", 2, "gauss")]


def basis(c, i, t):
    """phi_i(t) and phi_i'(t), the Lagrange basis on the nodes c"""
    val, der = 1.0, 0.0
    for m, cm in enumerate(c):
        if m == i:
            continue
        der = der * (t - cm) / (c[i] - cm) + val / (c[i] - cm)
        val *= (t - cm) / (c[i] - cm)
    return val, der


def solve(A, b):
    n = len(b)
    M = [row[:] + [b[r]] for r, row in enumerate(A)]
    for k in range(n):
        piv = max(range(k, n), key=lambda r: abs(M[r][k]))
        M[k], M[piv] = M[piv], M[k]
        for r in range(k + 1, n):
            f = M[r][k] / M[k][k]
            for c in range(k, n + 1):
                M[r][c] -= f * M[k][c]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (M[r][n] - sum(M[r][c] * x[c] for c in range(r + 1, n))) / M[r][r]
    return x


def trace(s, quad, h):
    c = LOBATTO_NODES[s]
    tau, w = (LOBATTO_NODES[s], LOBATTO_WEIGHTS[s]) if quad == "lobatto" else GAUSS[s]
    B = [[basis(c, i, t)[0] for i in range(s + 1)] for t in tau]
    D = [[basis(c, i, t)[1] for i in range(s + 1)] for t in tau]
    # dLd/dQ_i = sum_k w_k (D_ki v_k - h B_ki x_k), x_k = sum_l B_kl Q_l, v_k = sum_l D_kl Q_l / h: a matrix S Q
    S = [[sum(w[k] * (D[k][i] * D[k][l] / h - h * B[k][i] * B[k][l]) for k in range(len(tau))) for l in range(s + 1)]
         for i in range(s + 1)]
    tr = 0.0
    for col, (q0, p0) in enumerate(((1.0, 0.0), (0.0, 1.0))):
        # unknowns Q_1..Q_s: p0 + (S Q)_0 = 0 and (S Q)_i = 0, 0 < i < s
        A = [[S[i][l] for l in range(1, s + 1)] for i in range(s)]
        b = [-p0 - S[0][0] * q0] + [-S[i][0] * q0 for i in range(1, s)]
        Q = [q0] + solve(A, b)
        p1 = sum(S[s][l] * Q[l] for l in range(s + 1))
        tr += Q[s] if col == 0 else p1
    return tr


def bound(s, quad, zmax=50.0):
    z, dz = 1e-3, 1e-2
    while z < zmax and abs(trace(s, quad, z)) < 2:
        z += dz
    if z >= zmax:
        return math.inf
    lo, hi = z - dz, z
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if abs(trace(s, quad, mid)) < 2 else (lo, mid)
    return lo


# what docs/mathematics.md section 7 states, to the digits it states
DOCUMENTED = {"midpoint": math.inf, "trapezoid": 2.0, "simpson": 2 * math.sqrt(2), "lobatto": 3.11, "gauss": math.inf}


if __name__ == "__main__":
    status = 0
    for name, s, quad in SCHEMES:
        b = bound(s, quad)
        ok = b == DOCUMENTED[name] or abs(b - DOCUMENTED[name]) < 0.005
        print(f"{name:10s} degree {s}: stable while omega*h < {'infinity' if math.isinf(b) else f'{b:.4f}'}"
              f"{'' if ok else '   (docs/mathematics.md says otherwise)'}")
        status |= not ok
    print(f"(2*sqrt(2) = {2 * math.sqrt(2):.4f})")
    sys.exit(status if "--check" in sys.argv[1:] else 0)
