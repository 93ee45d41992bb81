// A prompt wording: the texts the designs send, as one record; the default is the study's, and a --wordings file
// overrides any of them by name.
import { z } from "zod";
import { UserError } from "../common/index.ts";
import { pyJsonDumps } from "../python/index.ts";
import type { ToolSchema } from "../llm/index.ts";
import type { Hit } from "../search/index.ts";
import { AGENT_ROLE, SEARCH_FIRST_INSTRUCTION, SOURCE_INSTRUCTION } from "./prompts.ts";
import type { StudyDesignId } from "./registry.ts";
import { AGENT_TOOLS } from "./tools.ts";

/** Every text a design sends that a wording may change; the field names are the --wordings file's. */
export interface Wording {
  readonly id: string;
  /** The agents' role sentence, before the source instruction. */
  readonly system: string;
  /** The workflow's role sentence, before the source instruction. */
  readonly workflow_system: string;
  /** What agent-search-first adds to the agent's system prompt. */
  readonly search_first: string;
  /** What every system prompt ends with: the instruction to end with `Source: <post>`. */
  readonly source_instruction: string;
  /** The workflow's user message, with `{results}` (the hits as JSON) and `{question}` in it. */
  readonly workflow_layout: string;
  readonly tool_descriptions: { readonly search_posts: string; readonly read_section: string };
}

/** The id of the study's own wording: a run without --wordings runs it, and its lines carry no `wording`. */
export const DEFAULT_WORDING_ID = "default";

/** The study's texts (prompts.ts and tools.ts), as a wording. */
export const DEFAULT_WORDING: Wording = {
  id: DEFAULT_WORDING_ID,
  system: AGENT_ROLE,
  workflow_system: "You answer questions about a technical blog, using the search results you are given.",
  search_first: SEARCH_FIRST_INSTRUCTION,
  source_instruction: SOURCE_INSTRUCTION,
  workflow_layout: "Search results:\n{results}\n\nQuestion: {question}",
  tool_descriptions: {
    search_posts: AGENT_TOOLS[0]!.function.description,
    read_section: AGENT_TOOLS[1]!.function.description,
  },
};

/** The agent's system prompt under a wording (the default wording's is prompts.agentSystemPrompt's, byte for byte). */
export function agentSystemFor(w: Wording, design: Exclude<StudyDesignId, "workflow">): string {
  const base = `${w.system} ${w.source_instruction}`;
  return design === "agent" ? base : `${base} ${w.search_first}`;
}

export function workflowSystemFor(w: Wording): string {
  return `${w.workflow_system} ${w.source_instruction}`;
}

/** The workflow's user message: both placeholders filled in one pass, so a hit's text is never read as one. */
export function workflowUserFor(w: Wording, question: string, hits: readonly Hit[]): string {
  const values = { results: pyJsonDumps(hits), question };
  return w.workflow_layout.replace(/\{(results|question)\}/g, (_, name: "results" | "question") => values[name]);
}

/** The tools' schemas with the wording's descriptions; the default wording's are AGENT_TOOLS themselves. */
export function agentToolsFor(w: Wording): readonly ToolSchema[] {
  if (w === DEFAULT_WORDING) return AGENT_TOOLS;
  const descriptions: Readonly<Record<string, string>> = w.tool_descriptions;
  return AGENT_TOOLS.map((t) => ({ ...t, function: { ...t.function, description: descriptions[t.function.name]! } }));
}

const text = z.string({ error: "a string" }).min(1, { error: "a text that is not empty" });
const fileEntrySchema = z.strictObject(
  {
    id: z.string({ error: "a string" }).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, {
      error: "an id of letters, digits, '.', '_' or '-'",
    }),
    system: text.optional(),
    workflow_system: text.optional(),
    search_first: text.optional(),
    source_instruction: text.optional(),
    workflow_layout: text
      .refine((t) => t.includes("{results}") && t.includes("{question}"), {
        error: "a text with {results} and {question} in it",
      })
      .optional(),
    tool_descriptions: z
      .strictObject({ search_posts: text.optional(), read_section: text.optional() }, { error: "an object" })
      .optional(),
  },
  { error: "an object" },
);

/**
 * The wordings of a --wordings file's JSON: each entry's fields over the default's. Refuses an unknown field (by
 * name), a repeated id, and an entry with id "default" that changes a text (that id names the study's wording).
 */
export function parseWordings(value: unknown, file: string): readonly Wording[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new UserError(`${file}: expected a JSON list of wordings, each an object with an "id"`);
  const seen = new Set<string>();
  return value.map((entry, i) => {
    const parsed = fileEntrySchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = [i, ...issue.path].join(".");
      if (issue.code === "unrecognized_keys")
        throw new UserError(
          `${file}: wording ${i}: unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`,
        );
      throw new UserError(`${file}: field ${where}: expected ${issue.message}`);
    }
    const { id, tool_descriptions, ...texts } = parsed.data;
    if (seen.has(id)) throw new UserError(`${file}: wording ${i}: the id ${JSON.stringify(id)} is used twice`);
    seen.add(id);
    const wording: Wording = {
      ...DEFAULT_WORDING,
      ...texts,
      id,
      tool_descriptions: { ...DEFAULT_WORDING.tool_descriptions, ...tool_descriptions },
    };
    if (id === DEFAULT_WORDING_ID) {
      if (JSON.stringify(wording) !== JSON.stringify(DEFAULT_WORDING))
        throw new UserError(`${file}: wording ${i}: the id "default" names the study's wording: give yours another id`);
      return DEFAULT_WORDING;
    }
    return wording;
  });
}
