#!/usr/bin/python3 -B
"""Run the /*TEST ... TEST*/ blocks of PETSc-style example sources from CTest.

The block is parsed by PETSc 3.18's own testparse.py, and each test runs the way PETSc's harness runs it
(config/gmakegentest.py, example_template.py, petsc_harness.sh): bash evaluates
"mpiexec -n <nsize> <exe> -petsc_ci <args> > <name>.tmp 2> <name>.err" in a fresh directory, with the
harness's PETSC_OPTIONS; then stdout goes through filter: and petscdiff against output/<name>.out.

  petsc_ctest.py list <source.c> [--conf simpviconf.h]
      One line per test: <name> TAB <max nsize> TAB <timeout in s> TAB <build 0|1>. <name> is PETSc's test
      name without "run" (ex43_a); build is 0 when the build: requires/TODO of the file is not met.
  petsc_ctest.py run <source.c> <name> --exe <exe> [--mpiexec mpiexec] [--conf simpviconf.h] [--regenerate]
                     [--tmpdir DIR] [--keep]
      Exit 0: every run matches; 1: a run failed or differs (diff and stderr are printed on stdout);
      77: skipped (requires: not met, TODO, SKIP). --regenerate (or SIMPVI_REGENERATE=1) writes the
      filtered output into the expected file instead of comparing.

--petsc-dir defaults to $PETSC_DIR, else Debian's PETSc 3.18; --conf may be repeated.
"""
import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import types

SKIP = 77  # CTest SKIP_RETURN_CODE
TIMEOUT = 60  # seconds per run, times timeoutfactor, as in PETSc's harness
SLACK = 10  # extra seconds per run in the CTest TIMEOUT, so the driver reports a timeout itself
DEFAULT_PETSC_DIR = '/usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real'
HARNESS_OPTIONS = '-check_pointer_intensity 0 -error_output_stdout -malloc_dump'  # example_template.py
APPEND_KEYS = ('args', 'diff_args', 'requires', 'comments', 'env')  # testparse.appendlist
LOOP = re.compile(r'\{\{(.*?)\}[^}]*\}')  # {{a b}} or {{a b}shared output}


def import_testparse(petsc_dir):
  config = os.path.join(petsc_dir, 'share', 'petsc', 'examples', 'config')
  if not os.path.isfile(os.path.join(config, 'testparse.py')):
    sys.exit('petsc_ctest: PETSc\'s test harness %s/testparse.py is missing: on Debian install the package '
             'libpetsc3.18-dev-examples (bash ci/deps.sh does); a PETSc of your own must be installed with its '
             'share/petsc/examples' % config)
  sys.path.insert(0, config)
  try:
    import testparse
  except ImportError:
    # testparse does "from gmakegen import *", and gmakegen imports sysconfig._parse_makefile, which
    # Python 3.13 removed. testparse only needs these two helpers (copied from gmakegen.py).
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
  """({name: test dict}, build dict) of a source file; names lose their "run" prefix."""
  cwd = os.getcwd()
  try:
    parsed = testparse.parseTestFile(src, 0)[os.path.basename(src)]
  finally:
    os.chdir(cwd)  # parseTestFile chdirs into the source directory
  tests = {k[3:]: v for k, v in parsed.items() if isinstance(v, dict) and k.startswith('run')}
  build = {k: v for k, v in parsed.items() if not isinstance(v, dict)}
  return tests, build


def expand_loops(text):
  """Every string made by picking one value of each shared {{...}} loop. testparse has already split
  the {{...}separate output} loops into tests of their own."""
  m = LOOP.search(text)
  if not m:
    return [text]
  return [text[:m.start()] + value + rest for value in m.group(1).split() for rest in expand_loops(text[m.end():])]


def expand_runs(test):
  """[(settings, nsize, args)], one per mpiexec run, in order. A subtest inherits the test's settings:
  the append keys are appended, the others overridden (testparse's rule for subtests with a suffix)."""
  subtests = test.get('subtests', [])
  runs = []
  for sub in subtests or [None]:
    conf = {k: v for k, v in test.items() if k != 'subtests' and k not in subtests}
    for key, value in (test[sub].items() if sub else []):
      conf[key] = conf[key] + ' ' + value if key in APPEND_KEYS and key in conf else value
    for nsize in expand_loops(conf.get('nsize', '1')):
      for args in expand_loops(conf.get('args', '')):
        runs.append((conf, int(nsize), args))
  return runs


def read_defines(path):
  """{macro: value} of the #define lines of a header."""
  defines = {}
  if not os.path.isfile(path):
    print('petsc_ctest: warning: config header %s not found' % path, file=sys.stderr)
    return defines
  with open(path) as f:
    for line in f:
      m = re.match(r'\s*#\s*define\s+(\w+)\s*(.*)', line)
      if m:
        defines[m.group(1)] = m.group(2).strip()
  return defines


def requirement_met(req, petsc, project):
  """One requires: token, as in gmakegentest.py _isRun; petsc and project hold the #defines."""
  negate, name = req.startswith('!'), req.lstrip('!')
  low = name.lower()
  if low in ('single', 'double', '__float128', '__fp16'):
    have = 'PETSC_USE_REAL_' + name.upper() in petsc
  elif low in ('int32', 'int64'):  # 3.18's harness tests sizeof(int) here, which is always 4
    have = ('PETSC_USE_64BIT_INDICES' in petsc) == (low == 'int64')
  elif low in ('long32', 'long64'):
    have = petsc.get('PETSC_SIZEOF_LONG') == str(int(low[4:]) // 8)
  elif low == 'datafilespath':
    have = bool(os.environ.get('DATAFILESPATH'))
  elif low.startswith('defined('):
    macro = name[len('defined('):].rstrip(')')
    have = macro in petsc or macro in project
  else:  # foo: PETSC_HAVE_FOO or <PKG>_HAVE_FOO (SIMPVI_HAVE_FOO); complex and debug use _USE_
    tail = ('_USE_' if low in ('complex', 'debug') else '_HAVE_') + name.upper()
    have = 'PETSC' + tail in petsc or any(k.endswith(tail) for k in project)
  return have != negate


def unmet(requires, petsc, project):
  return [r for r in requires.split() if not requirement_met(r, petsc, project)]


def skip_reason(build, runs, petsc, project):
  """Why the test is skipped, or None. A TODO, SKIP or unmet requires: in any run skips the whole test."""
  for conf in [build] + [c for c, _, _ in runs]:
    for key in ('TODO', 'SKIP'):
      if key in conf:
        return '%s: %s' % (key, conf[key])
    missing = unmet(conf.get('requires', ''), petsc, project)
    if missing:
      return 'SKIP: requires not met: %s' % ' '.join(missing)
  return None


DEBUG_FACTOR = 4  # a debug build of PETSc (PETSC_USE_DEBUG: every argument checked, memory tracked) runs this much slower
timeout_scale = 1


def timeout_of(conf):
  return int(TIMEOUT * timeout_scale * float(conf.get('timeoutfactor', '1')))


def cmd_list(opts, testparse, petsc, project):
  tests, build = parse_source(testparse, opts.source)
  buildable = not build.get('TODO') and not unmet(build.get('requires', ''), petsc, project)
  for name, test in tests.items():
    runs = expand_runs(test)
    nsize = max(n for _, n, _ in runs)
    timeout = sum(timeout_of(conf) + SLACK for conf, _, _ in runs)  # PETSc times each run separately
    print('%s\t%d\t%d\t%d' % (name, nsize, timeout, buildable))
  return 0


def petsc_test_options(petsc_dir):
  """PETSC_TEST_OPTIONS of petscvariables, which the harness appends to PETSC_OPTIONS."""
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
  env.update(OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1', LC_ALL='C', wPETSC_DIR=opts.petsc_dir)
  env['PETSC_OPTIONS'] = ' '.join(filter(None, [os.environ.get('PETSC_OPTIONS'), HARNESS_OPTIONS, petsc_test_options(opts.petsc_dir)]))
  env['MPIEXEC_TIMEOUT'] = str(timeout_of(conf))  # Open MPI aborts the job after this many seconds
  return env


def shell_filter(command, text, workdir, env):
  """text piped through a filter: or filter_output: command; petscdiff runs those with /bin/sh -f."""
  proc = subprocess.run(['/bin/sh', '-f', '-c', command], input=text, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
  return proc.stdout


def alternatives(expected):
  """The expected file plus the <root>_alt.out, <root>_alt_2.out ... _alt_8.out that exist (gmakegentest _getAltList)."""
  head, base = os.path.split(expected)
  root = os.path.join(head, base.split('.')[0])
  alts = [root + '_alt' + ('_%d' % i if i > 1 else '') + '.out' for i in range(1, 9)]
  return [expected] + [a for a in alts if os.path.isfile(a)]


def compare(output, conf, expected, workdir, env, opts, written):
  """(ok, report) for one run's stdout against its expected file, or write it when regenerating."""
  if conf.get('filter'):
    output = shell_filter(conf['filter'], output, workdir, env)
  if opts.regenerate and expected not in written:  # later runs sharing the file are compared with it
    os.makedirs(os.path.dirname(expected), exist_ok=True)
    with open(expected, 'w') as f:
      f.write(output)
    written.add(expected)
    return True, 'wrote %s' % expected
  if not os.path.isfile(expected):
    return False, 'expected output %s does not exist (create it with --regenerate)' % expected
  got = os.path.join(workdir, 'petsc_ctest.output')
  with open(got, 'w') as f:
    f.write(output)
  report = ''
  for candidate in alternatives(expected):
    if conf.get('filter_output'):  # filter a copy: nothing may be written next to the expected file
      with open(candidate) as f:
        filtered = shell_filter(conf['filter_output'], f.read(), workdir, env)
      candidate = os.path.join(workdir, 'petsc_ctest.expected')
      with open(candidate, 'w') as f:
        f.write(filtered)
    diff = [os.path.join(opts.petsc_dir, 'lib', 'petsc', 'bin', 'petscdiff')] + shlex.split(conf.get('diff_args', '')) + [candidate, got]
    proc = subprocess.run(diff, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if proc.returncode == 0:
      return True, ''
    report = report or proc.stdout  # show the diff against the main expected file
  return False, 'petscdiff %s <output>:\n%s' % (expected, report.rstrip('\n'))


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


def launch(script, workdir, env, limit):
  """Run a bash script; return (what it printed outside its redirections, exit code or 'timeout after N s')."""
  with subprocess.Popen(['/bin/bash', '-c', script], cwd=workdir, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                        universal_newlines=True, errors='replace', start_new_session=True) as proc:
    try:
      return proc.communicate(timeout=limit)[0], proc.returncode
    except subprocess.TimeoutExpired:
      os.killpg(proc.pid, signal.SIGKILL)  # the whole group: mpiexec and its ranks, or the shell and its children
      return proc.communicate()[0], 'timeout after %d s' % limit


def read_text(path):
  try:
    with open(path, errors='replace') as f:
      return f.read()
  except OSError:
    return ''


def run_one(conf, nsize, args, opts, workdir, root, expected, written):
  """Run once and compare; print what happened and return True if it passed.

  Like PETSc's script, bash evaluates the command line, so args may use $VARS, {a,b} or even redirections,
  and stdout goes to <root>.tmp, stderr to <root>.err."""
  env = run_env(conf, opts)
  filt = conf.get('filter', '')
  error_run = filt.startswith('Error:')  # "filter: Error: cmd": failure expected, stderr kept, exit code ignored
  if error_run:
    conf = dict(conf, filter=filt[len('Error:'):].strip())
  if 'command' in conf:  # a shell command instead of the example; $exec and $mpiexec as in PETSc's scripts
    env.update(exec=opts.exe or '', mpiexec=opts.mpiexec)
    cmd = conf['command']
  else:
    cmd = '%s -n %d %s%s -petsc_ci %s' % (opts.mpiexec, nsize, '--oversubscribe ' if nsize > 1 else '', shlex.quote(opts.exe), args)
  exports = ''.join('export %s\n' % item for item in shlex.split(conf.get('env', '')))  # env: A=1 B=2
  redirect = '> {0}.tmp 2>&1' if error_run else '> {0}.tmp 2> {0}.err'
  print('# %s%s' % (exports.replace('\n', '; '), cmd), flush=True)
  limit = timeout_of(conf) + SLACK // 2  # a backstop: Open MPI should stop the job at MPIEXEC_TIMEOUT
  extra, code = launch(exports + cmd + ' ' + redirect.format(root), workdir, env, limit)
  stdout, stderr = read_text(os.path.join(workdir, root + '.tmp')), extra + read_text(os.path.join(workdir, root + '.err'))
  if code != 0 and (not error_run or isinstance(code, str)):  # a timeout always fails
    status = code if isinstance(code, str) else 'exit code %d' % code
    ok, report = False, '%s, no diff done; stdout:\n%s' % (status, stdout.rstrip('\n'))
  else:
    ok, report = compare(stdout, conf, expected, workdir, env, opts, written)
  print(('ok' if ok else 'not ok') + (' ' + report if report else ''))
  if not ok:
    if stderr:
      print('--- stderr ---\n%s' % stderr.rstrip('\n'))
    print('# to reproduce: cd %s && %sPETSC_OPTIONS=%s %s' % (workdir, exports.replace('\n', '; '), shlex.quote(env['PETSC_OPTIONS']), cmd))
  return ok


def cmd_run(opts, testparse, petsc, project):
  tests, build = parse_source(testparse, opts.source)
  if opts.name not in tests:
    print('petsc_ctest: no test %s in %s (it has: %s)' % (opts.name, opts.source, ' '.join(tests)))
    return 1
  runs = expand_runs(tests[opts.name])
  reason = skip_reason(build, runs, petsc, project)
  if reason:
    print(reason)
    return SKIP
  if not opts.exe and any('command' not in conf for conf, _, _ in runs):
    print('petsc_ctest: --exe is required')
    return 1

  srcdir = os.path.dirname(opts.source)
  root = testparse.getDefaultOutputFileRoot('run' + opts.name)
  if opts.tmpdir:
    os.makedirs(opts.tmpdir, exist_ok=True)
  workdir = tempfile.mkdtemp(prefix='%s-' % opts.name, dir=opts.tmpdir)  # shared by all runs, as subtests may pass files on
  copy_runfiles(runs, srcdir, workdir)
  written = set()
  results = [run_one(conf, nsize, args, opts, workdir, root, os.path.join(srcdir, conf.get('output_file') or 'output/%s.out' % root), written) for conf, nsize, args in runs]
  if all(results) and not opts.keep:
    shutil.rmtree(workdir, ignore_errors=True)
  else:
    print('# run directory kept: %s' % workdir)
  return 0 if all(results) else 1


def main():
  parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
  parser.add_argument('mode', choices=['list', 'run'])
  parser.add_argument('source', help='example source file with a /*TEST*/ block')
  parser.add_argument('name', nargs='?', help='run: test name without "run", e.g. ex43_a')
  parser.add_argument('--exe', help='run: the built example')
  parser.add_argument('--mpiexec', default='mpiexec', help='run: MPI launcher (default: mpiexec)')
  parser.add_argument('--conf', action='append', default=[], help='project config header for requires: (repeatable)')
  parser.add_argument('--petsc-dir', default=os.environ.get('PETSC_DIR') or DEFAULT_PETSC_DIR)
  parser.add_argument('--regenerate', action='store_true', default=os.environ.get('SIMPVI_REGENERATE') == '1', help='run: write the expected outputs instead of comparing')
  parser.add_argument('--keep', action='store_true', help='run: keep the run directory (always kept when a run fails)')
  parser.add_argument('--tmpdir', help='run: where to create the run directory (default: the system temp dir)')
  opts = parser.parse_args()
  if opts.mode == 'run' and not opts.name:
    parser.error('run needs a test name')
  opts.source = os.path.abspath(opts.source)
  opts.exe = opts.exe and os.path.abspath(opts.exe)

  testparse = import_testparse(opts.petsc_dir)
  petsc = read_defines(os.path.join(opts.petsc_dir, 'include', 'petscconf.h'))
  global timeout_scale
  timeout_scale = (DEBUG_FACTOR if 'PETSC_USE_DEBUG' in petsc else 1) * float(os.environ.get('SIMPVI_TIMEOUT_SCALE', '1'))
  project = {}
  for path in opts.conf:
    project.update(read_defines(path))
  return (cmd_list if opts.mode == 'list' else cmd_run)(opts, testparse, petsc, project)


if __name__ == '__main__':
  sys.exit(main())
