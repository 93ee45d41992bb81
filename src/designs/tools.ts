// The agent's two tools, their schemas, and how one model-written call is run.
// Failures copy the Python study's behaviour: every exception becomes "error: <Type>: <message>", counted as malformed.
import {
  JSONDecodeError,
  PyDict,
  PyError,
  pyJsonDumps,
  pyRepr,
  pyTypeName,
  rawDecode,
  toPlainJson,
} from "../python/index.ts";
import type { ToolSchema } from "../llm/index.ts";
import type { Section } from "../corpus/index.ts";
import type { Hit } from "../search/index.ts";
import type { ToolCallRecord } from "./transcript.ts";
import type { ToolDialect } from "../toolcalls/index.ts";

/**
 * The part of the blog's search index that the tools may touch: a search and a section lookup, never the
 * filesystem (model-written names are only map keys).
 */
export interface BlogIndex {
  search(query: string, k?: number): Promise<Hit[]>;
  section(post: string, heading: string): Section | undefined;
  /** Every post's slug, in the index's order (the validation and the source check name real posts). */
  posts(): readonly string[];
  /** A post's headings in order, or undefined when there is no such post. */
  headings(post: string): readonly string[] | undefined;
}

/** read_section returns at most this many words of the section, so one read cannot flood a small model's context. */
export const READ_SECTION_MAX_WORDS = 300;

/** The study's, verbatim: the schema of its printed example exchange. */
export const SEARCH_POSTS: ToolSchema = {
  type: "function",
  function: {
    name: "search_posts",
    description: "Search the blog.",
    parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  },
};

/** Ours: the study names read_section(post, heading) but prints no schema for it; this one is search_posts' shape. */
export const READ_SECTION: ToolSchema = {
  type: "function",
  function: {
    name: "read_section",
    description: "Read one section of a blog post.",
    parameters: {
      type: "object",
      properties: { post: { type: "string" }, heading: { type: "string" } },
      required: ["post", "heading"],
    },
  },
};

export const AGENT_TOOLS: readonly ToolSchema[] = [SEARCH_POSTS, READ_SECTION];

interface ToolOutput {
  readonly value: unknown;
  readonly shownPosts: readonly string[];
}

/** A call whose arguments are bound to its tool, ready to run on the index. */
type Runner = (index: BlogIndex) => Promise<ToolOutput>;

/**
 * What the loop makes of one call's text before running it: the tool bound to its arguments, or the
 * "error: <Type>: <message>" the model will read. `name` and `arguments` are what the model wrote (a string name;
 * the arguments as decoded, a PyDict for an object), whichever step failed.
 */
export type BoundCall =
  | {
      readonly kind: "bound";
      readonly raw: string;
      readonly name: string;
      readonly arguments: unknown;
      readonly run: Runner;
    }
  | {
      readonly kind: "failed";
      readonly raw: string;
      readonly name: string | undefined;
      readonly arguments: unknown;
      readonly error: string;
    };

/**
 * The study's steps, in its order: parse the first JSON value (the rest is ignored), `TOOLS[call["name"]]`,
 * `call["arguments"]`, then `tool(**arguments)`. Looks nothing up in the blog.
 */
export function bindToolCall(raw: string, argumentsKey = "arguments"): BoundCall {
  let written: { name: string | undefined; arguments: unknown } = { name: undefined, arguments: undefined };
  try {
    // The pattern's capture starts at "{", so no whitespace precedes the value (raw_decode would refuse it).
    const call = rawDecode(raw).value;
    if (call instanceof PyDict) {
      const name = call.get("name");
      written = { name: typeof name === "string" ? name : undefined, arguments: call.get(argumentsKey) };
    }
    const tool = lookupTool(subscript(call, "name"));
    const run = tool(subscript(call, argumentsKey));
    return { kind: "bound", raw, name: written.name!, arguments: written.arguments, run };
  } catch (error) {
    return { kind: "failed", raw, ...written, error: `error: ${describe(error)}` };
  }
}

/** Runs the text of one call: bind it, then run it on the index. Every failure becomes the error the model reads. */
export async function runToolCall(
  raw: string,
  index: BlogIndex,
  bind: string | ((raw: string) => BoundCall) = "arguments",
): Promise<ToolCallRecord> {
  // `bind`: the key the arguments are under in a JSON call, or a format's own binder (see dialects/)
  const call = typeof bind === "string" ? bindToolCall(raw, bind) : bind(raw);
  const logged = { raw, name: call.name, arguments: toPlainJson(call.arguments) };
  const failed = (error: string): ToolCallRecord => ({
    ...logged,
    result: pyJsonDumps(error),
    malformed: true,
    shownPosts: [],
  });
  if (call.kind === "failed") return failed(call.error);
  try {
    const output = await call.run(index);
    return { ...logged, result: pyJsonDumps(output.value), malformed: false, shownPosts: output.shownPosts };
  } catch (error) {
    return failed(`error: ${describe(error)}`);
  }
}

/**
 * A call written as a name and an arguments text apart (Mistral's "name[ARGS]{...}", an API's tool call): the
 * arguments decoded by `decode` (by default the first JSON value, the rest ignored, as the study's raw_decode), then
 * bound to the named tool, every failure the "error: <Type>: <message>" the model will read.
 */
export function bindNamedCall(
  raw: string,
  name: string,
  argumentsText: string,
  decode: (text: string) => unknown = (text) => rawDecode(text).value,
): BoundCall {
  let args: unknown;
  try {
    args = decode(argumentsText);
    const run = lookupTool(name)(args);
    return { kind: "bound", raw, name, arguments: args, run };
  } catch (error) {
    return { kind: "failed", raw, name, arguments: args, error: `error: ${describe(error)}` };
  }
}

/** A tool binds its arguments as Python's `tool(**arguments)` would, and returns what runs it. */
type Tool = (args: unknown) => Runner;

const TOOLS: Readonly<Record<string, Tool>> = {
  search_posts: (args) => {
    const { query } = bindArguments("search_posts", args, ["query"]);
    return async (index) => {
      const hits = await index.search(query, 3);
      return { value: hits, shownPosts: hits.map((h) => h.post) };
    };
  },
  read_section: (args) => {
    const { post, heading } = bindArguments("read_section", args, ["post", "heading"]);
    return async (index) => {
      const section = index.section(post, heading);
      // Ours: the study's tool body is unpublished; a missing section raises with this text.
      if (!section) throw new PyError("LookupError", `no section ${pyRepr(heading)} in post ${pyRepr(post)}`);
      const words = section.text.split(/\s+/).filter(Boolean);
      const text =
        words.slice(0, READ_SECTION_MAX_WORDS).join(" ") + (words.length > READ_SECTION_MAX_WORDS ? " ..." : "");
      return { value: { post: section.post, heading: section.heading, text }, shownPosts: [section.post] };
    };
  },
};

/** Python's `TOOLS[name]` on a dict of tools. */
function lookupTool(name: unknown): Tool {
  if (name !== null && typeof name === "object" && (Array.isArray(name) || name instanceof PyDict)) {
    throw new PyError("TypeError", `unhashable type: '${pyTypeName(name)}'`);
  }
  const tool = typeof name === "string" && Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
  if (!tool) throw new PyError("KeyError", pyRepr(name));
  return tool;
}

/** Python's `value[key]` on a decoded JSON value (CPython 3.11's wording). */
function subscript(value: unknown, key: string): unknown {
  if (value instanceof PyDict) {
    if (!value.has(key)) throw new PyError("KeyError", pyRepr(key));
    return value.get(key);
  }
  if (Array.isArray(value)) throw new PyError("TypeError", "list indices must be integers or slices, not str");
  if (typeof value === "string") throw new PyError("TypeError", "string indices must be integers, not 'str'");
  throw new PyError("TypeError", `'${pyTypeName(value)}' object is not subscriptable`);
}

/**
 * Python's `fn(**args)` for a function of string parameters defined in the study's script (so CPython names it
 * `__main__.fn()` where it names the module: the study's agent.py run as a script; imported by both_models.py it would
 * read `agent.fn()`, and which it was cannot be known, so the harness writes the script's), with a type check of our own that Python would only fail later.
 * Keys are the dict's own, in its order: "__proto__" is an unexpected keyword like any other.
 */
function bindArguments<K extends string>(fn: string, args: unknown, params: readonly K[]): Record<K, string> {
  if (!(args instanceof PyDict)) {
    throw new PyError("TypeError", `__main__.${fn}() argument after ** must be a mapping, not ${pyTypeName(args)}`);
  }
  const unexpected = [...args.keys()].find((k) => !(params as readonly string[]).includes(k));
  // CPython 3.11 writes the key's str between single quotes ("'%S'"), not its repr: 'it's' and a\b stay as they are
  if (unexpected !== undefined)
    throw new PyError("TypeError", `${fn}() got an unexpected keyword argument '${unexpected}'`);
  const missing = params.filter((p) => !args.has(p));
  if (missing.length > 0) {
    const names = missing.map(pyRepr);
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
    const plural = missing.length > 1 ? "s" : "";
    throw new PyError("TypeError", `${fn}() missing ${missing.length} required positional argument${plural}: ${list}`);
  }
  const bound = Object.fromEntries(params.map((p) => [p, args.get(p)]));
  for (const p of params) {
    if (typeof bound[p] !== "string")
      throw new PyError("TypeError", `${fn}() argument ${pyRepr(p)} must be str, not ${pyTypeName(bound[p])}`);
  }
  return bound as Record<K, string>;
}

/** "<Type>: <message>": the exception type's name and its str(), as the study wrote a failed call's result. */
function describe(error: unknown): string {
  if (error instanceof PyError) return `${error.type}: ${error.message}`;
  if (error instanceof JSONDecodeError) return `JSONDecodeError: ${error.message}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : `Exception: ${String(error)}`;
}

/** How a format's call texts bind to the study's tools. */
export function binderOf(dialect: ToolDialect): (raw: string) => BoundCall {
  const split = dialect.splitCall;
  if (split === undefined) return (raw) => bindToolCall(raw, dialect.argumentsKey);
  return (raw) => {
    const { name, argumentsText, decode } = split(raw);
    return bindNamedCall(raw, name, argumentsText, decode);
  };
}
