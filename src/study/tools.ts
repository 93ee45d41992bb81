// The agent's two tools, their schemas, and how one model-written call is run.
// Failures copy the Python study's behaviour: every exception becomes "error: <Type>: <message>", counted as malformed.
import { JSONDecodeError, PyError, pyJsonDumps, pyRepr, pyTypeName, rawDecode } from "../python/index.ts";
import type { ToolSchema } from "../llm/types.ts";
import type { Section } from "../corpus/types.ts";
import type { Hit } from "../search/types.ts";
import type { ToolCallRecord } from "./types.ts";

/** What the tools may touch: the index, never the filesystem (model-written names are only map keys). */
export interface ToolContext {
  search(query: string, k?: number): Promise<Hit[]>;
  section(post: string, heading: string): Section | undefined;
}

/** read_section returns at most this many words of the section, so one read cannot flood a small model's context. */
export const READ_SECTION_MAX_WORDS = 300;

export const SEARCH_POSTS: ToolSchema = {
  type: "function",
  function: {
    name: "search_posts",
    description: "Search the blog.",
    parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  },
};

export const READ_SECTION: ToolSchema = {
  type: "function",
  function: {
    name: "read_section",
    description: "Read one section of a blog post.",
    parameters: { type: "object", properties: { post: { type: "string" }, heading: { type: "string" } }, required: ["post", "heading"] },
  },
};

export const AGENT_TOOLS: readonly ToolSchema[] = [SEARCH_POSTS, READ_SECTION];

interface ToolOutput {
  readonly value: unknown;
  readonly shownPosts: readonly string[];
}

/** Runs the text inside one <tool_call> block: parse its first JSON value, look the tool up, call it. */
export async function runToolCall(raw: string, context: ToolContext): Promise<ToolCallRecord> {
  let name: string | undefined;
  let args: unknown;
  try {
    const call = rawDecode(raw.trim()).value;
    const nameValue = subscript(call, "name");
    name = typeof nameValue === "string" ? nameValue : undefined;
    const tool = lookupTool(nameValue);
    args = subscript(call, "arguments");
    const output = await tool(args, context);
    return { raw, name, arguments: args, result: pyJsonDumps(output.value), malformed: false, shownPosts: output.shownPosts };
  } catch (error) {
    const [type, message] = describe(error);
    return { raw, name, arguments: args, result: pyJsonDumps(`error: ${type}: ${message}`), malformed: true, shownPosts: [] };
  }
}

type Tool = (args: unknown, context: ToolContext) => Promise<ToolOutput>;

const TOOLS: Readonly<Record<string, Tool>> = {
  search_posts: async (args, context) => {
    const { query } = bindArguments("search_posts", args, ["query"]);
    const hits = await context.search(query, 3);
    return { value: hits, shownPosts: hits.map((h) => h.post) };
  },
  read_section: async (args, context) => {
    const { post, heading } = bindArguments("read_section", args, ["post", "heading"]);
    const section = context.section(post, heading);
    if (!section) throw new PyError("LookupError", `no section ${pyRepr(heading)} in post ${pyRepr(post)}`);
    const words = section.text.split(/\s+/).filter(Boolean);
    const text = words.slice(0, READ_SECTION_MAX_WORDS).join(" ") + (words.length > READ_SECTION_MAX_WORDS ? " ..." : "");
    return { value: { post: section.post, heading: section.heading, text }, shownPosts: [section.post] };
  },
};

function lookupTool(name: unknown): Tool {
  if (name !== null && typeof name === "object") throw new PyError("TypeError", `unhashable type: '${pyTypeName(name)}'`);
  const tool = typeof name === "string" && Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
  if (!tool) throw new PyError("KeyError", pyRepr(name));
  return tool;
}

/** Python's `value[key]` on a decoded JSON value. */
function subscript(value: unknown, key: string): unknown {
  if (value === null || typeof value !== "object") throw new PyError("TypeError", `'${pyTypeName(value)}' object is not subscriptable`);
  if (Array.isArray(value)) throw new PyError("TypeError", "list indices must be integers or slices, not str");
  if (!Object.hasOwn(value, key)) throw new PyError("KeyError", pyRepr(key));
  return (value as Record<string, unknown>)[key];
}

/** Python's `fn(**args)` for a function of string parameters, with a type check Python would only fail later. */
function bindArguments<K extends string>(fn: string, args: unknown, params: readonly K[]): Record<K, string> {
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new PyError("TypeError", `${fn}() argument after ** must be a mapping, not ${pyTypeName(args)}`);
  }
  const given = args as Record<string, unknown>;
  const unexpected = Object.keys(given).find((k) => !params.includes(k as K));
  if (unexpected !== undefined) throw new PyError("TypeError", `${fn}() got an unexpected keyword argument ${pyRepr(unexpected)}`);
  const missing = params.filter((p) => !Object.hasOwn(given, p));
  if (missing.length > 0) {
    const names = missing.map(pyRepr);
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
    throw new PyError("TypeError", `${fn}() missing ${missing.length} required positional argument${missing.length > 1 ? "s" : ""}: ${list}`);
  }
  for (const p of params) {
    if (typeof given[p] !== "string") throw new PyError("TypeError", `${fn}() argument ${pyRepr(p)} must be str, not ${pyTypeName(given[p])}`);
  }
  return given as Record<K, string>;
}

function describe(error: unknown): [string, string] {
  if (error instanceof PyError) return [error.type, error.message];
  if (error instanceof JSONDecodeError) return ["JSONDecodeError", error.message];
  return [error instanceof Error ? error.name : "Exception", error instanceof Error ? error.message : String(error)];
}
