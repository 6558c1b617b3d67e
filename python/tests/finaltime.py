#!/usr/bin/python3
"""Oscillators q_i'' = -w_i^2 q_i through simpvi.setMass() and simpvi.setPotential() from petsc4py, on any number of
processes (simpvi.setPhaseSpaceIS()): a final time that is not a multiple of the step (matchstep), a second
TS.solve() that goes on to twice that time, a monitor reading U and TS.interpolate() inside the step just taken, and
simpvi.computeEnergy(). Checks: the end times and step counts (those of TSRK on the same problem), the errors against
the exact solution, the energy's relative drift. A continued solve used to crawl by steps of 2e-16 for ever (tests/finaltime.c).
"""
import sys

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402
import numpy as np  # noqa: E402
import simpvi  # noqa: E402

comm = PETSc.COMM_WORLD
N, m = 6, 1.5
opts = PETSc.Options()
dt = opts.getReal("dt", 0.025)
T = opts.getReal("T", 1.23)
tol = opts.getReal("error_tol", 2e-6)

M = PETSc.Mat().createAIJ([N, N], nnz=1, comm=comm)
M.setUp()
lo, hi = M.getOwnershipRange()
n = hi - lo
w = np.array([1 + 0.5 * i for i in range(lo, hi)])
q0 = np.array([1 + 0.1 * i for i in range(lo, hi)])
for i in range(lo, hi):
    M[i, i] = m
M.assemble()
H = M.duplicate()


def potential(ts, t, x, g):
    g.setArray(m * w**2 * x.getArray(readonly=True))
    return 0.5 * x.dot(g)  # collective: V of all the oscillators


def hessian(ts, t, x, Hm):
    for k, i in enumerate(range(lo, hi)):
        Hm[i, i] = m * w[k] ** 2
    Hm.assemble()


def exact(t):
    """U = (q, p) of this process: its q, then its p"""
    return np.concatenate([q0 * np.cos(w * t), -m * w * q0 * np.sin(w * t)])


def maxdiff(t, u):
    e = u.duplicate()
    e.setArray(exact(t) - u.getArray(readonly=True))
    d = e.norm(PETSc.NormType.INFINITY)
    e.destroy()
    return d


err = {"step": 0.0, "interp": 0.0, "energy": 0.0, "H0": None}


def monitor(ts, step, t, u):
    err["step"] = max(err["step"], maxdiff(t, u))
    E = simpvi.computeEnergy(ts, t, u)
    if err["H0"] is None:
        err["H0"] = E
    err["energy"] = max(err["energy"], abs(E - err["H0"]))
    if step > 0 and t - ts.getPrevTime() > 0.4 * dt:  # a step of this solve ends here
        ti = t - 0.4 * dt
        ui = u.duplicate()
        ts.interpolate(ti, ui)
        err["interp"] = max(err["interp"], maxdiff(ti, ui))
        ui.destroy()


def run(tstype):
    U = PETSc.Vec().createMPI((2 * n, 2 * N), comm=comm)
    U.setArray(exact(0))
    ustart = U.getOwnershipRange()[0]
    isq = PETSc.IS().createStride(n, ustart, 1, comm=comm)
    isp = PETSc.IS().createStride(n, ustart + n, 1, comm=comm)
    ts = PETSc.TS().create(comm=comm)
    if tstype != simpvi.TSSIMPVI:  # fixed steps of RK4, the options of its own prefix
        ts.setOptionsPrefix("ref_")
        opts["ref_ts_adapt_type"] = "none"
        opts["ref_ts_rk_type"] = "4"
    ts.setType(tstype)
    simpvi.setMass(ts, M)
    simpvi.setPotential(ts, H, potential, hessian)
    simpvi.setPhaseSpaceIS(ts, isq, isp)
    ts.setSolution(U)
    ts.setTimeStep(dt)
    ts.setMaxTime(T)
    ts.setMaxSteps(10000)  # a crawling run stops here
    ts.setExactFinalTime(PETSc.TS.ExactFinalTime.MATCHSTEP)
    if tstype == simpvi.TSSIMPVI:
        ts.setMonitor(monitor)
    ts.setFromOptions()
    simpvi.setUpPhaseSpace(ts)
    ends = []
    for Tend in (T, 2 * T):
        ts.setMaxTime(Tend)
        ts.solve(U)
        ends.append((ts.getTime(), ts.getStepNumber(), ts.getConvergedReason(), maxdiff(ts.getTime(), U)))
    for o in (ts, U, isq, isp):
        o.destroy()
    return ends


vi = run(simpvi.TSSIMPVI)
rk = run(PETSc.TS.Type.RK)
for k, (a, b) in enumerate(zip(vi, rk)):
    PETSc.Sys.Print(f"solve {k + 1}: ends at the final time, after TSRK's number of steps: {'yes' if a[0] == (k + 1) * T and a[:3] == b[:3] else 'no'}")
    PETSc.Sys.Print(f"solve {k + 1}: error below {tol:g}: {'yes' if a[3] <= tol else 'no'}")
PETSc.Sys.Print(f"monitor's U and TS.interpolate() within {tol:g}: {'yes' if max(err['step'], err['interp']) <= tol else 'no'}")
PETSc.Sys.Print(f"energy drift below {tol:g} relative: {'yes' if err['energy'] <= tol * abs(err['H0']) else 'no'}")

"""
/*TEST

  build:
    requires: petsc4py

  test:
    nsize: {{1 2}}
    output_file: output/finaltime_1.out
  test:
    suffix: lobatto
    nsize: 2
    args: -ts_simpvi_type lobatto -error_tol 1e-10

TEST*/
"""
