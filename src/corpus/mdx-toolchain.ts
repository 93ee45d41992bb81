// The one door to the MDX toolchain (unified, remark and micromark): required on the first body parsed, so a
// command that reads no post never loads it. Synchronous (Node runs these ES modules under require), as parsing is.
import { createRequire } from "node:module";
import type { Processor } from "unified";

/** The three parsers the corpus uses, frozen once. */
export interface MdxParsers {
  /** MDX, with GFM, math and directives: how a `.mdx` post's body is read. */
  readonly mdx: Processor;
  /** Plain markdown with GFM, math and directives: a `.md` post's body (no JSX or ESM). */
  readonly markdown: Processor;
  /** Plain markdown with GFM alone: the plain text of a snippet. */
  readonly gfm: Processor;
}

let parsers: MdxParsers | undefined;

export function mdxParsers(): MdxParsers {
  if (parsers !== undefined) return parsers;
  const require = createRequire(import.meta.url);
  const { unified } = require("unified") as typeof import("unified");
  const remarkParse = (require("remark-parse") as typeof import("remark-parse")).default;
  const remarkMdx = (require("remark-mdx") as typeof import("remark-mdx")).default;
  const remarkGfm = (require("remark-gfm") as typeof import("remark-gfm")).default;
  const remarkMath = (require("remark-math") as typeof import("remark-math")).default;
  const remarkDirective = (require("remark-directive") as typeof import("remark-directive")).default;
  parsers = {
    // Math first matters: without it MDX reads `$e^{x_i}$` as a JavaScript expression and `$y_{<t}$` as broken JSX.
    // Directives are Docusaurus's admonitions (`:::tip[Title]` ... `:::`), read with the major version Docusaurus 3
    // uses: 3.x reads no `:2` in "1:2" as a directive, which 4.x does.
    mdx: unified()
      .use(remarkParse)
      .use(remarkMdx)
      .use(remarkGfm)
      .use(remarkMath)
      .use(remarkDirective)
      .freeze() as unknown as Processor,
    // Plain markdown (`.md`) has no JSX or ESM: `<b>` is raw HTML and "export PATH first" is a sentence.
    markdown: unified()
      .use(remarkParse)
      .use(remarkGfm)
      .use(remarkMath)
      .use(remarkDirective)
      .freeze() as unknown as Processor,
    gfm: unified().use(remarkParse).use(remarkGfm).freeze() as unknown as Processor,
  };
  return parsers;
}
