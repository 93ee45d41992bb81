// BM25 over the fixture blog's sections: the usual prep, heading weight, export/import, and its limits.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { loadCorpus, type Section } from "../../src/corpus/index.ts";
import { buildBm25, importBm25 } from "../../src/search/bm25.ts";
import { UserError } from "../../src/common/errors.ts";

const corpus = await loadCorpus(path.resolve(import.meta.dirname, "../fixtures/blog/posts"));
const headingOf = (i: number | undefined) => (i === undefined ? undefined : corpus.sections[i]!.heading);

test("a query ranks the section that shares its rare words first", () => {
  const bm25 = buildBm25(corpus.sections);
  assert.equal(
    headingOf(bm25.rank("How can a running maximum and running sum compute softmax in one pass?")[0]),
    "Online softmax with a running sum",
  );
  assert.equal(headingOf(bm25.rank("HNSW recall")[0]), "Approximate nearest neighbour indexes");
});

test("prep lowercases, drops stop words and stems: 'Chunked DOCUMENTS' finds 'Chunking documents'", () => {
  const bm25 = buildBm25(corpus.sections);
  assert.equal(headingOf(bm25.rank("Chunked DOCUMENTS")[0]), "Chunking documents before embedding");
  assert.deepEqual(bm25.rank("the and of"), []);
  assert.deepEqual(bm25.rank("zzzz-unknown"), []);
});

test("only sections sharing a word are ranked, each once", () => {
  const ranking = buildBm25(corpus.sections).rank("softmax");
  assert.ok(ranking.length >= 3 && ranking.length < corpus.sections.length);
  assert.equal(new Set(ranking).size, ranking.length);
  for (const i of ranking) assert.match(`${corpus.sections[i]!.heading} ${corpus.sections[i]!.text}`, /softmax/i);
});

test("a heading word outweighs the same word in another section's body", () => {
  const sections: Section[] = [
    { post: "p", heading: "Gradient clipping", level: 2, text: "Limit the update size." },
    { post: "p", heading: "Gradient norms", level: 2, text: "Clipping limits the update size." },
    { post: "p", heading: "Filler", level: 2, text: "Nothing relevant." },
  ];
  assert.deepEqual(buildBm25(sections).rank("clipping"), [0, 1]);
});

test("an exported index, imported again, ranks the same (prep tasks defined again after import)", () => {
  const built = buildBm25(corpus.sections);
  const imported = importBm25(built.exportJSON(), corpus.sections.length);
  for (const query of ["softmax running maximum", "cosine similarity of embeddings", "code comments in a fence"]) {
    assert.deepEqual(imported.rank(query), built.rank(query));
  }
});

test("fewer than 3 sections is a clear UserError (wink cannot consolidate them)", () => {
  assert.throws(
    () => buildBm25(corpus.sections.slice(0, 2)),
    (e: unknown) => e instanceof UserError && /at least 3 sections/.test(e.message),
  );
});
