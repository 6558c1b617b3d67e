#!/usr/bin/python3
"""Work-precision benchmark: simpvi's schemes against PETSc's TS types, wall time to a relative energy and state error.

  /usr/bin/python3 bench/workprecision.py [--bindir build/bench] [--out DIR] [--quick] [--reps N]
  (or: cmake --build build --target workprecision)

For each problem and method it runs a ladder of fixed steps h0, h0/2, h0/4, ... (one process per run, the -wp
record of examples/workprecision.h: the wall time inside the steps, the largest relative energy error over the steps,
the relative max-norm error of the final state against a reference run), until the method reaches 1e-12 in both errors
or a run exceeds the problem's time cap. The runs of all methods are interleaved (round-robin in a shuffled order, then
--reps rounds over every point again), each point keeps its cheapest time. The table gives, for each target error, the
cheapest run that reaches it and its time over the cheapest simpvi run that reaches it. Writes OUT/performance.md and
OUT/img/wp-*.png (default: docs/ of the source tree). --quick: small problems and short horizons, the ladders only (a smoke
test: the ctest test bench-workprecision-quick). Every number in the report comes from the runs of this job.
"""
import argparse
import math
import os
import random
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "docs", "tools"))
sys.dont_write_bytecode = True  # no __pycache__ in docs/tools
import stability  # noqa: E402  (the schemes' bounds on omega*h, from the same discrete action as the library)

TARGETS = (1e-6, 1e-9, 1e-12)
SQRT2 = math.sqrt(2.0)
RATIO_MAX = 12.0  # a PETSc method's ladder stops once it is this many times slower than simpvi's best

# PETSc's implicit types solve each step to about round-off, with a direct solve, as TSSIMPVI does by default
NEWTON_LU = ["-snes_rtol", "1e-12", "-ksp_type", "preonly", "-pc_type", "lu"]
# TSIRK builds its stage Jacobian as if dF/dU' = I (explicit ODEs only), which the phase-space form is not: the
# adapter declares TS_EQ_ODE_IMPLICIT and TSIRK's Jacobian then stops with an error. Matrix-free Newton (differences
# of the stage residual, unpreconditioned GMRES to 1e-8, the differences' accuracy) never calls it
NEWTON_IRK = ["-snes_rtol", "1e-12", "-snes_mf", "-ksp_type", "gmres", "-pc_type", "none", "-ksp_rtol", "1e-8"]


def simpvi(scheme, degree=None):
    opts = ["-ts_type", "simpvi", "-ts_simpvi_type", scheme]
    if degree:
        opts += ["-ts_simpvi_degree", str(degree)]
    return opts


# label, kind (simpvi or petsc), options, needs: None, "separable", "i2", "phase" (a first-order TS on (q, p))
METHODS = [
    ("midpoint", "simpvi", simpvi("midpoint"), None),
    ("trapezoid", "simpvi", simpvi("trapezoid"), None),
    ("simpson", "simpvi", simpvi("simpson"), None),
    ("lobatto 3", "simpvi", simpvi("lobatto", 3), None),
    ("lobatto 4", "simpvi", simpvi("lobatto", 4), None),
    ("gauss 2", "simpvi", simpvi("gauss", 2), None),
    ("gauss 3", "simpvi", simpvi("gauss", 3), None),
    ("rk 4", "petsc", ["-ts_type", "rk", "-ts_rk_type", "4"], "phase"),
    ("theta 0.5", "petsc", ["-ts_type", "theta", "-ts_theta_theta", "0.5"] + NEWTON_LU, "phase"),
    ("bdf 4", "petsc", ["-ts_type", "bdf", "-ts_bdf_order", "4"] + NEWTON_LU, "phase"),
    ("irk 2", "petsc", ["-ts_type", "irk", "-ts_irk_nstages", "2"] + NEWTON_IRK, "phase"),
    ("irk 3", "petsc", ["-ts_type", "irk", "-ts_irk_nstages", "3"] + NEWTON_IRK, "phase"),
    ("alpha2", "petsc", ["-ts_type", "alpha2"] + NEWTON_LU, "i2"),
] + [("basicsymplectic %d" % k, "petsc", ["-ts_type", "basicsymplectic", "-ts_basicsymplectic_type", str(k)], "separable")
     for k in (1, 2, 3, 4)]


def problems(quick):
    """Each problem: its program, fixed options, how a step h becomes options, the horizon, the first step of the
    ladders, the time cap of a run (seconds), the methods that apply and the reference method and step."""
    q = quick
    P = []
    T = 50.0 if q else 1000.0  # the "over 1000 s"
    P.append(dict(key="pendulum", T=T, title="Pendulum q'' = -sin q, q(0) = pi/2 (period 7.42)", exe="workprecision",
                  args=["-problem", "pendulum", "-T", str(T)], step=lambda h: ["-dt", repr(h)], integer=False,
                  horizon="T = %g s (%d periods)" % (T, round(T / 7.4163)), h0=1.0, cap=1.0 if q else 1.5,
                  kinds=(None, "phase", "separable"), ref=(simpvi("lobatto", 5), 0.05)))
    T = 20.0 if q else 100.0  # 1000 s would take 10 times as long
    P.append(dict(key="doublependulum", T=T, title="Nonlinear double pendulum (examples/ex2.c), q(0) = (pi/4, pi/3)",
                  exe="dpend", args=["-methods", "default", "-T", str(T)], step=lambda h: ["-dts", repr(h)],
                  integer=False, horizon="T = %g s (scaled down from the issue's 1000 s for time: RK4's energy error "
                  "grows with T, the symplectic schemes' does not)" % T, h0=0.1, cap=1.0 if q else 2.0,
                  kinds=(None, "phase"), ref=(simpvi("lobatto", 5), 0.01 if q else 0.005)))
    P_ = 5 if q else 50
    P.append(dict(key="top", title="Lagrange top (examples/ex4.c, Table 3 data; nutation period 1.8467 s)", exe="top",
                  args=["-methods", "midpoint", "-periods", str(P_)], step=lambda m: ["-meshes", str(m)],
                  integer=True, horizon="%d nutation periods" % P_, h0=8, cap=1.0 if q else 2.0,
                  kinds=(None, "phase"), ref=(simpvi("lobatto", 5), 128)))
    n, T = (16, 20.0) if q else (64, 200.0)
    P.append(dict(key="fput", T=T, title="FPU-beta chain of %d masses (examples/ex6.c), energy in the lowest mode" % n,
                  exe="chain", args=["-n", str(n), "-final_time", str(T), "-serial", "0", "-recurrence", "0"],
                  step=lambda h: ["-dt", repr(h)], integer=False, horizon="T = %g" % T, h0=0.8,
                  cap=1.0 if q else 1.5, kinds=(None, "phase", "separable"), ref=(simpvi("lobatto", 5), 0.025)))
    n, T = (500, 20.0) if q else (10000, 20.0)
    P.append(dict(key="linearchain", T=T, title="Linear chain of %d masses through PETSc's I2 interface (bench/workprecision.c)" % n,
                  exe="workprecision", args=["-problem", "chain", "-n", str(n), "-T", str(T), "-width", "3"],
                  step=lambda h: ["-dt", repr(h)], integer=False, horizon="T = %g (from rest in a pulse of 3 masses)" % T, h0=1.4,
                  cap=1.0 if q else 4.0, kinds=(None, "i2"), exact_how="normal modes",
                  exact=lambda path, n=n, T=T: chain_exact(n, 3.0, T, path)))
    return P


def sinegordon(quick):
    n, T = (999, 0.5) if quick else (99999, 0.1)
    return dict(key="sinegordon", title="Sine-Gordon kink, %d unknowns (examples/ex7.c, -bc fixed)" % n, exe="kink",
                args=["-n", str(n), "-T", str(T), "-levels", "1", "-bc", "fixed", "-ts_simpvi_direct_limit", "10000000"],
                n=n, T=T, L=20.0, horizon="T = %g" % T, cap=30.0 if not quick else 5.0)


class Runner:
    def __init__(self, bindir, tmp, log):
        self.bindir, self.tmp, self.log = bindir, tmp, log
        self.count, self.seconds, self.diverged = 0, 0.0, 0

    def run(self, exe, opts, timeout=300):
        cmd = [os.path.join(self.bindir, exe)] + opts + ["-wp", "-ts_adapt_type", "none"]
        t0 = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            out, ok = p.stdout + p.stderr, p.returncode == 0
        except subprocess.TimeoutExpired:
            out, ok = "timeout", False
        self.count += 1
        self.wall = time.time() - t0
        self.seconds += self.wall
        recs = re.findall(r"^WP steps=(\d+) time=(\S+) newton=(\d+) energy=(\S+) state=(\S+) diverged=(\d+)", out, re.M)
        self.log.write("$ %s\n%s\n" % (" ".join(cmd), recs[-1] if recs else out[-2000:]))
        self.last = "error"
        if not ok or not recs:
            return None
        s, t, nw, e, x, dv = recs[-1]
        if int(dv) > 0:  # steps whose Newton iteration failed but the TS went on: no result
            self.diverged += 1
            self.last = "diverged"
            return None
        r = dict(steps=int(s), time=float(t), newton=int(nw), energy=float(e), state=float(x))
        if not all(math.isfinite(r[k]) for k in ("energy", "state")):
            return None
        if "-wp_reference" in opts and not r["state"] >= 0:  # the program did not compare: never read as a result
            raise SystemExit("workprecision.py: no state error from %s" % " ".join(cmd))
        return r


def write_petsc_vec(path, x):
    """x in PETSc's binary Vec format (VecLoad()): class id, size, big-endian doubles"""
    import numpy as np
    with open(path, "wb") as f:
        f.write(struct.pack(">ii", 1211214, len(x)))
        f.write(np.asarray(x, dtype=">f8").tobytes())


def chain_exact(n, width, T, path):
    """The linear chain's exact (u, v)(T) from rest in the pulse (bench/workprecision.c) by its normal modes
    sin(pi i j/(n+1)), omega_j = 2 sin(j pi/(2(n+1))): a sine transform (DST-I, through the FFT) and back"""
    import numpy as np

    def dst(x):  # y_k = sum_i x_i sin(pi (i+1)(k+1)/(n+1))
        z = np.zeros(2 * (n + 1))
        z[1:n + 1], z[n + 2:] = x, -x[::-1]
        return -np.fft.fft(z).imag[1:n + 1] / 2
    i = np.arange(n)
    c = dst(np.exp(-((i - 0.5 * (n - 1)) / width) ** 2)) * 2 / (n + 1)
    w = 2 * np.sin(np.arange(1, n + 1) * np.pi / (2 * (n + 1)))
    write_petsc_vec(path, np.concatenate([dst(c * np.cos(w * T)), dst(-c * w * np.sin(w * T))]))


def reference(R, prob, ladder_step):
    """The reference state and a word on its accuracy: the exact solution where the problem has one, else a
    high-order run with a small step, checked against the same run with twice the step"""
    fine = os.path.join(R.tmp, prob["key"] + "-ref.bin")
    if "exact" in prob:
        prob["exact"](fine)
        return fine, "exact (%s)" % prob["exact_how"]
    opts, h = prob["ref"]
    coarse_h = h // 2 if prob["integer"] else 2 * h
    r = R.run(prob["exe"], prob["args"] + ladder_step(h) + opts + ["-wp_save", fine])
    c = R.run(prob["exe"], prob["args"] + ladder_step(coarse_h) + opts + ["-wp_reference", fine])
    if r is None or c is None:
        raise SystemExit("workprecision.py: the reference run of %s failed (see the log)" % prob["key"])
    return fine, "%s with %s; the same with twice its step differs from it by %.1e (state errors near that are " \
        "not resolved)" % (" ".join(opts[2:]), ("%d steps per period" if prob["integer"] else "h = %g") % h, c["state"])


def ladder(prob, k):
    """The k-th step of the ladders, halving from h0 (k may be a half: the step between two rungs): steps per period
    (integer problems), or h = T/N with N = ceil(N0 2^k), so that every run ends exactly at T (the programs take
    round(T/h) steps)"""
    if prob["integer"]:
        return max(1, int(round(prob["h0"] * 2 ** k)))
    T = prob["T"]
    return T / math.ceil(T / prob["h0"] * 2 ** k - 1e-9)


def progress(prev, r):
    """r improves on prev in a metric still above the last target"""
    return any(r[m] > TARGETS[-1] and r[m] < 0.7 * prev[m] for m in ("energy", "state"))


def decisive(points, kinds=None):
    """The points a table entry reads: for each method, metric and target, the cheapest run that reaches it"""
    out = []
    for m in points:
        for metric in ("energy", "state"):
            for tgt in TARGETS:
                p = cheapest(points[m], metric, tgt)
                if p is not None and all(p is not q for q in out):
                    out.append(p)
    return out


def retime(R, exe, pts, reps, ref):
    """The times the tables read: `reps` rounds over the points pts (of all methods, shuffled in each round), each
    point keeping its cheapest time of these rounds (the exploration's times only steer the ladders)"""
    best = {id(p): math.inf for p in pts}
    for _ in range(reps):
        random.shuffle(pts)
        for p in pts:
            r = R.run(exe, p["opts"] + ["-wp_reference", ref])
            if r is not None:
                best[id(p)] = min(best[id(p)], r["time"])
    for p in pts:
        if math.isfinite(best[id(p)]):
            p["time"] = best[id(p)]
            p["timed"] = True


def extrapolate(pts, metric, target):
    """(time, order): the time to reach target extrapolated from the last two runs with the order they show, or None"""
    pts = sorted([p for p in pts if p[metric] > 0], key=lambda p: p["steps"])
    if len(pts) < 2:
        return None
    a, b = pts[-2], pts[-1]
    if a[metric] <= b[metric] or a["steps"] >= b["steps"]:
        return None
    order = math.log(a[metric] / b[metric]) / math.log(b["steps"] / a["steps"])
    if not 0.5 < order < 16:
        return None
    return b["time"] * (b[metric] / target) ** (1 / order), order


def predicted(pts):
    """The time the method's ladder would take to reach its next target in either error, extrapolated from its last
    two runs with the order they show; 0 (no prediction) with fewer than two runs, where they show no order yet or
    where the last error is above 1e-2"""
    if len(pts) < 2:
        return 0.0
    a, b = pts[-2], pts[-1]
    t, seen = math.inf, False
    for metric in ("energy", "state"):
        nxt = [x for x in TARGETS if x < min(p[metric] for p in pts)]
        if not nxt:
            continue
        if b[metric] <= 0 or a[metric] <= b[metric] or a["steps"] >= b["steps"]:
            continue
        if b[metric] > 1e-2:
            return 0.0  # an error of order one says nothing of the order yet (rk 4's energy on the pendulum at h = 1)
        order = math.log(a[metric] / b[metric]) / math.log(b["steps"] / a["steps"])
        if order > 0.5:
            seen = True
            t = min(t, b["time"] * (b[metric] / nxt[0]) ** (1 / order))
        else:
            return 0.0  # not in its asymptotic regime yet in this error
    return t if seen else 0.0


def limit(pts, simp, cap):
    """How long a run of a PETSc method may take before its ladder stops: RATIO_MAX times simpvi's best time to the
    first target the method has not reached yet (in either error), at most twice the cap; the cap where simpvi does
    not reach that target"""
    lim = 0.0
    for metric in ("energy", "state"):
        reached = min((p[metric] for p in pts), default=math.inf)
        nxt = [t for t in TARGETS if t < reached]
        if not nxt:
            continue
        b = best_of(simp, metric, nxt[0])
        lim = max(lim, min(RATIO_MAX * b[0]["time"], 2 * cap) if b else cap)
    return lim


def ladders(R, prob, methods, ref, simp=None):
    """Interleaved ladders of the methods; simp: simpvi's points, which bound the PETSc methods' ladders (limit())"""
    points = {m[0]: [] for m in methods}
    stalled = {m[0]: 0 for m in methods}
    failures = {m[0]: 0 for m in methods}
    active = list(methods)
    for k in range(prob["kmax"]):
        if not active:
            break
        random.shuffle(active)
        for m in list(active):
            h = ladder(prob, k)
            opts = prob["args"] + prob["step"](h) + m[2]
            r = R.run(prob["exe"], opts + ["-wp_reference", ref])
            if r is None:  # unstable at this step (explicit, Lobatto), or the solver failed: finer steps may run
                if R.last == "diverged":
                    prob.setdefault("diverged", set()).add(m[0])
                failures[m[0]] += 1
                # (not on wall time in --quick: a loaded machine would drop a method before its first step that runs)
                if failures[m[0]] >= 5 or (R.wall > 2 * prob["cap"] and not prob.get("quick")) or points[m[0]]:
                    active.remove(m)  # but not for ever, nor after it ran at a larger step
                continue
            failures[m[0]] = 0
            r.update(h=h, k=k, opts=opts, kind=m[1])
            pts = points[m[0]]
            stalled[m[0]] = 0 if not pts or progress(pts[-1], r) else stalled[m[0]] + 1
            pts.append(r)
            done = r["energy"] <= TARGETS[-1] and r["state"] <= TARGETS[-1]
            cap = prob["cap"] if simp is None else limit(pts, simp, prob["cap"])
            if done or r["time"] > cap or stalled[m[0]] >= 2 or predicted(pts) > cap:
                active.remove(m)
    return points


def bisect(R, prob, methods, points, ref):
    """The ladders halve the step; where a run is the cheapest to reach a target, try the step between it and the
    rung before (sqrt 2 larger), so the steps to a target are known to a factor sqrt 2"""
    for m in methods:
        pts = points[m[0]]
        for p in [p for p in decisive({m[0]: pts}) if p["k"] > 0 and p["k"] == int(p["k"])]:
            k = p["k"] - 0.5
            h = ladder(prob, k)
            if any(q["h"] == h for q in pts):
                continue
            opts = prob["args"] + prob["step"](h) + m[2]
            r = R.run(prob["exe"], opts + ["-wp_reference", ref])
            if r is not None:
                r.update(h=h, k=k, opts=opts, kind=m[1])
                pts.append(r)
        pts.sort(key=lambda q: q["k"])


def explore(R, prob, methods, reps):
    """simpvi's ladders (up to the problem's cap), then PETSc's (up to limit()), the steps between the rungs where it
    matters (bisect()), then the interleaved timing rounds. A method also stops when it reaches the last target in
    both errors or when two refinements in a row improve neither error (round-off, or the reference's accuracy)."""
    ref, refacc = reference(R, prob, prob["step"])
    simp = ladders(R, prob, [m for m in methods if m[1] == "simpvi"], ref)
    points = dict(simp)
    points.update(ladders(R, prob, [m for m in methods if m[1] != "simpvi"], ref, simp))
    points = {m[0]: points[m[0]] for m in methods}
    if not prob.get("quick"):  # the smoke test asks only that every method runs: no bisection, no timing rounds
        bisect(R, prob, methods, points, ref)
        retime(R, prob["exe"], decisive(points), reps, ref)
    return points, refacc


def adapter_cost(R, prob, reps):
    """PETSc's types on the pendulum get U' = (p, -sin q) written out by hand (-native, the default); on the other
    problems they go through TSSimpVISetUpPhaseSpace(). The step time of both ways, side by side"""
    h = ladder(prob, 4)
    lines = ["PETSc's types get the pendulum's U' = (p, -sin q) written out (bench/workprecision.c); on the other problems "
             "they get the mechanics through `TSSimpVISetUpPhaseSpace()`, which costs more per step. Time of a step "
             "through it over the time of a step written out (h = %g, %d interleaved rounds, cheapest): " % (h, reps)]
    cells = []
    for label in ("rk 4", "theta 0.5", "basicsymplectic 4"):
        opts = [m[2] for m in METHODS if m[0] == label][0]
        t = {}
        for _ in range(reps):
            for native in random.sample(["1", "0"], 2):
                r = R.run(prob["exe"], prob["args"] + prob["step"](h) + opts + ["-native", native])
                if r is not None:
                    t[native] = min(t.get(native, math.inf), r["time"])
        cells.append("%s %s" % (label, "%.1f" % (t["0"] / t["1"]) if len(t) == 2 else "failed"))
    return [lines[0] + ", ".join(cells) + ".", ""]


def best_of(points, metric, target):
    """(the cheapest point of any method in points that reaches target, its method)"""
    c = [(cheapest(points[m], metric, target), m) for m in points]
    c = [x for x in c if x[0]]
    return min(c, key=lambda x: x[0]["time"]) if c else None


def cheapest(pts, metric, target):
    ok = [p for p in pts if p[metric] <= target]
    return min(ok, key=lambda p: p["time"]) if ok else None


def fmt_time(t):
    return "%.3g s" % t


def table(prob, points, refacc, out):
    lines = ["### %s" % prob["title"], "",
             "Horizon %s; cap %g s a run. Reference: %s." % (prob["horizon"], prob["cap"], refacc), ""]
    for metric, name in (("energy", "relative energy error"), ("state", "relative state error")):
        best = {}
        for tgt in TARGETS:
            c = [(cheapest(points[m], metric, tgt), m) for m in points if points[m] and points[m][0]["kind"] == "simpvi"]
            c = [x for x in c if x[0]]
            best[tgt] = min(c, key=lambda x: x[0]["time"]) if c else None
        lines += ["**%s** — cheapest run to reach it: wall time, steps, time / simpvi's best "
                  "(> 1: simpvi is faster)" % name.capitalize(), ""]
        lines.append("| method | " + " | ".join("≤ %.0e" % t for t in TARGETS) + " | smallest reached |")
        lines.append("|---|" + "---|" * (len(TARGETS) + 1))
        for m in points:
            pts = points[m]
            if not pts:
                why = "its Newton iteration did not converge (the TS went on without an error)" \
                    if m in prob.get("diverged", ()) else "see the log"
                lines.append("| %s | failed at every step tried: %s |%s" % (m, why, " |" * len(TARGETS)))
                continue
            cells = []
            for tgt in TARGETS:
                p = cheapest(pts, metric, tgt)
                if p is None:
                    x = extrapolate(pts, metric, tgt)
                    cells.append("not reached (> %s%s)" % (fmt_time(max(q["time"] for q in pts)), "" if x is None else
                                 "; ≈ %s at order %.1f%s" % (fmt_time(x[0]), x[1], "" if best[tgt] is None else
                                                             ", ×%.2g" % (x[0] / best[tgt][0]["time"]))))
                    continue
                ratio = "" if best[tgt] is None else ", ×%.2g" % (p["time"] / best[tgt][0]["time"])
                cells.append("%s, %d steps%s" % (fmt_time(p["time"]), p["steps"], ratio))
            lines.append("| %s | %s | %.1e |" % (m, " | ".join(cells), min(q[metric] for q in pts)))
        lines.append("")
        lines.append("simpvi's best: " + ", ".join("%.0e: %s" % (t, best[t][1] if best[t] else "none") for t in TARGETS))
        lines.append("")
    return lines


def plot(prob, points, imgdir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, metric in zip(axes, ("energy", "state")):
        for m, pts in points.items():
            pts = sorted([p for p in pts if p[metric] > 0], key=lambda p: p["time"])
            if not pts:
                continue
            simp = pts[0]["kind"] == "simpvi"
            ax.loglog([p["time"] for p in pts], [p[metric] for p in pts], "o-" if simp else "s--", ms=3, label=m,
                      lw=1.5 if simp else 1)
        for t in TARGETS:
            ax.axhline(t, color="0.8", lw=0.5)
        ax.set_xlabel("wall time in the steps [s]")
        ax.set_ylabel("relative %s error" % metric)
    axes[0].set_title(prob["title"][:60], fontsize=9)
    axes[1].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    name = "wp-%s.png" % prob["key"]
    fig.savefig(os.path.join(imgdir, name), dpi=90)
    plt.close(fig)
    return name


def rk4_bound():
    """RK4 on the oscillator is stable while |R(i z)| <= 1, R the degree-4 Taylor polynomial of exp: bisection"""
    def amp(z):
        return abs(1 + 1j * z - z * z / 2 - 1j * z ** 3 / 6 + z ** 4 / 24)
    lo, hi = 1.0, 4.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if amp(mid) <= 1 + 1e-14 else (lo, mid)
    return lo


def median_ratio(a, b):
    """The median over rounds of a's time over b's time in the same round (nan where a run failed)"""
    r = [x / y for x, y in zip(a["times"], b["times"]) if math.isfinite(x) and math.isfinite(y)]
    return statistics.median(r) if r else math.nan


def kink_item4(R, sg, reps, log):
    """Item 4: gauss at 10x the Lobatto bound on the 1e5-unknown kink against rk 4 and theta to the same state error.
    PETSc's types get the kink's right-hand side (and Jacobian) written out by hand (examples/ex7.c -native); rk 4 also
    through TSSimpVISetUpPhaseSpace(), labelled. The verdict: medians over interleaved timing rounds of the per-round
    time ratios."""
    n, T, L = sg["n"], sg["T"], sg["L"]
    dx = 2 * L / (n + 1)
    # omega_max as the library estimates it (Lanczos at the first step, -info)
    out = subprocess.run([os.path.join(R.bindir, sg["exe"])] + sg["args"] + ["-T", repr(1e-4), "-cfl", "0.1", "-info", ":ts"]
                         + simpvi("lobatto", 3), capture_output=True, text=True).stdout
    w = float(re.search(r"omega_max estimated at t = \S+ (\S+) \(", out).group(1))
    blob = stability.bound(3, "lobatto")

    def opts(h, m):
        steps = max(1, int(math.ceil(T / h - 1e-9)))
        cfl = T / ((steps - 0.5) * dx)  # the example takes ceil(T / (cfl dx)) steps: exactly `steps`
        return sg["args"] + ["-cfl", repr(cfl)] + m

    # the reference: gauss 3 (order 6) at half the gauss step, checked against gauss 3 at the gauss step
    ref = os.path.join(R.tmp, "sg-ref.bin")
    hg = 10 * blob / w
    r = R.run(sg["exe"], opts(hg / 2, simpvi("gauss", 3)) + ["-wp_save", ref])
    c = R.run(sg["exe"], opts(hg, simpvi("gauss", 3)) + ["-wp_reference", ref])
    if r is None or c is None:
        raise SystemExit("workprecision.py: the sine-Gordon reference failed (see the log)")
    refacc = c["state"]
    lag = ["-ts_simpvi_lag_jacobian"]
    rk4 = ["-ts_type", "rk", "-ts_rk_type", "4"]
    theta = ["-ts_type", "theta", "-ts_theta_theta", "0.5"] + NEWTON_LU
    G, GL = "gauss 2 (10x the Lobatto bound)", "gauss 2 -ts_simpvi_lag_jacobian (10x the Lobatto bound)"
    RK, RKA, TH = "rk 4 (hand-written)", "rk 4 (adapter)", "theta 0.5 (hand-written)"
    # gauss from 10x the Lobatto bound; Lobatto and rk 4 just inside their own bounds; midpoint and theta as gauss
    lad = {
        G: ("simpvi", simpvi("gauss", 2), [hg]),
        GL: ("simpvi", simpvi("gauss", 2) + lag, [hg]),
        "gauss 2": ("simpvi", simpvi("gauss", 2), [hg / 2]),
        "lobatto 3": ("simpvi", simpvi("lobatto", 3), [0.95 * blob / w]),
        "midpoint": ("simpvi", simpvi("midpoint"), [hg, hg / 2]),
        RK: ("petsc", rk4 + ["-native"], [0.95 * rk4_bound() / w]),
        RKA: ("petsc", rk4, [0.95 * rk4_bound() / w]),
        TH: ("petsc", theta + ["-native"], [hg, hg / 2, hg / 4]),
        "theta 0.5 (adapter)": ("petsc", theta, [hg]),
    }
    points = {m: [] for m in lad}
    jobs = [(m, h) for m in lad for h in lad[m][2]]
    random.shuffle(jobs)
    for m, h in jobs:
        o = opts(h, lad[m][1])
        r = R.run(sg["exe"], o + ["-wp_reference", ref])
        if r is not None:
            r.update(h=h, kind=lad[m][0], hw=h * w, opts=o)
            points[m].append(r)
    # the timing rounds: both gauss runs, and the cheapest runs of the PETSc methods that reach the larger of their
    # state errors (theta's most accurate run where it reaches none: a lower bound); each round in a shuffled order
    gs = [points[m][0] for m in (G, GL) if points[m]]
    target = max((g["state"] for g in gs), default=0)
    timed = {}
    for m in (RK, RKA, TH):
        c = cheapest(points[m], "state", target) or (min(points[m], key=lambda p: p["state"]) if points[m] else None)
        if c:
            timed[m] = c
    pts = gs + list(timed.values())
    nrounds = 1 if reps == 1 else max(5, reps)
    for p in pts:
        p["times"] = []
    load = [os.getloadavg()[0]]
    for _ in range(nrounds):
        order = list(pts)
        random.shuffle(order)
        for p in order:
            r = R.run(sg["exe"], p["opts"] + ["-wp_reference", ref])
            p["times"].append(r["time"] if r is not None else math.nan)
        load.append(os.getloadavg()[0])
    for p in pts:
        ok = [t for t in p["times"] if math.isfinite(t)]
        if ok:
            p["time"] = statistics.median(ok)
            p["timed"] = True
    # what the adapter costs rk 4: the time of a right-hand side, hand-written and through the adapter (-log_view)
    perrhs = {}
    for m in (RK, RKA):
        out = subprocess.run([os.path.join(R.bindir, sg["exe"])] + opts(0.95 * rk4_bound() / w, lad[m][1])
                             + ["-T", repr(20 * 0.95 * rk4_bound() / w), "-log_view"], capture_output=True, text=True).stdout
        ev = re.search(r"^TSFunctionEval\s+(\d+)\s+\S+\s+(\S+)", out, re.M)
        perrhs[m] = float(ev.group(2)) / int(ev.group(1)) if ev and int(ev.group(1)) else math.nan
    lines = ["### Item 4: %s" % sg["title"], "",
             "omega_max = %.5g (the library's Lanczos estimate, `-info`); Lobatto degree 3 is stable while "
             "omega h < %.4g (docs/tools/stability.py), RK4 while omega h < %.4g: h = %.3g and %.3g. Horizon %s; "
             "reference: gauss 3 at half the gauss step, which differs from gauss 3 at the gauss step by %.1e. "
             "PETSc's types get the kink's right-hand side q' = p/dx, p' = dx (Lap_h q - sin q) and its Jacobian "
             "written out by hand (`examples/ex7.c -native`, checked against the adapter by its test `native_*`); "
             "the rows marked (adapter) get it through `TSSimpVISetUpPhaseSpace()`. Times marked * are the medians of "
             "%d interleaved timing rounds (load average %s over the rounds, %d cores), the others of the one "
             "exploratory run."
             % (w, blob, rk4_bound(), blob / w, rk4_bound() / w, sg["horizon"], refacc, nrounds,
                "–".join("%.1f" % x for x in (min(load), max(load))), os.cpu_count() or 1), "",
             "| method | h | omega h | steps | Newton | wall time | energy error | state error |",
             "|---|---|---|---|---|---|---|---|"]
    for m in lad:
        for p in sorted(points[m], key=lambda p: -p["h"]):
            lines.append("| %s | %.3g | %.3g | %d | %d | %s%s | %.1e | %.1e |" % (
                m, p["h"], p["hw"], p["steps"], p["newton"], fmt_time(p["time"]), "*" if p.get("timed") else "",
                p["energy"], p["state"]))
        if not points[m]:
            lines.append("| %s | failed | | | | | | |" % m)
    verdict = []
    for gm in (G, GL):
        if not points[gm]:
            continue
        g = points[gm][0]
        lines += ["", "%s: largest relative energy error over the steps %.1e, state error %.1e, in %s. Each method's time "
                  "to that state error over gauss's (> 1: gauss is faster), the median of the per-round ratios:"
                  % (gm, g["energy"], g["state"], fmt_time(g["time"]))]
        for m in (RK, RKA, TH):
            p = timed.get(m)
            if p is None:
                v = "failed"
            elif p["state"] <= g["state"]:
                v = "%.2f" % median_ratio(p, g)
            else:  # not reached: a lower bound from its most accurate run, and the time its order predicts
                x = extrapolate(points[m], "state", g["state"])
                v = "> %.2f (not reached: its most accurate run, state error %.1e%s)" % (
                    median_ratio(p, g), p["state"], "" if x is None else "; ≈ %.3g extrapolated at order %.1f" % (
                        x[0] / g["time"], x[1]))
            lines.append("- %s: %s" % (m, v))
            verdict.append((gm, m, v))
    lines += ["", "Time of one right-hand side of rk 4 (`-log_view`, TSFunctionEval over its count, 20 steps, one run "
              "each): hand-written %.3g ms, through the adapter %.3g ms (which evaluates the model's potential, "
              "gradient and value, several times per right-hand side)." % (1e3 * perrhs[RK], 1e3 * perrhs[RKA])]
    lines.append("")
    return lines, points, verdict


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bindir", default=os.path.join(ROOT, "build", "bench"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=None, help="timing rounds (default 2, 1 with --quick)")
    ap.add_argument("--only", default=None, help="comma-separated problem keys (development)")
    a = ap.parse_args()
    reps = a.reps or (1 if a.quick else 2)
    kmax = 3 if a.quick else 14
    random.seed(13)
    imgdir = os.path.join(a.out, "img")
    os.makedirs(imgdir, exist_ok=True)
    if os.geteuid() == 0:
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    # one process per run: Open MPI's singleton start-up without the network probes (0.1 s instead of 0.6 s)
    os.environ.setdefault("OMPI_MCA_pml", "ob1")
    os.environ.setdefault("OMPI_MCA_ess_singleton_isolated", "1")
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix="simpvi-wp-")
    logpath = os.path.join(tmp, "runs.log")
    log = open(logpath, "w")
    R = Runner(a.bindir, tmp, log)
    only = a.only.split(",") if a.only else None
    body, headline, item4, failed = [], [], [], []
    for prob in problems(a.quick):
        if only and prob["key"] not in only:
            continue
        if not os.access(os.path.join(a.bindir, prob["exe"]), os.X_OK):
            print("workprecision: %s left out: %s not built" % (prob["key"], prob["exe"]), flush=True)
            body += ["### %s" % prob["title"], "", "Left out: %s was not built (GSL missing?)." % prob["exe"], ""]
            continue
        methods = [m for m in METHODS if m[3] in prob["kinds"]]
        print("workprecision: %s (%d methods)" % (prob["key"], len(methods)), flush=True)
        prob["kmax"], prob["quick"] = kmax, a.quick
        points, refacc = explore(R, prob, methods, reps)
        body += table(prob, points, refacc, None)
        failed += ["%s: %s" % (prob["key"], m) for m in points if not points[m] and m not in prob.get("diverged", ())]
        body += ["![%s](img/%s)" % (prob["key"], plot(prob, points, imgdir)), ""]
        if prob["key"] == "pendulum":
            body += adapter_cost(R, prob, reps)
        headline += headlines(prob, points)
    if not only or "sinegordon" in only:
        sg = sinegordon(a.quick)
        print("workprecision: sinegordon", flush=True)
        lines, points, verdict = kink_item4(R, sg, reps, log)
        body += lines + ["![sinegordon](img/%s)" % plot(sg, points, imgdir), ""]
        item4 = ["Item 4, sine-Gordon with %d unknowns: time of PETSc's types to the state error of gauss 2 at 10× the "
                 "Lobatto bound over gauss 2's time (medians of interleaved rounds; > 1: gauss is faster): " % sg["n"]
                 + "; ".join("%s: %s" % (gm, ", ".join("%s %s" % (m, v) for g2, m, v in verdict if g2 == gm))
                             for gm in dict.fromkeys(g2 for g2, _, _ in verdict)) + "."]
    log.close()
    elapsed = time.time() - t0
    head = ["# Performance: work-precision against PETSc's TS types", "",
            "Generated by `/usr/bin/python3 bench/workprecision.py%s` (or `cmake --build build --target workprecision`) "
            "in %.0f s, %d runs; do not edit by hand. Wall time is the time inside the steps of one TSSolve() "
            "(the energy monitor and the examples' own monitors excluded), the cheapest of %d interleaved rounds; "
            "the machine: %s, shared with other jobs, so single times are noisy and the ratios (taken from runs "
            "interleaved in this one job) are what to read. Energy error: largest |H - H0|/|H0| over the steps; "
            "state error: largest entry of |U(T) - U_ref(T)| over the largest of |U_ref(T)|. The steps of a simpvi "
            "scheme are halved until it reaches 1e-12 in both errors, stops improving, or a run takes "
            "longer than the problem's cap (or is predicted to, by the order its last two runs show); those of a PETSc method until it is %g times slower than simpvi's best "
            "at the next error it has not reached (at most twice the cap); then the step between the cheapest run to a "
            "target and the rung before it is tried too (sqrt 2 larger). Ratios above %g are shown as lower "
            "bounds: \"not reached (> t)\" gives the most expensive run tried." % (
                " --quick" if a.quick else "", elapsed, R.count, reps, machine(), RATIO_MAX, RATIO_MAX), "",
            "PETSc's types get the pendulum and the sine-Gordon kink written out by hand, as a PETSc user would write "
            "them; on the double pendulum, the top and the FPU chain they get the mechanics through "
            "`TSSimpVISetUpPhaseSpace()`, whose extra cost per step the pendulum's section measures: there the "
            "ratios overstate simpvi's advantage over an `rk 4` with a hand-written right-hand side. The linear chain "
            "is the same I2 program for simpvi and `alpha2`.", "",
            "## Headline ratios", "",
            "Time of the PETSc method to the error over the time of simpvi's best to it (> 1: simpvi is faster; "
            "\"> x\": the method did not reach the error, x is its most expensive run tried over simpvi's time; "
            "\"≈ y extrapolated\": its time to the error extrapolated from its last two runs with the order they "
            "show, an estimate, not a measurement).", "",
            "| problem | error | simpvi's best | rk 4 | theta 0.5 | irk 3 | alpha2 | PETSc's best |",
            "|---|---|---|---|---|---|---|---|"] + headline + [""] + item4 + [""]
    with open(os.path.join(a.out, "performance.md"), "w") as f:
        f.write("\n".join(head + ["## Problems", ""] + body))
    print("workprecision: wrote %s (%d runs, %.0f s; log %s)" % (os.path.join(a.out, "performance.md"), R.count, elapsed, logpath))
    if failed:  # an option or a program that no longer runs: the smoke test fails (the full run reports it)
        print("workprecision: no successful run of " + ", ".join(failed), file=sys.stderr)
        sys.exit(1 if a.quick else 0)


HEADLINE_METHODS = ("rk 4", "theta 0.5", "irk 3", "alpha2")


def ratio_cell(points, m, metric, tgt, best):
    if m not in points or not points[m]:
        return "—"
    c = cheapest(points[m], metric, tgt)
    if c is not None:
        return "%.2f" % (c["time"] / best["time"])
    x = extrapolate(points[m], metric, tgt)
    return "> %.2f%s" % (max(p["time"] for p in points[m]) / best["time"],
                         "" if x is None else " (≈ %.2g extrapolated)" % (x[0] / best["time"]))


def headlines(prob, points):
    """One row per error kind at 1e-9: simpvi's best and the ratios of rk 4, theta, irk 3 (alpha2 for I2) and of
    PETSc's best to it ("> x": not reached; x is its most expensive run tried over simpvi's best)"""
    rows = []
    simp = {m: p for m, p in points.items() if p and p[0]["kind"] == "simpvi"}
    petsc = {m: p for m, p in points.items() if p and p[0]["kind"] != "simpvi"}
    for metric in ("energy", "state"):
        tgt = 1e-9
        b = best_of(simp, metric, tgt)
        if b is None:
            rows.append("| %s | %s ≤ 1e-9 | not reached | | | | | |" % (prob["key"], metric))
            continue
        pb = best_of(petsc, metric, tgt)
        cells = [ratio_cell(points, m, metric, tgt, b[0]) for m in HEADLINE_METHODS]
        rows.append("| %s | %s ≤ 1e-9 | %s, %s | %s | %s |" % (
            prob["key"], metric, b[1], fmt_time(b[0]["time"]), " | ".join(cells),
            "%s: %.2f" % (pb[1], pb[0]["time"] / b[0]["time"]) if pb else "none reaches it"))
    return rows


def machine():
    try:
        with open("/proc/cpuinfo") as f:
            model = re.search(r"model name\s*:\s*(.*)", f.read()).group(1)
    except (OSError, AttributeError):
        model = "unknown CPU"
    return "%s, %d cores" % (model.strip(), os.cpu_count() or 1)


if __name__ == "__main__":
    main()
