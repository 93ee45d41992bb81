// Synthetic questions written from a blog's sections (never from the question files): a first word drawn as
// people ask (mostly "Why" and "How"), then the section's heading or words of its first sentence.
import type { Section } from "../../src/corpus/index.ts";
import type { Random } from "./random.ts";

const STOP = new Set(
  "the a an of to in on for and or is are was be by with as at that this it its from into than then which what how why when can does do not you your we our their there these those more most so if but".split(
    " ",
  ),
);

type Template = (topic: string, detail: string) => string;

const TEMPLATES: readonly (readonly [Template, number])[] = [
  [(t, d) => `Why does ${t} matter for ${d}?`, 8],
  [(t, d) => `Why is ${t} needed when ${d}?`, 8],
  [(t, d) => `Why do ${t} and ${d} go together?`, 6],
  [(t) => `Why might ${t} fail in practice?`, 4],
  [(t, d) => `Why should ${d} use ${t}?`, 3],
  [(t, d) => `How does ${t} work with ${d}?`, 8],
  [(t, d) => `How can ${t} be used for ${d}?`, 9],
  [(t) => `How do you choose ${t}?`, 5],
  [(t, d) => `How many ${d} does ${t} need?`, 3],
  [(t) => `What is ${t}?`, 4],
  [(t, d) => `What goes wrong with ${t} and ${d}?`, 2],
  [(t, d) => `Which ${d} matter most for ${t}?`, 3],
  [(t) => `When should ${t} be avoided?`, 3],
  [(t, d) => `Is ${t} worth it for ${d}?`, 2],
  [(t, d) => `Can ${t} help with ${d}?`, 2],
  [(t, d) => `If ${d} changes, what happens to ${t}?`, 2],
  [(t) => `Does ${t} cost much?`, 1],
  [(t, d) => `Where does ${t} show up in ${d}?`, 1],
];

/**
 * Long questions as people write them: runs of the section's own words, in their own case, joined by the clauses
 * real questions use ("and does it", "when", "sized for"), so that copying a 25-word question is something the
 * model has seen.
 */
const LONG_TEMPLATES: readonly (readonly [(run: (n: number) => string) => string, number])[] = [
  [(r) => `How can ${r(6)} be ${r(2)} when ${r(5)}?`, 3],
  [(r) => `Why is it sometimes ${r(1)} to ${r(5)} than to ${r(4)}?`, 2],
  [(r) => `Is ${r(5)} an approximation, and does it ${r(5)}?`, 2],
  [(r) => `Why did ${r(4)}, sized for ${r(3)}, leave ${r(4)}, and how much was really ${r(1)}?`, 2],
  [(r) => `What happens to ${r(4)} when ${r(6)}, and why?`, 2],
  [(r) => `How does ${r(4)} decide ${r(5)}, and what does it cost?`, 2],
  [(r) => `Which ${r(3)} should you pick for ${r(5)}, and why not ${r(3)}?`, 2],
  [(r) => `When a ${r(3)} has ${r(4)}, what ${r(4)}?`, 2],
  [(r) => `If ${r(6)}, should ${r(3)} still ${r(3)}?`, 1],
  [(r) => `Why would ${r(4)} over ${r(4)} give ${r(3)} during ${r(2)}?`, 2],
];

/** One question about `section`: short (its heading or words of its first sentence in a template) or long. */
export function questionFor(section: Section, random: Random): string {
  if (random.next() < 0.4) return longQuestionFor(section, random);
  const words = section.text
    .split(/\s+/)
    .slice(0, 40)
    .map((w) => w.replace(/[^\p{L}\p{N}-]/gu, "").toLowerCase())
    .filter((w) => w.length > 2 && /^\p{L}/u.test(w) && !STOP.has(w));
  const pickRun = (n: number) => {
    if (words.length === 0) return "it";
    const at = Math.floor(random.next() * Math.max(1, words.length - n));
    return words.slice(at, at + n).join(" ");
  };
  const heading = section.heading.replace(/[^\p{L}\p{N} -]/gu, "").toLowerCase();
  const topic = random.next() < 0.5 && heading.length > 0 ? heading : pickRun(2 + Math.floor(random.next() * 2));
  const detail = pickRun(1 + Math.floor(random.next() * 3));
  return random.weighted(TEMPLATES)(topic, detail);
}

function longQuestionFor(section: Section, random: Random): string {
  const words = section.text
    .split(/\s+/)
    .slice(0, 80)
    .map((w) => w.replace(/[^\p{L}\p{N}'-]/gu, ""))
    .filter((w) => w.length > 0);
  const run = (n: number) => {
    if (words.length === 0) return "it";
    const at = Math.floor(random.next() * Math.max(1, words.length - n));
    return words.slice(at, at + n).join(" ");
  };
  return random.weighted(LONG_TEMPLATES)(run);
}
