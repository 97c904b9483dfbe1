#!/usr/bin/env python3
"""The re-ranker experiment (issue 23): a small transformer cross-encoder, trained from scratch on CPU,
that reads a task and one candidate file (its path and its best-matching functions' signatures) and
scores how likely the task edits that file. Trained listwise on prepare.py's groups (1 edited file +
hard negatives, softmax cross-entropy); one repository in ten (by name hash) is held out for choosing
the checkpoint. Then scores every candidate of dump-candidates.mjs's files and writes the scores beside
them, for blend.py.

Usage: /usr/bin/python3 train/reranker/train.py --train $TMPDIR/rrdata/train.jsonl --score $TMPDIR/rrdata/dev-candidates.jsonl \
         --out $TMPDIR/rrdata/model [--minutes 25] [--seed 23]
"""
import argparse
import hashlib
import json
import os
import random
import sys
import time
import zlib
from collections import Counter

import torch
import torch.nn as nn

from tokens import tokens

PAD, CLS, SEP = 0, 1, 2
BUCKETS = 1024
FIRST_WORD = 3 + BUCKETS
QLEN, DLEN = 40, 72


class Vocab:
    def __init__(self, words):
        self.ids = {w: FIRST_WORD + i for i, w in enumerate(words)}
        self.size = FIRST_WORD + len(words)

    def id(self, t):
        i = self.ids.get(t)
        return i if i is not None else 3 + zlib.crc32(t.encode()) % BUCKETS


def file_text(f):
    return f['path'] + '\n' + '\n'.join(f['sigs'])


def encode(vocab, q_tokens, f):
    d = [vocab.id(t) for t in tokens(file_text(f))][:DLEN]
    ids = [CLS] + q_tokens + [SEP] + d
    # Segment 0/1 for the task and the file; +2 marks a token that also occurs in the other one (an exact
    # match, which a model trained from scratch on this little data otherwise learns slowly).
    qs, ds = set(q_tokens), set(d)
    seg = [0] + [2 if t in ds else 0 for t in q_tokens] + [0] + [3 if t in qs else 1 for t in d]
    return ids, seg


def batchify(seqs):
    n = max(len(i) for i, _ in seqs)
    ids = torch.zeros(len(seqs), n, dtype=torch.long)
    seg = torch.zeros(len(seqs), n, dtype=torch.long)
    for k, (i, s) in enumerate(seqs):
        ids[k, :len(i)] = torch.tensor(i)
        seg[k, :len(s)] = torch.tensor(s)
    return ids, seg


class CrossEncoder(nn.Module):
    def __init__(self, vocab_size, d=96, layers=2, heads=4, ff=192, dropout=0.1):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, d, padding_idx=PAD)
        self.pos = nn.Embedding(QLEN + DLEN + 2, d)
        self.seg = nn.Embedding(4, d)
        self.norm = nn.LayerNorm(d)
        layer = nn.TransformerEncoderLayer(d, heads, ff, dropout, batch_first=True, norm_first=True)
        self.enc = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(d, 1)

    def forward(self, ids, seg):
        pos = torch.arange(ids.shape[1]).unsqueeze(0)
        x = self.norm(self.tok(ids) + self.pos(pos) + self.seg(seg))
        h = self.enc(x, src_key_padding_mask=ids.eq(PAD))
        return self.head(h[:, 0]).squeeze(-1)


def held_out(repo):
    return int(hashlib.sha1(repo.encode()).hexdigest(), 16) % 10 == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--train', required=True)
    ap.add_argument('--score', action='append', default=[])
    ap.add_argument('--out', required=True)
    ap.add_argument('--minutes', type=float, default=25)
    ap.add_argument('--seed', type=int, default=23)
    ap.add_argument('--batch', type=int, default=16)
    ap.add_argument('--lr', type=float, default=5e-4)
    a = ap.parse_args()
    torch.set_num_threads(os.cpu_count() or 2)
    random.seed(a.seed)
    torch.manual_seed(a.seed)
    os.makedirs(a.out, exist_ok=True)
    raw = open(a.train, 'rb').read()
    groups = [json.loads(l) for l in raw.decode().split('\n') if l]
    train = [g for g in groups if not held_out(g['repo'])]
    valid = [g for g in groups if held_out(g['repo'])][:1500]
    counts = Counter()
    for g in train:
        counts.update(tokens(g['q']))
        for f in g['files']:
            counts.update(tokens(file_text(f)))
    words = [w for w, c in counts.most_common(30000) if c >= 3]
    vocab = Vocab(words)
    print(f'{len(train)} training groups, {len(valid)} validation groups ({len({g["repo"] for g in valid})} repositories), vocabulary {vocab.size}', file=sys.stderr)

    def enc_group(g):
        qt = [vocab.id(t) for t in tokens(g['q'])][:QLEN]
        return [encode(vocab, qt, f) for f in g['files']]

    model = CrossEncoder(vocab.size)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.01)
    enc_valid = [enc_group(g) for g in valid]

    def evaluate():
        model.eval()
        top1 = 0
        mrr = 0.0
        with torch.no_grad():
            for k in range(0, len(enc_valid), 32):
                chunk = enc_valid[k:k + 32]
                ids, seg = batchify([s for g in chunk for s in g])
                s = model(ids, seg).view(len(chunk), -1)
                rank = (s > s[:, :1]).sum(1)
                top1 += int((rank == 0).sum())
                mrr += float((1.0 / (rank + 1).float()).sum())
        model.train()
        return top1 / len(enc_valid), mrr / len(enc_valid)

    start = time.time()
    step = 0
    best = (-1, 0)
    history = []
    epoch = 0
    while time.time() - start < a.minutes * 60:
        random.shuffle(train)
        epoch += 1
        for k in range(0, len(train) - a.batch + 1, a.batch):
            chunk = [enc_group(g) for g in train[k:k + a.batch]]
            ids, seg = batchify([s for g in chunk for s in g])
            s = model(ids, seg).view(len(chunk), -1)
            loss = nn.functional.cross_entropy(s, torch.zeros(len(chunk), dtype=torch.long))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            warm = min(1.0, (step + 1) / 200)
            for pg in opt.param_groups:
                pg['lr'] = a.lr * warm
            opt.step()
            step += 1
            if step % 250 == 0:
                acc, mrr = evaluate()
                history.append({'step': step, 'epoch': epoch, 'minutes': round((time.time() - start) / 60, 1), 'loss': round(float(loss), 4),
                                'valid_top1': round(acc, 4), 'valid_mrr': round(mrr, 4)})
                print(json.dumps(history[-1]), file=sys.stderr)
                if mrr > best[0]:
                    best = (mrr, step)
                    torch.save(model.state_dict(), os.path.join(a.out, 'best.pt'))
            if time.time() - start > a.minutes * 60:
                break
    model.load_state_dict(torch.load(os.path.join(a.out, 'best.pt')))
    model.eval()
    json.dump({'words': words, 'best_step': best[1], 'best_valid_mrr': best[0], 'history': history, 'seed': a.seed,
               'train_sha256': hashlib.sha256(raw).hexdigest(), 'groups': len(train)}, open(os.path.join(a.out, 'manifest.json'), 'w'))
    for path in a.score:
        rows = [json.loads(l) for l in open(path)]
        with torch.no_grad():
            for r in rows:
                qt = [vocab.id(t) for t in tokens(r['q'])][:QLEN]
                ids, seg = batchify([encode(vocab, qt, f) for f in r['files']])
                for f, s in zip(r['files'], model(ids, seg).tolist()):
                    f['rr'] = s
        with open(os.path.join(a.out, os.path.basename(path).replace('.jsonl', '-scored.jsonl')), 'w') as o:
            for r in rows:
                o.write(json.dumps(r) + '\n')
    print(f'best validation MRR {best[0]:.4f} at step {best[1]}', file=sys.stderr)


if __name__ == '__main__':
    main()
