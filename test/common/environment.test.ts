// The environment a command line run in process was given reaches the stages that read variables, call by call.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { environment, hubEndpoint, hubToken, withEnvironment } from "../../src/common/index.ts";
import { readApiKey } from "../../src/llm/server-model.ts";

test("outside any call the process's variables are read", () => {
  assert.equal(environment(), process.env);
});

test("two calls at once each read their own hub, token and API key through every await", async () => {
  const call = (n: number) =>
    withEnvironment({ HF_ENDPOINT: `http://127.0.0.1:${n}/`, HF_TOKEN: `hf_${n}`, KEY: `sk-${n}` }, async () => {
      await sleep(n === 1 ? 20 : 1);
      return [hubEndpoint(), hubToken(), readApiKey("KEY")];
    });
  assert.deepEqual(await Promise.all([call(1), call(2)]), [
    ["http://127.0.0.1:1", "hf_1", "sk-1"],
    ["http://127.0.0.1:2", "hf_2", "sk-2"],
  ]);
  assert.throws(() => withEnvironment({}, () => readApiKey("KEY")), /--api-key-env KEY: that variable is not set/);
});
