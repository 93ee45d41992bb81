// Values quoted in an error line come from users' files and models: a fact with 20,000 phrasings, a megabyte reply.
// Clipped, a line stays one a person can read, and says how much was left out.

/** `text` cut to `max` characters, with how many more there were; unchanged when it fits. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const more = text.length - max;
  return `${text.slice(0, max)}… (${more.toLocaleString("en-US")} more character${more === 1 ? "" : "s"})`;
}

/** Each line of a message clipped alike: a list of problems keeps every problem, each readable. */
export function clipLines(message: string, max: number): string {
  return message
    .split("\n")
    .map((line) => clipText(line, max))
    .join("\n");
}
