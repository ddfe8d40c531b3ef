cd /work/wt/retally
R=bench/foreign/results/retally
{ date -u; uptime; } >> $R/runs.log
PYTHONPATH=python nice -n 15 /usr/bin/time -f "%U+%S CPU s, %e s wall: U1 raw NAND, U2 both: IOPS 0+40 QD32 + 40 QD4, FOB (U1 without raw repeated)" -a -o $R/runs.log \
  /work/main/.venv/bin/python -c "import sys; sys.path.insert(0, 'bench/foreign'); import evaluate; evaluate.CASES = tuple(c for c in evaluate.CASES if c[0] in ('IOPS 0+40 QD32 + 40 QD4, FOB', 'IOPS 0+40 QD32 + 40 QD4, FOB, raw NAND')); sys.exit(evaluate.main(['--results', 'bench/foreign/results/femu-units', '--out', 'bench/foreign/results/retally/units-iops-all']))" > $R/units-iops-all/stdout.txt 2> $R/units-iops-all/stderr.txt
echo "rc $?" >> $R/runs.log
