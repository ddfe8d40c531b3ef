# bench/results/cliffpool/RULE.md's four reruns, one after the other (run 2026-11-29 06:43-07:05 UTC)
cd /work/wt/cliffpool/bench
for spec in cliffcheck:231-233,235,237-238 clifflift:241-242,244-247 cliffmix:251-252,254,257-259 cliffpast:264,267-269,272-273; do
  name=${spec%%:*}; seeds=${spec#*:}
  echo "=== $name $seeds $(date -u +%T)"
  PYTHONPATH=../python:. nice -n 10 /work/main/.venv/bin/python cliffplan_eval.py --seeds $seeds --probes-in-prediction --also-workloads "qd8,read0" --out ../bench/results/cliffpool/runs_$name.json 2>../bench/results/cliffpool/.log_$name.txt
  echo "=== done $name rc=$? $(date -u +%T)"
done
