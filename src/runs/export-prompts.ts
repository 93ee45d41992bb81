// What a finished run sent: every logged call's prompt, rendered as its runtime rendered it, for replaying the
// run's calls against a server elsewhere (export-prompts).
import path from "node:path";
import { DEFAULT_WORDING, DEFAULT_WORDING_ID, loggedCallRequest } from "../designs/index.ts";
import type { ChatRuntime, GenerateRequest, LoadedModel } from "../llm/index.ts";
import { UserError } from "../common/index.ts";
import { describeRunIdentity } from "./answer-log.ts";
import type { AnswerRecord } from "./answer-types.ts";
import { MANIFEST_FILE, type RunManifest } from "./manifest.ts";
import { modelOpener } from "./open-model.ts";
import { recordedEntry, runRecipe, type RunRecipe } from "./recipe.ts";
import { settingsFromFields } from "./settings.ts";

/** One line of the export: what a server is sent for one call, and where in the run it was made. */
export interface ExportedPrompt {
  readonly model: string;
  readonly design: string;
  readonly question_id: string;
  /** The run's wording, where it is not the study's. */
  readonly wording?: string;
  /** The run's sample, where it is not the first. */
  readonly sample?: number;
  /** The call's place in its run's transcript, from 1. */
  readonly call: number;
  readonly prompt: string;
  readonly max_tokens: number;
}

/**
 * The logged calls' prompts of a run folder's `records` (the log's, or one model's of it), in plan order (the log's,
 * then each transcript's). Each call's request is rebuilt as its design made it (loggedCallRequest) and goes through
 * the run's recipe, the wrappers the runner puts around a runtime (the run's max new tokens, the thinking switch),
 * to the model's own renderer, the one the in-process and completions-mode runtimes call. Only each model's
 * tokenizer and template are loaded, never its weights.
 */
export async function renderLoggedPrompts(options: {
  readonly dir: string;
  readonly manifest: RunManifest;
  readonly records: readonly AnswerRecord[];
  /** A run made on a server: the server to ask for the template, instead of the URL its manifest records. */
  readonly server?: string | undefined;
  readonly cacheDir: string;
  readonly onProgress?: ((line: string) => void) | undefined;
}): Promise<ExportedPrompt[]> {
  const { manifest, records } = options;
  const manifestFile = path.join(options.dir, MANIFEST_FILE);
  const asRun = settingsFromFields(manifest.settings);
  if (options.server !== undefined && asRun.server === undefined)
    throw new UserError(
      `--server: ${manifestFile} records no server: the run was made in process, and its prompts are rendered ` +
        "with its model files here; leave out --server",
    );
  const settings = options.server !== undefined ? { ...asRun, server: options.server } : asRun;
  const unreachableHint = serverHint(settings.server, options.server !== undefined, manifestFile, settings.apiKeyEnv);
  const wordings = manifest.wordings?.texts ?? [DEFAULT_WORDING];
  const open = modelOpener(settings, {
    cacheDir: options.cacheDir,
    vocabOnly: true,
    requests: { timeoutSeconds: 60, retries: 2 },
    ...(unreachableHint !== undefined ? { unreachableHint } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const out: ExportedPrompt[] = [];
  for (const model of new Set(records.map((r) => r.model))) {
    const loaded = await open(model);
    try {
      const recorded = manifest.models.find((m) => m.id === model);
      if (recorded !== undefined && recorded.chatTemplateSha256 !== loaded.template.sha256)
        throw new UserError(
          `${model}: its chat template (sha256 ${loaded.template.sha256}) is not the one the run used ` +
            `(${recorded.chatTemplateSha256}): the prompts would not be the ones sent`,
        );
      const runs = records.filter((r) => r.model === model);
      const recipe = runRecipe(loaded, {
        settings,
        entry: recordedEntry(recorded),
        designs: [...new Set(runs.map((r) => r.design))],
      });
      const render = renderer(loaded, recipe, settings.maxNewTokens);
      for (const record of runs) {
        const wording = wordings.find((w) => w.id === (record.wording ?? DEFAULT_WORDING_ID));
        if (wording === undefined)
          throw new UserError(
            `${describeRunIdentity(record)} ran under wording ${record.wording}, which ${manifestFile} lacks`,
          );
        for (const [i, call] of record.transcript.calls.entries())
          out.push({
            ...where(record),
            call: i + 1,
            ...(await render(loggedCallRequest(call, recipe.dialect, wording), record.seed)),
          });
      }
    } finally {
      await loaded.dispose();
    }
  }
  return out;
}

/**
 * What to check when the server does not answer. Its URL came from the manifest unless --server gave one, and a
 * user who never typed it needs to be told where it came from, and how to give the address the server has now.
 */
function serverHint(
  url: string | undefined,
  given: boolean,
  manifestFile: string,
  apiKeyEnv: string | undefined,
): string | undefined {
  if (url === undefined) return undefined;
  const key =
    apiKeyEnv !== undefined ? `, and that ${apiKeyEnv} holds its key (the variable the run read it from)` : "";
  return given
    ? `check --server (a base URL such as http://127.0.0.1:8080/v1), that the server is running${key}`
    : `that URL was read from ${manifestFile} (settings.server, where the run's server was): start the server ` +
        `there, or give the address it has now with --server URL${key}`;
}

/** The prompt and token cap a request reaches the runtime with, through the recipe's wrappers. */
function renderer(
  loaded: LoadedModel,
  recipe: RunRecipe,
  maxNewTokens: number,
): (request: GenerateRequest, seed: number | undefined) => Promise<{ prompt: string; max_tokens: number }> {
  let seen: GenerateRequest | undefined;
  const capture: ChatRuntime = {
    generate: async (request) => {
      seen = request;
      return {
        prompt: "",
        text: "",
        record: { tokensRead: 0, tokensEvaluated: 0, tokensGenerated: 0, seconds: 0, stopReason: "eos" },
      };
    },
  };
  return async (request, seed) => {
    await recipe.runtime(capture, seed).generate(request);
    const sent = seen!;
    return { prompt: loaded.renderPrompt(sent), max_tokens: sent.maxTokens ?? maxNewTokens };
  };
}

function where(record: AnswerRecord): Pick<ExportedPrompt, "model" | "design" | "question_id" | "wording" | "sample"> {
  return {
    model: record.model,
    design: record.design,
    question_id: record.question_id,
    ...(record.wording !== undefined && record.wording !== DEFAULT_WORDING_ID ? { wording: record.wording } : {}),
    ...(record.sample !== undefined && record.sample !== 0 ? { sample: record.sample } : {}),
  };
}
