// Splits a GGUF file in two as llama.cpp's gguf-split does: the first part keeps every metadata key and the first
// tensors, the second only the split keys and the rest; both carry split.no, split.count and split.tensors.count.

const ALIGNMENT = 32;
const alignUp = (n: number) => Math.ceil(n / ALIGNMENT) * ALIGNMENT;
/** Fixed sizes of GGUF's scalar value types, by type code (8 string and 9 array vary). */
const SCALAR_BYTES: Readonly<Record<number, number>> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
};

interface TensorInfo {
  readonly name: Buffer;
  readonly dims: readonly bigint[];
  readonly type: number;
  readonly offset: number;
}

/** The two parts' bytes; tensors go to the first part until it holds about half the data. */
export function splitGguf(file: Buffer): [Buffer, Buffer] {
  let at = 8;
  const u32 = () => {
    const v = file.readUInt32LE(at);
    at += 4;
    return v;
  };
  const u64 = () => {
    const v = file.readBigUInt64LE(at);
    at += 8;
    return v;
  };
  const string = () => {
    const length = Number(u64());
    const s = file.subarray(at, at + length);
    at += length;
    return s;
  };
  const skipValue = (type: number): void => {
    if (type === 8) string();
    else if (type === 9) {
      const inner = u32();
      const count = Number(u64());
      for (let i = 0; i < count; i++) skipValue(inner);
    } else at += SCALAR_BYTES[type]!;
  };
  const tensorCount = Number(u64());
  const kvCount = Number(u64());
  const kvStart = at;
  for (let i = 0; i < kvCount; i++) {
    string();
    skipValue(u32());
  }
  const kvBytes = file.subarray(kvStart, at);
  const tensors: TensorInfo[] = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = string();
    const dims = Array.from({ length: u32() }, () => u64());
    tensors.push({ name, dims, type: u32(), offset: Number(u64()) });
  }
  const dataStart = alignUp(at);
  const dataLength = file.length - dataStart;
  const cut = tensors.findIndex((t) => t.offset >= dataLength / 2);
  const firstTensors = tensors.slice(0, cut);
  const rest = tensors.slice(cut);
  const cutOffset = rest[0]!.offset;
  const splitKeys = (no: number) =>
    Buffer.concat([
      kv("split.no", 2, u16(no)),
      kv("split.count", 2, u16(2)),
      kv("split.tensors.count", 5, i32(tensorCount)),
    ]);
  const part = (kvs: Buffer, kvN: number, infos: readonly TensorInfo[], base: number, data: Buffer) => {
    const header = Buffer.concat([
      file.subarray(0, 8),
      u64b(infos.length),
      u64b(kvN),
      kvs,
      ...infos.map((t) =>
        Buffer.concat([
          u64b(t.name.length),
          t.name,
          u32b(t.dims.length),
          ...t.dims.map((d) => u64b(Number(d))),
          u32b(t.type),
          u64b(t.offset - base),
        ]),
      ),
    ]);
    return Buffer.concat([header, Buffer.alloc(alignUp(header.length) - header.length), data]);
  };
  return [
    part(
      Buffer.concat([kvBytes, splitKeys(0)]),
      kvCount + 3,
      firstTensors,
      0,
      file.subarray(dataStart, dataStart + cutOffset),
    ),
    part(splitKeys(1), 3, rest, cutOffset, file.subarray(dataStart + cutOffset)),
  ];
}

const u16 = (v: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(v);
  return b;
};
const i32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32LE(v);
  return b;
};
const u32b = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
};
const u64b = (v: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(v));
  return b;
};
const kv = (key: string, type: number, value: Buffer) =>
  Buffer.concat([u64b(Buffer.byteLength(key)), Buffer.from(key), u32b(type), value]);
