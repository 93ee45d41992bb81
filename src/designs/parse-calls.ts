// What the agent loop takes from one reply, without running anything: the parse-calls command's answer.
import { ignoredCallBlocks } from "../toolcalls/index.ts";
import { hermes, looksForeign, type RunFormat, type ToolDialect } from "../toolcalls/index.ts";
import { binderOf } from "./tools.ts";

/** One call as the loop would take it. `arguments` keeps Python's dict (PyDict) so it prints as json.dumps would. */
export interface ParsedCall {
  readonly raw: string;
  readonly name: string | null;
  readonly arguments: unknown;
  /** The "error: <Type>: <message>" the model would read, or null when the call would run. */
  readonly error: string | null;
}

/** The study's answer (hermes), or another dialect's, which says whether the reply looks like a call in a third. */
export type ParsedReply =
  | { readonly calls: readonly ParsedCall[]; readonly ignored_call_blocks: number }
  | {
      readonly calls: readonly ParsedCall[];
      readonly tool_format: Exclude<RunFormat, "hermes">;
      readonly looks_like_other_format: boolean;
    };

/**
 * Every call the study's pattern finds in a reply, parsed and bound to the study's two tools, and the count of
 * <tool_call> tags it passed over. Nothing is looked up in the blog: a read_section of a section that does not
 * exist still counts as a call that would run (and fail there).
 */
export function parseCalls(reply: string, dialect: ToolDialect = hermes): ParsedReply {
  const calls = dialect.findCalls(reply).map((raw): ParsedCall => {
    const call = binderOf(dialect)(raw);
    return {
      raw,
      name: call.name ?? null,
      arguments: call.arguments ?? null,
      error: call.kind === "failed" ? call.error : null,
    };
  });
  if (dialect.format === "hermes") return { calls, ignored_call_blocks: ignoredCallBlocks(reply) };
  return { calls, tool_format: dialect.format, looks_like_other_format: looksForeign(reply, dialect) };
}
