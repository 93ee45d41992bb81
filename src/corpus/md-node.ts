// The shape of the mdast nodes (with MDX's and the estree's) that the corpus stage reads: only the fields it uses.

export interface Point {
  readonly line: number;
  readonly column: number;
  readonly offset?: number;
}

/** One mdast node: `type` says which; the other fields are there for the types that have them. */
export interface MdNode {
  readonly type: string;
  readonly position?: { readonly start: Point; readonly end: Point };
  readonly children?: readonly MdNode[];
  readonly value?: string;
  /** A heading's 1-6. */
  readonly depth?: number;
  /** An image's description. */
  readonly alt?: string | null;
  readonly url?: string;
  /** A JSX element's tag name; null for a fragment. */
  readonly name?: string | null;
  readonly attributes?: readonly JsxAttribute[];
  /** A code block's language (after the fence). */
  readonly lang?: string | null;
  /** `directiveLabel`: this paragraph is a directive's `[label]` (an admonition's title), not its body. */
  readonly data?: { readonly directiveLabel?: boolean };
}

export interface JsxAttribute {
  /** `mdxJsxAttribute` (`a="v"`, `a={expr}`, `a`) or `mdxJsxExpressionAttribute` (`{...props}`). */
  readonly type: string;
  readonly name?: string;
  readonly value?: string | null | { readonly value: string; readonly data?: { readonly estree?: unknown } };
}

/**
 * `text` without the indentation its node's first line had in the source (up to that many spaces or tabs off each
 * later line): a paragraph or fence indented inside `<TabItem>` reads as it would at the margin.
 */
export function dedented(node: MdNode, text: string): string {
  const indent = (node.position?.start.column ?? 1) - 1;
  if (indent <= 0 || !text.includes("\n")) return text;
  const margin = new RegExp(`\\n[ \\t]{0,${indent}}`, "g");
  return text.replace(margin, "\n");
}

/** A node's start and end offsets in the text it was parsed from. */
export function span(node: MdNode): { readonly start: number; readonly end: number } {
  return { start: node.position?.start.offset ?? 0, end: node.position?.end.offset ?? 0 };
}
