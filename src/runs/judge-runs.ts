// rescore --judge's loop: asks a judge model about each answer of a run folder whose question has key facts, and logs
// each exchange to judgments.jsonl as it comes back, as the runner logs each run. The judge's model is opened as any
// run's (open-model.ts): in this process from a model file, or on an OpenAI-compatible server in chat mode.
// What it asks and how a reply is read (the rubric) are scoring's, handed in by the command: scoring reads runs, so
// runs cannot read it.
import type { Corpus } from "../corpus/index.ts";
import { UserError } from "../common/index.ts";
import { callFailure, type GenerateRequest, type LoadedModel } from "../llm/index.ts";
import { describeRunIdentity } from "./answer-log.ts";
import { goldHeadingsOf, goldPostsOf, type AnswerRecord } from "./answer-types.ts";
import {
  judgedRun,
  judgeRequestSchema,
  openJudgmentLog,
  type JudgeRequest,
  type JudgeVerdict,
  type Judgment,
  type JudgmentWriter,
} from "./judgment-log.ts";
import { blogqaVersion, type RunManifest } from "./manifest.ts";
import { checkReading, readingSha256 } from "./blog-reading.ts";
import { openRunInputs } from "./run-inputs.ts";
import { modelOpener } from "./open-model.ts";
import { defaultSettings, type RunSettings } from "./settings.ts";

/** A gold section of the question: its post, its heading and its text as the blog's sections hold it. */
export interface GoldSection {
  readonly post: string;
  readonly heading: string;
  readonly text: string;
}

/** The runs the judge is asked about: answered (not a call error) and of a question with key facts to compare with. */
export function judgeable(r: AnswerRecord): boolean {
  return r.outcome !== "error" && r.facts !== undefined && r.facts.length > 0;
}

/** The (post, heading) pairs of the question's gold sections, for the caller to find their text. */
export function goldSectionsOf(r: AnswerRecord): readonly { readonly post: string; readonly heading: string }[] {
  const headings = goldHeadingsOf(r);
  return goldPostsOf(r).map((post, i) => ({ post, heading: headings[i]! }));
}

/** What the judge is asked about one answer, and the verdict its reply gives (src/scoring/judge.ts). */
export interface JudgeRubric {
  request(judgeModel: string, run: AnswerRecord, gold: readonly GoldSection[]): JudgeRequest;
  verdict(reply: string | null): JudgeVerdict;
}

/** The run folder the judge reads: its log and manifest. */
export interface JudgedFolder {
  readonly dir: string;
  readonly records: readonly AnswerRecord[];
  readonly manifest: RunManifest | undefined;
}

/** Seconds one judge request may take: a verdict is a few tokens, but a small CPU server reads a long prompt slowly. */
export const JUDGE_TIMEOUT_SECONDS = 300;

/** The judge's OpenAI-compatible server (--judge and the flags beside it). */
export interface JudgeServer {
  /** Its base URL (--judge). */
  readonly url: string;
  readonly apiKeyEnv?: string | undefined;
  readonly retries: number;
  /** Seconds one request may take (--judge-timeout). */
  readonly timeoutSeconds: number;
}

export interface JudgeOptions {
  /** The judge's model (--judge-model): the server's model id, or without a server a model file or hf: URI. */
  readonly model: string;
  /** Where the judge runs; undefined: in this process. */
  readonly server?: JudgeServer | undefined;
  /** Where an in-process judge's model file is downloaded to (--cache-dir). */
  readonly cacheDir: string;
  /** The blog to take the gold sections' text from (--content); default the one the manifest records. */
  readonly content?: string | undefined;
  readonly force: boolean;
  /** Judge a folder another blogqa read the blog for otherwise, against this blogqa's reading of its gold text. */
  readonly acceptNewReading?: boolean;
  readonly onProgress: (line: string) => void;
}

/**
 * Judges every run of `folder` that is judgeable and not judged yet, one at a time, appending each judgment as it
 * comes back; returns the folder's judgments. Every gold section is looked up before the model is opened. A call
 * that brings no reply (no server, an HTTP error after the retries, an answer that is not a chat completion, a prompt
 * past the context) stops with one line naming the judge; what was judged before it stays in judgments.jsonl, and the
 * same command resumes. A reply that is not a verdict is logged as unparsed.
 */
export async function judgeRunFolder(
  folder: JudgedFolder,
  rubric: JudgeRubric,
  options: JudgeOptions,
): Promise<readonly Judgment[]> {
  const runs = folder.records.filter(judgeable);
  if (runs.length === 0)
    throw new UserError(
      `rescore --judge: no run of ${folder.dir} has a question with key facts (the questions' "facts"), so there is ` +
        "nothing to compare the judge with; see docs/answers-and-evidence.md",
    );
  const gold = goldTexts(runs, await judgedBlog(folder, options));
  const log = openJudgmentLog(folder.dir, folder.records, options.model, options.onProgress);
  const pending = runs.filter((r) => !log.has(r));
  const before = pending.length < runs.length ? ` (${runs.length - pending.length} judged before)` : "";
  let model: LoadedModel | undefined;
  let judged = 0;
  let unparsed = 0;
  try {
    if (pending.length === 0) options.onProgress(`judging 0 runs with ${options.model}${before}`);
    else {
      model = await openJudge(options).catch((error: unknown) => {
        throw stopped(log, error, "");
      });
      const url = model.info.server?.url ?? null;
      const where = url !== null ? `at ${url}` : "in this process";
      options.onProgress(`judging ${pending.length} runs with ${options.model} ${where}${before}`);
      const [runtime] = await model.openRuntimes(1, { reuseCache: true });
      for (const r of pending) {
        const request = rubric.request(options.model, r, gold.get(r)!);
        const started = performance.now();
        const during = ` (judging ${describeRunIdentity(r)})`;
        const generation = await runtime!.generate(judgeGeneration(request)).catch((error: unknown) => {
          throw stopped(log, error, during);
        });
        const failure = callFailure(generation.record);
        if (failure !== undefined) throw stopped(log, `the judge ${where} failed: ${failure}`, during);
        const verdict = rubric.verdict(generation.text);
        log.append({
          ...judgedRun(r),
          judge_model: options.model,
          judge_url: url,
          // a server's body as it went out (the request's fields and the runtime's); in process, the request itself
          request: generation.sent !== undefined ? judgeRequestSchema.parse(generation.sent) : request,
          ...(url === null ? { prompt: generation.prompt } : {}),
          reply: generation.text,
          response: generation.record.response ?? null,
          verdict,
          seconds: Math.round(performance.now() - started) / 1000,
        });
        judged++;
        if (verdict === "unparsed") unparsed++;
      }
    }
  } finally {
    log.close();
    await model?.dispose();
  }
  options.onProgress(`judged ${judged} runs, ${unparsed} of them unparsed, in ${log.file}`);
  return log.judgments();
}

/**
 * Opens the judge's model through the runs' opener, under the run defaults but for its decoding: greedy with no
 * repetition penalty. A server takes it in chat mode and renders the messages with its own template, as for any API
 * user; an in-process model renders them with its GGUF's.
 */
function openJudge(options: JudgeOptions): Promise<LoadedModel> {
  const server = options.server;
  const settings: RunSettings = defaultSettings({
    repetitionPenalty: "none",
    ...(server !== undefined
      ? {
          server: server.url,
          serverMode: "chat",
          ...(server.apiKeyEnv !== undefined ? { apiKeyEnv: server.apiKeyEnv } : {}),
        }
      : {}),
  });
  const open = modelOpener(settings, {
    cacheDir: options.cacheDir,
    ...(server !== undefined
      ? {
          requests: { timeoutSeconds: server.timeoutSeconds, retries: server.retries },
          unreachableHint:
            "check --judge (a base URL such as http://127.0.0.1:8080/v1), that the server is running, and " +
            "--judge-api-key-env if it needs a key",
          flags: { url: "--judge", apiKeyEnv: "--judge-api-key-env", model: "--judge-model" },
        }
      : {}),
    onProgress: (line) => options.onProgress(`judge: ${line}`),
  });
  return open(options.model);
}

/** The judge's request as the runtime takes it: its messages and token cap, decoded greedily (temperature 0). */
function judgeGeneration(request: JudgeRequest): GenerateRequest {
  if (request.temperature !== 0)
    throw new Error(`the judge decodes greedily, not at temperature ${request.temperature}`);
  return { messages: request.messages, maxTokens: request.max_tokens };
}

/**
 * The one line a judge that stopped leaves: `problem` (a message, or an error whose UserError message is one) with
 * what it was judging, and how many judgments are kept for the same command to resume from.
 */
function stopped(log: JudgmentWriter, problem: unknown, during: string): Error {
  if (typeof problem !== "string" && !(problem instanceof UserError)) return problem as Error;
  const text = (typeof problem === "string" ? problem : problem.message).replace(/\.$/, "");
  const kept = log.judgments().length;
  const keptLine =
    kept === 0
      ? ""
      : ` The ${kept} judgment${kept === 1 ? " is" : "s are"} kept in ${log.file}: run the same command again to resume.`;
  return new UserError(`rescore --judge: ${text}${during}.${keptLine}`);
}

/**
 * The blog whose sections the gold text comes from: --content (checked against the manifest when the folder was read),
 * else the folder the manifest records, refused when its posts are no longer the ones the run searched.
 */
async function judgedBlog(folder: JudgedFolder, options: JudgeOptions): Promise<Corpus> {
  const from = { manifest: folder.manifest };
  if (options.content !== undefined) {
    const { corpus } = await openRunInputs(from, { content: options.content, cacheDir: options.cacheDir });
    checkJudgedReading(folder, corpus, options);
    return corpus;
  }
  const recorded = folder.manifest?.corpus;
  if (recorded === undefined)
    throw new UserError(`rescore --judge: ${folder.dir} has no manifest.json: name the run's blog with --content DIR`);
  const hint = `name the blog the run searched with --content DIR`;
  let corpus: Corpus;
  try {
    ({ corpus } = await openRunInputs(from, { content: recorded.dir, cacheDir: options.cacheDir }));
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw new UserError(`rescore --judge needs the gold sections' text from the run's blog: ${error.message}; ${hint}`);
  }
  if (corpus.hash !== recorded.sha256 && !options.force)
    throw new UserError(
      `rescore --judge: the blog at ${recorded.dir} is not the one this run searched (its corpus sha256 is ` +
        `${corpus.hash.slice(0, 12)}, the manifest's ${recorded.sha256.slice(0, 12)}): ${hint}, or add --force`,
    );
  checkJudgedReading(folder, corpus, options);
  return corpus;
}

/**
 * The gold text the judge reads is this blogqa's reading of the posts: refused where the run's model was shown
 * another reading of them, unless asked; a manifest that recorded none is judged with a note.
 */
function checkJudgedReading(folder: JudgedFolder, corpus: Corpus, options: JudgeOptions): void {
  if (folder.manifest === undefined) return;
  const reading = checkReading(folder.dir, folder.manifest, {
    blogqa: blogqaVersion(),
    corpusSha256: corpus.hash,
    sectionsSha256: readingSha256(corpus.sections),
  });
  if (reading.kind === "same") return;
  if (reading.kind === "differs" && !options.acceptNewReading)
    throw new UserError(
      `rescore --judge: ${reading.line}; the judge would read gold text the model never saw. Add ` +
        "--accept-new-reading to judge against this reading anyway",
    );
  options.onProgress(`rescore --judge: note: ${reading.line}; the judge reads the gold text as this blogqa reads it`);
}

/** Each run's gold sections with their text; a gold section the blog lacks is refused before any request. */
function goldTexts(runs: readonly AnswerRecord[], corpus: Corpus): Map<AnswerRecord, readonly GoldSection[]> {
  const sections = new Map(corpus.sections.map((s) => [JSON.stringify([s.post, s.heading]), s.text]));
  return new Map(
    runs.map((r) => [
      r,
      goldSectionsOf(r).map(({ post, heading }) => {
        const text = sections.get(JSON.stringify([post, heading]));
        if (text === undefined)
          throw new UserError(
            `rescore --judge: ${describeRunIdentity(r)}: its gold section "${heading}" of ${post} is not in the blog at ` +
              `${corpus.dir}; name the blog the run searched with --content DIR`,
          );
        return { post, heading, text };
      }),
    ]),
  );
}
