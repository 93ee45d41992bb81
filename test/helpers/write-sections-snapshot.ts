// Writes test/fixtures/sections-snapshot.json with the loader as it was before other blogs' layouts were read
// (commit 0066400), so that sections-unchanged.test.ts compares today's loader with that one on today's posts:
//   git archive 0066400 src | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/node_modules
//   node --import tsx test/helpers/write-sections-snapshot.ts /tmp/old/src/corpus/index.ts \
//     > test/fixtures/sections-snapshot.json
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "./run-cli.ts";

interface OldPost {
  readonly file: string;
  readonly sections: readonly unknown[];
}
interface OldCorpus {
  readonly hash: string;
  readonly posts: readonly OldPost[];
  readonly sections: readonly unknown[];
}

const loader = process.argv[2];
if (loader === undefined) throw new Error("usage: write-sections-snapshot.ts PATH/TO/OLD/src/corpus/index.ts");
const { loadCorpus } = (await import(pathToFileURL(path.resolve(loader)).href)) as {
  loadCorpus: (dir: string) => Promise<OldCorpus>;
};
const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
const printed = (sections: readonly unknown[]) => sections.map((s) => `${JSON.stringify(s)}\n`).join("");

const snapshot: Record<string, unknown> = {};
for (const folder of ["content/posts", "test/fixtures/blog/posts"]) {
  const corpus = await loadCorpus(path.join(repoRoot, folder));
  const posts = Object.fromEntries(
    corpus.posts.map((post) => [
      path.basename(post.file),
      { bytes: sha256(readFileSync(post.file)), sections: sha256(printed(post.sections)) },
    ]),
  );
  snapshot[folder] = {
    corpusHash: corpus.hash,
    sectionsOutput: sha256(printed(corpus.sections)),
    sectionCount: corpus.sections.length,
    posts,
  };
}
process.stdout.write(`${JSON.stringify(snapshot, null, 2)}\n`);
