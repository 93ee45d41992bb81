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

/** One question about `section`: its topic is the heading or, as often, words of its first sentence. */
export function questionFor(section: Section, random: Random): string {
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
