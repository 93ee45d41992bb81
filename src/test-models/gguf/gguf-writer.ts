// Writes GGUF v3 files: a metadata header built in memory, then tensor data streamed chunk by chunk.
import fs from "node:fs";

/** Metadata values, tagged by their GGUF type (GGUF stores the type next to every value). */
export type GgufValue =
  | { readonly kind: "uint32"; readonly value: number }
  | { readonly kind: "int32"; readonly value: number }
  | { readonly kind: "float32"; readonly value: number }
  | { readonly kind: "bool"; readonly value: boolean }
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "string[]"; readonly value: readonly string[] }
  | { readonly kind: "int32[]"; readonly value: ArrayLike<number> }
  | { readonly kind: "float32[]"; readonly value: ArrayLike<number> };

export type GgufTensorType = "F32" | "F16";

export interface GgufTensor {
  readonly name: string;
  /** Dimensions innermost first, as GGUF stores them: a [rows x cols] row-major matrix is [cols, rows]. */
  readonly dims: readonly number[];
  readonly type: GgufTensorType;
  /** Yields the tensor's bytes in order; together they must be exactly `tensorBytes(this)` long. */
  readonly data: () => Iterable<Uint8Array>;
}

export const GGUF_ALIGNMENT = 32;

// Type codes from ggml's gguf.h.
const VALUE_TYPE = { uint32: 4, int32: 5, float32: 6, bool: 7, string: 8, array: 9 } as const;
const TENSOR_TYPE: Record<GgufTensorType, { code: number; bytes: number }> = {
  F32: { code: 0, bytes: 4 },
  F16: { code: 1, bytes: 2 },
};

export function tensorBytes(tensor: Pick<GgufTensor, "dims" | "type">): number {
  return tensor.dims.reduce((a, b) => a * b, 1) * TENSOR_TYPE[tensor.type].bytes;
}

const alignUp = (n: number): number => Math.ceil(n / GGUF_ALIGNMENT) * GGUF_ALIGNMENT;

/** Appends little-endian values to a growing buffer; the header holds the whole vocabulary (a few MB). */
class ByteSink {
  private buffer = Buffer.alloc(1 << 20);
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const bigger = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.buffer = bigger;
  }
  u32(v: number): void {
    this.reserve(4);
    this.buffer.writeUInt32LE(v, this.length);
    this.length += 4;
  }
  i32(v: number): void {
    this.reserve(4);
    this.buffer.writeInt32LE(v, this.length);
    this.length += 4;
  }
  f32(v: number): void {
    this.reserve(4);
    this.buffer.writeFloatLE(v, this.length);
    this.length += 4;
  }
  u64(v: number): void {
    this.reserve(8);
    this.buffer.writeBigUInt64LE(BigInt(v), this.length);
    this.length += 8;
  }
  u8(v: number): void {
    this.reserve(1);
    this.buffer.writeUInt8(v, this.length);
    this.length += 1;
  }
  string(s: string): void {
    const bytes = Buffer.from(s, "utf8");
    this.u64(bytes.length);
    this.reserve(bytes.length);
    bytes.copy(this.buffer, this.length);
    this.length += bytes.length;
  }
  padTo(alignment: number): void {
    const padded = Math.ceil(this.length / alignment) * alignment;
    this.reserve(padded - this.length);
    this.buffer.fill(0, this.length, padded);
    this.length = padded;
  }
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeValue(sink: ByteSink, value: GgufValue): void {
  switch (value.kind) {
    case "uint32":
      sink.u32(VALUE_TYPE.uint32);
      sink.u32(value.value);
      return;
    case "int32":
      sink.u32(VALUE_TYPE.int32);
      sink.i32(value.value);
      return;
    case "float32":
      sink.u32(VALUE_TYPE.float32);
      sink.f32(value.value);
      return;
    case "bool":
      sink.u32(VALUE_TYPE.bool);
      sink.u8(value.value ? 1 : 0);
      return;
    case "string":
      sink.u32(VALUE_TYPE.string);
      sink.string(value.value);
      return;
    case "string[]":
      sink.u32(VALUE_TYPE.array);
      sink.u32(VALUE_TYPE.string);
      sink.u64(value.value.length);
      for (const s of value.value) sink.string(s);
      return;
    case "int32[]":
      sink.u32(VALUE_TYPE.array);
      sink.u32(VALUE_TYPE.int32);
      sink.u64(value.value.length);
      for (let i = 0; i < value.value.length; i++) sink.i32(value.value[i]!);
      return;
    case "float32[]":
      sink.u32(VALUE_TYPE.array);
      sink.u32(VALUE_TYPE.float32);
      sink.u64(value.value.length);
      for (let i = 0; i < value.value.length; i++) sink.f32(value.value[i]!);
      return;
    default: {
      const unreachable: never = value;
      throw new Error(`unknown GGUF value ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * The header: magic, version 3, counts, metadata (in the given order), tensor infos with offsets relative to the
 * data section, zero padding up to the alignment. Pure: the same inputs give the same bytes.
 */
export function encodeGgufHeader(
  metadata: ReadonlyArray<readonly [string, GgufValue]>,
  tensors: readonly Pick<GgufTensor, "name" | "dims" | "type">[],
): Buffer {
  const sink = new ByteSink();
  sink.u32(0x46554747); // "GGUF" read as a little-endian uint32
  sink.u32(3);
  sink.u64(tensors.length);
  sink.u64(metadata.length);
  for (const [key, value] of metadata) {
    sink.string(key);
    writeValue(sink, value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    sink.string(tensor.name);
    sink.u32(tensor.dims.length);
    for (const d of tensor.dims) sink.u64(d);
    sink.u32(TENSOR_TYPE[tensor.type].code);
    sink.u64(offset);
    offset = alignUp(offset + tensorBytes(tensor));
  }
  sink.padTo(GGUF_ALIGNMENT);
  return sink.bytes();
}

/** Total file size, known before any tensor data is produced (for progress). */
export function ggufFileBytes(header: Buffer, tensors: readonly Pick<GgufTensor, "dims" | "type">[]): number {
  return header.length + tensors.reduce((sum, t) => alignUp(sum + tensorBytes(t)), 0);
}

/** Writes a whole GGUF file; `onProgress` gets the bytes written so far after each chunk. */
export function writeGguf(
  path: string,
  metadata: ReadonlyArray<readonly [string, GgufValue]>,
  tensors: readonly GgufTensor[],
  onProgress?: (written: number, total: number) => void,
): number {
  const header = encodeGgufHeader(metadata, tensors);
  const total = ggufFileBytes(header, tensors);
  const fd = fs.openSync(path, "w");
  try {
    let written = fs.writeSync(fd, header);
    for (const tensor of tensors) {
      let tensorWritten = 0;
      for (const chunk of tensor.data()) {
        fs.writeSync(fd, chunk);
        tensorWritten += chunk.length;
        written += chunk.length;
        onProgress?.(written, total);
      }
      if (tensorWritten !== tensorBytes(tensor)) {
        throw new Error(`tensor ${tensor.name}: wrote ${tensorWritten} bytes, expected ${tensorBytes(tensor)}`);
      }
      const padding = alignUp(tensorWritten) - tensorWritten;
      if (padding > 0) written += fs.writeSync(fd, Buffer.alloc(padding));
    }
    if (written !== total) throw new Error(`GGUF writer: wrote ${written} bytes, expected ${total}`);
    return written;
  } finally {
    fs.closeSync(fd);
  }
}
