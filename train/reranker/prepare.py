#!/usr/bin/env python3
"""The re-ranker experiment's training groups (issue 23), from the starter corpus
(../shared/train/starter: one JSONL per repository of commit message -> edited functions, and doc
sentence -> function). Each commit whose edited files whole-file BM25 ranks among its first DEPTH files
becomes a group: the query (its cleaned message), one of those edited files (positive) and NEG other files
drawn from the same first DEPTH (hard negatives, as cg's own first candidates are), each file written as
a re-ranker reads it at query time: its path and the signatures of its K functions that match the query
best. Repositories listed in ../shared/train/EXCLUDED.txt are refused. Third-party text: written outside
the project.

Usage: python3 train/reranker/prepare.py --starter DIR --out $TMPDIR/rrdata/train.jsonl [--neg 7] [--depth 20] [--max-per-repo 600]
"""
import argparse
import json
import math
import os
import random
import sys
from collections import Counter, defaultdict

from tokens import tokens

K = 3


class Bm25:
    """Whole-document BM25 (the evaluation's k1 and b) with an inverted index: a query touches only its terms' postings."""

    def __init__(self, docs_terms, k1=0.9, b=0.4):
        self.n = len(docs_terms)
        self.k1, self.b = k1, b
        self.lens = [len(d) for d in docs_terms]
        self.avg = sum(self.lens) / max(1, self.n)
        self.post = defaultdict(list)
        for i, d in enumerate(docs_terms):
            for t, f in Counter(d).items():
                self.post[t].append((i, f))

    def scores(self, query_terms):
        out = [0.0] * self.n
        for t in set(query_terms):
            p = self.post.get(t)
            if not p:
                continue
            idf = math.log(1 + (self.n - len(p) + 0.5) / (len(p) + 0.5))
            for i, f in p:
                out[i] += idf * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * self.lens[i] / self.avg))
        return out


def bm25_scores(query_terms, docs_terms):
    return Bm25(docs_terms).scores(query_terms)


def excluded(root):
    path = os.path.join(root, 'EXCLUDED.txt')
    return {l.strip().lower() for l in open(path) if l.strip() and not l.startswith('#')}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--starter', required=True)
    ap.add_argument('--excluded', default=os.path.join(os.path.dirname(__file__), '..', '..', '..', 'shared', 'train'))
    ap.add_argument('--out', required=True)
    ap.add_argument('--neg', type=int, default=7)
    ap.add_argument('--depth', type=int, default=20)
    ap.add_argument('--max-per-repo', type=int, default=600)
    ap.add_argument('--seed', type=int, default=23)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    skip = excluded(a.excluded)
    out = open(a.out, 'w')
    groups = 0
    for name in sorted(os.listdir(a.starter)):
        if not name.endswith('.jsonl'):
            continue
        repo = name[:-6].replace('+', '/')
        if repo.lower() in skip:
            print(f'refused (EXCLUDED.txt): {repo}', file=sys.stderr)
            continue
        lines = [json.loads(l) for l in open(os.path.join(a.starter, name))]
        funcs = defaultdict(set)  # path -> function texts (signature lines)
        for l in lines:
            for d in (l.get('docs') or []) + ([l['doc']] if l.get('doc') else []):
                p, _, rest = d.partition('\n')
                if rest:
                    funcs[p].add(rest[:300])
        paths = sorted(funcs)
        if len(paths) < a.neg + 1:
            continue
        fl = {p: sorted(funcs[p]) for p in paths}
        index = Bm25([tokens(p) + [t for f in fl[p] for t in tokens(f)] for p in paths])
        commits = [l for l in lines if l.get('t') == 'c' and l.get('q') and l.get('paths')]
        rng.shuffle(commits)
        for c in commits[:a.max_per_repo]:
            gold = [p for p in c['paths'] if p in funcs]
            if not gold:
                continue
            q = c['q'][:2000]
            qt = tokens(q)
            if len(qt) < 2:
                continue
            s = index.scores(qt)
            # The positive and its negatives come from the same first candidates (as a re-ranker sees them in
            # cg): taking the best-ranked non-edited files as negatives and any edited file as the positive
            # teaches that matching the task's words makes a file less likely (tried first: below chance on dev).
            first = [paths[i] for i in sorted(range(len(paths)), key=lambda i: -s[i])[:a.depth] if s[i] > 0]
            hits = [p for p in first if p in gold]
            others = [p for p in first if p not in c['paths']]
            if not hits or len(others) < a.neg:
                continue
            pos = rng.choice(hits)
            negs = rng.sample(others, a.neg)

            def view(p):
                fs = fl[p]
                fsc = bm25_scores(qt, [tokens(f) for f in fs])
                best = [fs[i] for i in sorted(range(len(fs)), key=lambda i: -fsc[i])[:K]]
                return {'path': p, 'sigs': best}

            out.write(json.dumps({'repo': repo, 'q': q, 'files': [view(pos)] + [view(p) for p in negs]}) + '\n')
            groups += 1
        print(f'{repo}: {groups} groups so far', file=sys.stderr)
    out.close()
    print(f'{groups} groups', file=sys.stderr)


if __name__ == '__main__':
    main()
