// agent-validated's step: check a call against its tool's JSON schema, then its meaning, before it runs. A refused
// call's result tells the model what was wrong and what is allowed; it counts as malformed, and the loop goes on.
import { nearest } from "../../corpus/index.ts";
import { PyDict, pyJsonDumps, rawDecode, toPlainJson } from "../../python/index.ts";
import { AGENT_TOOLS, bindToolCall, runToolCall, type BlogIndex } from "../tools.ts";
import type { ToolCallRecord, ValidationKind } from "../transcript.ts";

export interface ValidationError {
  readonly kind: ValidationKind;
  /** What was wrong and what is allowed, in words the model reads. */
  readonly message: string;
}

/** Each tool as the model should call it, for error messages: `read_section(post, heading)`. */
const SIGNATURES = AGENT_TOOLS.map(
  (t) => `${t.function.name}(${Object.keys(t.function.parameters.properties).join(", ")})`,
);

/**
 * The checks, in order: the text is a JSON object; `name` is one of the tools; `arguments` is an object with no
 * property the schema lacks, every required one, each of the schema's type; and for read_section, the post and
 * then the heading exist. Example: {"name": "read_section", "arguments": {"post": "kv-cache", "heading": "Intro"}}
 * on a blog whose post kv-cache has no "Intro" gives kind "no-such-heading" and a message listing its headings.
 */
export function validateCall(raw: string, index: BlogIndex): ValidationError | undefined {
  let call: unknown;
  try {
    call = rawDecode(raw).value;
  } catch (error) {
    return {
      kind: "not-json",
      message: `the call is not JSON (${(error as Error).message}); write {"name": "<tool>", "arguments": {...}}`,
    };
  }
  if (!(call instanceof PyDict))
    return { kind: "not-an-object", message: `a call is one JSON object {"name": "<tool>", "arguments": {...}}` };
  const name = call.get("name");
  const tool = AGENT_TOOLS.find((t) => t.function.name === name);
  if (tool === undefined) {
    return {
      kind: "unknown-tool",
      message: `there is no tool ${JSON.stringify(name ?? null)}; the tools are ${SIGNATURES.join(" and ")}`,
    };
  }
  const { properties, required } = tool.function.parameters;
  const signature = SIGNATURES[AGENT_TOOLS.indexOf(tool)]!;
  const args = call.get("arguments");
  if (!(args instanceof PyDict)) {
    return { kind: "wrong-type", message: `"arguments" must be an object of strings, as in ${signature}` };
  }
  const extra = [...args.keys()].find((k) => !Object.hasOwn(properties, k));
  if (extra !== undefined)
    return {
      kind: "extra-argument",
      message: `${tool.function.name} takes no argument ${JSON.stringify(extra)}; call ${signature}`,
    };
  const missing = required.find((p) => !args.has(p));
  if (missing !== undefined)
    return {
      kind: "missing-argument",
      message: `${tool.function.name} needs ${JSON.stringify(missing)}; call ${signature}`,
    };
  for (const [key, value] of args) {
    const expected = properties[key]!.type;
    if (jsonType(value) !== expected) {
      return { kind: "wrong-type", message: `${JSON.stringify(key)} must be a ${expected}, not ${jsonType(value)}` };
    }
  }
  if (tool.function.name !== "read_section") return undefined;
  const post = args.get("post") as string;
  const heading = args.get("heading") as string;
  const headings = index.headings(post);
  if (headings === undefined) {
    const near = nearest(post, index.posts());
    const hint = near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`;
    return {
      kind: "no-such-post",
      message: `there is no post ${JSON.stringify(post)}${hint}; search_posts shows posts by their slug`,
    };
  }
  if (!headings.includes(heading)) {
    return {
      kind: "no-such-heading",
      message:
        `post ${JSON.stringify(post)} has no heading ${JSON.stringify(heading)}; ` +
        `its headings are ${headings.map((h) => JSON.stringify(h)).join(", ")}`,
    };
  }
  return undefined;
}

/** The validated design's runCall: a call that fails validation is refused with its error; one that passes runs. */
export async function validatedToolCall(raw: string, index: BlogIndex): Promise<ToolCallRecord> {
  const error = validateCall(raw, index);
  if (error === undefined) return runToolCall(raw, index);
  const written = bindToolCall(raw);
  return {
    raw,
    name: written.name,
    arguments: toPlainJson(written.arguments),
    result: pyJsonDumps(`error: ValidationError: ${error.message}`),
    malformed: true,
    shownPosts: [],
    validation: error.kind,
  };
}

/** A decoded JSON value's type as JSON Schema names it. */
function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (value instanceof PyDict) return "object";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "string") return "string";
  return "number";
}
