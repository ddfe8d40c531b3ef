cd /work/wt/retally
R=bench/foreign/results/retally
while kill -0 27594 2>/dev/null; do sleep 5; done
{ date -u; uptime; } >> $R/runs.log
PYTHONPATH=python nice -n 15 /usr/bin/time -f "%U+%S CPU s, %e s wall: femu-units (U1, U2), IOPS+WAF 0+40 QD32 + 40 QD4" -a -o $R/runs.log \
  /work/main/.venv/bin/python bench/foreign/evaluate.py --results bench/foreign/results/femu-units \
  --cases "IOPS+WAF 0+40 QD32 + 40 QD4" --out $R/units > $R/units/stdout.txt 2> $R/units/stderr.txt
echo "rc $?" >> $R/runs.log
