#!/usr/bin/env bash
# Builds node-llama-cpp's llama.cpp for this machine's CPU from the source it ships (a git bundle: no network), so
# that blogqa's in-process runtime runs with this machine's compiler instead of the prebuilt binary. The next run
# picks the build up by itself and records it in its manifest (decoding is unchanged: only the speed differs).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
die() { echo "build:cpu: $*" >&2; exit 1; }
[ -f node_modules/node-llama-cpp/llama/gitRelease.bundle ] || die "node-llama-cpp's llama.cpp source is missing: run npm install first"
for tool in cmake c++ git; do
  command -v "$tool" >/dev/null || die "$tool not found: install cmake, a C++ compiler and git (Debian: apt-get install cmake g++ git)"
done
echo "build:cpu: compiling llama.cpp for this CPU from node-llama-cpp's bundled source (minutes on 2 cores)" >&2
# --gpu false: the CPU backend only; the bundle is used because it holds the release node-llama-cpp was built from.
exec npx --no node-llama-cpp source download --gpu false --noUsageExample
