#!/usr/bin/env bash
# Regenerates fixtures/signals/out/: real output of the profilers and coverage tools whose formats
# `cg query --signal-file` reads (test/signals-tools.test.ts), run over the small programs in
# fixtures/signals/app. The tools run in a copy under /tmp/cg-signals/app, so the outputs name that
# path (as output pasted from another machine would). Needs: python3 with coverage.py (Debian
# python3-coverage), go (Debian golang-go), node, and npm (for c8).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out="$here/fixtures/signals/out"
work=/tmp/cg-signals
py=/usr/bin/python3
rm -rf "$work" && mkdir -p "$work" && cp -r "$here/fixtures/signals/app" "$work/app" && mkdir -p "$out"
cd "$work/app"

# Python: cProfile sorted by own time, and pstats of the same run; coverage.py as Cobertura XML and lcov.
$py -m cProfile -s tottime -m shop.run | head -40 > "$out/cprofile.txt"
$py -m cProfile -o "$work/run.pstats" -m shop.run
$py -c "import pstats; pstats.Stats('$work/run.pstats').sort_stats('cumulative').print_stats(15)" > "$out/pstats.txt"
$py -m coverage run --data-file="$work/.coverage" -m shop.run
$py -m coverage xml --data-file="$work/.coverage" -o "$out/coverage.xml"
$py -m coverage lcov --data-file="$work/.coverage" -o "$out/coverage-py.lcov"

# Python's logging, in a format that names the function (`%(funcName)s`), as services configure it.
$py -c "
import logging
logging.basicConfig(format='%(asctime)s %(levelname)s [%(name)s] in %(funcName)s: %(message)s')
from shop.store import store_user
db = set()
store_user(db, 'ada'); store_user(db, 'ada')
" 2> "$out/python-logging.txt"

# Go: a CPU profile and a coverage profile of the package's test; pprof's top, by function and by line.
(cd cart && go test -count=1 -cpuprofile "$work/cpu.out" -coverprofile "$out/go-cover.out" . > /dev/null)
go tool pprof -top "$work/cpu.out" 2>/dev/null | head -25 > "$out/pprof-top.txt"
go tool pprof -top -lines "$work/cpu.out" 2>/dev/null | head -25 > "$out/pprof-top-lines.txt"

# Node: --prof processed with --prof-process, a --cpu-prof profile, and c8's lcov.
(cd "$work" && node --prof app/web/run.js > /dev/null && node --prof-process isolate-*.log 2>/dev/null | head -60 > "$out/node-prof.txt")
node --cpu-prof --cpu-prof-dir="$work/cpuprof" web/run.js > /dev/null
cp "$work"/cpuprof/*.cpuprofile "$out/node.cpuprofile"
npx --yes c8@10.1.3 --reporter=lcovonly --reports-dir="$work/c8" node web/run.js > /dev/null
cp "$work/c8/lcov.info" "$out/c8.lcov"
ls -l "$out"
