#!/usr/bin/env bash
# Retrains the agent model from scratch: its training data from the harness (make-data.ts), then PyTorch (train.py),
# into src/test-models/trained-agent/. Never run by CI or npm test; docs/trained-model.md says what it makes and how
# long it takes. Options after -- go to train.py (--steps N, --minutes M, --threads T, --out DIR).
set -euo pipefail
cd "$(dirname "$0")/../.."
# Debian's PyTorch is the system Python's; a python3 earlier on PATH (pyenv) would not see it.
python=/usr/bin/python3
if ! "$python" -c 'import torch, numpy' 2>/dev/null; then
  echo "train-agent: needs PyTorch and numpy for $python (Debian: apt-get install python3-torch python3-numpy libopenblas0-pthread)" >&2
  exit 1
fi
# Debian's torch runs on the reference BLAS unless OpenBLAS is installed: about 4x slower.
if ! ldconfig -p | grep -q 'openblas-pthread/libblas'; then
  echo "train-agent: warning: OpenBLAS not found (apt-get install libopenblas0-pthread); training will be about 4x slower" >&2
fi
data=.cache/train-agent/data
npx tsx scripts/train-agent/make-data.ts --out "$data" --runs 8000 --variants 10
"$python" scripts/train-agent/train.py --data "$data" --out src/test-models/trained-agent --steps 3900 "$@"
