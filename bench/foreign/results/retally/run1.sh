cd /work/wt/retally
R=bench/foreign/results/retally
{ date -u; uptime; } >> $R/runs.log
PYTHONPATH=python nice -n 15 /usr/bin/time -f "%U+%S CPU s, %e s wall: femu (12 cases)" -a -o $R/runs.log \
  /work/main/.venv/bin/python -c "import sys; sys.path.insert(0, 'bench/foreign'); import evaluate; evaluate.CASES = evaluate.CASES[:12]; sys.exit(evaluate.main(['--only', 'femu', '--out', 'bench/foreign/results/retally/femu']))" > $R/femu/stdout.txt 2> $R/femu/stderr.txt
echo "rc $?" >> $R/runs.log
