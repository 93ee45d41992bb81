// A GBNF grammar that admits one well-formed call of one of a request's tools, in the format the study's pattern
// reads: what the "tool-call" constraint decodes under (llama.cpp applies it token by token).
import type { ToolSchema } from "./types.ts";

/**
 * For tools search_posts(query) and read_section(post, heading), and maxStringChars 160:
 *   root ::= (call0 | call1) "\n</tool_call>"
 *   call0 ::= "{\"name\": \"search_posts\", \"arguments\": {\"query\": " str "}}"
 *   call1 ::= "{\"name\": \"read_section\", \"arguments\": {\"post\": " str ", \"heading\": " str "}}"
 *   str ::= "\"" char{1,160} "\""
 * Keys in the schema's order, separators as Python's json.dumps writes them, every property written (all the
 * agent's are required); only string properties are supported, which is all the agent's tools have.
 */
export function toolCallGrammar(tools: readonly ToolSchema[], maxStringChars: number): string {
  if (tools.length === 0) throw new Error("a tool-call constraint needs at least one tool");
  if (!Number.isInteger(maxStringChars) || maxStringChars < 1)
    throw new Error(`maxStringChars must be a positive integer (got ${maxStringChars})`);
  const calls = tools.map((tool, i) => {
    const { name, parameters } = tool.function;
    const args = Object.entries(parameters.properties).map(([key, schema], j) => {
      if (schema.type !== "string")
        throw new Error(`tool ${name}: argument ${key} is a ${schema.type}; the tool-call grammar writes strings only`);
      return `${literal(`${j === 0 ? "" : ", "}"${key}": `)} str`;
    });
    return `call${i} ::= ${literal(`{"name": "${name}", "arguments": {`)} ${args.join(" ")} ${literal("}}")}`;
  });
  return [
    `root ::= (${tools.map((_, i) => `call${i}`).join(" | ")}) ${literal("\n</tool_call>")}`,
    ...calls,
    `str ::= "\\"" char{1,${maxStringChars}} "\\""`,
    `char ::= [^"\\\\\\x00-\\x1f] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})`,
  ].join("\n");
}

/** A GBNF string literal. */
function literal(text: string): string {
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n")}"`;
}
