"""Helpers shared by the conformance drivers: run a program (under mpiexec when asked), read PETSc binary Vecs,
observed orders. Each driver prints its checks as "...: yes/no" lines and ends with PASS or FAIL."""
import glob
import math
import os
import struct
import subprocess
import tempfile

VEC_FILE_CLASSID = 1211214  # PETSc's binary header of a Vec: classid, global size, then big-endian doubles


class RunError(RuntimeError):
  pass


_OPENMPI = {}


def _openmpi(mpiexec):
  """Whether mpiexec is Open MPI's, which can write each rank's output to its own file (--output-filename)."""
  if mpiexec not in _OPENMPI:
    try:
      out = subprocess.run([mpiexec, '--version'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
      out = ''
    _OPENMPI[mpiexec] = 'Open MPI' in out or 'OpenRTE' in out
  return _OPENMPI[mpiexec]


def run(cmd, ranks=1, mpiexec='mpiexec', timeout=100, check=True):
  """stdout+stderr of cmd on `ranks` MPI ranks; RunError (with the output's head) on a non-zero exit if check.
  Under Open MPI each rank's output is read from its own file, rank after rank: mpiexec's merged stream passes each
  rank's output on in chunks and may cut one rank's line with another's (a fully buffered stdout into a pipe)."""
  with tempfile.TemporaryDirectory() as outdir:
    split = ranks > 1 and _openmpi(mpiexec)
    launch = [mpiexec, '-n', str(ranks)] if ranks > 1 else []
    full = launch + (['--output-filename', outdir] if split else []) + [str(c) for c in cmd]
    proc = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    text = proc.stdout
    if split:
      parts = []
      for r in range(ranks):
        for stream in ('stdout', 'stderr'):
          for path in glob.glob(os.path.join(outdir, '*', f'rank.{r}', stream)):
            with open(path, errors='replace') as f:
              parts.append(f.read())
      if parts:
        text = ''.join(parts)
  if check and proc.returncode != 0:
    lines = [line for line in text.splitlines() if 'Configure options' not in line and ' TS dt ' not in line]
    errors = [line for line in lines if 'PETSC ERROR' in line]
    raise RunError(f'exit {proc.returncode}:\n  {" ".join(full)}\n' + '\n'.join(errors[:30] if errors else lines[-30:]))
  return text, proc.returncode


def read_vecs(path):
  """Every Vec PETSc's binary viewer wrote to path (VecView with PETSC_VIEWER_BINARY), as lists of floats."""
  with open(path, 'rb') as f:
    data = f.read()
  vecs, pos = [], 0
  while pos < len(data):
    classid, n = struct.unpack('>ii', data[pos:pos + 8])
    if classid != VEC_FILE_CLASSID:
      raise RunError(f'{path}: not a PETSc Vec at byte {pos} (classid {classid})')
    pos += 8
    vecs.append(list(struct.unpack(f'>{n}d', data[pos:pos + 8 * n])))
    pos += 8 * n
  return vecs


def orders(errors):
  """log2 of successive error ratios (steps doubling each time); nan where an error is not positive."""
  return [math.log2(a / b) if a > 0 and b > 0 else float('nan') for a, b in zip(errors, errors[1:])]


def yes(flag):
  return 'yes' if flag else 'no'
