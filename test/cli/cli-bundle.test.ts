// The bundled command line runs only while it is newer than everything it was built from.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { BUNDLE_ENTRY, currentBundle } from "../../bin/cli-bundle.cjs";

/** A checkout with every input written at `inputs` seconds and the bundle at `bundle` seconds (epoch). */
function checkout(inputs: number, bundle: number | undefined): string {
  const root = mkdtempSync(path.join(tmpdir(), "blogqa-bundle-"));
  const files = ["package.json", "package-lock.json", "tsconfig.json", "scripts/build-cli.ts", "bin/cli-bundle.cjs"];
  for (const file of [...files, "src/cli.ts", "src/runs/manifest.ts"]) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), "");
  }
  for (const item of [...files, "src/cli.ts", "src/runs/manifest.ts", "src/runs", "src"])
    utimesSync(path.join(root, item), inputs, inputs);
  if (bundle !== undefined) {
    mkdirSync(path.dirname(path.join(root, BUNDLE_ENTRY)), { recursive: true });
    writeFileSync(path.join(root, BUNDLE_ENTRY), "");
    utimesSync(path.join(root, BUNDLE_ENTRY), bundle, bundle);
  }
  return root;
}

test("a bundle newer than src/ and its other inputs is used; none, or an older one, is not", () => {
  const fresh = checkout(1000, 2000);
  assert.equal(currentBundle(fresh), path.join(fresh, BUNDLE_ENTRY));
  const none = checkout(1000, undefined);
  assert.equal(currentBundle(none), undefined);
  const old = checkout(3000, 2000);
  assert.equal(currentBundle(old), undefined);
  for (const root of [fresh, none, old]) rmSync(root, { recursive: true });
});

test("one edited file under src/, a removed one, or a changed lock file makes the bundle stale", () => {
  for (const change of ["src/runs/manifest.ts", "src/runs", "package-lock.json"]) {
    const root = checkout(1000, 2000);
    utimesSync(path.join(root, change), 3000, 3000);
    assert.equal(currentBundle(root), undefined, change);
    rmSync(root, { recursive: true });
  }
});
