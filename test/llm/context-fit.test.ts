// The context's sizing in words: why a fitted size was chosen, the line when none fits, a model split over GPU and CPU.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  fitReason,
  formatBytes,
  noFitMessage,
  parseContextSize,
  partialOffloadNote,
  trainedCap,
} from "../../src/llm/context-fit.ts";

const GiB = 2 ** 30;

test("--context-size reads auto or a number; a word is refused naming the flag", () => {
  assert.equal(parseContextSize("auto"), "auto");
  assert.equal(parseContextSize(4096), 4096);
  assert.equal(parseContextSize("8192"), 8192);
  assert.throws(() => parseContextSize("big"), /--context-size must be auto or a whole number of tokens, got "big"/);
  assert.throws(() => parseContextSize([4096, 8192]), /--context-size must be auto/);
});

test("a fitted size says whether the trained length fit or memory set it", () => {
  const fit = { floor: 4096, cap: 32768 };
  assert.equal(
    fitReason(32768, fit, { where: "RAM", free: 23.5 * GiB }),
    "auto: the model's trained length, which fits the 23.5 GiB of RAM free",
  );
  assert.equal(
    fitReason(13824, fit, { where: "VRAM", free: 1.2 * GiB }),
    "auto: the most that fits the 1.2 GiB of VRAM free beside the weights (trained length 32,768; the run's calls need 4,096)",
  );
  assert.equal(trainedCap(0), 32768, "a GGUF that states no trained length");
  assert.equal(trainedCap(131072), 131072);
  assert.deepEqual([512 * 2 ** 20, 1.5 * GiB].map(formatBytes), ["512 MiB", "1.5 GiB"]);
});

test("when no context fits, one line names the largest size that does and a smaller --quant", () => {
  const line = noFitMessage({
    label: "qwen2.5-3b-instruct-fp16-00001-of-00002.gguf",
    setting: "auto",
    needed: 4096,
    largest: 2816,
    place: { where: "VRAM", free: 0.3 * GiB },
    fullPrecision: true,
  });
  assert.equal(
    line,
    "model qwen2.5-3b-instruct-fp16-00001-of-00002.gguf: no context of the 4,096 tokens its runs need fits the " +
      "307 MiB of VRAM free beside its weights; the largest that fits is --context-size 2816 (a prompt longer than " +
      "that fails and is counted apart), or --quant q8_0 / --quant q4_k_m takes smaller weights; --no-gpu runs it " +
      "from RAM. Nothing logged is lost: run again with one of these to go on",
  );
  assert.ok(!line.includes("\n"), "one line");
  const none = noFitMessage({
    label: "m.gguf",
    setting: 65536,
    needed: 65536,
    largest: undefined,
    place: { where: "RAM", free: 0.1 * GiB },
    fullPrecision: false,
  });
  assert.match(
    none,
    /^model m\.gguf: --context-size 65536 does not fit the 102 MiB of RAM free beside its weights; no context fits at all\. /,
  );
  assert.ok(!none.includes("--quant"), "a quantized file gets no --quant advice");
});

test("a model split over the GPU and the CPU says how many layers each holds and what it costs", () => {
  assert.equal(partialOffloadNote("m.gguf", 37, 37, GiB), undefined, "all on the GPU");
  assert.equal(partialOffloadNote("m.gguf", 0, 37, GiB), undefined, "none: the backend line says so");
  const note = partialOffloadNote("m.gguf", 28, 37, 0.4 * GiB);
  assert.match(
    note ?? "",
    /^model m\.gguf: only 28 of its 37 layers fit on the GPU \(410 MiB of VRAM free\); the other 9 run on the CPU/,
  );
  assert.match(note ?? "", /\(24% of the layers\)/);
});
