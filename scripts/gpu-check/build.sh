#!/usr/bin/env bash
# Builds llama-server alone from the llama.cpp bundle node-llama-cpp ships: with CUDA for this machine's GPU, or --cpu.
#
# usage: scripts/gpu-check/build.sh [--cpu] [--arch CC] [--bundle FILE] [--jobs N] [--where] [--configure-only]
#   --cpu      a CPU-only server (what the tests use on a machine without a GPU): scripts/build-llama-server.sh's,
#              built once for the server tests and this check alike (--where prints its folder)
#   --arch CC  the CUDA compute capability to build for, e.g. 90 (default: the GPU's, from nvidia-smi)
#   --bundle   gitRelease.bundle (default: node-llama-cpp's, else .cache/gpu-check/gitRelease.bundle)
#   --where    print the folder the build goes to and exit without building
#   --configure-only  run CMake's configure step (in seconds: is the toolkit complete?) and stop
# Prints, as its last line on stdout, the folder holding llama-server; a second run finds it there and builds nothing.
#
# Why these options: one GPU architecture, as real code only (CC-real: no PTX to compile twice), and only the
# llama-server target, so no test, example or other tool is compiled; flash-attention kernels compiled empty
# (GGML_CUDA_FA=OFF), as the study's in-process runtime never uses them and they are the costliest CUDA code;
# no NCCL (one GPU); static libraries, so the binary runs without LD_LIBRARY_PATH; no OpenSSL and no prebuilt
# web UI, the one thing configure would otherwise download.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
die() { echo "build.sh: $*" >&2; exit 1; }

variant=cuda
arch=""
bundle=""
jobs="$(nproc)"
where=0
configure_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --cpu) variant=cpu ;;
    --arch) arch="$2"; shift ;;
    --bundle) bundle="$2"; shift ;;
    --jobs) jobs="$2"; shift ;;
    --where) where=1 ;;
    --configure-only) configure_only=1 ;;
    *) echo "build.sh: unknown option $1 (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
  shift
done

# One CPU build for everything: compiling llama.cpp is the longest step of CI, and the server tests need
# build-llama-server.sh's build (node-llama-cpp's configuration, so greedy runs match the in-process runtime) anyway.
# run.sh sets LD_LIBRARY_PATH to the server's folder, which that build's shared libraries need.
if [ "$variant" = cpu ]; then
  [ -z "$bundle" ] && [ "$configure_only" = 0 ] ||
    die "--cpu builds scripts/build-llama-server.sh's server from node-llama-cpp's bundle: --bundle and --configure-only are for the CUDA build"
  if [ "$where" = 1 ]; then exec "$root/scripts/build-llama-server.sh" --where; fi
  exec "$root/scripts/build-llama-server.sh"
fi

if [ -z "$bundle" ]; then
  for candidate in "$root/node_modules/node-llama-cpp/llama/gitRelease.bundle" "$root/.cache/gpu-check/gitRelease.bundle"; do
    if [ -f "$candidate" ]; then bundle="$candidate"; break; fi
  done
fi
[ -n "$bundle" ] && [ -f "$bundle" ] || {
  echo "build.sh: no gitRelease.bundle: pass --bundle, or copy node-llama-cpp's to .cache/gpu-check/" >&2
  exit 1
}
commit="$(git ls-remote "$bundle" HEAD | cut -f1)"
# Beside the folder that travels to the GPU machine (.cache/gpu-check/), not in it: a copy sent again replaces it.
out="${BLOGQA_GPU_CHECK_BUILD:-$root/.cache/gpu-check-build}/llama-server-$variant-${commit:0:7}"
if [ "$where" = 1 ]; then
  echo "$out"
  exit 0
fi
if [ -x "$out/llama-server" ] && [ -f "$out/.complete" ]; then
  echo "build.sh: $out/llama-server is already built" >&2
  echo "$out"
  exit 0
fi

options=(-DGGML_NATIVE=ON)
if [ "$variant" = cuda ]; then
  command -v nvcc >/dev/null || die "nvcc not found: put the CUDA toolkit's bin on PATH, or build --cpu"
  if [ -z "$arch" ]; then
    # "native" would need CMake 3.24 and a GPU seen at configure time; nvidia-smi names it directly (9.0 -> 90).
    arch="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d ' .')"
  fi
  [[ "$arch" =~ ^[0-9]+[af]?$ ]] || die "cannot tell the GPU's compute capability (got '$arch'): pass --arch"
  # A CUDA toolkit assembled from pip wheels can lack cuBLAS, which the nvidia-cublas wheel of the Python beside it
  # then holds: CMake is pointed at that wheel's headers and libraries (found by the build tree's rpath at run time).
  if ! echo '#include <cublas_v2.h>' | nvcc -x cu -E - -o /dev/null 2>/dev/null; then
    find_header='import glob, nvidia; print(*sorted(h for d in nvidia.__path__ for h in glob.glob(d + "/**/cublas_v2.h", recursive=True))[:1])'
    header="$(python3 -c "$find_header" 2>/dev/null || true)"
    [ -n "$header" ] || die "cuBLAS not found, neither in the CUDA toolkit nor in a Python nvidia-cublas wheel"
    include="$(dirname "$header")"
    lib="$(dirname "$include")/lib"
    cublas="$(ls "$lib"/libcublas.so* | head -n 1)"
    cublaslt="$(ls "$lib"/libcublasLt.so* | head -n 1)"
    echo "build.sh: cuBLAS from $lib" >&2
    options+=("-DCUDA_cublas_LIBRARY=$cublas" "-DCUDA_cublasLt_LIBRARY=$cublaslt" "-DCMAKE_CUDA_FLAGS=-I$include"
      "-DCMAKE_CXX_FLAGS=-I$include")
  fi
  # ggml links the driver library for its virtual-memory pool; a pip-assembled toolkit has no stub of it, so the
  # driver's own is named, and where there is none (configuring without a GPU) the pool goes without it.
  driver="$(ldconfig -p 2>/dev/null | awk '/libcuda\.so(\.1)? / { print $NF; exit }')"
  [ -n "$driver" ] || driver="$(ls /usr/local/nvidia/lib64/libcuda.so* 2>/dev/null | head -n 1 || true)"
  if [ -n "$driver" ]; then
    options+=("-DCUDA_cuda_driver_LIBRARY=$driver")
  else
    echo "build.sh: no libcuda.so found: building with GGML_CUDA_NO_VMM=ON" >&2
    options+=(-DGGML_CUDA_NO_VMM=ON)
  fi
  options+=(-DGGML_CUDA=ON "-DCMAKE_CUDA_ARCHITECTURES=$arch-real" -DGGML_CUDA_FA=OFF -DGGML_CUDA_FA_ALL_QUANTS=OFF
    -DGGML_CUDA_NCCL=OFF -DGGML_CUDA_COMPRESSION_MODE=speed)
fi

started="$(date +%s)"
work="$(mktemp -d "${TMPDIR:-/tmp}/gpu-check-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "build.sh: building llama-server ($variant${arch:+, sm_$arch}) of llama.cpp ${commit:0:7} with $jobs jobs" >&2
git -c advice.detachedHead=false clone -q "$bundle" "$work/src"
git -C "$work/src" checkout -q "$commit"
generator="Unix Makefiles"
command -v ninja >/dev/null && generator=Ninja
cmake -S "$work/src" -B "$work/build" -G "$generator" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON \
  -DLLAMA_OPENSSL=OFF -DLLAMA_USE_PREBUILT_UI=OFF "${options[@]}" >&2
if [ "$configure_only" = 1 ]; then
  echo "build.sh: configured in $(($(date +%s) - started)) s; nothing built" >&2
  exit 0
fi
cmake --build "$work/build" --target llama-server -j "$jobs" >&2
rm -rf "$out"
mkdir -p "$out"
cp "$work/build/bin/llama-server" "$out/"
echo "$variant ${arch:+sm_$arch }llama.cpp $commit built in $(($(date +%s) - started)) s" >"$out/.complete"
echo "build.sh: $(cat "$out/.complete")" >&2
echo "$out"
