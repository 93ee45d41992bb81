// The schema overhead per tool, on a fake template whose token count is its character count.
import { test } from "node:test";
import assert from "node:assert/strict";
import { toolBlockSize } from "../../src/designs/tool-block.ts";
import { AGENT_TOOLS } from "../../src/designs/tools.ts";
import type { GenerateRequest } from "../../src/llm/index.ts";

const FRAME = "# Tools\n<tools>\n</tools>\n";
const fakeModel = {
  renderPrompt: (r: GenerateRequest) =>
    r.messages.map((m) => m.content).join("\n") +
    (r.tools ? FRAME + r.tools.map((t) => `${JSON.stringify(t)}\n`).join("") : ""),
  countTokens: (text: string) => text.length,
};

test("the block is its frame plus one share per tool: the prompt with every tool minus the prompt without it", () => {
  const size = toolBlockSize(fakeModel, AGENT_TOOLS, [
    { role: "system", content: "S" },
    { role: "user", content: "Q" },
  ]);
  assert.deepEqual(
    size.perTool,
    AGENT_TOOLS.map((t) => ({ name: t.function.name, tokens: JSON.stringify(t).length + 1 })),
  );
  assert.equal(size.frame, FRAME.length);
  assert.equal(size.total, size.frame + size.perTool[0]!.tokens + size.perTool[1]!.tokens);
});
