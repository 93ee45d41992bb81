// parse-calls: what the agent loop would take from a reply on stdin, to check a model's replies by hand.
import type { Argv, CommandModule } from "yargs";
import { TOOL_FORMATS, type ToolFormat } from "../toolcalls/index.ts";
import type { ParsedReply } from "../designs/index.ts";
import { pyJsonDumps, pyRepr } from "../python/index.ts";
import { UserError } from "../common/index.ts";
import { io } from "./io.ts";

const parseCallsCommand: CommandModule<object, { json: boolean; format: ToolFormat }> = {
  command: "parse-calls",
  describe:
    "Read one model reply on stdin (all of it, as the loop sees it: a forced reply with its <tool_call>\\n prefix) " +
    "and print the calls the study's loop would take from it: each call's text, tool name, arguments, and the " +
    '"error: <Type>: <message>" the model would read when parsing or binding to the two tools fails; then how many ' +
    "<tool_call> tags the study's pattern passed over. Looks nothing up in the blog",
  builder: (y) =>
    y
      .option("format", {
        choices: TOOL_FORMATS,
        default: "hermes" as ToolFormat,
        describe:
          "The tool-call format to read the reply in (hermes: the study's). Other formats print, instead of the " +
          "ignored tags, whether the reply also looks like a call written in another format",
      })
      .option("json", {
        type: "boolean",
        default: false,
        describe:
          'Print {"calls": [{"raw", "name", "arguments", "error"}], "ignored_call_blocks": N} as Python\'s json.dumps would',
      })
      .example("$0 parse-calls < reply.txt", "")
      .example("$0 parse-calls --json < reply.txt", "")
      .example("$0 parse-calls --format llama3 < reply.txt", ""),
  handler: async (argv) => {
    const { DIALECTS } = await import("../toolcalls/index.ts");
    const { parseCalls } = await import("../designs/index.ts");
    if (io().stdin.isTTY)
      throw new UserError("parse-calls reads a reply on stdin: npm run -s blogqa -- parse-calls < reply.txt", 2);
    const parsed = parseCalls(await readStdin(), DIALECTS[argv.format]);
    io().out(argv.json ? `${pyJsonDumps(parsed)}\n` : describeReply(parsed));
  },
};

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io().stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** One block per call (its text as a JSON string, its arguments as Python prints them), then what the loop does. */
function describeReply(parsed: ParsedReply): string {
  const { calls } = parsed;
  const lines = calls.flatMap((call, i) => [
    `call ${i + 1}: ${call.error === null ? `would run ${call.name}` : "fails"}`,
    `  raw: ${JSON.stringify(call.raw)}`,
    ...(call.arguments !== null ? [`  arguments: ${pyRepr(call.arguments)}`] : []),
    ...(call.error !== null ? [`  the model reads: ${call.error}`] : []),
  ]);
  const malformed = calls.filter((c) => c.error !== null).length;
  const verdict =
    calls.length === 0
      ? "no call: the loop ends and the reply is the answer"
      : `${calls.length} call${calls.length > 1 ? "s" : ""} (${malformed} malformed): the loop runs them and generates again`;
  const last =
    "ignored_call_blocks" in parsed
      ? `<tool_call> tags the study's pattern passed over: ${parsed.ignored_call_blocks}`
      : parsed.looks_like_other_format
        ? `warning: the reply also looks like a call in another format than ${parsed.tool_format}: check --tool-format`
        : `nothing in the reply looks like a call in another format than ${parsed.tool_format}`;
  return [...lines, verdict, last, ""].join("\n");
}

/** Registers this file's commands on the command line. */
export const parseCallsCommands = (y: Argv): Argv => y.command(parseCallsCommand);
