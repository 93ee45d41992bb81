// Option values that used to run on as NaN tables, empty tables or a silently chosen value are one-line usage errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { runCliInProcess } from "../helpers/run-cli-in-process.ts";

test("cost, run: a bad number, an empty --designs or an option given twice is a usage error, exit 2", async () => {
  const cases: [readonly string[], string][] = [
    [["cost", "--prefix", "abc"], "blogqa: --prefix takes a number, got abc\n"],
    [["cost", "--prefix", "-1"], "blogqa: --prefix must be a whole number from 0 to 9007199254740991, got -1\n"],
    [["cost", "--price", "3", "--price", "4"], "blogqa: --price given 2 times (3, 4): give it once\n"],
    [
      ["run", "--designs", "", "--out", "/nonexistent/x"],
      "blogqa: --designs names no design; choose from study, engineered, workflow, agent, agent-search-first, agent-forced, agent-validated, agent-cite-checked, workflow-cite-checked, agent-constrained\nrun with --help\n",
    ],
    [
      ["run", "--limit", "6", "--limit", "7", "--out", "/nonexistent/x"],
      "blogqa: --limit given 2 times (6, 7): give it once\n",
    ],
  ];
  const results = await Promise.all(cases.map(([args]) => runCliInProcess(args)));
  for (const [i, result] of results.entries()) {
    assert.equal(result.stderr, cases[i]![1], cases[i]![0].join(" "));
    assert.equal(result.status, 2, cases[i]![0].join(" "));
    assert.equal(result.stdout, "");
  }
});
