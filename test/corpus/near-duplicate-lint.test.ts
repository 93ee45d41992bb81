// Lints the real blog and every questions/*.jsonl for passages said twice in nearly the same words.
//
// The strict scorer counts a citation right only when it names the gold post, so a paragraph that stands
// near-verbatim in two posts makes a correct answer citable two ways. Thresholds (word 8-grams, links reduced to
// their text, passages = paragraphs): a pair fails when it shares at least 4 shingles covering at least 10% of
// the smaller paragraph. Measured on this blog (25 posts, about 860 paragraphs, about 370,000 cross-post pairs):
// the PagedAttention paragraph once written in two posts shared 15 shingles (containment 17%); every other
// cross-post pair shared at most 2 (at most 3.4%), and after that paragraph was cut, at most 1. A boilerplate
// line (`import torch`) is one shingle, which is why minShared exists. Paraphrase is out of reach of a lexical
// lint; it is what a reader's pass over the blog is for.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { loadCorpus } from "../../src/corpus/index.ts";
import { describeNearDuplicate, findNearDuplicates, paragraphs, type Passage } from "../helpers/near-duplicates.ts";
import { repoRoot } from "../helpers/run-cli.ts";

test("no paragraph of one post stands near-verbatim in another", async () => {
  const corpus = await loadCorpus(path.join(repoRoot, "content/posts"));
  const passages: Passage[] = corpus.sections.flatMap((s) =>
    paragraphs(s.text).map((text, i) => ({ group: s.post, label: `${s.post}#${s.heading} ¶${i + 1}`, text })),
  );
  assert.ok(passages.length > 500, `${passages.length} paragraphs: is content/posts the blog?`);
  assert.deepEqual(findNearDuplicates(passages).map(describeNearDuplicate), []);
});

/** Every string field named `question` in a JSONL file, whatever else its lines carry (one-post or two-post). */
function questionPassages(file: string): Passage[] {
  const lines = readFileSync(file, "utf8").split("\n");
  return lines.flatMap((line, i) => {
    if (!line.trim()) return [];
    const record = JSON.parse(line) as { id?: unknown; question?: unknown };
    if (typeof record.question !== "string") return [];
    const label = `${path.basename(file)}:${i + 1} (${String(record.id)})`;
    return [{ group: label, label, text: record.question }];
  });
}

test("no two questions in a question set are near-verbatim copies of each other", () => {
  const dir = path.join(repoRoot, "questions");
  const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  assert.ok(files.length > 0, "no questions/*.jsonl");
  for (const f of files) {
    const passages = questionPassages(path.join(dir, f));
    assert.ok(passages.length > 0, `${f}: no questions read`);
    assert.deepEqual(findNearDuplicates(passages).map(describeNearDuplicate), [], f);
  }
});
