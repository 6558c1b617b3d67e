#!/usr/bin/env bash
# bench/stepcost's smoke run (ctest bench-stepcost-quick; no timing asserted): rk4 and irk on the I2 pendulum take the
# pendulum problem's own set-up and energy (the same steps N and energy errors as -problem pendulum), and every method
# meets a loose target on the I2 pendulum and on a short FPUT chain, with no leak.
#   bash bench/stepcostquick.sh [bindir, default build/bench]
set -euo pipefail
bin=${1:-build/bench}/stepcost
rows() { grep -E '^  (rk4|irk) +N =' || true; }
i2=$("$bin" -problem pendulum_i2 -mode target -T 50 -tol 1e-6 -methods lobatto:5,rk4,irk,alpha2 -rounds 1 -malloc_dump)
ps=$("$bin" -problem pendulum -mode target -T 50 -tol 1e-6 -methods rk4,irk -rounds 1 -malloc_dump)
fput=$("$bin" -problem fput -n 200 -mode target -T 5 -tol 1e-6 -methods simpson,lobatto:3,alpha2 -rounds 1 -malloc_dump)
echo "$i2"
echo "$fput"
status=0
if [ -z "$(echo "$i2" | rows)" ] || [ "$(echo "$i2" | rows)" != "$(echo "$ps" | rows)" ]; then
  echo "rk4 and irk on pendulum_i2: not as on pendulum:"
  echo "$ps" | rows
  status=1
fi
if echo "$i2$fput" | grep -q "not met"; then
  echo "a method did not meet the target"
  status=1
fi
[ $status -eq 0 ] && echo "stepcost quick: yes" || echo "stepcost quick: no"
exit $status
