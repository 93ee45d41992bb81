# Writes a random-weight qwen2 GGUF of a Qwen2.5 shape with Qwen2.5's tokenizer and chat template, from llama.cpp's sources.
"""Random-weight Qwen2.5-shaped GGUF models, written where there is no Node.js.

The same shapes, tensor names and metadata as the harness's ``make-tiny-model --shape`` (src/test-models/gguf/),
so llama-server reads the same architecture, tokenizer and chat template; the random values are drawn otherwise
(numpy's PCG64 stream), so the weights are not the harness's, and the output rows of tokens that are pieces of a
UTF-8 character are zero, so that llama-server never refuses a reply for its bytes. Everything comes from a
llama.cpp checkout of the bundle node-llama-cpp ships: the Qwen2 vocabulary (models/ggml-vocab-qwen2.gguf,
completed with Qwen2.5's added tokens), the Qwen2.5-Instruct chat template and the GGUF library (gguf-py).
Standard library and numpy only.

usage: make_model.py --source LLAMA_CPP_DIR --shape qwen2.5-1.5b --out FILE [--seed 1] [--dtype f16]
       make_model.py --list-shapes
"""

import argparse
import json
import math
import struct
import sys
import time
import types
import zlib
from pathlib import Path

import numpy as np

# Qwen2.5's config.json values; every shape gets its own output.weight (tied random weights repeat one token).
QWEN25 = {"contextLength": 32768, "ropeTheta": 1_000_000, "rmsEps": 1e-6}
SHAPES = {
    "tiny": {**QWEN25, "hidden": 64, "layers": 2, "heads": 4, "kvHeads": 2, "ffn": 128},
    "qwen2.5-0.5b": {**QWEN25, "hidden": 896, "layers": 24, "heads": 14, "kvHeads": 2, "ffn": 4864},
    "qwen2.5-1.5b": {**QWEN25, "hidden": 1536, "layers": 28, "heads": 12, "kvHeads": 2, "ffn": 8960},
    "qwen2.5-3b": {**QWEN25, "hidden": 2048, "layers": 36, "heads": 16, "kvHeads": 2, "ffn": 11008},
}

# The harness's weight scales (qwen2-tensors.ts): values uniform with these standard deviations.
EMBEDDING_STD = 1.0
DENSE_GAIN = 1.0
BIAS_STD = 0.1
OUTPUT_GAIN = 4.0

VOCAB_ROWS = 151936
BOS_ID, EOS_ID, PADDING_ID = 151643, 151645, 151643
# ggml-vocab-qwen2.gguf is Qwen1.5's: its rows after <|im_end|> are padding. These are Qwen2.5's added tokens there.
QWEN25_ADDED = {
    151646: "<|object_ref_start|>",
    151647: "<|object_ref_end|>",
    151648: "<|box_start|>",
    151649: "<|box_end|>",
    151650: "<|quad_start|>",
    151651: "<|quad_end|>",
    151652: "<|vision_start|>",
    151653: "<|vision_end|>",
    151654: "<|vision_pad|>",
    151655: "<|image_pad|>",
    151656: "<|video_pad|>",
    151657: "<tool_call>",
    151658: "</tool_call>",
    151659: "<|fim_prefix|>",
    151660: "<|fim_middle|>",
    151661: "<|fim_suffix|>",
    151662: "<|fim_pad|>",
    151663: "<|repo_name|>",
    151664: "<|file_sep|>",
}
TEMPLATE_PATH = "models/templates/Qwen-Qwen2.5-7B-Instruct.jinja"
VOCAB_PATH = "models/ggml-vocab-qwen2.gguf"


def import_gguf(source: Path) -> types.ModuleType:
    """gguf-py's package __init__ also imports its metadata module, which needs PyYAML; the reader and writer need
    numpy only, so the package is entered without running __init__."""
    package_dir = source / "gguf-py" / "gguf"
    if not (package_dir / "gguf_writer.py").is_file():
        sys.exit(f"make_model.py: {package_dir} has no gguf_writer.py: --source must be a llama.cpp checkout")
    package = types.ModuleType("gguf")
    package.__path__ = [str(package_dir)]
    sys.modules["gguf"] = package
    import gguf.constants
    import gguf.gguf_writer

    return package


# GGUF's scalar value types (gguf-py's GGUFValueType) as struct formats; 8 is a string, 9 an array.
GGUF_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}


def gguf_metadata(path: Path) -> dict[str, object]:
    """A GGUF file's key-value metadata (arrays as lists), read straight from its bytes: gguf-py's GGUFReader spends
    seconds making a numpy view of each of the vocabulary's 455,000 values."""
    data = path.read_bytes()
    magic, _version, _tensors, count = struct.unpack_from("<4sIQQ", data, 0)
    if magic != b"GGUF":
        sys.exit(f"make_model.py: {path} is not a GGUF file")
    offset = 24

    def string() -> str:
        nonlocal offset
        (length,) = struct.unpack_from("<Q", data, offset)
        offset += 8 + length
        return data[offset - length : offset].decode("utf-8")

    def value(kind: int) -> object:
        nonlocal offset
        if kind == 8:
            return string()
        if kind == 9:
            item, length = struct.unpack_from("<IQ", data, offset)
            offset += 12
            if item in GGUF_SCALARS:
                items = struct.unpack_from(f"<{length}{GGUF_SCALARS[item]}", data, offset)
                offset += struct.calcsize(f"<{length}{GGUF_SCALARS[item]}")
                return list(items)
            return [value(item) for _ in range(length)]
        (scalar,) = struct.unpack_from(f"<{GGUF_SCALARS[kind]}", data, offset)
        offset += struct.calcsize(f"<{GGUF_SCALARS[kind]}")
        return scalar

    metadata = {}
    for _ in range(count):
        key = string()
        (kind,) = struct.unpack_from("<I", data, offset)
        offset += 4
        metadata[key] = value(kind)
    return metadata


def qwen25_vocab(gguf, source: Path) -> tuple[list[str], list[int], list[str]]:
    """Tokens, token types and merges as the harness's writer builds them (qwen-vocab.ts): added `<|...|>` tokens
    CONTROL, `<tool_call>` and `</tool_call>` USER_DEFINED, padding rows UNUSED."""
    metadata = gguf_metadata(source / VOCAB_PATH)
    tokens = list(metadata["tokenizer.ggml.tokens"])
    kinds = [int(t) for t in metadata["tokenizer.ggml.token_type"]]
    merges = list(metadata["tokenizer.ggml.merges"])
    if len(tokens) != VOCAB_ROWS:
        sys.exit(f"make_model.py: {VOCAB_PATH} has {len(tokens)} tokens, not {VOCAB_ROWS}")
    token_type = gguf.constants.TokenType
    for i in range(BOS_ID + 3, VOCAB_ROWS):
        kinds[i] = token_type.UNUSED
    for i, text in QWEN25_ADDED.items():
        tokens[i] = text
        kinds[i] = token_type.CONTROL if text.startswith("<|") else token_type.USER_DEFINED
    return tokens, kinds, merges


def byte_decoder() -> dict[str, int]:
    """The byte each character of a byte-level BPE token stands for (GPT-2's bytes_to_unicode, inverted)."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    others = [b for b in range(256) if b not in printable]
    return {chr(c): b for c, b in zip([*printable, *range(256, 256 + len(others))], [*printable, *others])}


def not_utf8(tokens: list[str], kinds: list[int]) -> list[int]:
    """Ids of the normal tokens whose bytes are not UTF-8 by themselves (a piece of a multi-byte character)."""
    decoder = byte_decoder()
    ids = []
    for i, (text, kind) in enumerate(zip(tokens, kinds)):
        if kind != 1:  # NORMAL
            continue
        try:
            bytes(decoder[c] for c in text).decode("utf-8")
        except UnicodeDecodeError:
            ids.append(i)
    return ids


def uniform(name: str, seed: int, count: int, mean: float, std: float, dtype: np.dtype) -> np.ndarray:
    """`count` values of the uniform distribution with this mean and standard deviation, from a stream named by
    (seed, tensor name), so each tensor is independent of the others' order. The raw PCG64 words (whose stream numpy
    keeps stable across versions) index a table of 65,536 evenly spaced values, as the harness's writer draws."""
    half_width = std * math.sqrt(3)
    table = (mean + half_width * (((np.arange(65536) + 0.5) / 65536) * 2 - 1)).astype(dtype)
    generator = np.random.PCG64(np.random.SeedSequence([seed, zlib.crc32(name.encode())]))
    words = generator.random_raw((count + 3) // 4).astype(np.uint64)
    return table[words.view(np.uint16)[:count]]


def tensor_plan(shape: dict) -> list[tuple[str, tuple[int, ...], str, float, float]]:
    """(name, numpy shape, kind, mean, std) of every tensor, in the order llama.cpp's converter writes them. A
    matrix's numpy shape is (outputs, inputs): GGUF lists the input dimension first."""
    hidden, ffn = shape["hidden"], shape["ffn"]
    kv_dim = hidden // shape["heads"] * shape["kvHeads"]

    def dense(name, fan_in, fan_out, gain=DENSE_GAIN):
        return (name, (fan_out, fan_in), "matrix", 0.0, gain / math.sqrt(fan_in))

    plan = [("token_embd.weight", (VOCAB_ROWS, hidden), "matrix", 0.0, EMBEDDING_STD)]
    for i in range(shape["layers"]):
        b = f"blk.{i}"
        plan += [
            (f"{b}.attn_norm.weight", (hidden,), "f32", 1.0, 0.0),
            dense(f"{b}.attn_q.weight", hidden, hidden),
            (f"{b}.attn_q.bias", (hidden,), "f32", 0.0, BIAS_STD),
            dense(f"{b}.attn_k.weight", hidden, kv_dim),
            (f"{b}.attn_k.bias", (kv_dim,), "f32", 0.0, BIAS_STD),
            dense(f"{b}.attn_v.weight", hidden, kv_dim),
            (f"{b}.attn_v.bias", (kv_dim,), "f32", 0.0, BIAS_STD),
            dense(f"{b}.attn_output.weight", hidden, hidden),
            (f"{b}.ffn_norm.weight", (hidden,), "f32", 1.0, 0.0),
            dense(f"{b}.ffn_gate.weight", hidden, ffn),
            dense(f"{b}.ffn_up.weight", hidden, ffn),
            dense(f"{b}.ffn_down.weight", ffn, hidden),
        ]
    plan += [("output_norm.weight", (hidden,), "f32", 1.0, 0.0), dense("output.weight", hidden, VOCAB_ROWS, OUTPUT_GAIN)]
    return plan


def write_model(source: Path, shape_name: str, seed: int, dtype_name: str, out: Path) -> int:
    """Writes the model to `out` (through a temporary file beside it) and returns its size in bytes."""
    gguf = import_gguf(source)
    shape = SHAPES[shape_name]
    matrix_dtype = np.dtype(np.float16 if dtype_name == "f16" else np.float32)
    tokens, kinds, merges = qwen25_vocab(gguf, source)
    template = (source / TEMPLATE_PATH).read_text(encoding="utf-8")

    temp = out.with_name(out.name + ".partial")
    writer = gguf.gguf_writer.GGUFWriter(None, "qwen2")
    writer.add_string("general.type", "model")
    writer.add_string("general.name", f"blogqa random {shape_name} qwen2, seed {seed}")
    writer.add_string(
        "general.description",
        "Random weights with Qwen2.5's real tokenizer and chat template, written by blogqa's "
        "scripts/gpu-check/make_model.py, for timing checks",
    )
    writer.add_uint32("general.file_type", 1 if dtype_name == "f16" else 0)  # llama_ftype: MOSTLY_F16 or ALL_F32
    writer.add_string("blogqa.tiny_model.shape", shape_name)
    writer.add_uint32("blogqa.tiny_model.seed", seed)
    writer.add_uint32("qwen2.context_length", shape["contextLength"])
    writer.add_uint32("qwen2.embedding_length", shape["hidden"])
    writer.add_uint32("qwen2.block_count", shape["layers"])
    writer.add_uint32("qwen2.feed_forward_length", shape["ffn"])
    writer.add_uint32("qwen2.attention.head_count", shape["heads"])
    writer.add_uint32("qwen2.attention.head_count_kv", shape["kvHeads"])
    writer.add_float32("qwen2.rope.freq_base", shape["ropeTheta"])
    writer.add_float32("qwen2.attention.layer_norm_rms_epsilon", shape["rmsEps"])
    writer.add_string("tokenizer.ggml.model", "gpt2")
    writer.add_string("tokenizer.ggml.pre", "qwen2")
    writer.add_array("tokenizer.ggml.tokens", tokens)
    writer.add_array("tokenizer.ggml.token_type", kinds)
    writer.add_array("tokenizer.ggml.merges", merges)
    writer.add_uint32("tokenizer.ggml.bos_token_id", BOS_ID)
    writer.add_uint32("tokenizer.ggml.eos_token_id", EOS_ID)
    writer.add_uint32("tokenizer.ggml.padding_token_id", PADDING_ID)
    writer.add_bool("tokenizer.ggml.add_bos_token", False)
    writer.add_string("tokenizer.chat_template", template)

    # Tensors are announced first and drawn one at a time while writing, so a 3B model never sits in memory whole.
    plan = tensor_plan(shape)
    for name, dims, kind, _, _ in plan:
        dtype = matrix_dtype if kind == "matrix" else np.dtype(np.float32)
        writer.add_tensor_info(name, dims, dtype, math.prod(dims) * dtype.itemsize)
    writer.write_header_to_file(temp)
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    # llama-server refuses a completion whose bytes are not UTF-8 (HTTP 500, after generating it), and random weights
    # pick pieces of characters freely: with their output rows zero, those tokens' logits are 0, far below the
    # largest of the others, so greedy decoding never picks them and every call's tokens are counted.
    pieces = not_utf8(tokens, kinds)
    for name, dims, kind, mean, std in plan:
        dtype = matrix_dtype if kind == "matrix" else np.dtype(np.float32)
        values = uniform(name, seed, math.prod(dims), mean, std, dtype).reshape(dims)
        if name == "output.weight":
            values[pieces] = 0
        writer.write_tensor_data(values)
    writer.close()
    temp.replace(out)
    return out.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, help="a llama.cpp checkout (git clone of gitRelease.bundle)")
    parser.add_argument("--shape", choices=sorted(SHAPES), default="tiny")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dtype", choices=["f16", "f32"], default="f16", help="the matrices' type (norms stay F32)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--list-shapes", action="store_true", help="print the shapes as JSON and exit")
    args = parser.parse_args()
    if args.list_shapes:
        print(json.dumps(SHAPES))
        return
    if args.source is None or args.out is None:
        parser.error("--source and --out are required")
    if not 0 <= args.seed < 2**32:
        parser.error("--seed must be an integer from 0 to 4294967295")
    started = time.monotonic()
    size = write_model(args.source, args.shape, args.seed, args.dtype, args.out)
    print(f"make_model.py: wrote {args.out} ({args.shape}, {size} bytes) in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
