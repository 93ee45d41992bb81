// The withheld-source test's index: the run's BlogIndex with a question's gold section (or whole post) taken out.
import type { BlogIndex } from "./tools.ts";

/** What `run --withhold` leaves out of the index for each question's runs. */
export const WITHHOLD_MODES = ["none", "gold", "gold-post"] as const;
export type WithholdMode = (typeof WITHHOLD_MODES)[number];

/** The gold a question is answered from: its posts and, in the same order, their headings. */
export interface Gold {
  readonly posts: readonly string[];
  readonly headings: readonly string[];
}

/**
 * The index as the question's runs see it: searches never return a withheld section, read_section finds none, and
 * with gold-post the post is gone from the post list as well. The ranking is the whole index's with the withheld
 * sections dropped (BM25's statistics still count them, as one index serves every question), so the hits that remain
 * keep their order.
 */
export function withheldIndex(index: BlogIndex, gold: Gold, mode: WithholdMode): BlogIndex {
  if (mode === "none") return index;
  const wholePost = mode === "gold-post";
  const withheld = (post: string, heading: string) =>
    gold.posts.some((p, i) => p === post && (wholePost || gold.headings[i] === heading));
  const hidden = wholePost
    ? gold.posts.reduce((n, post) => n + (index.headings(post)?.length ?? 0), 0)
    : gold.posts.length;
  return {
    async search(query, k = 3) {
      const hits = await index.search(query, k + hidden);
      return hits.filter((h) => !withheld(h.post, h.heading)).slice(0, k);
    },
    section: (post, heading) => (withheld(post, heading) ? undefined : index.section(post, heading)),
    posts: () => (wholePost ? index.posts().filter((p) => !gold.posts.includes(p)) : index.posts()),
    headings(post) {
      if (wholePost && gold.posts.includes(post)) return undefined;
      return index.headings(post)?.filter((h) => !withheld(post, h));
    },
  };
}
