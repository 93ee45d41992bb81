// A chat template is a program from a file or a server: its render is bounded in steps and in the text it builds, so
// one that never ends, or doubles a string forty times, is an error naming the template, not a hang or a crash.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compileChatTemplate, renderChatPrompt } from "../../src/llm/chat-template.ts";
import { UserError } from "../../src/common/errors.ts";

const REQUEST = { messages: [{ role: "user" as const, content: "Q" }] };

function renderError(source: string): string {
  try {
    renderChatPrompt(compileChatTemplate(source, "loop.jinja"), REQUEST);
  } catch (error) {
    assert.ok(error instanceof UserError);
    return error.message;
  }
  return "rendered";
}

test("a template whose loops do not end in reasonable time stops at the step bound", () => {
  const nested = "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}";
  const exponential = "{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(60) }}";
  for (const source of [nested, exponential]) {
    assert.equal(
      renderError(source),
      "The chat template from loop.jinja failed to render: it took more than 200000 steps (a loop that does not " +
        "end?); a chat template renders a prompt in far fewer",
    );
  }
});

test("a template that builds a text longer than any prompt stops at the length bound", () => {
  const doubling =
    '{% set ns = namespace(s="x") %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}';
  assert.equal(
    renderError(doubling),
    "The chat template from loop.jinja failed to render: it built a text longer than 16777216 characters; " +
      "a chat template renders a prompt in far fewer",
  );
});

test("an ordinary template renders as before, and a later render is not charged for an earlier one", () => {
  const template = compileChatTemplate(
    "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}",
    "plain.jinja",
  );
  for (let i = 0; i < 3; i++) assert.equal(renderChatPrompt(template, REQUEST), "<|im_start|>user\nQ<|im_end|>\n");
});
