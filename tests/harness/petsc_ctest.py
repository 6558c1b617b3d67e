#!/usr/bin/python3 -B
"""Run the /*TEST ... TEST*/ blocks of PETSc-style example sources from CTest.

It parses the block with PETSc 3.18's own testparse.py and runs each test the way PETSc's harness does
(config/gmakegentest.py, example_template.py, petsc_harness.sh), then compares stdout with petscdiff.

  petsc_ctest.py list <source.c> [--conf simpviconf.h]
      One line per test: <name> TAB <max nsize> TAB <timeout in s> TAB <build 0|1>.
      <name> is PETSc's name without "run" (ex43_a); build is 0 when a build: requires/TODO is not met.
  petsc_ctest.py run <source.c> <name> --exe <exe> [--mpiexec mpiexec] [--conf simpviconf.h] [--regenerate] [--keep]
      Exit 0: all runs match; 1: a run failed or differs (the diff and stderr go to stdout);
      77: skipped (requires: not met, TODO, SKIP). --regenerate (or SIMPVI_REGENERATE=1) writes the
      (filtered) output into the expected file instead of comparing.

Both modes take --petsc-dir (default $PETSC_DIR, else Debian's PETSc 3.18).
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import types

SKIP = 77  # CTest SKIP_RETURN_CODE
TIMEOUT = 60  # seconds per run, times timeoutfactor (PETSc's harness default)
SLACK = 10  # seconds per run on top of TIMEOUT before the driver itself gives up
DEFAULT_PETSC_DIR = '/usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real'
HARNESS_OPTIONS = '-check_pointer_intensity 0 -error_output_stdout -malloc_dump'  # example_template.py
APPEND_KEYS = ('args', 'diff_args', 'requires', 'comments', 'env')  # testparse.appendlist
LOOP = re.compile(r'\{\{(.*?)\}[^}]*\}')  # {{a b}} or {{a b}shared output}
VAR = re.compile(r'\$(\w+)|\$\{(\w+)\}')


def import_testparse(petsc_dir):
  sys.path.insert(0, os.path.join(petsc_dir, 'share', 'petsc', 'examples', 'config'))
  try:
    import testparse
  except ImportError:
    # testparse does "from gmakegen import *"; gmakegen imports sysconfig._parse_makefile, which Python 3.13
    # removed. testparse only needs these two helpers (copied from gmakegen.py).
    for name in ('gmakegen', 'testparse'):
      sys.modules.pop(name, None)
    stub = types.ModuleType('gmakegen')

    def getlangext(name):
      base = os.path.basename(name)
      return base[base.find('.'):] if '.' in base else ''

    def getlangsplit(name):
      base = os.path.basename(name)
      if '.' not in base:
        raise RuntimeError('No . in filename')
      return os.path.join(os.path.dirname(name), base[:base.find('.')])

    stub.getlangext, stub.getlangsplit = getlangext, getlangsplit
    sys.modules['gmakegen'] = stub
    import testparse
  return testparse


def parse_source(testparse, src):
  """Return ({name: test dict}, build dict) for a source file; names lose the "run" prefix."""
  cwd = os.getcwd()
  try:
    parsed = testparse.parseTestFile(src, 0)[os.path.basename(src)]
  finally:
    os.chdir(cwd)  # parseTestFile chdirs into the source directory
  tests = {k[3:]: v for k, v in parsed.items() if isinstance(v, dict) and k.startswith('run')}
  build = {k: v for k, v in parsed.items() if not isinstance(v, dict)}
  return tests, build


def expand_loops(text):
  """Every string obtained by picking one value of each shared {{...}} loop (testparse already
  expanded the {{...}separate output} ones into tests of their own)."""
  m = LOOP.search(text)
  if not m:
    return [text]
  return [text[:m.start()] + value + rest for value in m.group(1).split() for rest in expand_loops(text[m.end():])]


def expand_runs(test):
  """List of (settings, nsize, args), one per mpiexec run, in order. Subtests inherit the test's settings:
  the append keys are appended, the others overridden (as testparse does for subtests with a suffix)."""
  runs = []
  for sub in test.get('subtests') or [None]:
    conf = {k: v for k, v in test.items() if k != 'subtests' and k not in test.get('subtests', [])}
    for key, value in (test[sub].items() if sub else []):
      conf[key] = conf[key] + ' ' + value if key in APPEND_KEYS and key in conf else value
    for nsize in expand_loops(conf.get('nsize', '1')):
      for args in expand_loops(conf.get('args', '')):
        runs.append((conf, int(nsize), args))
  return runs


def read_defines(path):
  """{macro: value} of the #define lines of a header (value '' when there is none)."""
  defines = {}
  if path and os.path.isfile(path):
    with open(path) as f:
      for line in f:
        m = re.match(r'\s*#\s*define\s+(\w+)\s*(.*)', line)
        if m:
          defines[m.group(1)] = m.group(2).strip()
  elif path:
    print('petsc_ctest: warning: config header %s not found' % path, file=sys.stderr)
  return defines


def requirement_met(req, petsc, project):
  """One requires: token, like gmakegentest.py _isRun, with PETSc's macros in petsc and ours in project."""
  negate, name = req.startswith('!'), req.lstrip('!')
  low = name.lower()
  if low in ('single', 'double', '__float128', '__fp16'):
    have = 'PETSC_USE_REAL_' + name.upper() in petsc
  elif low in ('int32', 'int64'):  # 3.18's harness checks sizeof(int) here, which is always 4
    have = ('PETSC_USE_64BIT_INDICES' in petsc) == (low == 'int64')
  elif low in ('long32', 'long64'):
    have = petsc.get('PETSC_SIZEOF_LONG') == str(int(low[4:]) // 8)
  elif low == 'datafilespath':
    have = bool(os.environ.get('DATAFILESPATH'))
  elif low.startswith('defined('):
    macro = name[len('defined('):].rstrip(')')
    have = macro in petsc or macro in project
  else:  # foo -> PETSC_HAVE_FOO or <PKG>_HAVE_FOO; complex/debug use _USE_
    tail = ('_USE_' if low in ('complex', 'debug') else '_HAVE_') + name.upper()
    have = 'PETSC' + tail in petsc or any(k.endswith(tail) for k in project)
  return have != negate


def unmet(requires, petsc, project):
  return [r for r in requires.split() if not requirement_met(r, petsc, project)]


def timeout_of(conf):
  return int(TIMEOUT * float(conf.get('timeoutfactor', '1')))


def cmd_list(opts, testparse, petsc, project):
  tests, build = parse_source(testparse, opts.source)
  buildable = not build.get('TODO') and not unmet(build.get('requires', ''), petsc, project)
  for name, test in tests.items():
    runs = expand_runs(test)
    nsize = max(n for _, n, _ in runs)
    # Each run has its own timeout, as in PETSc; the slack lets the driver report a timeout before CTest kills it.
    timeout = sum(timeout_of(conf) + SLACK for conf, _, _ in runs)
    print('%s\t%d\t%d\t%d' % (name, nsize, timeout, buildable))
  return 0


def expandvars(text, env):
  """os.path.expandvars, but with the run's environment (env: entries included); unknown names stay."""
  return VAR.sub(lambda m: env.get(m.group(1) or m.group(2), m.group(0)), text)


def petsc_test_options(petsc_dir):
  """PETSC_TEST_OPTIONS from petscvariables: the harness appends it to PETSC_OPTIONS."""
  try:
    with open(os.path.join(petsc_dir, 'lib', 'petsc', 'conf', 'petscvariables')) as f:
      for line in f:
        if line.startswith('PETSC_TEST_OPTIONS'):
          return line.split('=', 1)[1].strip()
  except OSError:
    pass
  return ''


def run_env(conf, opts):
  env = dict(os.environ)
  env.update(OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1', LC_ALL='C')
  env['PETSC_OPTIONS'] = ' '.join(filter(None, [os.environ.get('PETSC_OPTIONS'), HARNESS_OPTIONS, petsc_test_options(opts.petsc_dir)]))
  env['MPIEXEC_TIMEOUT'] = str(timeout_of(conf))  # Open MPI kills the job after this many seconds
  for item in shlex.split(conf.get('env', '')):  # env: A=1 B=2, exported like the harness's "export A=1"
    key, _, value = item.partition('=')
    env[key] = expandvars(value, env)
  return env


def shell_filter(command, text, workdir, env):
  """Pipe text through a filter:/filter_output: command; petscdiff runs it with /bin/sh -f."""
  proc = subprocess.run(['/bin/sh', '-f', '-c', command], input=text, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
  return proc.stdout


def alternatives(expected):
  """The expected file and the output/<root>_alt.out, _alt_2.out ... _alt_8.out that exist (gmakegentest _getAltList)."""
  head, base = os.path.split(expected)
  root = os.path.join(head, base.split('.')[0])
  alts = [root + '_alt' + ('_%d' % i if i > 1 else '') + '.out' for i in range(1, 9)]
  return [expected] + [a for a in alts if os.path.isfile(a)]


def compare(output, conf, expected, workdir, env, opts, written):
  """Return (ok, report) for one run's stdout against its expected file."""
  if conf.get('filter'):
    output = shell_filter(conf['filter'], output, workdir, env)
  if opts.regenerate and expected not in written:
    os.makedirs(os.path.dirname(expected), exist_ok=True)
    with open(expected, 'w') as f:
      f.write(output)
    written.add(expected)
    return True, 'wrote %s\n' % expected
  got = os.path.join(workdir, 'output.tmp')
  with open(got, 'w') as f:
    f.write(output)
  if not os.path.isfile(expected):
    return False, 'expected output %s does not exist (create it with --regenerate)\n' % expected
  report = ''
  for candidate in alternatives(expected):
    if conf.get('filter_output'):  # filter a copy, so nothing is written next to the expected file
      with open(candidate) as f:
        filtered = shell_filter(conf['filter_output'], f.read(), workdir, env)
      candidate = os.path.join(workdir, 'expected.tmp')
      with open(candidate, 'w') as f:
        f.write(filtered)
    diff = [os.path.join(opts.petsc_dir, 'lib', 'petsc', 'bin', 'petscdiff')] + shlex.split(conf.get('diff_args', '')) + [candidate, got]
    proc = subprocess.run(diff, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if proc.returncode == 0:
      return True, ''
    report = report or proc.stdout  # report the diff against the main expected file
  return False, '--- petscdiff %s <output> ---\n%s' % (expected, report)


def copy_runfiles(runs, srcdir, workdir):
  for conf, _, _ in runs:
    for item in conf.get('localrunfiles', '').split():
      dest = os.path.join(workdir, os.path.dirname(item))
      os.makedirs(dest, exist_ok=True)
      source = os.path.join(srcdir, item)
      if os.path.isdir(source):
        shutil.copytree(source, os.path.join(dest, os.path.basename(item)), dirs_exist_ok=True)
      else:
        shutil.copy(source, dest)


def cmd_run(opts, testparse, petsc, project):
  tests, build = parse_source(testparse, opts.source)
  if opts.name not in tests:
    print('petsc_ctest: no test %s in %s (have: %s)' % (opts.name, opts.source, ' '.join(tests)))
    return 1
  test, runs = tests[opts.name], expand_runs(tests[opts.name])
  # TODO/SKIP anywhere, or requires: of any run not met, skips the whole test
  for conf in [build] + [c for c, _, _ in runs]:
    for key in ('TODO', 'SKIP'):
      if key in conf:
        print('%s: %s' % (key, conf[key]))
        return SKIP
    missing = unmet(conf.get('requires', ''), petsc, project)
    if missing:
      print('SKIP: requires not met: %s' % ' '.join(missing))
      return SKIP
  if not opts.exe and any('command' not in conf for conf, _, _ in runs):
    print('petsc_ctest: --exe is required')
    return 1

  srcdir = os.path.dirname(opts.source)
  default_output = 'output/%s.out' % testparse.getDefaultOutputFileRoot('run' + opts.name)
  if opts.tmpdir:
    os.makedirs(opts.tmpdir, exist_ok=True)
  workdir = tempfile.mkdtemp(prefix='%s-' % opts.name, dir=opts.tmpdir)  # one dir for all runs: subtests may share files
  copy_runfiles(runs, srcdir, workdir)
  failed, written = False, set()
  for conf, nsize, args in runs:
    env = run_env(conf, opts)
    # filter: "Error: cmd" means the run is expected to fail: keep stderr, ignore the exit code
    filt = conf.get('filter', '')
    error_run = filt.startswith('Error:')
    if error_run:
      conf = dict(conf, filter=filt[len('Error:'):].strip())
    if 'command' in conf:
      env.update(exec=opts.exe or '', mpiexec=opts.mpiexec)
      cmd, shown = conf['command'], conf['command']
    else:
      cmd = shlex.split(opts.mpiexec) + ['-n', str(nsize)] + (['--oversubscribe'] if nsize > 1 else [])
      cmd += [opts.exe, '-petsc_ci'] + shlex.split(expandvars(args, env))
      shown = ' '.join(shlex.quote(c) for c in cmd)
    print('# %s' % shown)
    sys.stdout.flush()
    try:
      # Open MPI stops the job after MPIEXEC_TIMEOUT seconds; this timeout is the backstop (command:, other MPIs)
      proc = subprocess.run(cmd, shell=isinstance(cmd, str), executable='/bin/bash' if isinstance(cmd, str) else None, cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT if error_run else subprocess.PIPE, universal_newlines=True, errors='replace', timeout=timeout_of(conf) + SLACK // 2)
    except subprocess.TimeoutExpired as e:
      print('not ok: timed out after %d s\n--- stdout ---\n%s' % (timeout_of(conf) + SLACK // 2, e.stdout or ''))
      failed = True
      continue
    expected = os.path.join(srcdir, conf.get('output_file') or default_output)
    if proc.returncode != 0 and not error_run:
      ok, report = False, 'exit code %d (no diff done)\n--- stdout ---\n%s' % (proc.returncode, proc.stdout)
    else:
      ok, report = compare(proc.stdout, conf, expected, workdir, env, opts, written)
    print(('ok %s' if ok else 'not ok %s') % report.rstrip('\n') if report else 'ok')
    if not ok:
      failed = True
      if proc.stderr:
        print('--- stderr ---\n%s' % proc.stderr.rstrip('\n'))
  if failed or opts.keep:
    print('# run directory kept: %s' % workdir)
  else:
    shutil.rmtree(workdir, ignore_errors=True)
  return 1 if failed else 0


def main():
  parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
  parser.add_argument('mode', choices=['list', 'run'])
  parser.add_argument('source', help='example source file with a /*TEST*/ block')
  parser.add_argument('name', nargs='?', help='test name without "run", e.g. ex43_a (run mode)')
  parser.add_argument('--exe', help='the built example')
  parser.add_argument('--mpiexec', default='mpiexec')
  parser.add_argument('--conf', action='append', default=[], help='project config header for requires: (repeatable)')
  parser.add_argument('--petsc-dir', default=os.environ.get('PETSC_DIR') or DEFAULT_PETSC_DIR)
  parser.add_argument('--regenerate', action='store_true', default=os.environ.get('SIMPVI_REGENERATE') == '1', help='write outputs instead of comparing')
  parser.add_argument('--keep', action='store_true', help='keep the run directory (always kept when a run fails)')
  parser.add_argument('--tmpdir', help='where to create the run directory (default: the system temp dir)')
  opts = parser.parse_args()
  opts.source = os.path.abspath(opts.source)
  if opts.exe:
    opts.exe = os.path.abspath(opts.exe)
  if opts.mode == 'run' and not opts.name:
    parser.error('run needs a test name')

  testparse = import_testparse(opts.petsc_dir)
  petsc = read_defines(os.path.join(opts.petsc_dir, 'include', 'petscconf.h'))
  project = {}
  for path in opts.conf:
    project.update(read_defines(path))
  return (cmd_list if opts.mode == 'list' else cmd_run)(opts, testparse, petsc, project)


if __name__ == '__main__':
  sys.exit(main())
