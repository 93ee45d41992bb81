// A GBNF grammar that admits one well-formed call of one of a request's tools, in the format the study's pattern
// reads, short enough to close within the reply's token budget: what the "tool-call" constraint decodes under.
import type { ToolSchema } from "./types.ts";

/** The end-of-generation token the reply needs after the grammar is complete. */
const END_TOKENS = 1;
const CLOSE = "\n</tool_call>";

/**
 * A string's characters by their UTF-8 length: every token is at least one byte of text, so a call of B bytes takes
 * at most B tokens. Escapes are those JSON has; `\uXXXX` is six bytes.
 */
const UNITS: readonly { readonly bytes: number; readonly rule: string }[] = [
  { bytes: 1, rule: "[\\x20-\\x21\\x23-\\x5b\\x5d-\\x7f]" },
  { bytes: 2, rule: '"\\\\" ["\\\\/bfnrt]' },
  { bytes: 2, rule: "[\\u0080-\\u07ff]" },
  { bytes: 3, rule: "[\\u0800-\\uffff]" },
  { bytes: 4, rule: "[\\U00010000-\\U0010ffff]" },
  { bytes: 6, rule: '"\\\\u" [0-9a-fA-F]{4}' },
];

/**
 * For tools search_posts(query) and read_section(post, heading), maxStringChars 160 and a budget of 200 new tokens:
 *   root ::= (call0 | call1) "\n</tool_call>"
 *   call0 ::= "{\"name\": \"search_posts\", \"arguments\": {\"query\": " str134 "}}"
 *   call1 ::= "{\"name\": \"read_section\", \"arguments\": {\"post\": " str60 ", \"heading\": " str60 "}}"
 * where strN is a JSON string of 1 to N bytes of text (rest-K: the closing quote after at most K more bytes).
 * Each tool's strings share what the budget leaves after its call's fixed text and the end token, evenly, and
 * none is longer than maxStringChars bytes; so any call the grammar admits closes within `maxTokens` tokens. A
 * tool whose call cannot fit is left out; when none fits, an error (the caller's call error). Keys in the schema's order, separators
 * as Python's json.dumps writes them, every property written (all the agent's are required); only string properties
 * are supported, which is all the agent's tools have.
 */
export function toolCallGrammar(tools: readonly ToolSchema[], maxStringChars: number, maxTokens: number): string {
  if (tools.length === 0) throw new Error("a tool-call constraint needs at least one tool");
  if (!Number.isInteger(maxStringChars) || maxStringChars < 1)
    throw new Error(`maxStringChars must be a positive integer (got ${maxStringChars})`);
  const calls = tools.map((tool) => {
    const { name, parameters } = tool.function;
    const keys = Object.entries(parameters.properties).map(([key, schema], j) => {
      if (schema.type !== "string")
        throw new Error(`tool ${name}: argument ${key} is a ${schema.type}; the tool-call grammar writes strings only`);
      return `${j === 0 ? "" : ", "}"${key}": `;
    });
    const open = `{"name": "${name}", "arguments": {`;
    const fixed = [open, ...keys, "}}", CLOSE].reduce((n, part) => n + Buffer.byteLength(part), 0) + 2 * keys.length;
    const room = maxTokens - END_TOKENS - fixed;
    const bytes = keys.length === 0 ? 0 : Math.min(maxStringChars, Math.floor(room / keys.length));
    return { name, open, keys, fixed, bytes, fits: room >= 0 && (keys.length === 0 || bytes >= 1) };
  });
  const fitting = calls.filter((c) => c.fits);
  if (fitting.length === 0) {
    const least = Math.min(...calls.map((c) => c.fixed + c.keys.length + END_TOKENS));
    throw new Error(
      `no call of ${tools.map((t) => t.function.name).join(" or ")} can close within ${maxTokens} new tokens ` +
        `(the shortest needs ${least}): give the constrained call more new tokens`,
    );
  }
  const longest = Math.max(...fitting.map((c) => c.bytes));
  const rules = fitting.map((c, i) => {
    const args = c.keys.map((key) => `${literal(key)} str${c.bytes}`).join(" ");
    return `call${i} ::= ${literal(c.open)} ${args} ${literal("}}")}`;
  });
  const lengths = [...new Set(fitting.filter((c) => c.keys.length > 0).map((c) => c.bytes))];
  return [
    `root ::= (${fitting.map((_, i) => `call${i}`).join(" | ")}) ${literal(CLOSE)}`,
    ...rules,
    ...lengths.map((n) => `str${n} ::= "\\"" (${unitsThen(n)})`),
    ...Array.from({ length: longest }, (_, k) => `rest${k} ::= "\\""${k === 0 ? "" : ` | ${unitsThen(k)}`}`),
    ...UNITS.map((u, i) => `unit${i} ::= ${u.rule}`),
  ].join("\n");
}

/** One unit of at most `k` bytes, then the rest of the string in what is left. */
function unitsThen(k: number): string {
  return UNITS.map((u, i) => ({ u, i }))
    .filter(({ u }) => u.bytes <= k)
    .map(({ u, i }) => `unit${i} rest${k - u.bytes}`)
    .join(" | ");
}

/** A GBNF string literal. */
function literal(text: string): string {
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n")}"`;
}
