// npm run context-memory: what a context of each size costs in memory, as llama.cpp itself reports it (its KV
// buffer and its compute buffer, flash attention off as blogqa runs it), on random-weight GGUFs of the study's
// two shapes; the weights do not change either buffer. Writes each model (3.6 and 6.2 GB) to a temp folder.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { getLlama, LlamaLogLevel } from "node-llama-cpp";
import { ensureTinyModel } from "../src/test-models/index.ts";

const SIZES = [4096, 16384, 32768, 53248];
const COMPUTE = /CPU compute buffer size =\s+([\d.]+) MiB/;
const lines: string[] = [];
const llama = await getLlama({
  gpu: false,
  logLevel: LlamaLogLevel.debug,
  logger: (_level, message) => lines.push(message),
});
const dir = mkdtempSync(path.join(os.tmpdir(), "blogqa-context-memory-"));
const mib = (pattern: RegExp) => {
  const found = lines.map((l) => pattern.exec(l)?.[1]).filter((x) => x !== undefined);
  return Number(found.at(-1));
};
try {
  console.log("| model | context | KV buffer (MiB) | compute buffer (MiB) | both (MiB) |\n|---|---:|---:|---:|---:|");
  for (const shape of ["qwen2.5-1.5b", "qwen2.5-3b"] as const) {
    const file = path.join(dir, `${shape}.gguf`);
    await ensureTinyModel({ out: file, shape, seed: 1, cacheDir: dir });
    const model = await llama.loadModel({ modelPath: file });
    for (const contextSize of SIZES) {
      lines.length = 0;
      const context = await model.createContext({ contextSize, sequences: 1, flashAttention: false });
      // llama.cpp's log lines reach the logger asynchronously: wait for the compute buffer's
      for (let waited = 0; waited < 5000 && !lines.some((l) => COMPUTE.test(l)); waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const kv = mib(/CPU KV buffer size =\s+([\d.]+) MiB/);
      const compute = mib(COMPUTE);
      console.log(
        `| ${shape} | ${contextSize} | ${kv.toFixed(0)} | ${compute.toFixed(0)} | ${(kv + compute).toFixed(0)} |`,
      );
      await context.dispose();
    }
    await model.dispose();
    rmSync(file);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
