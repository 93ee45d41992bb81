#!/usr/bin/env bash
# Writes the random-weight models, then per shape starts llama-server, replays the prompts at each slot count, stops it.
#
# usage: scripts/gpu-check/run.sh [--cpu] [--server DIR] [--prompts FILE] [--shapes "qwen2.5-1.5b qwen2.5-3b"]
#                                 [--slots "1 8"] [--limit N] [--threads N] [--models DIR] [--replies]
#                                 [--time-limit SECONDS]
#   --cpu      use the CPU build (build.sh --cpu) and no GPU layers
#   --server   the folder holding llama-server (default: where build.sh puts it)
#   --prompts  JSONL from `blogqa export-prompts` (default: .cache/gpu-check/prompts.jsonl)
#   --models   keep the model files in this folder, and reuse those already there (default: a scratch folder)
# Writes $OUT/gpu-check.json (OUT defaults to ./out) and each server's log beside it; the models never go under
# $OUT (what comes back from $OUT is small). Everything stops at --time-limit (default 540 s), whatever is left undone.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
die() { echo "run.sh: $*" >&2; exit 1; }

cpu=0
server=""
prompts="$root/.cache/gpu-check/prompts.jsonl"
shapes="qwen2.5-1.5b qwen2.5-3b"
slots="1 8"
limit=""
threads=""
replies=""
models=""
time_limit=540
while [ $# -gt 0 ]; do
  case "$1" in
    --cpu) cpu=1 ;;
    --server) server="$2"; shift ;;
    --prompts) prompts="$2"; shift ;;
    --shapes) shapes="$2"; shift ;;
    --slots) slots="$2"; shift ;;
    --limit) limit="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    --replies) replies=--replies ;;
    --models) models="$2"; shift ;;
    --time-limit) time_limit="$2"; shift ;;
    *) echo "run.sh: unknown option $1 (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
  shift
done
deadline=$((SECONDS + time_limit))
left() {
  local n=$((deadline - SECONDS))
  [ "$n" -gt 0 ] || { echo "run.sh: the time limit of $time_limit s is spent" >&2; exit 124; }
  echo "$n"
}

if [ -z "$server" ]; then
  server="$("$here/build.sh" $([ "$cpu" = 1 ] && echo --cpu) --where)"
fi
[ -x "$server/llama-server" ] || die "no llama-server in $server: run scripts/gpu-check/build.sh first"
[ -f "$prompts" ] || die "no prompts at $prompts: write them with blogqa export-prompts"
bundle=""
for candidate in "$root/node_modules/node-llama-cpp/llama/gitRelease.bundle" "$root/.cache/gpu-check/gitRelease.bundle"; do
  if [ -f "$candidate" ]; then bundle="$candidate"; break; fi
done
[ -n "$bundle" ] || die "no gitRelease.bundle (see scripts/gpu-check/README.md)"

out="${OUT:-./out}"
mkdir -p "$out"
result="$out/gpu-check.json"
rm -f "$result"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/gpu-check-run.XXXXXX")"
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT
[ -n "$models" ] || models="$scratch"
mkdir -p "$models"
# The model writer reads the vocabulary, the chat template and gguf-py from llama.cpp's own sources.
git -c advice.detachedHead=false clone -q "$bundle" "$scratch/llama.cpp"

np=0
for s in $slots; do [ "$s" -gt "$np" ] && np="$s"; done
gpu_layers=99
[ "$cpu" = 1 ] && gpu_layers=0
for shape in $shapes; do
  model="$models/$shape-seed1.gguf"
  if [ -f "$model" ]; then
    echo "run.sh: reusing $model" >&2
  else
    started=$SECONDS
    t="$(left)"
    timeout "$t" python3 "$here/make_model.py" --source "$scratch/llama.cpp" --shape "$shape" --seed 1 --out "$model"
    echo "run.sh: $shape written in $((SECONDS - started)) s" >&2
  fi
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  # As the in-process runtime: 4096 tokens a slot, flash attention off; no host-memory prompt cache. The library
  # path is for a server built with shared libraries (scripts/build-llama-server.sh's); build.sh's needs none.
  LD_LIBRARY_PATH="$server${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$server/llama-server" -m "$model" \
    --host 127.0.0.1 --port "$port" -np "$np" -c $((4096 * np)) -ngl "$gpu_layers" -fa off --cache-ram 0 \
    --no-webui ${threads:+-t "$threads"} >"$out/llama-server-$shape.log" 2>&1 &
  pid=$!
  t="$(left)"
  # shellcheck disable=SC2086
  timeout "$t" python3 "$here/replay.py" --url "http://127.0.0.1:$port" --prompts "$prompts" --shape "$shape" \
    --result "$result" --slots $slots ${limit:+--limit "$limit"} $replies
  kill "$pid"
  wait "$pid" || true
  pid=""
done
echo "run.sh: results in $result" >&2
# The figures docs/models.md's time table takes: each slot count's calls over all shapes, in seconds and minutes.
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,memory.total --format=csv,noheader >&2 || true
python3 "$here/table.py" "$result"
