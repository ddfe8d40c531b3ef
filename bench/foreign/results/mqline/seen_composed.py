"""What bench/foreign/results/mqline/RULE.md saw before it was written: from stored case files
(no run), each level's IOPS error with the twin's centre and with the FOB-highest line's IOPS at
the predicted WAF, the widths of the two interval forms and how many unfitted IOPS figures each
holds. Run from the worktree root:

    python bench/foreign/results/mqline/seen_composed.py CASE.json ... > seen-composed.txt
"""

import json, re, glob, statistics, sys
files = sys.argv[1:]
def parse(cmd):
    pts = dict(tuple(map(float, s.split(':'))) for s in re.search(r'--points (\S+)', cmd).group(1).split(','))
    wafs = dict(tuple(map(float, s.split(':'))) for s in re.search(r'--waf-points (\S+)', cmd).group(1).split(','))
    fob = float(re.search(r'--fob-iops (\S+)', cmd).group(1))
    return pts, wafs, fob
for f in files:
    d = json.load(open(f))
    pts, wafs, fob = parse(d['command'])
    lo_x, hi_x = min(pts), max(pts)
    hi_i, hi_w = pts[hi_x], wafs[hi_x]
    per = (1/hi_i - 1/fob)/(hi_w-1)
    line = lambda w: 1/(1/fob + per*(w-1))
    ratio = pts[lo_x]/line(wafs[lo_x])
    out=[]; offerr=[]; onerr=[]; cov={'off':0,'span':0,'rel':0,'n':0}
    for lv in d['levels']:
        x=lv['extra_op_percent']; t=lv['iops_true']; p=lv['iops_pred']
        offerr.append(abs(p/t-1))
        if lo_x < x < hi_x:
            L = line(lv['waf_pred'])
            onerr.append(abs(L/t-1))
            s_lo, s_hi = min(lv['iops_low'],L), max(lv['iops_high'],L)
            r_lo, r_hi = L*lv['iops_low']/p, L*lv['iops_high']/p
            cov['n']+=1; cov['off']+=lv['iops_low']<=t<=lv['iops_high']; cov['span']+=s_lo<=t<=s_hi; cov['rel']+=r_lo<=t<=r_hi
            out.append(f"{x:g}%: twin {100*(p/t-1):+.1f} line {100*(L/t-1):+.1f} rel-width {100*(r_hi-r_lo)/L:.0f}% span-width {100*(s_hi-s_lo)/L:.0f}%")
        else:
            onerr.append(abs(p/t-1))
    print(f.split('/')[-1], f"lowWAF {wafs[lo_x]:.1f} ratio {ratio:.2f}", '; '.join(out), f"| median off {100*statistics.median(offerr):.1f} on {100*statistics.median(onerr):.1f} worst on {100*max(onerr):.1f} | cov {cov}")
