// Sizing a real model's context by node-llama-cpp's own estimate: the trained length where memory allows, the most
// that fits where it does not (as beside a 3B's weights on an 8 GB GPU), and one line naming a size where none fits.
import { test } from "node:test";
import assert from "node:assert/strict";
import { getLlama } from "node-llama-cpp";
import { UserError } from "../../src/common/errors.ts";
import { CONTEXT_FLOOR, fitContextSize } from "../../src/llm/context-fit.ts";
import { tinyModelPath } from "../helpers/tiny-model.ts";

const MiB = 2 ** 20;

test("auto fits the context to its share of the memory: the trained length, the most that fits, or one line", async () => {
  const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never });
  const model = await llama.loadModel({ modelPath: await tinyModelPath(), gpuLayers: 0 });
  try {
    const ram = await llama.getRamState();
    const free = ram.total - ram.wired;
    const cap = model.trainContextSize;
    // Contexts opened side by side each get their share of what is free: this many leave each about `share` bytes.
    const fit = (share: number) =>
      fitContextSize(llama, model, {
        setting: "auto",
        floor: CONTEXT_FLOOR,
        sequences: 1,
        contexts: Math.max(1, Math.floor(free / share)),
        label: "tiny-seed1.gguf",
      });

    const roomy = await fit(free);
    assert.equal(roomy.size, cap, "the trained length, with all the memory");
    assert.match(roomy.fit.reason, /^auto: the model's trained length, which fits the [\d.]+ GiB of RAM free$/);

    // The tiny model's 32,768-token context takes about 0.6 GiB by node-llama-cpp's estimate: shares from 100 MiB to
    // 1,020 MiB go from no context at all, through a context memory sets, to the trained length.
    const seen: string[] = [];
    let between = 0;
    let refused = 0;
    for (let share = 100 * MiB; share <= 1020 * MiB; share += 20 * MiB) {
      try {
        const { size, fit: how } = await fit(share);
        seen.push(`${Math.round(share / MiB)}:${size}`);
        assert.ok(size >= CONTEXT_FLOOR && size <= cap, `${size} tokens in ${share / MiB} MiB`);
        assert.deepEqual([how.setting, how.floor, how.cap], ["auto", CONTEXT_FLOOR, cap]);
        if (size < cap) {
          between++;
          assert.match(
            how.reason,
            /^auto: the most that fits the \d+ MiB of RAM free beside the weights \(trained length 32,768; the run's calls need 4,096\)$/,
          );
        } else
          assert.match(
            how.reason,
            /^auto: the model's trained length, which fits the (\d+ MiB|[\d.]+ GiB) of RAM free$/,
          );
      } catch (e) {
        assert.ok(e instanceof UserError, String(e));
        seen.push(`${Math.round(share / MiB)}:none`);
        assert.match(
          e.message,
          /^model tiny-seed1\.gguf: no context of the 4,096 tokens its runs need fits the \d+ MiB of RAM free beside its weights; (no context fits at all|the largest that fits is --context-size \d+ )/,
        );
        const largest = /--context-size (\d+)/.exec(e.message)?.[1];
        if (largest !== undefined) {
          refused++;
          assert.ok(Number(largest) >= 256 && Number(largest) < CONTEXT_FLOOR, e.message);
        }
      }
    }
    assert.ok(between > 0, `no share fitted a context between the floor and the trained length: ${seen.join(" ")}`);
    assert.ok(refused > 0, `no share was refused naming a smaller size: ${seen.join(" ")}`);
    assert.ok(seen.at(-1)?.endsWith(`:${cap}`), `1 GiB each holds the trained length: ${seen.join(" ")}`);
    console.log(
      `# MiB each:tokens fitted, below the trained length: ${seen.filter((s) => !s.endsWith(`:${cap}`)).join(" ")}`,
    );
  } finally {
    await model.dispose();
    await llama.dispose();
  }
});
