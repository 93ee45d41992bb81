// Runs fixed greedy calls on the tiny model and prints, as JSON, the llama.cpp binary that ran them and their texts and
// token counts (for cross-process checks).
import { loadModel } from "../../src/llm/index.ts";
import { testCacheDir, tinyModelPath } from "./tiny-model.ts";
import { GREEDY_REQUESTS } from "./greedy-requests.ts";

const model = await loadModel(await tinyModelPath(), {
  cacheDir: testCacheDir,
  gpu: false,
  threads: 1,
  contextSize: 2048,
});
const [runtime] = await model.openRuntimes(1, { reuseCache: false });
const out = [];
for (const request of GREEDY_REQUESTS) {
  const { text, record } = await runtime!.generate(request);
  out.push({
    text,
    tokensRead: record.tokensRead,
    tokensGenerated: record.tokensGenerated,
    stopReason: record.stopReason,
  });
}
await model.dispose();
process.stdout.write(JSON.stringify({ binary: model.info.binary, outputs: out }));
