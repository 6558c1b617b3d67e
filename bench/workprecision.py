#!/usr/bin/python3
"""Work-precision benchmark: simpvi's schemes against PETSc's TS types, wall time to a relative energy and state error.

  /usr/bin/python3 bench/workprecision.py [--bindir build/bench] [--out DIR] [--quick] [--reps N]
  (or: cmake --build build --target workprecision)

For each problem and method it runs a ladder of fixed steps h0, h0/sqrt2, h0/2, ... (one process per run, the -wp
record of examples/workprecision.h: the wall time inside the steps, the largest relative energy error over the steps,
the relative max-norm error of the final state against a reference run), until the method reaches 1e-12 in both errors
or a run exceeds the problem's time cap. The runs of all methods are interleaved (round-robin in a shuffled order, then
--reps rounds over every point again), each point keeps its cheapest time. The table gives, for each target error, the
cheapest run that reaches it and its time over the cheapest simpvi run that reaches it. Writes OUT/performance.md and
OUT/img/wp-*.png (default: docs/ of the source tree). --quick: small problems and short horizons, one round (a smoke
test: the ctest test bench-workprecision-quick). Every number in the report comes from the runs of this job.
"""
import argparse
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "docs", "tools"))
import stability  # noqa: E402  (the schemes' bounds on omega*h, from the same discrete action as the library)

TARGETS = (1e-6, 1e-9, 1e-12)
SQRT2 = math.sqrt(2.0)

# PETSc's implicit types solve each step to about round-off, with a direct solve, as TSSIMPVI does by default
NEWTON_LU = ["-snes_rtol", "1e-12", "-ksp_type", "preonly", "-pc_type", "lu"]
# TSIRK's stage matrix is a KAIJ, which has no LU: GMRES with point-block Jacobi, solved to round-off
NEWTON_KAIJ = ["-snes_rtol", "1e-12", "-ksp_type", "gmres", "-pc_type", "pbjacobi", "-ksp_rtol", "1e-14"]


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
    ("irk 2", "petsc", ["-ts_type", "irk", "-ts_irk_nstages", "2"] + NEWTON_KAIJ, "phase"),
    ("irk 3", "petsc", ["-ts_type", "irk", "-ts_irk_nstages", "3"] + NEWTON_KAIJ, "phase"),
    ("alpha2", "petsc", ["-ts_type", "alpha2"] + NEWTON_LU, "i2"),
] + [("basicsymplectic %d" % k, "petsc", ["-ts_type", "basicsymplectic", "-ts_basicsymplectic_type", str(k)], "separable")
     for k in (1, 2, 3, 4)]


def problems(quick):
    """Each problem: its program, fixed options, how a step h becomes options, the horizon, the first step of the
    ladders, the time cap of a run (seconds), the methods that apply and the reference method and step."""
    q = quick
    P = []
    T = 50.0 if q else 1000.0
    P.append(dict(key="pendulum", title="Pendulum q'' = -sin q, q(0) = pi/2 (period 7.42)", exe="workprecision",
                  args=["-problem", "pendulum", "-T", str(T)], step=lambda h: ["-dt", repr(h)], integer=False,
                  horizon="T = %g s (%d periods)" % (T, round(T / 7.4163)), h0=1.0, cap=1.0 if q else 3.0,
                  kinds=(None, "phase", "separable"), ref=(simpvi("lobatto", 5), 0.05)))
    T = 20.0 if q else 1000.0
    P.append(dict(key="doublependulum", title="Nonlinear double pendulum (examples/ex2.c), q(0) = (pi/4, pi/3)",
                  exe="dpend", args=["-methods", "default", "-T", str(T)], step=lambda h: ["-dts", repr(h)],
                  integer=False, horizon="T = %g s" % T, h0=0.08, cap=1.0 if q else 4.0, kinds=(None, "phase"),
                  ref=(simpvi("lobatto", 5), 0.0025)))
    P_ = 5 if q else 200
    P.append(dict(key="top", title="Lagrange top (examples/ex4.c, Table 3 data; nutation period 1.8467 s)", exe="top",
                  args=["-methods", "midpoint", "-periods", str(P_)], step=lambda m: ["-meshes", str(m)],
                  integer=True, horizon="%d nutation periods" % P_, h0=8, cap=1.0 if q else 4.0,
                  kinds=(None, "phase"), ref=(simpvi("lobatto", 5), 320)))
    n, T = (16, 20.0) if q else (64, 500.0)
    P.append(dict(key="fput", title="FPU-beta chain of %d masses (examples/ex6.c), energy in the lowest mode" % n,
                  exe="chain", args=["-n", str(n), "-final_time", str(T), "-serial", "0", "-recurrence", "0"],
                  step=lambda h: ["-dt", repr(h)], integer=False, horizon="T = %g" % T, h0=0.8,
                  cap=1.0 if q else 4.0, kinds=(None, "phase", "separable"), ref=(simpvi("lobatto", 5), 0.02)))
    n, T = (500, 20.0) if q else (10000, 100.0)
    P.append(dict(key="linearchain", title="Linear chain of %d masses through PETSc's I2 interface (bench/workprecision.c)" % n,
                  exe="workprecision", args=["-problem", "chain", "-n", str(n), "-T", str(T)],
                  step=lambda h: ["-dt", repr(h)], integer=False, horizon="T = %g (pulse of 20 masses)" % T, h0=1.4,
                  cap=1.0 if q else 5.0, kinds=(None, "i2"), ref=(simpvi("lobatto", 5), 0.05)))
    return P


def sinegordon(quick):
    n, T = (999, 0.5) if quick else (99999, 0.1)
    return dict(key="sinegordon", title="Sine-Gordon kink, %d unknowns (examples/ex7.c, -bc fixed)" % n, exe="kink",
                args=["-n", str(n), "-T", str(T), "-levels", "1", "-bc", "fixed", "-ts_simpvi_direct_limit", "10000000"],
                n=n, T=T, L=20.0, horizon="T = %g" % T, cap=30.0 if not quick else 5.0)


class Runner:
    def __init__(self, bindir, tmp, log):
        self.bindir, self.tmp, self.log = bindir, tmp, log
        self.count, self.seconds = 0, 0.0

    def run(self, exe, opts, timeout=900):
        cmd = [os.path.join(self.bindir, exe)] + opts + ["-wp", "-ts_adapt_type", "none"]
        t0 = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            out, ok = p.stdout + p.stderr, p.returncode == 0
        except subprocess.TimeoutExpired:
            out, ok = "timeout", False
        self.count += 1
        self.seconds += time.time() - t0
        recs = re.findall(r"^WP steps=(\d+) time=(\S+) newton=(\d+) energy=(\S+) state=(\S+)", out, re.M)
        self.log.write("$ %s\n%s\n" % (" ".join(cmd), recs[-1] if recs else out[-2000:]))
        if not ok or not recs:
            return None
        s, t, nw, e, x = recs[-1]
        r = dict(steps=int(s), time=float(t), newton=int(nw), energy=float(e), state=float(x))
        if not all(math.isfinite(r[k]) for k in ("energy", "state")):
            return None
        return r


def reference(R, prob, ladder_step):
    """The reference state (a high-order run with a small step) and its accuracy: the same run with twice the step
    against it"""
    opts, h = prob["ref"]
    fine = os.path.join(R.tmp, prob["key"] + "-ref.bin")
    coarse_h = h // 2 if prob["integer"] else 2 * h
    r = R.run(prob["exe"], prob["args"] + ladder_step(h) + opts + ["-wp_save", fine])
    c = R.run(prob["exe"], prob["args"] + ladder_step(coarse_h) + opts + ["-wp_reference", fine])
    if r is None or c is None:
        raise SystemExit("workprecision.py: the reference run of %s failed (see the log)" % prob["key"])
    return fine, c["state"]


def ladder(prob, k):
    if prob["integer"]:
        return max(1, int(round(prob["h0"] * SQRT2 ** k)))  # steps per period
    return prob["h0"] / SQRT2 ** k


def explore(R, prob, methods, reps, kmax):
    """Interleaved ladders; returns {label: [point, ...]} with point = dict(h, steps, time, energy, state)"""
    ref, refacc = reference(R, prob, prob["step"])
    points = {m[0]: [] for m in methods}
    active = list(methods)
    for k in range(kmax):
        if not active:
            break
        random.shuffle(active)
        for m in list(active):
            h = ladder(prob, k)
            r = R.run(prob["exe"], prob["args"] + prob["step"](h) + m[2] + ["-wp_reference", ref])
            if r is not None:
                r["h"], r["opts"] = h, m[2]
                points[m[0]].append(r)
                done = r["energy"] <= TARGETS[-1] and r["state"] <= TARGETS[-1]
                if done or r["time"] > prob["cap"]:
                    active.remove(m)
    for _ in range(reps - 1):  # more rounds over every point, interleaved: each keeps its cheapest time
        allp = [(m, p) for m in points for p in points[m]]
        random.shuffle(allp)
        for m, p in allp:
            r = R.run(prob["exe"], prob["args"] + prob["step"](p["h"]) + p["opts"] + ["-wp_reference", ref])
            if r is not None:
                p["time"] = min(p["time"], r["time"])
    return points, refacc


def cheapest(pts, metric, target):
    ok = [p for p in pts if p[metric] <= target]
    return min(ok, key=lambda p: p["time"]) if ok else None


def fmt_time(t):
    return "%.3g s" % t


def table(prob, points, refacc, out):
    lines = ["### %s" % prob["title"], "",
             "Horizon %s. Reference: %s with h = %s; the same with twice its step differs from it by %.1e "
             "(state errors near that are not resolved)." % (prob["horizon"], " ".join(prob["ref"][0][1:]),
                                                             prob["ref"][1], refacc), ""]
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
                lines.append("| %s | failed at every step tried |%s" % (m, " |" * len(TARGETS)))
                continue
            cells = []
            for tgt in TARGETS:
                p = cheapest(pts, metric, tgt)
                if p is None:
                    cells.append("not reached (> %s)" % fmt_time(max(q["time"] for q in pts)))
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


def kink_item4(R, sg, reps, log):
    """Item 4: gauss at 10x the Lobatto bound on the 1e5-unknown kink against rk 4 and theta to the same state error"""
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

    ref = os.path.join(R.tmp, "sg-ref.bin")
    hg = 10 * blob / w
    r = R.run(sg["exe"], opts(hg / 4, simpvi("gauss", 3)) + ["-wp_save", ref])
    c = R.run(sg["exe"], opts(hg / 2, simpvi("gauss", 3)) + ["-wp_reference", ref])
    if r is None or c is None:
        raise SystemExit("workprecision.py: the sine-Gordon reference failed (see the log)")
    refacc = c["state"]
    # the ladders: gauss from 10x the Lobatto bound; Lobatto and rk 4 from just inside their own bounds; theta as gauss
    lad = {
        "gauss 2 (10x the Lobatto bound)": ("simpvi", simpvi("gauss", 2), [hg]),
        "gauss 2": ("simpvi", simpvi("gauss", 2), [hg / 2, hg / 4]),
        "lobatto 3": ("simpvi", simpvi("lobatto", 3), [0.95 * blob / w]),
        "midpoint": ("simpvi", simpvi("midpoint"), [hg, hg / 2, hg / 4]),
        "rk 4": ("petsc", ["-ts_type", "rk", "-ts_rk_type", "4"], [0.95 * rk4_bound() / w, 0.95 * rk4_bound() / w / SQRT2]),
        "theta 0.5": ("petsc", ["-ts_type", "theta", "-ts_theta_theta", "0.5"] + NEWTON_LU, [hg, hg / 2, hg / 4]),
    }
    points = {m: [] for m in lad}
    jobs = [(m, h) for m in lad for h in lad[m][2]]
    for rep in range(reps):
        random.shuffle(jobs)
        for m, h in jobs:
            r = R.run(sg["exe"], opts(h, lad[m][1]) + ["-wp_reference", ref])
            if r is None:
                continue
            old = [p for p in points[m] if p["h"] == h]
            if old:
                old[0]["time"] = min(old[0]["time"], r["time"])
            else:
                r.update(h=h, kind=lad[m][0], hw=h * w)
                points[m].append(r)
    g = points["gauss 2 (10x the Lobatto bound)"]
    lines = ["### Item 4: %s" % sg["title"], "",
             "omega_max = %.5g (the library's Lanczos estimate, `-info`); Lobatto degree 3 is stable while "
             "omega h < %.4g (docs/tools/stability.py), RK4 while omega h < %.4g: h = %.3g and %.3g. Horizon %s; "
             "reference: gauss 3 at a quarter of the gauss step, which differs from gauss 3 at half the step by %.1e."
             % (w, blob, rk4_bound(), blob / w, rk4_bound() / w, sg["horizon"], refacc), "",
             "| method | h | omega h | steps | wall time | energy error | state error |", "|---|---|---|---|---|---|---|"]
    for m in lad:
        for p in sorted(points[m], key=lambda p: -p["h"]):
            lines.append("| %s | %.3g | %.3g | %d | %s | %.1e | %.1e |" % (m, p["h"], p["hw"], p["steps"], fmt_time(p["time"]),
                                                                       p["energy"], p["state"]))
        if not points[m]:
            lines.append("| %s | failed | | | | | |" % m)
    verdict = {}
    if g:
        g = g[0]
        for m in ("rk 4", "theta 0.5"):
            c = cheapest(points[m], "state", g["state"])
            verdict[m] = (c["time"] / g["time"]) if c else None
        lines += ["", "gauss 2 at 10x the Lobatto bound: energy error %.1e (bounded: below 1e-6: %s), state error %.1e in %s."
                  % (g["energy"], "yes" if g["energy"] < 1e-6 else "no", g["state"], fmt_time(g["time"]))]
        for m, v in verdict.items():
            lines.append("- %s to the same state error: %s" % (
                m, "not reached by the steps tried" if v is None else "%.2f times the wall time of gauss (gauss faster: %s)" % (v, "yes" if v > 1 else "no")))
    lines.append("")
    return lines, points, verdict


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bindir", default=os.path.join(ROOT, "build", "bench"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=None, help="timing rounds (default 3, 1 with --quick)")
    ap.add_argument("--only", default=None, help="comma-separated problem keys (development)")
    a = ap.parse_args()
    reps = a.reps or (1 if a.quick else 3)
    kmax = 4 if a.quick else 24
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
    body, headline = [], []
    for prob in problems(a.quick):
        if only and prob["key"] not in only:
            continue
        methods = [m for m in METHODS if m[3] in prob["kinds"]]
        print("workprecision: %s (%d methods)" % (prob["key"], len(methods)), flush=True)
        points, refacc = explore(R, prob, methods, reps, kmax)
        for m in methods:
            for p in points[m[0]]:
                p["kind"] = m[1]
        body += table(prob, points, refacc, None)
        body += ["![%s](img/%s)" % (prob["key"], plot(prob, points, imgdir)), ""]
        headline += headlines(prob, points)
    if not only or "sinegordon" in only:
        sg = sinegordon(a.quick)
        print("workprecision: sinegordon", flush=True)
        lines, points, verdict = kink_item4(R, sg, reps, log)
        body += lines + ["![sinegordon](img/%s)" % plot(sg, points, imgdir), ""]
        for m, v in verdict.items():
            headline.append("| sine-Gordon %d: gauss at 10× the Lobatto bound vs %s, same state error | %s |" % (
                sg["n"], m, "not reached" if v is None else "%.2f" % v))
    log.close()
    elapsed = time.time() - t0
    head = ["# Performance: work-precision against PETSc's TS types", "",
            "Generated by `/usr/bin/python3 bench/workprecision.py%s` (or `cmake --build build --target workprecision`) "
            "in %.0f s, %d runs; do not edit by hand. Wall time is the time inside the steps of one TSSolve() "
            "(the energy monitor and the examples' own monitors excluded), the cheapest of %d interleaved rounds; "
            "the machine: %s, shared with other jobs, so single times are noisy and the ratios (taken from runs "
            "interleaved in this one job) are what to read. Energy error: largest |H - H0|/|H0| over the steps; "
            "state error: largest entry of |U(T) - U_ref(T)| over the largest of |U_ref(T)|. A method is refined "
            "by sqrt 2 until it reaches 1e-12 in both or a run takes longer than the problem's cap; "
            "\"not reached (> t)\" gives the most expensive run tried." % (
                " --quick" if a.quick else "", elapsed, R.count, reps, machine()), "",
            "## Headline ratios (time of the PETSc method / time of simpvi's best; > 1: simpvi is faster)", "",
            "| comparison | ratio |", "|---|---|"] + headline + [""]
    with open(os.path.join(a.out, "performance.md"), "w") as f:
        f.write("\n".join(head + ["## Problems", ""] + body))
    print("workprecision: wrote %s (%d runs, %.0f s; log %s)" % (os.path.join(a.out, "performance.md"), R.count, elapsed, logpath))


def headlines(prob, points):
    rows = []
    for metric in ("energy", "state"):
        for tgt in (1e-9,):
            simp = [(cheapest(points[m], metric, tgt), m) for m in points if points[m] and points[m][0]["kind"] == "simpvi"]
            simp = [x for x in simp if x[0]]
            if not simp:
                continue
            best = min(simp, key=lambda x: x[0]["time"])
            for m in points:
                if not points[m] or points[m][0]["kind"] == "simpvi":
                    continue
                c = cheapest(points[m], metric, tgt)
                rows.append("| %s, %s error ≤ %.0e: %s vs simpvi's best (%s) | %s |" % (
                    prob["key"], metric, tgt, m, best[1],
                    "%.2f" % (c["time"] / best[0]["time"]) if c else "> %.2f (not reached)" % (
                        max(p["time"] for p in points[m]) / best[0]["time"])))
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
