// emulated: for a chat template with no tool support (Gemma 2 and 3, Phi-3.5-mini, SmolLM3's, which takes
// `xml_tools` rather than `tools`): the harness writes the tools and the Hermes-style instructions into the system
// prompt itself, in the words of Qwen2.5's template, and parses replies with the study's hermes pattern, as Inspect's
// emulated tools do. Results go back in one user message, each in <tool_response> tags, as Qwen2.5's template
// renders them, so that user and assistant turns alternate (Gemma's template raises otherwise). Where the template
// refuses a system role (Gemma 2: "System role not supported"), the system text opens the first user message.
// Sources: llama.cpp models/templates/Qwen-Qwen2.5-7B-Instruct.jinja (the instructions), google-gemma-2-2b-it.jinja,
// microsoft-Phi-3.5-mini-instruct.jinja (in node-llama-cpp's llama/gitRelease.bundle); Inspect's tool emulation
// (https://inspect.aisi.org.uk/tools-custom.html, "emulate_tools").
import type { ChatMessage, ToolSchema } from "../llm/index.ts";
import { pyJsonDumps } from "../python/index.ts";
import { toolCallBlocks } from "./tool-call-blocks.ts";
import type { TextDialect } from "./dialect.ts";
import { FORCED_PREFIX, hermesReply } from "./hermes.ts";

/** Qwen2.5's template's tool block, without its ChatML tags: what a Hermes-style model is told. */
export function hermesToolInstructions(tools: readonly ToolSchema[]): string {
  return (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n" +
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>" +
    tools.map((t) => `\n${pyJsonDumps(t)}`).join("") +
    "\n</tools>\n\nFor each function call, return a json object with function name and arguments within " +
    '<tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n' +
    "</tool_call>"
  );
}

/** What a template that refuses a system role says (Gemma 2's). */
const NO_SYSTEM_ROLE = "System role not supported";

export function emulatedDialect(options: { readonly systemInUser: boolean }): TextDialect<"emulated"> {
  return {
    format: "emulated",
    describe: "tools described in the system prompt, for templates without",
    exampleReply: hermesReply,
    family: "hermes",
    // A template that takes tools some other way is no template without them: detection then refuses to guess.
    detect: (template) =>
      /\btools\b/.test(template)
        ? undefined
        : `the template takes no tools${template.includes(NO_SYSTEM_ROLE) ? " and no system role" : ""}`,
    forTemplate: (template) => emulatedDialect({ systemInUser: template.includes(NO_SYSTEM_ROLE) }),
    findCalls: toolCallBlocks,
    argumentsKey: "arguments",
    forced: { prefix: FORCED_PREFIX },
    keepTokens: [],
    templateTools: false,
    openingMessages: (system, question, tools) => {
      const full = `${system}\n\n${hermesToolInstructions(tools)}`;
      return options.systemInUser
        ? [{ role: "user", content: `${full}\n\n${question}` }]
        : [
            { role: "system", content: full },
            { role: "user", content: question },
          ];
    },
    turnMessages: (reply, calls): ChatMessage[] => [
      { role: "assistant", content: reply },
      { role: "user", content: calls.map((c) => `<tool_response>\n${c.result}\n</tool_response>`).join("\n") },
    ],
    looksLikeCall: (text) => text.includes("<tool_call>"),
  };
}

export const emulated = emulatedDialect({ systemInUser: false });
