// How a blog reads to the model: one digest over its sections as the designs show them, and the one line that says a
// folder's answers came from another reading of the same posts (another blogqa's parser, or other dependencies).
import type { Corpus, Section } from "../corpus/index.ts";
import { describeFsError, sha256Hex, UserError } from "../common/index.ts";
import { blogqaVersion, type RunManifest } from "./manifest.ts";
import { openRunInputs } from "./run-inputs.ts";

/**
 * sha256 over every section as search results and read_section show it (post, heading and text), in the corpus'
 * order. The corpus sha256 covers the files' bytes; this covers what the parse made of them, which a blogqa version
 * or commit does not pin (an `npm install` may bring other markdown parsers) and which a digest checks directly.
 */
export function readingSha256(sections: readonly Pick<Section, "post" | "heading" | "text">[]): string {
  return sha256Hex(JSON.stringify(sections.map((s) => [s.post, s.heading, s.text])));
}

/** How a folder's recorded reading compares with this blogqa's reading of the same posts. */
export type ReadingCheck =
  /** The same sections, or other posts (which the corpus sha256 already refuses or notes), or no posts to read. */
  | { readonly kind: "same" }
  /** The same bytes read into other sections: `line` says so, both digests and both blogqa versions. */
  | { readonly kind: "differs"; readonly line: string }
  /** A manifest from before the reading was recorded: nothing to check against. */
  | { readonly kind: "unrecorded"; readonly line: string };

/** "0.1.0 (229e729)", "0.1.0 (229e729, with changes)" or "0.1.0": a blogqa as a manifest records it. */
export function describeBlogqa(blogqa: RunManifest["blogqa"]): string {
  if (blogqa.git_commit === null) return blogqa.version;
  return `${blogqa.version} (${blogqa.git_commit.slice(0, 7)}${blogqa.git_dirty ? ", with changes" : ""})`;
}

/**
 * Whether `now` (this blogqa's reading: its version, the posts' sha256 and the sections' digest) reads the folder's
 * posts as the blogqa that wrote `manifest` did. Posts whose bytes differ are another blog, not another reading.
 */
export function checkReading(
  dir: string,
  manifest: RunManifest,
  now: { readonly blogqa: RunManifest["blogqa"]; readonly corpusSha256: string; readonly sectionsSha256: string },
): ReadingCheck {
  if (manifest.corpus.sha256 !== now.corpusSha256) return { kind: "same" };
  const recorded = manifest.corpus.sections_sha256;
  const made = `blogqa ${describeBlogqa(manifest.blogqa)}`;
  if (recorded === undefined)
    return {
      kind: "unrecorded",
      line:
        `${dir} was made by ${made}, which did not record how it read the blog, so blogqa ` +
        `${describeBlogqa(now.blogqa)} cannot check that it reads the same posts into the same sections`,
    };
  if (recorded === now.sectionsSha256) return { kind: "same" };
  return {
    kind: "differs",
    line:
      `${dir} was made by ${made}, which read the same posts into other sections than blogqa ` +
      `${describeBlogqa(now.blogqa)} does (sections sha256 ${recorded.slice(0, 12)} then, ` +
      `${now.sectionsSha256.slice(0, 12)} now): the model was shown other text`,
  };
}

/**
 * The readings a folder's sessions record, where more than one (a resume with --accept-new-reading): "sessions 1-2
 * read 3f2a9c81d0e4, session 3 read 77b0e1a2c3d4"; undefined when one reading (or none recorded) made its answers.
 */
export function mixedReadings(manifest: RunManifest): string | undefined {
  const runs: { digest: string; first: number; last: number }[] = [];
  for (const [i, session] of manifest.sessions.entries()) {
    const digest = session.sections_sha256 ?? "unrecorded";
    const last = runs.at(-1);
    if (last?.digest === digest) last.last = i + 1;
    else runs.push({ digest, first: i + 1, last: i + 1 });
  }
  if (new Set(runs.map((r) => r.digest)).size < 2) return undefined;
  return runs
    .map(
      (r) =>
        `${r.first === r.last ? `session ${r.first}` : `sessions ${r.first}-${r.last}`} read ${r.digest === "unrecorded" ? "a reading it did not record" : r.digest.slice(0, 12)}`,
    )
    .join(", ");
}

/**
 * How this blogqa reads a finished folder's posts (`content`, else the folder its manifest records) against the
 * reading the manifest records: for the commands that read a folder without running it (rescore). "same" where the
 * manifest records no reading or those posts cannot be read here: the scores come from the log either way.
 * `cacheDir` keeps the parsed posts for the next command.
 */
export async function checkFolderReading(
  dir: string,
  manifest: RunManifest,
  content: string | undefined,
  cacheDir?: string,
): Promise<ReadingCheck> {
  if (manifest.corpus.sections_sha256 === undefined) return { kind: "same" };
  let corpus: Corpus;
  try {
    ({ corpus } = await openRunInputs({ manifest }, { content, cacheDir, note: () => {} }));
  } catch (error) {
    if (error instanceof UserError || describeFsError(error) !== undefined) return { kind: "same" };
    throw error;
  }
  return checkReading(dir, manifest, {
    blogqa: blogqaVersion(),
    corpusSha256: corpus.hash,
    sectionsSha256: readingSha256(corpus.sections),
  });
}
