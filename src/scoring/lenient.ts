// The study's first scorer (lenient): any mention of the right slug after "Source:" counts, lists included.

/** The answer has a source line at all. */
export function citesAny(answer: string): boolean {
  return answer.includes("Source:");
}

/**
 * The right slug anywhere after the first "Source:", or anywhere in the answer when it has none.
 * Example: "... Source: kv-cache-inference, serving-and-batching" cites kv-cache-inference (leniently).
 */
export function citesRightLenient(answer: string, goldPost: string): boolean {
  const at = answer.indexOf("Source:");
  return (at === -1 ? answer : answer.slice(at + "Source:".length)).includes(goldPost);
}
