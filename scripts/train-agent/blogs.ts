// The blogs the agent model trains on: ours, and reshaped copies of it (posts renamed, headings reworded, posts
// dropped), so that the model learns to copy the slugs and headings it is shown rather than memorise ours.
import type { Corpus, Post, Section } from "../../src/corpus/index.ts";
import { Random } from "./random.ts";

/** Words new slugs are made of, none a slug of ours, so a reshaped blog never names one of our posts. */
const SLUG_WORDS = [
  "notes",
  "field",
  "guide",
  "primer",
  "deep",
  "dive",
  "practical",
  "inside",
  "tour",
  "basics",
  "lessons",
  "patterns",
  "working",
  "with",
  "hands",
  "on",
  "study",
  "anatomy",
  "tuning",
  "design",
  "cost",
  "limits",
  "fast",
  "small",
  "local",
  "modern",
  "simple",
  "hard",
  "parts",
  "tricks",
  "models",
  "systems",
  "tokens",
  "memory",
  "speed",
  "quality",
  "errors",
  "budget",
  "shape",
  "scale",
  "review",
  "log",
  "draft",
  "two",
  // words of other blogs' topics, so that slugs the model has never read still copy token by token
  "garden",
  "kitchen",
  "bread",
  "coffee",
  "travel",
  "train",
  "river",
  "mountain",
  "music",
  "guitar",
  "piano",
  "money",
  "taxes",
  "budgeting",
  "running",
  "cycling",
  "chess",
  "camera",
  "photo",
  "light",
  "winter",
  "summer",
  "house",
  "repair",
  "wood",
  "paint",
  "school",
  "teaching",
  "reading",
  "writing",
  "history",
  "city",
  "maps",
  "weather",
  "ocean",
  "birds",
  "dogs",
  "cats",
  "health",
  "sleep",
  "food",
  "recipes",
  "soup",
  "tea",
  "wine",
  "football",
  "tennis",
  "market",
  "shop",
  "craft",
  "sewing",
  "knitting",
  "engine",
  "car",
  "bike",
  "boat",
  "stars",
  "space",
  "planets",
  "physics",
  "chemistry",
  "biology",
  "plants",
  "trees",
  "flowers",
  "seeds",
  "soil",
  "water",
  "energy",
  "solar",
  "battery",
  "network",
  "server",
  "database",
  "cache",
  "queue",
  "stream",
  "compiler",
  "parser",
  "kernel",
  "shell",
  "script",
  "browser",
  "mobile",
  "game",
  "puzzle",
  "story",
  "film",
  "theatre",
  "poetry",
  "language",
  "grammar",
  "words",
  "numbers",
  "algebra",
  "geometry",
  "statistics",
  "finance",
  "startup",
  "team",
  "hiring",
  "meetings",
  "habits",
  "focus",
  "walking",
  "hiking",
  "climbing",
  "sourdough",
  "espresso",
  "compost",
  "tomato",
  "pottery",
  "violin",
  "jazz",
  "opera",
  "museum",
  "castle",
];

/**
 * Rewordings that keep a heading's first words: a model that reads a hit copies its heading from the first token,
 * and prefixes and suffixes ("About ...", "..., briefly") taught an earlier model to open every heading it wrote with one.
 */
const HEADING_FORMS: readonly ((h: string) => string)[] = [
  (h) => h,
  (h) => h.toLowerCase(),
  (h) => h.replace(/\b\p{Ll}/gu, (c) => c.toUpperCase()),
];

/**
 * Variant 0 is the blog as it is; every other variant renames each post (a fresh slug from its title's words and
 * the list above), rewords about half of the headings, and keeps 60 to 100 percent of the posts.
 */
export function reshapedBlog(corpus: Corpus, variant: number): Corpus {
  if (variant === 0) return corpus;
  const random = new Random(`blog-${variant}`);
  const keep = 0.6 + 0.4 * random.next();
  const kept = corpus.posts.filter(() => random.next() < keep);
  const posts = (kept.length >= 3 ? kept : corpus.posts.slice(0, 3)).map((p) => p);
  const slugs = freshSlugs(posts, random);
  const reshaped = posts.map((post, i): Post => {
    const slug = slugs[i]!;
    const used = new Set<string>();
    const sections = post.sections.map((s): Section => {
      let heading = random.next() < 0.5 ? random.pick(HEADING_FORMS)(s.heading) : s.heading;
      if (used.has(heading)) heading = s.heading;
      used.add(heading);
      return { ...s, post: slug, heading };
    });
    return { ...post, slug, sections };
  });
  return {
    ...corpus,
    dir: `${corpus.dir}#variant-${variant}`,
    hash: `${corpus.hash}-variant-${variant}`,
    posts: reshaped,
    sections: reshaped.flatMap((p) => p.sections),
  };
}

/** One new slug a post, two or three words long; none is inside another, as blogqa requires of slugs. */
function freshSlugs(posts: readonly Post[], random: Random): string[] {
  const out: string[] = [];
  for (const post of posts) {
    const titleWords = post.title
      .toLowerCase()
      .replace(/[^a-z0-9 ]+/g, " ")
      .split(/\s+/)
      .filter((w) => w.length > 3);
    for (;;) {
      const parts = [random.pick(titleWords.length > 0 ? titleWords : SLUG_WORDS), random.pick(SLUG_WORDS)];
      if (random.next() < 0.5) parts.push(random.pick(SLUG_WORDS));
      const slug = random.next() < 0.5 ? parts.join("-") : parts.reverse().join("-");
      if (!out.some((s) => s.includes(slug) || slug.includes(s))) {
        out.push(slug);
        break;
      }
    }
  }
  return out;
}
