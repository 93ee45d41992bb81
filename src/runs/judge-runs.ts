// rescore --judge's loop: asks a model on an OpenAI-compatible server about each answer of a run folder whose
// question has key facts, and logs each exchange to judgments.jsonl as it comes back, as the runner logs each run.
// What it asks and how a reply is read (the rubric) are scoring's, handed in by the command: scoring reads runs, so
// runs cannot read it.
import type { Corpus } from "../corpus/index.ts";
import { UserError } from "../common/index.ts";
import { openChatEndpoint } from "../llm/index.ts";
import { describeRunIdentity } from "./answer-log.ts";
import { goldHeadingsOf, goldPostsOf, type AnswerRecord } from "./answer-types.ts";
import { judgedRun, openJudgmentLog, type JudgeRequest, type JudgeVerdict, type Judgment } from "./judgment-log.ts";
import { blogqaVersion, type RunManifest } from "./manifest.ts";
import { checkReading, readingSha256 } from "./blog-reading.ts";
import { openRunInputs } from "./run-inputs.ts";

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

export interface JudgeOptions {
  /** The judge's OpenAI-compatible base URL (--judge). */
  readonly url: string;
  /** Its model id (--judge-model). */
  readonly model: string;
  readonly apiKeyEnv?: string | undefined;
  readonly retries: number;
  /** Seconds one request may take (--judge-timeout). */
  readonly timeoutSeconds: number;
  /** The blog to take the gold sections' text from (--content); default the one the manifest records. */
  readonly content?: string | undefined;
  readonly force: boolean;
  /** Judge a folder another blogqa read the blog for otherwise, against this blogqa's reading of its gold text. */
  readonly acceptNewReading?: boolean;
  readonly onProgress: (line: string) => void;
}

/**
 * Judges every run of `folder` that is judgeable and not judged yet, one at a time, appending each judgment as it
 * comes back; returns the folder's judgments. Every gold section is looked up before the first request. A reply that
 * is not an answer (no connection, an HTTP error after the retries, a body that is not a chat completion) stops with
 * one line naming the URL; what was judged before it stays in judgments.jsonl, and the same command resumes.
 */
export async function judgeRunFolder(
  folder: JudgedFolder,
  rubric: JudgeRubric,
  options: JudgeOptions,
): Promise<readonly Judgment[]> {
  const flags = { url: "--judge", apiKeyEnv: "--judge-api-key-env" };
  const endpoint = openChatEndpoint({
    url: options.url,
    apiKeyEnv: options.apiKeyEnv,
    timeoutSeconds: options.timeoutSeconds,
    retries: options.retries,
    flags,
    onRetry: (m) => options.onProgress(`judge: ${m}`),
  });
  const runs = folder.records.filter(judgeable);
  if (runs.length === 0)
    throw new UserError(
      `rescore --judge: no run of ${folder.dir} has a question with key facts (the questions' "facts"), so there is ` +
        "nothing to compare the judge with; see docs/answers-and-evidence.md",
    );
  const gold = goldTexts(runs, await judgedBlog(folder, options));
  const log = openJudgmentLog(folder.dir, folder.records, options.model, options.onProgress);
  const pending = runs.filter((r) => !log.has(r));
  options.onProgress(
    `judging ${pending.length} runs with ${options.model} at ${endpoint.url}` +
      (pending.length < runs.length ? ` (${runs.length - pending.length} judged before)` : ""),
  );
  let judged = 0;
  let unparsed = 0;
  try {
    for (const r of pending) {
      const request = rubric.request(options.model, r, gold.get(r)!);
      const started = performance.now();
      const reply = await endpoint.chat(request);
      if (reply.kind === "failed") {
        const kept = log.judgments().length;
        throw new UserError(
          `rescore --judge: the judge at ${endpoint.url} ${reply.message} (judging ${describeRunIdentity(r)}). ` +
            `The ${kept} judgment${kept === 1 ? " is" : "s are"} kept in ${log.file}: run the same command again to resume.`,
        );
      }
      const verdict = rubric.verdict(reply.text);
      log.append({
        ...judgedRun(r),
        judge_model: options.model,
        judge_url: endpoint.url,
        request,
        reply: reply.text,
        response: reply.json,
        verdict,
        seconds: Math.round(performance.now() - started) / 1000,
      });
      judged++;
      if (verdict === "unparsed") unparsed++;
    }
  } finally {
    log.close();
  }
  options.onProgress(`judged ${judged} runs, ${unparsed} of them unparsed, in ${log.file}`);
  return log.judgments();
}

/**
 * The blog whose sections the gold text comes from: --content (checked against the manifest when the folder was read),
 * else the folder the manifest records, refused when its posts are no longer the ones the run searched.
 */
async function judgedBlog(folder: JudgedFolder, options: JudgeOptions): Promise<Corpus> {
  const from = { manifest: folder.manifest };
  if (options.content !== undefined) {
    const { corpus } = await openRunInputs(from, { content: options.content });
    checkJudgedReading(folder, corpus, options);
    return corpus;
  }
  const recorded = folder.manifest?.corpus;
  if (recorded === undefined)
    throw new UserError(`rescore --judge: ${folder.dir} has no manifest.json: name the run's blog with --content DIR`);
  const hint = `name the blog the run searched with --content DIR`;
  let corpus: Corpus;
  try {
    ({ corpus } = await openRunInputs(from, { content: recorded.dir }));
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
