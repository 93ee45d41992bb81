// Posts written to break a markdown parser: deep nesting, quadratic delimiter runs, huge tables and files.

/** One hostile post: its file name and a maker of its bytes (made on demand: one is 50 MB). */
export interface HostilePost {
  readonly name: string;
  readonly body: () => string;
  /**
   * Slow, not endless: parsed in 2 to 5 s of CPU on an idle 2-core machine (measured with parsePost), so within its
   * deadline there and past it on a loaded one. Either way it is read within its budget; the others never are.
   */
  readonly finite?: true;
}

const post = (body: string) => `---\ntitle: Hostile\n---\n\n${body}\n`;

function lines(n: number, line: (i: number) => string): string {
  const out: string[] = [];
  for (let i = 1; i <= n; i++) out.push(line(i));
  return out.join("\n");
}

export const HOSTILE_POSTS: readonly HostilePost[] = [
  { name: "nested-quotes.mdx", body: () => post(`${"> ".repeat(10_000)}a`) },
  { name: "open-links.mdx", body: () => post("[a](".repeat(50_000)) },
  { name: "stars.mdx", body: () => post("*a".repeat(50_000)) },
  { name: "nested-lists.mdx", body: () => post(`${"- ".repeat(10_000)}a`) },
  {
    name: "link-definitions.mdx",
    body: () =>
      post(`${lines(50_000, (i) => `[d${i}]: https://e.com/${i}`)}\n\n${lines(2_000, (i) => `See [d${i}].`)}`),
  },
  {
    name: "wide-table.mdx",
    body: () => post(`${"|a".repeat(20_000)}|\n${"|-".repeat(20_000)}|`),
    finite: true,
  },
  { name: "million-headings.mdx", body: () => post(lines(1_000_000, (i) => `## h${i}`)) },
  { name: "quote-triangle.mdx", body: () => post(lines(10_000, (i) => `${">".repeat(i)} a`)) },
  { name: "underscores.mdx", body: () => post("_a".repeat(50_000)), finite: true },
];
