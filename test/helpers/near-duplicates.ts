// Finds passages that say the same thing in nearly the same words in two places (two posts, two questions).
//
// A passage is reduced to its set of word 8-grams ("shingles"); two passages from different groups are near
// duplicates when they share at least `minShared` shingles and those cover at least `minContainment` of the
// smaller passage's shingles. Containment, not Jaccard, because a copied paragraph inside a longer one should
// count as copied. Example: "the cache is divided into fixed-size blocks of sixteen tokens each" (11 words)
// has 4 shingles; a passage containing all of them has containment 1 with it.

/** One unit of text to compare; pairs are only formed across different `group`s (say, two posts). */
export interface Passage {
  readonly group: string;
  /** Where it is, for the report: "post#heading ¶2", a question id. */
  readonly label: string;
  readonly text: string;
}

export interface NearDuplicate {
  readonly a: Passage;
  readonly b: Passage;
  /** Shingles the two share. */
  readonly shared: number;
  /** shared / shingles of the smaller passage. */
  readonly containment: number;
  /** shared / shingles of the union. */
  readonly jaccard: number;
}

export interface NearDuplicateOptions {
  /** Words per shingle (8). */
  readonly n?: number;
  readonly minShared?: number;
  readonly minContainment?: number;
}

/** Defaults measured on content/posts: see the corpus lint test for the distribution they sit in. */
export const NEAR_DUPLICATE_DEFAULTS = { n: 8, minShared: 4, minContainment: 0.1 } as const;

/** Lowercased words, a Markdown link reduced to its anchor text (a link's URL repeats another post's slug). */
export function words(text: string): string[] {
  const unlinked = text.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
  return unlinked.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function shingles(text: string, n: number = NEAR_DUPLICATE_DEFAULTS.n): Set<string> {
  const w = words(text);
  const out = new Set<string>();
  for (let i = 0; i + n <= w.length; i++) out.add(w.slice(i, i + n).join(" "));
  return out;
}

/** A section's text cut at blank lines (a code block with blank lines yields several passages; that is fine). */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** Every cross-group pair over the thresholds, most contained first. */
export function findNearDuplicates(passages: readonly Passage[], options: NearDuplicateOptions = {}): NearDuplicate[] {
  const { n, minShared, minContainment } = { ...NEAR_DUPLICATE_DEFAULTS, ...options };
  const sets = passages.map((p) => shingles(p.text, n));
  // Inverted index shingle -> passage indices, so only pairs that share something are ever compared.
  const holders = new Map<string, number[]>();
  sets.forEach((set, i) => {
    for (const s of set) {
      const list = holders.get(s);
      if (list) list.push(i);
      else holders.set(s, [i]);
    }
  });
  const sharedCount = new Map<number, number>(); // key i * passages.length + j, i < j
  for (const list of holders.values()) {
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const i = list[x]!;
        const j = list[y]!;
        if (passages[i]!.group === passages[j]!.group) continue;
        const key = i * passages.length + j;
        sharedCount.set(key, (sharedCount.get(key) ?? 0) + 1);
      }
    }
  }
  const found: NearDuplicate[] = [];
  for (const [key, shared] of sharedCount) {
    const i = Math.floor(key / passages.length);
    const j = key % passages.length;
    const sizeA = sets[i]!.size;
    const sizeB = sets[j]!.size;
    const containment = shared / Math.min(sizeA, sizeB);
    const jaccard = shared / (sizeA + sizeB - shared);
    if (shared >= minShared && containment >= minContainment) {
      found.push({ a: passages[i]!, b: passages[j]!, shared, containment, jaccard });
    }
  }
  return found.sort((x, y) => y.containment - x.containment || y.shared - x.shared);
}

/** One line per pair, for a test's failure message. */
export function describeNearDuplicate(d: NearDuplicate): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  return `${d.a.label} <> ${d.b.label}: ${d.shared} shared word n-grams, containment ${pct(d.containment)}, Jaccard ${pct(d.jaccard)}`;
}
