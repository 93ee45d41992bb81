// Reads the report's own SVG strings back for tests: each element's tag, attributes and direct text, in document
// order, with the class names of the groups it sits in.

export interface SvgElement {
  readonly tag: string;
  readonly attrs: Readonly<Record<string, string>>;
  /** The text up to the next tag (a <text>'s letters), entities decoded. */
  readonly text: string;
  /** The classes of the <g> elements around it, outermost first. */
  readonly groups: readonly string[];
  /** Its position in document order. */
  readonly index: number;
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

export function svgElements(svg: string): SvgElement[] {
  const out: SvgElement[] = [];
  const groups: string[] = [];
  const tag = /<(\/?)([a-zA-Z]+)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>([^<]*)/g;
  for (let m = tag.exec(svg); m !== null; m = tag.exec(svg)) {
    const [, closing, name, rawAttrs, selfClosing, text] = m;
    if (closing) {
      if (name === "g") groups.pop();
      continue;
    }
    const attrs = Object.fromEntries(
      [...rawAttrs!.matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, k, v]) => [k!, decode(v!)] as const),
    );
    out.push({ tag: name!, attrs, text: decode(text!), groups: [...groups], index: out.length });
    if (name === "g" && !selfClosing) groups.push(attrs.class ?? "");
  }
  return out;
}

/** A number attribute, or a failed test. */
export function num(e: SvgElement, name: string): number {
  const v = Number(e.attrs[name]);
  if (e.attrs[name] === undefined || !Number.isFinite(v)) throw new Error(`<${e.tag}> has no number ${name}`);
  return v;
}
