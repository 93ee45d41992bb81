// The parsed-post cache: a second load reads what the first parsed and gives the same corpus; anything the parse
// depends on names another entry; a bad entry, a refusal and a parser that cannot be named are misses, never errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { deserialize, serialize } from "node:v8";
import { loadCorpus } from "../../src/corpus/index.ts";
import { canonicalJson, entryName, PARSED_POSTS_DIR, hashParserCode } from "../../src/corpus/parse-cache.ts";
import type { ParsedPost } from "../../src/corpus/parse-post.ts";
import { repoRoot } from "../helpers/run-cli.ts";
import { tempFileTree, tempFolders } from "../helpers/temp-folders.ts";

const temp = tempFolders("blogqa-parse-cache");
const BLOG = path.join(repoRoot, "test/fixtures/blog/posts");

const entries = (cache: string) => readdirSync(path.join(cache, PARSED_POSTS_DIR)).sort();

test("a second load reads every post from the cache, and the corpus is the one a parse gives", async () => {
  const cache = temp("hit");
  const parsed = await loadCorpus(BLOG, { parseCacheDir: cache });
  assert.deepEqual(parsed, await loadCorpus(BLOG));
  const files = entries(cache);
  assert.equal(files.length, parsed.posts.length);

  assert.deepEqual(await loadCorpus(BLOG, { parseCacheDir: cache }), parsed);
  assert.deepEqual(entries(cache), files, "a load that hits writes nothing new");

  // What the second load returns comes from the entries: one edited by hand shows through.
  const file = path.join(cache, PARSED_POSTS_DIR, files[0]!);
  const entry = deserialize(readFileSync(file)) as Extract<ParsedPost, { kind: "post" }>;
  const edited = { ...entry, post: { ...entry.post, title: "Read from the cache" } };
  writeFileSync(file, serialize(edited));
  const titles = (await loadCorpus(BLOG, { parseCacheDir: cache })).posts.map((p) => p.title);
  assert.ok(titles.includes("Read from the cache"), titles.join(", "));
});

test("an entry that cannot be read is parsed again and rewritten", async () => {
  const cache = temp("bad-entry");
  const fresh = await loadCorpus(BLOG, { parseCacheDir: cache });
  const file = path.join(cache, PARSED_POSTS_DIR, entries(cache)[0]!);
  writeFileSync(file, "not a serialized post");
  assert.deepEqual(await loadCorpus(BLOG, { parseCacheDir: cache }), fresh);
  assert.equal((deserialize(readFileSync(file)) as ParsedPost).kind, "post");
  // An entry that holds something other than a post is a miss too.
  writeFileSync(file, serialize({ kind: "problems", problems: [] }));
  assert.deepEqual(await loadCorpus(BLOG, { parseCacheDir: cache }), fresh);
});

test("only posts are kept: a post with a problem is parsed, and refused, every time", async (t) => {
  const cache = temp("refused");
  const blog = tempFileTree(t, {
    "good.mdx": "---\ntitle: Good\n---\n\n## A heading\n\nBody.\n",
    "open.mdx": "---\ntitle: Open\n\n## Heading\n\nBody.\n",
  });
  for (let i = 0; i < 2; i++)
    await assert.rejects(loadCorpus(blog, { parseCacheDir: cache }), /open\.mdx:1: frontmatter .*never closed/);
  assert.equal(entries(cache).length, 1, "the good post alone is kept");
});

test("the path, the bytes, the options and the parser each name another entry", () => {
  const post = { file: "posts/a.mdx", bytes: Buffer.from("---\ntitle: A\n---\n") };
  const name = entryName("parser-1", post, { splitDepth: 2, slugRule: "file-name" });
  assert.match(name, /^[0-9a-f]{64}$/);
  assert.equal(entryName("parser-1", post, { slugRule: "file-name", splitDepth: 2 }), name, "key order is no change");
  assert.equal(entryName("parser-1", post, { splitDepth: 2, slugRule: "file-name", studyText: undefined }), name);
  const others = [
    entryName("parser-2", post, { splitDepth: 2, slugRule: "file-name" }),
    entryName("parser-1", { ...post, file: "posts/b.mdx" }, { splitDepth: 2, slugRule: "file-name" }),
    entryName(
      "parser-1",
      { ...post, bytes: Buffer.from("---\ntitle: B\n---\n") },
      { splitDepth: 2, slugRule: "file-name" },
    ),
    entryName("parser-1", post, { splitDepth: 3, slugRule: "file-name" }),
    entryName("parser-1", post, { splitDepth: 2, slugRule: "file-name", studyText: true }),
    entryName("parser-1", post, { splitDepth: 2, slugRule: "file-name", proseAttributes: ["title"] }),
  ];
  assert.equal(new Set([name, ...others]).size, others.length + 1);
  assert.equal(canonicalJson({ b: [1, { d: 2, c: 3 }], a: "x" }), '{"a":"x","b":[1,{"c":3,"d":2}]}');
});

test("the parser's name follows its code: a bundle's modules or the source's TypeScript", (t) => {
  const bundle = tempFileTree(t, { "parse-worker.mjs": "import './chunk-a.mjs';", "chunk-a.mjs": "export {};" });
  const worker = path.join(bundle, "parse-worker.mjs");
  const before = hashParserCode(worker);
  assert.match(before ?? "", /^[0-9a-f]{64}$/);
  assert.equal(hashParserCode(worker), before);
  writeFileSync(path.join(bundle, "chunk-a.mjs"), "export const a = 1;");
  assert.notEqual(hashParserCode(worker), before, "a changed chunk is another parser");

  const source = tempFileTree(t, { "corpus/parse-worker.ts": "export {};", "common/errors.ts": "export {};" });
  const fromSource = hashParserCode(path.join(source, "corpus/parse-worker.ts"));
  writeFileSync(path.join(source, "common/errors.ts"), "export const e = 1;");
  assert.notEqual(hashParserCode(path.join(source, "corpus/parse-worker.ts")), fromSource);
  // A code folder that cannot be read names no parser: nothing is cached.
  assert.equal(hashParserCode(path.join(temp("empty"), "gone/corpus/parse-worker.ts")), undefined);
});
