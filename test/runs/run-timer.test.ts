// A run's clock: the whole run's estimate at the first model's warm-up, the CPU's warning, and each run's pace.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { LoadedModel } from "../../src/llm/index.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import { runTimer } from "../../src/runs/run-timer.ts";

/** A loaded model of `bytes` on `backend` whose warm-up measures 1,000 prompt and 10 decode tokens a second. */
function loaded(bytes: number, backend: string): LoadedModel {
  const speed = { promptTokens: 256, promptTokensPerSecond: 1000, decodeTokens: 16, decodeTokensPerSecond: 10 };
  return {
    info: { files: [{ path: "m.gguf", bytes }], backend },
    measureSpeed: async () => speed,
  } as unknown as LoadedModel;
}

/** 120 workflow runs still to do for every model. */
const pendingOf = () => [{ design: "workflow" as const, samples: Array.from({ length: 120 }, (_, i) => i) }];
const record = (seconds: number, tokens: number) =>
  ({ seconds, tokens_read: tokens - 100, tokens_generated: 100 }) as AnswerRecord;

test("the first warm-up estimates the whole run, later models scaled by their files, and warns of hours on the CPU", async () => {
  for (const backend of ["cpu", "cuda"]) {
    const lines: string[] = [];
    const models = ["a.gguf", "b.gguf"];
    const timer = runTimer({ models, modelBytes: (m) => (m === "b.gguf" ? 2e9 : 1e9) }, 200, pendingOf, (l) =>
      lines.push(l),
    );
    await timer.warmUp("a.gguf", loaded(1e9, backend));
    // A workflow run: 427 prompt tokens at 1,000/s and a 200-token reply at 10/s, 20.427 s; 120 of them are
    // 2,451 s, and b.gguf's file is twice a.gguf's: 4,902 s more, 7,354 s in all.
    assert.deepEqual(lines.slice(0, 2), [
      "warm-up on a.gguf: prompt 1,000 tokens/s, decode 10.0 tokens/s (a 256-token prompt, 16 new tokens)",
      "estimate: the 120 runs of a.gguf at most 40m 51s, the whole run (2 models, 240 runs) at most 2h 02m " +
        "(calls and tokens read per run from the study's published figures per design (docs/the-study.md), each " +
        "reply at --max-new-tokens; the models after it scaled by the size of their files)",
    ]);
    if (backend === "cpu")
      assert.match(lines[2] ?? "", /^note: this run is on the CPU and will take hours: at most 2h 02m /);
    else assert.equal(lines.length, 2, "no warning off the CPU");

    // One run of a.gguf logged after 100 s: its pace, and the time left here (119 more) and in b.gguf's estimate.
    assert.equal(
      timer.ran("a.gguf", record(100, 1000), 1, 120),
      "; 10 tokens/s read and written, about 4h 40m left in all (later models estimated)",
    );
    // The last model measures its own speed and says its own estimate; its pace has no later model to add.
    lines.length = 0;
    await timer.warmUp("b.gguf", loaded(2e9, backend));
    assert.match(lines[1] ?? "", /^estimate: the 120 runs of b\.gguf at most 40m 51s \(calls and tokens/);
    assert.equal(lines.length, 2, "no second warning");
    assert.equal(timer.ran("b.gguf", record(50, 1000), 1, 120), "; 20 tokens/s read and written");
  }
});

test("a model that cannot measure its speed (a server's) says no estimate", async () => {
  const lines: string[] = [];
  const timer = runTimer({ models: ["server"] }, 200, pendingOf, (l) => lines.push(l));
  await timer.warmUp("server", { info: { files: [], backend: "server" } } as unknown as LoadedModel);
  assert.deepEqual(lines, []);
  assert.equal(timer.ran("server", record(10, 500), 1, 120), "; 50 tokens/s read and written");
});
