// Whether the browser tests can run here: they need Debian's chromium, which .ci/run installs (and requires).
import { existsSync } from "node:fs";

export const CHROMIUM = "/usr/bin/chromium";

/**
 * The `skip` option of a browser test: false when Chromium is there; otherwise a message saying how to get it.
 * BLOGQA_SKIP_BROWSER=1 skips even with Chromium; BLOGQA_REQUIRE_BROWSER=1 (set by .ci/run) turns a missing
 * Chromium into a failure, so CI never passes by skipping.
 */
export function browserSkip(): string | false {
  if (process.env.BLOGQA_SKIP_BROWSER === "1") return "BLOGQA_SKIP_BROWSER=1: browser test of the report page skipped";
  if (existsSync(CHROMIUM)) return false;
  if (process.env.BLOGQA_REQUIRE_BROWSER === "1") {
    throw new Error(
      `${CHROMIUM} not found and BLOGQA_REQUIRE_BROWSER=1: install Debian's chromium package (apt-get install -y chromium)`,
    );
  }
  return `${CHROMIUM} not found: browser test skipped (apt-get install -y chromium runs it)`;
}
