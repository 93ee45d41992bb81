// A minimal ONNX graph builder over onnx-proto: nodes, initializers, typed inputs and outputs, encoded to bytes.
import { createRequire } from "node:module";
import type onnxProto from "onnx-proto";

let loaded: typeof onnxProto.onnx | undefined;

/** The one door to onnx-proto (protobufjs): required when a model is first built, not when a command line loads. */
function onnx(): typeof onnxProto.onnx {
  loaded ??= (createRequire(import.meta.url)("onnx-proto") as typeof onnxProto).onnx;
  return loaded;
}

/** ONNX attributes by kind: `{ axis: int(-1) }`. */
export type Attribute =
  | { readonly kind: "int"; readonly value: number }
  | { readonly kind: "ints"; readonly value: readonly number[] }
  | { readonly kind: "float"; readonly value: number };
export const int = (value: number): Attribute => ({ kind: "int", value });
export const ints = (value: readonly number[]): Attribute => ({ kind: "ints", value });
export const float = (value: number): Attribute => ({ kind: "float", value });

export type ElementType = "float32" | "int64";
const ELEMENT_TYPE = (): Record<ElementType, number> => ({
  float32: onnx().TensorProto.DataType.FLOAT,
  int64: onnx().TensorProto.DataType.INT64,
});

/** A graph input or output: its name, element type and dims (a string names a dynamic dimension). */
export interface ValueInfo {
  readonly name: string;
  readonly type: ElementType;
  readonly dims: readonly (number | string)[];
}

export class GraphBuilder {
  private readonly nodes: onnxProto.onnx.INodeProto[] = [];
  private readonly initializers: onnxProto.onnx.ITensorProto[] = [];
  private count = 0;

  /** Adds a node and returns its (single) output's name: `output` if given, else a fresh one. */
  node(opType: string, inputs: readonly string[], attributes: Record<string, Attribute> = {}, output?: string): string {
    const id = this.count++;
    const name = output ?? `/${opType}_${id}`;
    this.nodes.push({
      name: `${opType}_${id}`,
      opType,
      input: [...inputs],
      output: [name],
      attribute: Object.entries(attributes).map(([key, a]) => attributeProto(key, a)),
    });
    return name;
  }

  /** A float32 initializer, written little-endian whatever the machine's byte order. */
  floats(name: string, dims: readonly number[], data: Float32Array): string {
    const bytes = new Uint8Array(data.length * 4);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < data.length; i++) view.setFloat32(i * 4, data[i]!, true);
    this.initializers.push({ name, dims: [...dims], dataType: onnx().TensorProto.DataType.FLOAT, rawData: bytes });
    return name;
  }

  /** An int64 initializer (shapes, axes, indices). */
  int64s(name: string, dims: readonly number[], values: readonly number[]): string {
    const bytes = new Uint8Array(values.length * 8);
    const view = new DataView(bytes.buffer);
    values.forEach((v, i) => {
      view.setBigInt64(i * 8, BigInt(v), true);
    });
    this.initializers.push({ name, dims: [...dims], dataType: onnx().TensorProto.DataType.INT64, rawData: bytes });
    return name;
  }

  /** The model's bytes: IR version 8, opset 17 (the first with LayerNormalization), loadable by onnxruntime 1.14+. */
  encode(graphName: string, inputs: readonly ValueInfo[], outputs: readonly ValueInfo[], producer: string): Uint8Array {
    const model = onnx().ModelProto.create({
      irVersion: 8,
      producerName: producer,
      opsetImport: [{ domain: "", version: 17 }],
      graph: {
        name: graphName,
        node: this.nodes,
        initializer: this.initializers,
        input: inputs.map(valueInfoProto),
        output: outputs.map(valueInfoProto),
      },
    });
    return onnx().ModelProto.encode(model).finish();
  }
}

function attributeProto(name: string, a: Attribute): onnxProto.onnx.IAttributeProto {
  switch (a.kind) {
    case "int":
      return { name, type: onnx().AttributeProto.AttributeType.INT, i: a.value };
    case "ints":
      return { name, type: onnx().AttributeProto.AttributeType.INTS, ints: [...a.value] };
    case "float":
      return { name, type: onnx().AttributeProto.AttributeType.FLOAT, f: a.value };
  }
}

function valueInfoProto(v: ValueInfo): onnxProto.onnx.IValueInfoProto {
  const dim = v.dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d }));
  return { name: v.name, type: { tensorType: { elemType: ELEMENT_TYPE()[v.type], shape: { dim } } } };
}
