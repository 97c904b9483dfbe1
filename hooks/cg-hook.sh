#!/bin/sh
# CodeGrapher git hook: appends one durable record to the change log and starts the applier in the
# background. It never parses code and returns in milliseconds. `cg hooks install` calls it from the
# hooks: by absolute path from .git/hooks (with CG_NODE and CG_BIN set), or as `cg-hook` from PATH
# (the package's second executable) from files a team shares, which must name no machine path.
#
# usage: cg-hook <post-commit|post-merge|post-checkout|post-rewrite> [git's hook arguments]
# env:   CG_NODE, CG_BIN  the node binary and bin/cg.js; without them, `cg` from PATH starts the applier

event="$1"
[ $# -gt 0 ] && shift
# Git runs hooks from the top of the working tree.
cgdir="$PWD/.codegraph"
if [ ! -d "$cgdir" ]; then
  echo "cg: no index in $PWD, so this $event was not recorded; run \`cg index\` (or \`cg hooks uninstall\`)" >&2
  exit 0
fi

# HEAD's commit, read from .git with the shell's own `read` where it is a plain repository with a
# loose ref (what a commit or checkout just wrote); git is asked otherwise (a worktree's or a
# submodule's .git file, a packed or reftable ref, anything that is not a commit id).
head=''
if [ -f .git/HEAD ]; then
  read -r ref < .git/HEAD || ref=''
  case "$ref" in
    'ref: refs/'*) ref=${ref#ref: }; [ -f ".git/$ref" ] && { read -r head < ".git/$ref" || head=''; } ;;
    *) head=$ref ;;
  esac
fi
case "$head" in
  *[!0-9a-f]*|'') head=$(git rev-parse -q --verify HEAD 2>/dev/null) ;;
  *) [ ${#head} -eq 40 ] || [ ${#head} -eq 64 ] || head=$(git rev-parse -q --verify HEAD 2>/dev/null) ;;
esac
# Each process the hook starts costs ~1 ms of the commit, so the record is put together by the shell
# itself: two commands run (date, cksum), in no pipeline. The values are commit ids, digits and event
# names, none of which JSON would escape.
case "$event" in
  post-checkout) extra=",\"from\":\"$1\",\"to\":\"$2\",\"flag\":\"$3\"" ;;
  post-merge|post-rewrite) extra=",\"flag\":\"$1\"" ;;
  *) extra='' ;;
esac
now=$(date +%s)
rec="{\"v\":1,\"event\":\"$event\",\"head\":\"$head\"$extra,\"at\":$now}"
# cksum reads the record from a here-document, which ends it with a newline: the checksum and length
# cover that newline too, and the reader knows it (src/changes/log.ts).
sum=$(cksum <<EOF
$rec
EOF
)

[ -d "$cgdir/wal" ] || mkdir -p "$cgdir/wal" || exit 0
log="$cgdir/wal/changes.log"
# The record starts on a line of its own: a writer that died mid-line left a torn record, which the
# newline ends (the reader skips empty lines), at no cost of looking.
printf '\nCG1 %s %s\n' "$sum" "$rec" >> "$log" || exit 0
# Durable before the hook returns (promise 2).
sync "$log" 2>/dev/null || sync

# Start the applier unless one is running (it re-reads the log before it exits) or the user turned
# automatic applying off ("hooks": {"autoApply": false} in cg.config.json, or the old .codegraph/config.json).
config="$PWD/cg.config.json"
[ -f "$config" ] || config="$cgdir/config.json"
if [ -f "$config" ] && grep -q '"autoApply"[[:space:]]*:[[:space:]]*false' "$config" 2>/dev/null; then exit 0; fi
# A long-running applier (`cg serve`, `cg watch`, `cg agent`) that announced itself applies the record as
# soon as it is written, warm, so none is started here (src/indexer/warm-applier.ts). Only while its announcement is
# under a minute old (it rewrites it every 15 s) and its process is alive.
warm="$cgdir/warm-applier.json"
if [ -f "$warm" ] && [ -n "$(find "$warm" -mmin -1 2>/dev/null)" ]; then
  pid=$(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' "$warm" 2>/dev/null)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then exit 0; fi
fi
lock="$cgdir/writer.lock"
if [ -f "$lock" ]; then
  pid=$(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' "$lock" 2>/dev/null)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then exit 0; fi
fi
if [ -n "$CG_NODE" ] && [ -f "$CG_BIN" ]; then
  nohup "$CG_NODE" "$CG_BIN" update --background >/dev/null 2>&1 &
elif command -v cg >/dev/null 2>&1; then
  nohup cg update --background >/dev/null 2>&1 &
fi
exit 0
