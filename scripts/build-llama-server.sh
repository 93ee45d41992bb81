#!/usr/bin/env bash
# Builds llama-server for the CPU from the llama.cpp source node-llama-cpp ships (a git bundle of one commit),
# offline, the way node-llama-cpp builds its own CPU binaries, into a cache outside the checkout keyed by that
# commit. Prints the folder holding llama-server and its shared libraries; a second run finds it and builds nothing.
# usage: scripts/build-llama-server.sh [--where]   (--where: print that folder and exit without building)
# This is the one CPU build: scripts/gpu-check/build.sh --cpu hands over to it, so CI compiles llama.cpp once.
#
# Why this configuration: GGML_NATIVE=OFF with every CPU variant built as a loadable backend is how node-llama-cpp's
# prebuilt CPU binary is made, so the server and the in-process runtime pick the same kernels at run time (a
# -march=native build drifted from the in-process runtime on greedy near-ties). The ggml-cpu-* variants are loaded
# at run time and are not dependencies of llama-server, so each is built by name.
set -euo pipefail
where=0
case "${1:-}" in
  "") ;;
  --where) where=1 ;;
  *) echo "build-llama-server: unknown option $1 (usage: $0 [--where])" >&2; exit 2 ;;
esac
root="$(cd "$(dirname "$0")/.." && pwd)"
bundle="$root/node_modules/node-llama-cpp/llama/gitRelease.bundle"
[ -f "$bundle" ] || { echo "build-llama-server: $bundle not found: run npm install first" >&2; exit 1; }
commit="$(git ls-remote "$bundle" HEAD | cut -f1)"
cache="${BLOGQA_LLAMA_SERVER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/blogqa/llama-server}"
out="$cache/$commit"
if [ "$where" = 1 ]; then
  echo "$out"
  exit 0
fi
if [ -x "$out/llama-server" ] && [ -f "$out/.complete" ]; then
  echo "$out"
  exit 0
fi
for tool in cmake c++ git; do
  command -v "$tool" >/dev/null || { echo "build-llama-server: $tool not found (Debian: apt-get install cmake g++ git)" >&2; exit 1; }
done
work="$(mktemp -d "${TMPDIR:-/tmp}/blogqa-llama-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "build-llama-server: building llama.cpp ${commit:0:7} for the CPU into $out (about 15 minutes on 2 idle cores)" >&2
git clone -q "$bundle" "$work/src"
git -C "$work/src" checkout -q "$commit"
cmake -S "$work/src" -B "$work/build" -G "$(command -v ninja >/dev/null && echo Ninja || echo 'Unix Makefiles')" \
  -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
  -DGGML_NATIVE=OFF -DGGML_CPU_ALL_VARIANTS=ON -DGGML_BACKEND_DL=ON \
  -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=ON >&2
variants="$(cmake --build "$work/build" --target help | grep -o 'ggml-cpu-[a-z0-9_]*' | sort -u | tr '\n' ' ')"
cmake --build "$work/build" --target llama-server $variants -j "$(nproc)" >&2
mkdir -p "$out.partial"
cp "$work/build/bin/llama-server" "$out.partial/"
find "$work/build" -name '*.so*' -exec cp -P {} "$out.partial/" \;
touch "$out.partial/.complete"
rm -rf "$out"
mv "$out.partial" "$out"
echo "$out"
