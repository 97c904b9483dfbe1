#!/usr/bin/env python3
"""Does the re-ranker help cg? On train.py's scored candidates: cg's order alone, the re-ranker alone
(re-ordering cg's first TOP files), and blends s = w * z(rr) - log(1 + k) (z: the re-ranker's scores
standardised within the task, k: cg's rank), recall@1 and MRR per language and overall, as
eval/lib/metrics.mjs counts them (a task's recall@1 is the share of its gold files at rank 1).

Usage: python3 train/reranker/blend.py SCORED.jsonl [--top 20] [--w 0.5,1,2] [--json OUT]
"""
import argparse
import json
import math
from collections import defaultdict


def metrics(order, gold):
    g = set(gold)
    ranks = [i for i, p in enumerate(order) if p in g]
    return (1.0 / len(g) if order and order[0] in g else 0.0), (1.0 / (ranks[0] + 1) if ranks else 0.0)


def rerank(r, top, w):
    fs = r['files'][:top]
    if w is None:
        return [f['path'] for f in fs]
    xs = [f['rr'] for f in fs]
    mu = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mu) ** 2 for x in xs) / len(xs)) or 1.0
    key = (lambda f: (f['rr'] - mu) / sd) if w == math.inf else (lambda f: w * (f['rr'] - mu) / sd - math.log(1 + f['k']))
    return [f['path'] for f in sorted(fs, key=key, reverse=True)] + [f['path'] for f in r['files'][top:]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('scored')
    ap.add_argument('--top', type=int, default=20)
    ap.add_argument('--w', default='0.25,0.5,1,2')
    ap.add_argument('--json')
    a = ap.parse_args()
    rows = [json.loads(l) for l in open(a.scored)]
    systems = [('cg', None), ('re-ranker alone', math.inf)] + [(f'blend w={w}', float(w)) for w in a.w.split(',')]
    report = {}
    for name, w in systems:
        by = defaultdict(lambda: [0, 0.0, 0.0])
        for r in rows:
            r1, rr = metrics(rerank(r, a.top, w), r['gold'])
            for key in (r.get('language', '?'), 'all'):
                by[key][0] += 1
                by[key][1] += r1
                by[key][2] += rr
        report[name] = {k: {'n': n, 'r@1': round(s1 / n, 3), 'mrr': round(s2 / n, 3)} for k, (n, s1, s2) in sorted(by.items())}
        langs = ' '.join(f'{k} {v["r@1"]:.3f}' for k, v in report[name].items() if k != 'all')
        print(f'{name:18} R@1 {report[name]["all"]["r@1"]:.3f} MRR {report[name]["all"]["mrr"]:.3f} | {langs}')
    if a.json:
        json.dump(report, open(a.json, 'w'), indent=1)


if __name__ == '__main__':
    main()
