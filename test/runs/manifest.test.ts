// The run manifest: what it records, the model-hash cache, and refusing to resume a folder with other settings.
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Corpus } from "../../src/corpus/types.ts";
import { NO_PENALTY } from "../../src/llm/generation-config.ts";
import type { ModelInfo } from "../../src/llm/types.ts";
import { UserError } from "../../src/common/errors.ts";
import { cachedSha256 } from "../../src/runs/file-sha256.ts";
import {
  largestCallTokens,
  MANIFEST_FILE,
  promptsSha256,
  readManifest,
  type ManifestInputs,
} from "../../src/runs/manifest.ts";
import type { AnswerRecord } from "../../src/runs/answer-types.ts";
import { makeRecord } from "../helpers/answer-records.ts";
import { DESIGNS } from "../../src/designs/registry.ts";
import { defaultSettings, modelEntryFields, settingsForModel, STUDY_MAX_NEW_TOKENS } from "../../src/runs/settings.ts";
import { startManifest } from "../../src/runs/manifest-session.ts";
import { parseWordings } from "../../src/designs/wording.ts";
import { createHash } from "node:crypto";
import { contextFloor } from "../../src/runs/context-floor.ts";
import { CONTEXT_FLOOR } from "../../src/llm/context-fit.ts";

// Known sha256 test vectors (FIPS 180-2 "abc"; `printf 'hello\n' | sha256sum`).
const SHA_ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const SHA_HELLO = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";

function setup() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "blogqa-manifest-"));
  const questionsFile = path.join(dir, "questions.jsonl");
  writeFileSync(questionsFile, "abc");
  const modelFile = path.join(dir, "tiny.gguf");
  writeFileSync(modelFile, "hello\n");
  const corpus: Corpus = {
    dir: "content/posts",
    hash: "c0ffee",
    posts: [
      {
        slug: "kv-cache-inference",
        title: "KV",
        file: "kv.mdx",
        frontmatter: {},
        sections: [],
        emptyHeadings: [],
        attributeProse: [],
        dropped: {},
        foldedHeadings: [],
        siteSyntax: {},
      },
    ],
    sections: [{ post: "kv-cache-inference", heading: "Prefill", level: 2, text: "t" }],
    leftOut: [],
    slugRule: "file-name",
  };
  const settings = defaultSettings({ retriever: "bm25", gpu: false });
  const inputs: ManifestInputs = {
    settings,
    selection: { models: [modelFile], designs: ["workflow", "agent"], limit: 2 },
    questionsFile,
    corpus,
    questionCount: 2,
    embedding: undefined,
  };
  const info: ModelInfo = {
    id: modelFile,
    path: modelFile,
    files: [{ path: modelFile, bytes: 6 }],
    architecture: "qwen2",
    chatTemplateSha256: "t".repeat(64),
    backend: "cpu",
    gpuLayers: 0,
    deviceNames: [],
    nodeLlamaCppVersion: "3.21.1",
    llamaCppRelease: "b1234",
    contextSize: 4096,
    decoding: NO_PENALTY,
    threads: 1,
  };
  const out = path.join(dir, "run");
  return { dir, out, corpus, settings, inputs, info, modelFile, cacheDir: path.join(dir, "cache") };
}

/** A folder one session finished: its manifest written with the model recorded, and one answer line logged. */
async function loggedFolder() {
  const s = setup();
  mkdirSync(s.out);
  const first = startManifest(s.out, s.inputs, { cacheDir: s.cacheDir });
  await first.recordModel(s.info);
  first.finish({ ran: 4, skipped: 0 });
  appendFileSync(path.join(s.out, "answers.jsonl"), "{}\n");
  return s;
}

const times = (...iso: string[]) => {
  const queue = iso.map((t) => new Date(t));
  return () => queue.shift()!;
};

test("the hash cache streams a file once and notices a change", async () => {
  const { modelFile, cacheDir } = setup();
  assert.deepEqual(await cachedSha256(modelFile, cacheDir), {
    path: modelFile,
    bytes: 6,
    sha256: SHA_HELLO,
    cached: false,
  });
  assert.equal((await cachedSha256(modelFile, cacheDir)).cached, true);
  writeFileSync(modelFile, "abc");
  assert.deepEqual(await cachedSha256(modelFile, cacheDir), {
    path: modelFile,
    bytes: 3,
    sha256: SHA_ABC,
    cached: false,
  });
});

test("a session writes the manifest once a model loads, and stamps its end", async () => {
  const s = setup();
  mkdirSync(s.out);
  const writer = startManifest(s.out, s.inputs, {
    cacheDir: s.cacheDir,
    now: times("2025-01-01T10:00:00Z", "2025-01-01T10:05:00Z"),
  });
  assert.equal(readManifest(s.out), undefined, "nothing written before a model loads");
  await writer.recordModel(s.info);
  const running = readManifest(s.out)!;
  assert.equal(running.finished_at, null);
  assert.deepEqual(
    running.models,
    [{ ...s.info, files: [{ path: s.modelFile, bytes: 6, sha256: SHA_HELLO }] }],
    "the model as loaded, with file hashes",
  );
  writer.finish({ ran: 4, skipped: 0 });
  const m = JSON.parse(readFileSync(path.join(s.out, MANIFEST_FILE), "utf8"));
  assert.equal(m.started_at, "2025-01-01T10:00:00.000Z");
  assert.equal(m.finished_at, "2025-01-01T10:05:00.000Z");
  assert.equal(m.questions.sha256, SHA_ABC);
  assert.equal(m.questions.count, 2);
  // the one section as the model reads it: post, heading, text
  const reading = createHash("sha256").update('[["kv-cache-inference","Prefill","t"]]').digest("hex");
  assert.deepEqual(m.corpus, {
    dir: "content/posts",
    sha256: "c0ffee",
    sections_sha256: reading,
    posts: ["kv-cache-inference"],
    sections: 1,
    slug_rule: "file-name",
  });
  assert.equal(m.embedding, null);
  assert.equal(m.settings.embedding_model, null, "bm25 loads no embedding model");
  assert.equal(m.settings.max_new_tokens, 200);
  assert.equal(m.settings.max_turns, 6);
  assert.match(m.settings.prompts_sha256, /^[0-9a-f]{64}$/);
  assert.deepEqual(m.sessions, [
    {
      blogqa: m.blogqa,
      sections_sha256: reading,
      started_at: "2025-01-01T10:00:00.000Z",
      finished_at: "2025-01-01T10:05:00.000Z",
      models: [s.modelFile],
      designs: ["workflow", "agent"],
      limit: 2,
      ran: 4,
      skipped: 0,
    },
  ]);
});

test("resuming checks the settings: same is fine, different is refused unless --fresh", async () => {
  const s = await loggedFolder();
  const inputs = s.inputs;

  // Same settings; more questions and another design are only a bigger selection.
  const again = startManifest(
    s.out,
    { ...inputs, selection: { ...inputs.selection, limit: undefined, designs: ["agent-forced"] } },
    { cacheDir: s.cacheDir },
  );
  await again.recordModel(s.info);
  again.finish({ ran: 2, skipped: 4 });
  const m = readManifest(s.out)!;
  assert.equal(m.sessions.length, 2);
  assert.equal(m.models.length, 1);

  const changed = { ...inputs, settings: { ...s.settings, maxNewTokens: 100, parallel: 4 } };
  assert.throws(
    () => startManifest(s.out, changed, { cacheDir: s.cacheDir }),
    (e: unknown) =>
      e instanceof UserError &&
      /setting parallel: 1 before, 4 now/.test(e.message) &&
      /setting max_new_tokens: 200 before, 100 now/.test(e.message) &&
      /--fresh/.test(e.message),
  );
  assert.throws(
    () => startManifest(s.out, { ...inputs, corpus: { ...s.corpus, hash: "beef" } }, { cacheDir: s.cacheDir }),
    /corpus sha256/,
  );
  assert.doesNotThrow(() => startManifest(s.out, changed, { cacheDir: s.cacheDir, fresh: true }));
  // The embedding model does not matter to bm25.
  assert.doesNotThrow(() =>
    startManifest(s.out, { ...inputs, settings: { ...s.settings, embeddingModel: "other" } }, { cacheDir: s.cacheDir }),
  );

  // The same model name with other weights is refused when it loads.
  writeFileSync(s.modelFile, "abc");
  const swapped = startManifest(s.out, inputs, { cacheDir: s.cacheDir });
  await assert.rejects(
    swapped.recordModel({ ...s.info, files: [{ path: s.modelFile, bytes: 3 }] }),
    (e: unknown) => e instanceof UserError && e.message.includes(SHA_ABC),
  );
});

test("the tool-call format is recorded per model; answers parsed another way are not resumed", async () => {
  const s = setup();
  mkdirSync(s.out);
  const first = startManifest(s.out, s.inputs, { cacheDir: s.cacheDir });
  await first.recordModel({ ...s.info, toolFormat: "llama3" });
  first.finish({ ran: 1, skipped: 0 });
  appendFileSync(path.join(s.out, "answers.jsonl"), "{}\n");
  assert.equal(readManifest(s.out)!.models[0]?.toolFormat, "llama3");
  const again = startManifest(s.out, s.inputs, { cacheDir: s.cacheDir });
  await assert.rejects(
    again.recordModel({ ...s.info, toolFormat: "hermes" }),
    (e: unknown) => e instanceof UserError && /tool-call format llama3 before, hermes now/.test(e.message),
  );
});

test("a folder without earlier answers is not checked", async () => {
  const s = setup();
  mkdirSync(s.out);
  const inputs = s.inputs;
  const first = startManifest(s.out, inputs, { cacheDir: s.cacheDir });
  await first.recordModel(s.info);
  assert.doesNotThrow(() =>
    startManifest(s.out, { ...inputs, settings: { ...s.settings, parallel: 8 } }, { cacheDir: s.cacheDir }),
  );
});

test("answers without a manifest are refused, naming --fresh and --out; --fresh may start over", async () => {
  const s = setup();
  mkdirSync(s.out);
  appendFileSync(path.join(s.out, "answers.jsonl"), "{}\n");
  assert.throws(
    () => startManifest(s.out, s.inputs, { cacheDir: s.cacheDir }),
    (e: unknown) =>
      e instanceof UserError &&
      e.message.includes("no manifest.json") &&
      /--fresh/.test(e.message) &&
      /--out/.test(e.message),
  );
  assert.doesNotThrow(() => startManifest(s.out, s.inputs, { cacheDir: s.cacheDir, fresh: true }));
});

test("a manifest that is valid JSON but lacks a field, or holds a wrong type, is one line naming the file and the field", async () => {
  const s = setup();
  mkdirSync(s.out);
  const writer = startManifest(s.out, s.inputs, { cacheDir: s.cacheDir });
  await writer.recordModel(s.info);
  const file = path.join(s.out, MANIFEST_FILE);
  const good = JSON.parse(readFileSync(file, "utf8"));
  // biome-ignore lint/suspicious/noExplicitAny: the test damages parsed JSON anywhere, as a hand edit would
  const damaged = (change: (m: any) => void) => {
    const m = structuredClone(good);
    change(m);
    writeFileSync(file, JSON.stringify(m));
    try {
      readManifest(s.out);
    } catch (error) {
      assert.ok(error instanceof UserError);
      return error.message;
    }
    return "read without complaint";
  };
  const missing = damaged((m) => delete m.settings.max_new_tokens);
  assert.match(missing, /manifest\.json: field settings\.max_new_tokens: missing/);
  assert.ok(missing.startsWith(file) && !missing.includes("\n"), missing);
  assert.match(
    damaged((m) => (m.settings.gpu = "yes")),
    /field settings\.gpu: expected a boolean/,
  );
  // audit reruns with the manifest's settings: the ranges the command line checks hold there too
  assert.match(
    damaged((m) => (m.settings.max_new_tokens = 0)),
    /field settings\.max_new_tokens: expected a whole number from 1 to 1048576 or null/,
  );
  assert.match(
    damaged((m) => (m.settings.threads = 100000)),
    /field settings\.threads: expected a whole number from 1 to 1024 or null/,
  );
  assert.match(
    damaged((m) => (m.settings.retriever = "grep")),
    /field settings\.retriever: expected one of bm25, dense, hybrid/,
  );
  assert.match(
    damaged((m) => delete m.models[0].files[0].sha256),
    /field models\[0\]\.files\[0\]\.sha256: missing/,
  );
  assert.match(
    damaged((m) => (m.corpus = null)),
    /field corpus: expected an object/,
  );
  // Every field of a model entry is checked, not only those the readers compare.
  assert.match(
    damaged((m) => (m.models[0].threads = "4")),
    /field models\[0\]\.threads: expected a number;/,
  );
  assert.match(
    damaged((m) => (m.models[0].toolFormat = "xml")),
    /field models\[0\]\.toolFormat: expected one of hermes, mistral, .*, openai-chat;/,
  );
  assert.match(
    damaged((m) => (m.sessions[0].designs = ["agentic"])),
    /field sessions\[0\]\.designs\[0\]: expected one of workflow, agent, /,
  );
  assert.match(
    damaged((m) => (m.schema = 1)),
    /schema 1, this blogqa reads schema 2; rerun with --fresh/,
  );
});

test("a suite's entry is recorded per model through the settings' serializer, and a damaged one is named", async () => {
  const s = setup();
  mkdirSync(s.out);
  const entry = { id: "tiny-llama", model: s.modelFile, paramsB: 1.5, toolFormat: "llama3" as const };
  assert.equal(settingsForModel(s.settings, entry).toolFormat, "llama3");
  assert.equal(settingsForModel(s.settings, { ...entry, toolFormat: undefined }), s.settings);
  const writer = startManifest(s.out, s.inputs, { cacheDir: s.cacheDir });
  await writer.recordModel({ ...s.info, toolFormat: "llama3", entry: modelEntryFields(entry) });
  assert.deepEqual(readManifest(s.out)!.models[0]?.entry, { id: "tiny-llama", params_b: 1.5, tool_format: "llama3" });
  const file = path.join(s.out, MANIFEST_FILE);
  const good = JSON.parse(readFileSync(file, "utf8"));
  for (const [change, expected] of [
    [
      (e: Record<string, unknown>) => (e.params_b = "1.5B"),
      /field models\[0\]\.entry\.params_b: expected a number above 0/,
    ],
    [
      (e: Record<string, unknown>) => (e.tool_format = "xml"),
      /field models\[0\]\.entry\.tool_format: expected one of auto/,
    ],
    [(e: Record<string, unknown>) => delete e.id, /field models\[0\]\.entry\.id: missing/],
  ] as const) {
    const m = structuredClone(good);
    change(m.models[0].entry);
    writeFileSync(file, JSON.stringify(m));
    assert.throws(() => readManifest(s.out), { message: expected });
  }
  // Run again without the entry (a plain --model run on the same folder), the model keeps it.
  writeFileSync(file, JSON.stringify(good));
  appendFileSync(path.join(s.out, "answers.jsonl"), "{}\n");
  const plain = startManifest(s.out, s.inputs, { cacheDir: s.cacheDir });
  await plain.recordModel({ ...s.info, toolFormat: "llama3" });
  assert.equal(readManifest(s.out)!.models[0]?.entry?.params_b, 1.5);
  // A manifest from before suites has no entry, and reads as it did.
  delete good.models[0].entry;
  writeFileSync(file, JSON.stringify(good));
  assert.equal(readManifest(s.out)!.models[0]?.entry, undefined);
});

test("the sampling settings are left out of a manifest at their defaults; a manifest without them resumes as them", async () => {
  const s = await loggedFolder();
  const written = JSON.parse(readFileSync(path.join(s.out, MANIFEST_FILE), "utf8"));
  for (const field of ["samples", "seed", "sampling", "temperature", "top_p", "top_k"])
    assert.ok(!(field in written.settings), `${field} left out`);
  assert.doesNotThrow(() => startManifest(s.out, s.inputs, { cacheDir: s.cacheDir }));
  const sampled = { ...s.inputs, settings: { ...s.settings, samples: 3, temperature: 0.9 } };
  assert.throws(
    () => startManifest(s.out, sampled, { cacheDir: s.cacheDir }),
    (e: unknown) =>
      e instanceof UserError &&
      /setting samples: null before, 3 now/.test(e.message) &&
      /setting temperature: null before, 0\.9 now/.test(e.message),
  );
  // Once recorded, the values are checked like any setting's.
  const other = path.join(s.dir, "sampled");
  mkdirSync(other);
  const session = startManifest(other, sampled, { cacheDir: s.cacheDir });
  await session.recordModel(s.info);
  appendFileSync(path.join(other, "answers.jsonl"), "{}\n");
  assert.equal(readManifest(other)!.settings.samples, 3);
  assert.throws(() => startManifest(other, s.inputs, { cacheDir: s.cacheDir }), /setting samples: 3 before, null now/);
});

test("--wordings records every text and one hash over them; other texts in the same folder are refused", async () => {
  const s = setup();
  mkdirSync(s.out);
  const wordings = parseWordings([{ id: "default" }, { id: "terse", system: "Answer." }], "w.json");
  const first = startManifest(s.out, { ...s.inputs, wordings }, { cacheDir: s.cacheDir });
  await first.recordModel(s.info);
  appendFileSync(path.join(s.out, "answers.jsonl"), "{}\n");
  const m = readManifest(s.out)!;
  assert.deepEqual(m.wordings?.texts, wordings);
  assert.equal(m.wordings?.sha256, createHash("sha256").update(JSON.stringify(wordings)).digest("hex"));
  assert.doesNotThrow(() => startManifest(s.out, { ...s.inputs, wordings }, { cacheDir: s.cacheDir }));
  const edited = parseWordings([{ id: "default" }, { id: "terse", system: "Answer briefly." }], "w.json");
  assert.throws(
    () => startManifest(s.out, { ...s.inputs, wordings: edited }, { cacheDir: s.cacheDir }),
    /wordings sha256/,
  );
  assert.throws(
    () => startManifest(s.out, s.inputs, { cacheDir: s.cacheDir }),
    /wordings sha256: "[0-9a-f]{64}" before, null now/,
  );
  // Without --wordings the manifest has no such field, as before.
  const plain = path.join(s.dir, "plain");
  mkdirSync(plain);
  await startManifest(plain, s.inputs, { cacheDir: s.cacheDir }).recordModel(s.info);
  assert.ok(!("wordings" in JSON.parse(readFileSync(path.join(plain, MANIFEST_FILE), "utf8"))));
});

test("a manifest written before the schemas and the settings added since still reads, as their defaults", () => {
  // The smoke study's manifest as blogqa wrote it before sampling, wordings, withholding, the special-token rule and
  // the binary record existed (paths made neutral).
  const dir = path.join(import.meta.dirname, "../fixtures/old-manifest");
  const manifest = readManifest(dir);
  assert.ok(manifest !== undefined);
  assert.equal(manifest.models.length, 1);
  assert.equal(manifest.models[0]!.decoding.specialTokens, undefined);
  assert.equal(manifest.settings.samples, undefined);
  assert.equal(manifest.settings.withhold, undefined);
});

test("prompts_sha256 comes from the design registry and keeps the hash of folders made before", () => {
  // A folder written before the hash was derived from the registry: its resume must still match.
  const old = JSON.parse(
    readFileSync(path.join(import.meta.dirname, "../fixtures/old-manifest/manifest.json"), "utf8"),
  ) as { settings: { prompts_sha256: string } };
  assert.equal(promptsSha256(), old.settings.prompts_sha256);
  assert.equal(promptsSha256(DESIGNS), old.settings.prompts_sha256);
  // A design's own prompts are read from its entry: another text, or one more design with its own, is another hash.
  const changed = { ...DESIGNS, workflow: { ...DESIGNS.workflow, prompts: ["another system prompt"] } };
  assert.notEqual(promptsSha256(changed), old.settings.prompts_sha256);
  const added = { ...DESIGNS, extra: { ...DESIGNS.workflow, prompts: ["a new design's prompt"] } };
  assert.notEqual(promptsSha256(added), old.settings.prompts_sha256);
});

test("another context size resumes a folder only when the largest logged call fits it", async () => {
  const s = setup();
  mkdirSync(s.out);
  const at = (contextSize: number | "auto") => ({ ...s.inputs, settings: { ...s.settings, contextSize } });
  const first = startManifest(s.out, at(49152), { cacheDir: s.cacheDir });
  await first.recordModel(s.info);
  first.finish({ ran: 2, skipped: 0 });
  // Two answered runs, the larger call 5,000 prompt tokens and 20 generated; a failed run's size does not count.
  const answers = [
    makeRecord({ question_id: "q01", tokens_read: 400 }),
    makeRecord({ question_id: "q02", tokens_read: 5000 }),
  ];
  writeFileSync(path.join(s.out, "answers.jsonl"), answers.map((r) => `${JSON.stringify(r)}\n`).join(""));
  assert.equal(largestCallTokens(answers), 5020);
  assert.equal(largestCallTokens([{ ...answers[1]!, outcome: "error", error: "x" } as AnswerRecord]), 0);

  const notes: string[] = [];
  assert.doesNotThrow(() =>
    startManifest(s.out, at(32768), { cacheDir: s.cacheDir, onProgress: (m) => notes.push(m) }),
  );
  assert.deepEqual(notes, [
    "note: context size 49152 before, 32768 now: the largest logged call (5020 tokens, prompt and reply) fits both, so the answers stand",
  ]);
  // 5,020 tokens need a context of 5,021: one less is refused, naming the setting.
  assert.doesNotThrow(() => startManifest(s.out, at(5021), { cacheDir: s.cacheDir }));
  assert.throws(
    () => startManifest(s.out, at(5020), { cacheDir: s.cacheDir }),
    (e: unknown) => e instanceof UserError && /setting context_size: 49152 before, 5020 now/.test(e.message),
  );
  // auto never fits a context below the largest logged call and one more token, so it resumes the folder.
  notes.length = 0;
  assert.doesNotThrow(() =>
    startManifest(s.out, at("auto"), { cacheDir: s.cacheDir, onProgress: (m) => notes.push(m) }),
  );
  assert.deepEqual(notes, [
    "note: context size 49152 before, auto now: the largest logged call (5020 tokens, prompt and reply) fits both " +
      "(auto fits a context that holds it), so the answers stand",
  ]);
  assert.equal(contextFloor(STUDY_MAX_NEW_TOKENS, 5020), 5021, "the floor holds the folder's largest call");
  assert.equal(contextFloor(STUDY_MAX_NEW_TOKENS, 0), CONTEXT_FLOOR);
  assert.equal(contextFloor(1200, 0), CONTEXT_FLOOR + 1000, "longer replies need more room");
});

test("a folder another blogqa read the blog for otherwise is refused in one line on resume, unless accepted", async () => {
  const s = await loggedFolder();
  const made = readManifest(s.out)!;
  assert.equal(made.sessions[0]!.sections_sha256, made.corpus.sections_sha256);
  assert.deepEqual(made.sessions[0]!.blogqa, made.blogqa);

  // The same bytes, read into other sections by another blogqa's parser: its digest, its version.
  const older = { version: "0.1.0", git_commit: "229e729".padEnd(40, "0"), git_dirty: false };
  const other = "ab".repeat(32);
  const file = path.join(s.out, MANIFEST_FILE);
  writeFileSync(file, JSON.stringify({ ...made, blogqa: older, corpus: { ...made.corpus, sections_sha256: other } }));
  assert.throws(
    () => startManifest(s.out, s.inputs, { cacheDir: s.cacheDir }),
    (e: unknown) =>
      e instanceof UserError &&
      !e.message.includes("\n") &&
      e.message.startsWith(
        `${s.out} was made by blogqa 0.1.0 (229e729), which read the same posts into other sections`,
      ) &&
      /sections sha256 abababababab then, [0-9a-f]{12} now/.test(e.message) &&
      /--accept-new-reading/.test(e.message),
  );
  const notes: string[] = [];
  const accepted = startManifest(s.out, s.inputs, {
    cacheDir: s.cacheDir,
    acceptNewReading: true,
    onProgress: (l) => notes.push(l),
  });
  assert.ok(
    notes.some((l) => l.startsWith("note: ") && l.includes("--accept-new-reading")),
    notes.join("\n"),
  );
  await accepted.recordModel(s.info);
  accepted.finish({ ran: 1, skipped: 4 });
  assert.equal(readManifest(s.out)!.corpus.sections_sha256, made.corpus.sections_sha256);

  // A manifest from before the reading was recorded cannot be checked: refused alike, with the same way on.
  const { sections_sha256: _, ...unrecorded } = made.corpus;
  writeFileSync(file, JSON.stringify({ ...made, blogqa: older, corpus: unrecorded }));
  assert.throws(
    () => startManifest(s.out, s.inputs, { cacheDir: s.cacheDir }),
    (e: unknown) =>
      e instanceof UserError &&
      !e.message.includes("\n") &&
      /did not record how it read the blog/.test(e.message) &&
      /--accept-new-reading/.test(e.message),
  );
  assert.doesNotThrow(() => startManifest(s.out, s.inputs, { cacheDir: s.cacheDir, acceptNewReading: true }));
  // other bytes are another blog, refused as ever by the corpus sha256
  assert.throws(
    () => startManifest(s.out, { ...s.inputs, corpus: { ...s.corpus, hash: "beef" } }, { cacheDir: s.cacheDir }),
    /corpus sha256/,
  );
});
