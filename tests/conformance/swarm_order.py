#!/usr/bin/python3 -B
"""PETSc's own DMSwarm tests written for TSBASICSYMPLECTIC (dm/impls/swarm/tests/ex5.c: central orbits, and on
PETSc main ex6.c: Vlasov-Poisson with -em_type none; ex4.c, a harmonic oscillator, where PETSc has triangle), built unchanged and never linked with simpvi, run with
`-dll_append libsimpvi.so` and the type options given after `--`. The programs set the RHS split ("position",
"momentum") on a DMSwarm, migrate particles after each step (TSReset() and a new set-up when they change rank)
and know their exact solution; PETSc's own -ts_convergence_estimate (3 runs, the step halved each time) prints
"L_2 convergence rate: r", which must be within --tol of --order.

On 1 rank the program's single-cell test set (bsi_2d / none_bsi_2d, with -error); on 2 ranks its 10x10 mesh set
(bsi_2d_mesh_1_par_2), where the orbits cross from one rank to the other.

  swarm_order.py --exe ex5 --program ex5 --lib libsimpvi.so --mpiexec mpiexec --order 6 --ranks 1 2 \
                 -- -ts_type simpvi -ts_simpvi_type lobatto
"""
import argparse
import re
import sys

from petscrun import RunError, run, yes

ORBITS = ['-dm_plex_dim', '2', '-dm_plex_simplex', '0', '-dm_plex_box_lower', '-5,-5', '-dm_plex_box_upper', '5,5',
          '-dm_swarm_num_particles', '2', '-dm_swarm_coordinate_function', 'circleSingleX',
          '-dm_swarm_velocity_function', 'circleSingleV', '-ts_convergence_estimate', '-convest_num_refine', '2',
          '-output_step', '100000']
SETS = {  # the program's own test sets, by number of ranks
  # ex4 (omega = 64; its tests are 1-rank) needs triangle: no PETSc here has it, so this set is untried
  ('ex4', 1): ['-dm_plex_dim', '1', '-dm_plex_box_faces', '1', '-dm_plex_box_lower', '-1', '-dm_plex_box_upper', '1',
               '-dm_swarm_num_particles', '2', '-dm_swarm_coordinate_density', 'constant', '-ts_convergence_estimate',
               '-convest_num_refine', '2', '-output_step', '100000', '-error'],
  ('ex5', 1): ORBITS + ['-dm_plex_box_faces', '1,1', '-error'],
  ('ex5', 2): ORBITS + ['-dm_plex_box_faces', '10,10', '-petscpartitioner_type', 'simple'],
  ('ex6', 1): ORBITS + ['-dm_plex_box_faces', '1,1', '-em_type', 'none', '-error'],
  ('ex6', 2): ORBITS + ['-dm_plex_box_faces', '10,10', '-petscpartitioner_type', 'simple', '-em_type', 'none'],
}
RATE = re.compile(r'^L_2 convergence rate: (\S+)\s*$', re.M)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  parser.add_argument('--exe', required=True)
  parser.add_argument('--program', required=True, choices=sorted({p for p, _ in SETS}))
  parser.add_argument('--lib', required=True)
  parser.add_argument('--mpiexec', default='mpiexec')
  parser.add_argument('--order', type=float, required=True)
  parser.add_argument('--ranks', type=int, nargs='+', default=[1])
  parser.add_argument('--dt', type=float, default=0.002, help='the coarsest step')
  parser.add_argument('--final-time', type=float, default=0.05, help='about a quarter of the inner orbit')
  parser.add_argument('--tol', type=float, default=0.3)
  parser.add_argument('extra', nargs='+', help='the type options, after --')
  args = parser.parse_args()
  ts_type = args.extra[args.extra.index('-ts_type') + 1] if '-ts_type' in args.extra else None

  ok = True
  for ranks in args.ranks:
    label = f'{args.program} {" ".join(args.extra)} on {ranks} rank{"s" if ranks > 1 else ""}'
    cmd = [args.exe, '-dll_append', args.lib] + SETS[(args.program, ranks)] + \
          ['-ts_dt', repr(args.dt), '-ts_max_time', repr(args.final_time), '-ts_max_steps', '100000', '-ts_view'] + args.extra
    try:
      text, _ = run(cmd, ranks=ranks, mpiexec=args.mpiexec)
    except RunError as e:
      print(f'{label} ran: no\n{e}')
      ok = False
      continue
    viewed = ts_type is None or re.search(rf'^\s*type: {re.escape(ts_type)}\s*$', text, re.M) is not None
    rates = RATE.findall(text)
    rate = float(rates[-1]) if rates else float('nan')
    good = viewed and abs(rate - args.order) <= args.tol
    print(f'{label}: ran as {ts_type}: {yes(viewed)}; convergence rate {rate:g} within {args.tol:g} of {args.order:g}: {yes(good)}')
    ok = ok and good
  print('PASS' if ok else 'FAIL')
  return 0 if ok else 1


if __name__ == '__main__':
  sys.exit(main())
