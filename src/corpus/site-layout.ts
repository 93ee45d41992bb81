// Which site generator publishes a blog, as its folder shows, and so how the site names a post (its slug).
import { access } from "node:fs/promises";
import path from "node:path";

/**
 * How a post's slug comes from its file, before a frontmatter `slug` (which always wins):
 * - `file-name`: the file's name without `.mdx`/`.md`, a page bundle's folder name (`my-post/index.mdx`); what Astro,
 *   Next.js and Hugo publish;
 * - `docusaurus`: the same, less the date Docusaurus reads from the path and leaves out of the post's name:
 *   `2024-10-23-new-architecture.mdx`, `2024-10-23-new-architecture/index.md` and `2024/10/23/new-architecture.md`
 *   are all published as `new-architecture`.
 */
export const SLUG_RULES = ["file-name", "docusaurus"] as const;
export type SlugRule = (typeof SLUG_RULES)[number];

export const DEFAULT_SLUG_RULE: SlugRule = "file-name";

export interface SiteLayout {
  readonly slugRule: SlugRule;
  /** What in the folder decided it, for messages and docs ("docusaurus.config.ts in website"). */
  readonly evidence: string | undefined;
}

/** The files that say a folder is a Docusaurus site's blog: the site's config above it, or the blog's authors file. */
const CONFIGS = ["docusaurus.config.js", "docusaurus.config.ts", "docusaurus.config.mjs", "docusaurus.config.cjs"];
const AUTHORS = ["authors.yml", "authors.yaml", "authors.json"];

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * Docusaurus when the content folder holds the blog's `authors.yml` (or `.yaml`, `.json`) or the folder or one of
 * its two parents holds a `docusaurus.config.*` (a site keeps its blog in `blog/` beside the config, or in
 * `website/blog/`); otherwise the file-name rule. Reads nothing but the names.
 */
export async function detectSiteLayout(dir: string): Promise<SiteLayout> {
  for (const name of AUTHORS)
    if (await exists(path.join(dir, name))) return { slugRule: "docusaurus", evidence: `${name} in ${dir}` };
  let folder = path.resolve(dir);
  for (let up = 0; up <= 2; up += 1) {
    for (const name of CONFIGS)
      if (await exists(path.join(folder, name)))
        return { slugRule: "docusaurus", evidence: `${name} in ${path.relative(process.cwd(), folder) || "."}` };
    const parent = path.dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return { slugRule: DEFAULT_SLUG_RULE, evidence: undefined };
}

/**
 * Docusaurus's date in a post's path (its blog plugin's pattern): `YYYY-MM-DD` or `YYYY/MM/DD` (or a mix), then the
 * post's own name, which may end in `/index`. The date must start a path segment.
 */
const DOCUSAURUS_DATE = /(?:^|[/\\])\d{4}[-/\\]\d{1,2}[-/\\]\d{1,2}[-/\\]?(.*?)(?:[/\\]index)?\.mdx?$/;

/** The names that make a file its folder's post (page bundles: `my-post/index.mdx` in Docusaurus, Astro, Hugo). */
const BUNDLE_NAMES = new Set(["index"]);

/**
 * The slug a file gets from where it lies under `rule`: its name without `.mdx` or `.md`, or, for
 * `my-post/index.mdx`, the folder's name; under `docusaurus`, the date before that name is dropped (a path with
 * nothing after its date keeps its file name). `file` may be a relative or absolute path with either separator.
 */
export function slugFromPath(file: string, rule: SlugRule = DEFAULT_SLUG_RULE): string {
  if (rule === "docusaurus") {
    const named = DOCUSAURUS_DATE.exec(file)?.[1];
    const last = named
      ?.split(/[\\/]/)
      .filter((part) => part !== "")
      .pop();
    if (last !== undefined) return last;
  }
  const parts = file.split(/[\\/]/).filter((part) => part !== "");
  const name = (parts.pop() ?? file).replace(/\.mdx?$/, "");
  return BUNDLE_NAMES.has(name) && parts.length > 0 ? parts[parts.length - 1]! : name;
}
