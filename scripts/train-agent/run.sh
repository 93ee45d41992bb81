#!/usr/bin/env bash
# Retrains the agent model from scratch: its training data from the harness (make-data.ts), then PyTorch (train.py)
# in four stages, each continuing the last, into src/test-models/trained-agent/. Never run by CI or npm test;
# docs/trained-model.md says what it makes and how long it takes. Options after -- go to every stage's train.py
# (--threads T).
set -euo pipefail
cd "$(dirname "$0")/../.."
# Debian's PyTorch is the system Python's; a python3 earlier on PATH (pyenv) would not see it.
python=/usr/bin/python3
if ! "$python" -c 'import torch, numpy' 2>/dev/null; then
  echo "train-agent: needs PyTorch and numpy for $python (Debian: apt-get install python3-torch python3-numpy libopenblas0-pthread)" >&2
  exit 1
fi
# Debian's torch runs on the reference BLAS unless OpenBLAS is installed: about 4x slower.
# libblas.so.3 is an alternatives link: OpenBLAS is in use when it resolves into OpenBLAS's folder.
blas="$(ldconfig -p | awk '/libblas\.so\.3 /{print $NF; exit}')"
if [ -z "$blas" ] || ! readlink -f "$blas" | grep -q openblas; then
  echo "train-agent: warning: OpenBLAS not found (apt-get install libopenblas0-pthread); training will be about 4x slower" >&2
fi
data=.cache/train-agent/data
stages=.cache/train-agent/stages
npx tsx scripts/train-agent/make-data.ts --out "$data" --runs 8000 --variants 10
train() { "$python" scripts/train-agent/train.py --data "$data" "$@"; }
# 1. From scratch: the formats, when to call, where a copy starts (copy starts weighted 3x).
train --out "$stages/1" --steps 2600 --start-weight 3 "$@"
# 2-3. At a lower rate, with a reply's first token (a call or an answer: rare, and it decides the run) weighted 5x.
train --out "$stages/2" --init "$stages/1" --steps 1000 --lr 2e-3 --start-weight 3 --first-weight 5 "$@"
train --out "$stages/3" --init "$stages/2" --steps 1000 --lr 2e-3 --start-weight 3 --first-weight 5 "$@"
# 4. The heading head (heading_head.py) planted as two more layers; the layers above it learn to use it, with a
#    read_section call's first heading token weighted 10x.
train --out src/test-models/trained-agent --init "$stages/3" --heading-head --steps 600 --lr 2e-3 --start-weight 3 \
  --first-weight 5 --heading-weight 10 "$@"
