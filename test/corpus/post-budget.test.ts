// A post is parsed within a budget: the size cap, a parse that throws, and the worker's time and memory limits.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parsePost } from "../../src/corpus/parse-post.ts";
import { parsePostsInWorker } from "../../src/corpus/parse-pool.ts";
import { guardedParse, parseDeadlineMs, POST_BUDGET, type PostBudget } from "../../src/corpus/post-budget.ts";
import { HOSTILE_POSTS } from "../helpers/hostile-posts.ts";

const bytes = (text: string) => Buffer.from(text);
const hostile = (name: string) => bytes(HOSTILE_POSTS.find((p) => p.name === name)!.body());
const normal = bytes(
  "---\ntitle: Fine\n---\n\nIntro with *emphasis* and a [link](https://example.com).\n\n## Part\n\nBody.\n",
);

test("the time a post may take grows with its size, from 5 s to 20 s at the 1 MB cap", () => {
  assert.equal(parseDeadlineMs(0), 5_000);
  assert.equal(parseDeadlineMs(100_000), 6_431);
  assert.equal(parseDeadlineMs(POST_BUDGET.maxBytes), 20_000);
});

test("a post over the size cap is one line naming the file, its size and the cap", () => {
  const big = bytes(`---\ntitle: Big\n---\n\n${"word ".repeat(220_000)}\n`);
  assert.deepEqual(guardedParse("blog/big.mdx", big), {
    kind: "problems",
    problems: [
      {
        file: "blog/big.mdx",
        message:
          "post is 1.1 MB, over the 1.0 MB a post may be: split it into smaller posts, or move it out of the content folder",
      },
    ],
  });
  assert.equal(guardedParse("blog/fine.mdx", normal, {}, { ...POST_BUDGET, maxBytes: normal.length }).kind, "post");
});

test("a parse that overflows the stack is one line naming the file, not a RangeError", () => {
  // On the main thread's stack, ten thousand nested `> ` overflow the markdown parser's recursion: only that
  // RangeError gives this line (a parse of it takes seconds, so it is not repeated unguarded here).
  assert.deepEqual(guardedParse("blog/q.mdx", hostile("nested-quotes.mdx")), {
    kind: "problems",
    problems: [
      {
        file: "blog/q.mdx",
        message:
          "post nests too deeply to parse (the parser ran out of stack): split it into smaller posts, or move it out of " +
          "the content folder",
      },
    ],
  });
});

test("in the worker, a post reads as it does in process, a slow one is stopped at its deadline and the next still read", async () => {
  const budget: PostBudget = { ...POST_BUDGET, baseMs: 1_000, msPerMiB: 0 };
  const started = Date.now();
  const results = await parsePostsInWorker(
    [
      { file: "blog/fine.mdx", bytes: normal },
      { file: "blog/stars.mdx", bytes: hostile("stars.mdx") },
      { file: "blog/fine.md", bytes: normal },
    ],
    { splitDepth: 2 },
    budget,
  );
  assert.deepEqual(results[0], parsePost("blog/fine.mdx", normal, { splitDepth: 2 }));
  assert.deepEqual(results[1], {
    kind: "problems",
    problems: [
      {
        file: "blog/stars.mdx",
        message:
          "post was not parsed within 1.0 s, the limit for its size: split it into smaller posts, or move it out of " +
          "the content folder",
      },
    ],
  });
  assert.deepEqual(results[2], parsePost("blog/fine.md", normal, { splitDepth: 2 }));
  // Not a timing test: a bound that only a parse left running (50,000 `*a` take minutes) would exceed.
  assert.ok(Date.now() - started < 120_000, `took ${Date.now() - started} ms`);
});

test("calls made at once each get their own posts back, in order", async () => {
  // Two blogs loaded together share the one worker: each call must wait its turn rather than take the other's answers.
  const post = (title: string) => bytes(`---\ntitle: ${title}\n---\n\n## ${title} heading\n\nBody of ${title}.\n`);
  const [first, second] = await Promise.all([
    parsePostsInWorker(
      ["a1", "a2", "a3"].map((t) => ({ file: `a/${t}.mdx`, bytes: post(t) })),
      {},
    ),
    parsePostsInWorker(
      ["b1", "b2"].map((t) => ({ file: `b/${t}.mdx`, bytes: post(t) })),
      {},
    ),
  ]);
  assert.deepEqual(
    first,
    ["a1", "a2", "a3"].map((t) => parsePost(`a/${t}.mdx`, post(t))),
  );
  assert.deepEqual(
    second,
    ["b1", "b2"].map((t) => parsePost(`b/${t}.mdx`, post(t))),
  );
});

test("in the worker, a post that needs more memory than the budget is one line naming the file and the limit", async () => {
  // 64 MB holds the parser and its warm-up with room to spare; this 1 MB post needs about four times that.
  const budget: PostBudget = { ...POST_BUDGET, memoryMb: 64, baseMs: 600_000 };
  const text = `---\ntitle: Long\n---\n\n${"A sentence of prose with *emphasis* and `code`.\n\n".repeat(20_000)}`;
  const results = await parsePostsInWorker([{ file: "blog/long.mdx", bytes: bytes(text) }], {}, budget);
  assert.deepEqual(results, [
    {
      kind: "problems",
      problems: [
        {
          file: "blog/long.mdx",
          message:
            "post needed over 64 MB of memory to parse, the limit: split it into smaller posts, or move it out of " +
            "the content folder",
        },
      ],
    },
  ]);
});
