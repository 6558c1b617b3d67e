#!/usr/bin/python3 -B
"""A TSSIMPVI run killed with SIGKILL at a random step and restarted from its last checkpoint must end bit for bit
as the same run uninterrupted (tests/checkpoint.c, a chain of pendulums on a 1-D DMDA).

  checkpoint_kill.py --exe tests/checkpoint [--np 1] [--restart-np N] [--door mechanical|i2] [--steps 200]
                     [--every 17] [--seed S] [--mpiexec mpiexec] [-- extra options for the program]

1. the reference: the run to --steps, final state written with -final (natural order, PETSc binary);
2. the same run with -ts_simpvi_checkpoint every --every steps, and a random rank SIGKILLs itself in the monitor of a
   random step k past the first checkpoint: the run must die, leaving the checkpoint of step
   every * floor((k - 1) / every) (the one of step k would be written at the start of step k + 1) and no <file>.tmp;
3. the restart from it (-ts_simpvi_restart, on --restart-np processes, by default --np), checkpointing on: -ts_view must
   name the restart step, and the final state must equal the reference byte for byte.
With --external the kill comes from outside instead: SIGKILL to the whole process group of mpiexec after a random
delay (and to each rank, by the process id it wrote: OpenMPI puts the ranks in process groups of their own), with a
checkpoint at every step, so that it may land in the middle of a checkpoint's writing (a <file>.tmp may
then be left; <file> must still be a whole checkpoint). The delay counts from the first checkpoint's appearance. With --restart-np other than --np the restart is measured, not required to be bitwise: the largest difference of the
final state from the reference is printed (docs/longruns.md).

The seed is printed, so that a failure can be replayed with --seed. Exit 0 on success, 1 otherwise.
"""
import argparse
import array
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def run(cmd, cwd, expect_ok=True, timeout=600):
  proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
  if expect_ok and proc.returncode != 0:
    sys.exit('FAILED (exit %d): %s\n%s' % (proc.returncode, ' '.join(cmd), proc.stdout[-3000:]))
  return proc


def read_petsc_vecs(path):
  """The doubles of the PETSc binary vectors in a file (big-endian; class id, size, values), all of them."""
  data = open(path, 'rb').read()
  out, pos = [], 0
  while pos < len(data):
    classid, n = array.array('i'), None
    classid.frombytes(data[pos:pos + 8])
    if sys.byteorder == 'little':
      classid.byteswap()
    n = classid[1]
    vals = array.array('d')
    vals.frombytes(data[pos + 8:pos + 8 + 8 * n])
    if sys.byteorder == 'little':
      vals.byteswap()
    out.extend(vals)
    pos += 8 + 8 * n
  return out


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument('--exe', required=True)
  ap.add_argument('--mpiexec', default='mpiexec')
  ap.add_argument('--np', type=int, default=1)
  ap.add_argument('--restart-np', type=int, default=None)
  ap.add_argument('--door', default='mechanical')
  ap.add_argument('--steps', type=int, default=200)
  ap.add_argument('--every', type=int, default=17)
  ap.add_argument('--seed', type=int, default=None)
  ap.add_argument('--external', action='store_true')
  ap.add_argument('extra', nargs='*')
  args = ap.parse_args()
  restart_np = args.restart_np or args.np
  seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
  rng = random.Random(seed)
  kill_step = rng.randrange(args.every + 1, args.steps)
  kill_rank = rng.randrange(args.np)
  expect = args.every * ((kill_step - 1) // args.every)
  if not args.external:
    print('seed %d: rank %d of %d killed at step %d of %d, checkpoints every %d steps: restart at step %d on %d process(es)' %
          (seed, kill_rank, args.np, kill_step, args.steps, args.every, expect, restart_np))
  else:
    print('seed %d: %d process(es), %d steps' % (seed, args.np, args.steps))

  def mpi(n):
    return [args.mpiexec, '-n', str(n)] + (['--oversubscribe'] if 'mpiexec' in os.path.basename(args.mpiexec) and n > 1 else [])

  base = [os.path.abspath(args.exe), '-door', args.door, '-steps', str(args.steps)] + args.extra
  work = tempfile.mkdtemp(prefix='checkpoint_kill-')
  ok = True
  try:
    run(mpi(args.np) + base + ['-final', 'reference.bin'], work)
    if args.external:
      every, delay = 1, rng.uniform(0.0, 0.5)
      print('external SIGKILL to the process group %.2f s after the first checkpoint, a checkpoint at every step' % delay)
      proc = subprocess.Popen(mpi(args.np) + base + ['-ts_simpvi_checkpoint', 'run.cp', '-ts_simpvi_checkpoint_every', '1', '-final', 'killed.bin',
                                                     '-pid_file', 'pid'], cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
      while proc.poll() is None and not os.path.exists(os.path.join(work, 'run.cp')):  # the first checkpoint, then the delay
        time.sleep(0.01)
      try:
        proc.wait(timeout=delay)
      except subprocess.TimeoutExpired:
        # the ranks first (OpenMPI gives each its own process group), then mpiexec's group
        for r in range(args.np):
          try:
            os.kill(int(open(os.path.join(work, 'pid.%d' % r)).read()), signal.SIGKILL)
          except (OSError, ValueError):
            pass
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        for r in range(args.np):  # gone before the restart writes the same files
          try:
            pid = int(open(os.path.join(work, 'pid.%d' % r)).read())
          except (OSError, ValueError):
            continue
          for _ in range(500):
            if not os.path.exists('/proc/%d' % pid) or open('/proc/%d/stat' % pid).read().split()[2] == 'Z':
              break
            time.sleep(0.01)
      died = not os.path.exists(os.path.join(work, 'killed.bin'))
      print('the run died by SIGKILL before its end: %s' % ('yes' if died else 'no (the delay was too long for this machine: use more -steps)'))
      ok &= died
      left = os.path.exists(os.path.join(work, 'run.cp'))
      print('a checkpoint was left (%s): %s' % ('with a temporary file' if os.path.exists(os.path.join(work, 'run.cp.tmp')) else 'no temporary file', 'yes' if left else 'no'))
      ok &= left
      expect = None
    else:
      every = args.every
      killed = run(mpi(args.np) + base + ['-ts_simpvi_checkpoint', 'run.cp', '-ts_simpvi_checkpoint_every', str(args.every),
                                          '-kill_at_step', str(kill_step), '-kill_rank', str(kill_rank), '-final', 'killed.bin'], work, expect_ok=False)
      died = killed.returncode != 0 and not os.path.exists(os.path.join(work, 'killed.bin'))
      print('the run died by SIGKILL before its end: %s' % ('yes' if died else 'no'))
      ok &= died
      left = os.path.exists(os.path.join(work, 'run.cp')) and not os.path.exists(os.path.join(work, 'run.cp.tmp'))
      print('a checkpoint was left, and no temporary file: %s' % ('yes' if left else 'no'))
      ok &= left
    restarted = run(mpi(restart_np) + base + ['-ts_simpvi_restart', 'run.cp', '-ts_simpvi_checkpoint', 'run.cp', '-ts_simpvi_checkpoint_every',
                                              str(every), '-final', 'restarted.bin', '-ts_view'], work)
    m = re.search(r'Restarted from the checkpoint run.cp at step (\d+)', restarted.stdout)
    step = int(m.group(1)) if m else -1
    if expect is None:
      print('restarted from the checkpoint left (step %d): %s' % (step, 'yes' if 0 < step < args.steps else 'no'))
      ok &= 0 < step < args.steps
    else:
      print('restarted from the last checkpoint (step %d): %s' % (step, 'yes' if step == expect else 'no'))
      ok &= step == expect
    ref = open(os.path.join(work, 'reference.bin'), 'rb').read()
    out = open(os.path.join(work, 'restarted.bin'), 'rb').read()
    if restart_np == args.np:
      same = ref == out
      print('final state bit-identical to the uninterrupted run: %s' % ('yes' if same else 'no'))
      ok &= same
    else:
      a, b = read_petsc_vecs(os.path.join(work, 'reference.bin')), read_petsc_vecs(os.path.join(work, 'restarted.bin'))
      diff = max(abs(x - y) for x, y in zip(a, b))
      scale = max(abs(x) for x in a)
      print('restart on %d process(es) from a checkpoint of %d: bit-identical: %s; largest difference of the final state %.3e (relative to its largest entry %.3e)' %
            (restart_np, args.np, 'yes' if ref == out else 'no', diff, diff / scale))
  finally:
    if ok:
      shutil.rmtree(work, ignore_errors=True)
    else:
      print('# files kept in %s' % work)
  print('checkpoint, SIGKILL and restart: %s' % ('yes' if ok else 'no'))
  return 0 if ok else 1


if __name__ == '__main__':
  sys.exit(main())
