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
  assert.equal(
    renderError(exponential),
    "The chat template from loop.jinja failed to render: it took more than 200000 steps (a loop that does not " +
      "end?); a chat template renders a prompt in far fewer",
  );
  // the second inner range asks for more numbers than the steps the first left
  assert.match(
    renderError(nested),
    /^The chat template from loop\.jinja failed to render: range\(\) of 100000 numbers is more than the \d+ steps left of 200000; /,
  );
});

test("range() of more numbers than the steps left is refused before it builds its list", () => {
  // range(1e8) would build 10^8 numbers, exhausting the heap before the loop took its first step
  assert.match(
    renderError("{% for i in range(100000000) %}{% endfor %}"),
    /failed to render: range\(\) of 100000000 numbers is more than the \d+ steps left of 200000; a chat template/,
  );
  // small ranges, two-argument and stepped ones, still render
  const ok = compileChatTemplate(
    "{% for i in range(3) %}{{ i }}{% endfor %}{% for i in range(10, 0, -4) %}{{ i }}{% endfor %}",
    "r.jinja",
  );
  assert.equal(renderChatPrompt(ok, REQUEST), "0121062");
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
