// smoke keeps each blog's runs apart, and Ctrl-C says what is kept and how to go on.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { smokeFolder } from "../../src/commands/smoke.ts";
import { interruptLine, resumeCommand } from "../../src/commands/interrupt.ts";

test("smoke's folder: results/smoke for the shipped blog, results/smoke-NAME named by the blog's own folder", () => {
  assert.equal(smokeFolder("content/posts"), path.join("results", "smoke"));
  assert.equal(smokeFolder(path.resolve("content/posts")), path.join("results", "smoke"));
  assert.equal(smokeFolder("test/fixtures/own-blog/posts"), path.join("results", "smoke-own-blog"));
  assert.equal(smokeFolder("/home/me/sites/Acme Site/website/blog"), path.join("results", "smoke-acme-site"));
  assert.equal(smokeFolder("../astro/src/content/blog"), path.join("results", "smoke-astro"));
  assert.equal(smokeFolder("/blog"), path.join("results", "smoke-blog"));
});

test("the resume command drops --fresh, adds --no-fresh where the command starts over, and is started as it was", () => {
  const args = ["smoke", "--content", "my blog/posts", "--questions", "q.jsonl", "--fresh"];
  assert.equal(resumeCommand(args, true), "npx blogqa smoke --content 'my blog/posts' --questions q.jsonl --no-fresh");
  assert.equal(
    resumeCommand(["smoke", "--limit", "2"], true, { npm_lifecycle_event: "smoke" }),
    "npm run smoke -- --limit 2 --no-fresh",
  );
  assert.equal(resumeCommand(["smoke"], true, { npm_lifecycle_event: "smoke" }), "npm run smoke -- --no-fresh");
  assert.equal(
    resumeCommand(["run", "--fresh=true", "--out", "r"], false, { npm_lifecycle_event: "blogqa" }),
    "npm run blogqa -- run --out r",
  );
  assert.equal(resumeCommand(["experiment"], false, { npm_lifecycle_event: "experiment" }), "npm run experiment");
  assert.equal(
    interruptLine("results/smoke-x", 50, "npx blogqa smoke --no-fresh"),
    `interrupted: the 50 runs logged in ${path.join("results/smoke-x", "answers.jsonl")} are kept; go on from them ` +
      "with: npx blogqa smoke --no-fresh",
  );
});
