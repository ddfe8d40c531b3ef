cd /work/wt/retally
R=bench/foreign/results/retally
{ date -u; uptime; } >> $R/runs.log
PYTHONPATH=python nice -n 15 /usr/bin/time -f "%U+%S CPU s, %e s wall: femu-16luns (U1), IOPS 0+40 QD32 + 40 QD4, FOB" -a -o $R/runs.log \
  /work/main/.venv/bin/python -c "import sys; sys.path.insert(0, 'bench/foreign'); import evaluate; evaluate.CASES = tuple(c for c in evaluate.CASES if c[0] == 'IOPS 0+40 QD32 + 40 QD4, FOB'); sys.exit(evaluate.main(['--results', 'bench/foreign/results/femu-units', '--only', 'femu-16luns', '--out', 'bench/foreign/results/retally/units-iops']))" > $R/units-iops/stdout.txt 2> $R/units-iops/stderr.txt
echo "rc $?" >> $R/runs.log
