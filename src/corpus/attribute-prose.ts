// The prose a JSX element's attributes hold (alt, caption, title...), wherever it sits: plain, object literal, nested JSX.
import type { JsxAttribute, MdNode } from "./md-node.ts";
import { drop, type ReadStats, sawSyntax } from "./read-stats.ts";
import { stripTags } from "./jsx-tags.ts";

/**
 * The attributes whose string values are prose a reader sees (`<Highlight text="..."/>`, `<Figure caption="..."/>`,
 * an image's alt): kept in a section's text where the element was. Other attributes (`src`, `href`, `type`) are markup.
 */
export const PROSE_ATTRIBUTES: readonly string[] = ["text", "caption", "title", "alt", "label"];

/** Markup inside a value (`"Flow: <div>a</div>"`) goes too; its words, on one line, are what is kept. */
const oneLine = (value: string): string => stripTags(value).replace(/\s+/g, " ").trim();

/** An estree node: only what the walk below reads. */
interface EsNode {
  readonly type: string;
  readonly [field: string]: unknown;
}

const isNode = (value: unknown): value is EsNode =>
  typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";

/** A string literal's value, or a template literal's when it has no `${}`; undefined for anything else. */
function stringOf(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && (node.expressions as unknown[]).length === 0)
    return ((node.quasis as { value: { cooked?: string } }[])[0]?.value.cooked ?? "") as string;
  if (node.type === "JSXExpressionContainer") return stringOf(node.expression);
  return undefined;
}

/** `Foo`, `Foo.Bar`, `svg:rect` as written. */
function jsxName(name: unknown): string {
  if (!isNode(name)) return "";
  if (name.type === "JSXIdentifier") return String(name.name);
  if (name.type === "JSXMemberExpression") return `${jsxName(name.object)}.${jsxName(name.property)}`;
  if (name.type === "JSXNamespacedName") return `${jsxName(name.namespace)}:${jsxName(name.name)}`;
  return "";
}

const keyName = (key: unknown): string | undefined =>
  isNode(key) ? (key.type === "Identifier" ? String(key.name) : stringOf(key)) : undefined;

/**
 * Walks an attribute's expression: an object literal's prose keys (`{ alt: "x" }`, kept as `<tag attr.alt>`), JSX
 * nested in it (its own prose attributes and its children's text), and anything holding those. Other code is code.
 */
function walkExpression(
  node: unknown,
  where: { tag: string; attribute: string },
  prose: ReadonlySet<string>,
  out: Out,
) {
  if (Array.isArray(node)) {
    for (const item of node) walkExpression(item, where, prose, out);
    return;
  }
  if (!isNode(node)) return;
  if (node.type === "Property") {
    const key = keyName(node.key);
    const value = stringOf(node.value);
    if (key !== undefined && prose.has(key) && value !== undefined) {
      out.keep(value, where.tag, `${where.attribute}.${key}`);
      return;
    }
    walkExpression(node.value, { tag: where.tag, attribute: `${where.attribute}.${key ?? "?"}` }, prose, out);
    return;
  }
  if (node.type === "JSXElement") {
    const opening = node.openingElement as EsNode;
    const tag = jsxName(opening.name);
    for (const attribute of opening.attributes as EsNode[]) {
      if (attribute.type !== "JSXAttribute") continue;
      const name = jsxName(attribute.name);
      const value = stringOf(attribute.value);
      if (prose.has(name) && value !== undefined) out.keep(value, tag, name);
      else walkExpression(attribute.value, { tag, attribute: name }, prose, out);
    }
    walkChildren(node.children as EsNode[], tag, prose, out);
    return;
  }
  if (node.type === "JSXFragment") {
    walkChildren(node.children as EsNode[], "", prose, out);
    return;
  }
  for (const [field, value] of Object.entries(node)) {
    if (field !== "loc" && field !== "range" && field !== "position") walkExpression(value, where, prose, out);
  }
}

/** JSX children inside an expression are text a reader sees, as an element's children in the post are. */
function walkChildren(children: readonly EsNode[], tag: string, prose: ReadonlySet<string>, out: Out) {
  for (const child of children) {
    if (child.type === "JSXText") out.keep(String(child.value), tag, "(children)");
    else walkExpression(child, { tag, attribute: "(children)" }, prose, out);
  }
}

interface Out {
  keep(value: string, tag: string, attribute: string): void;
}

/** The estree an expression attribute's value carries, if remark-mdx parsed one. */
function estreeOf(value: JsxAttribute["value"]): unknown {
  return typeof value === "object" && value !== null ? value.data?.estree : undefined;
}

/**
 * Docusaurus's `<TabItem value="npm">` shows its value as the tab's name when it has no label: then the value is
 * the label, the one name a reader has for the code under it.
 */
function tabValueAsLabel(element: MdNode, prose: ReadonlySet<string>): string | undefined {
  if (element.name !== "TabItem" || !prose.has("label")) return undefined;
  const named = (name: string) => element.attributes?.find((a) => a.type === "mdxJsxAttribute" && a.name === name);
  const value = named("value")?.value;
  return named("label") === undefined && typeof value === "string" ? "value" : undefined;
}

/**
 * The words of an element's prose attributes, in order, each value on one line; records in `stats` what was kept and
 * counts the attributes that gave nothing (markup such as `src`, spreads, code) as dropped. A value the element
 * already gave (`<img alt="X" title="X">`) is not said twice.
 */
export function attributeProse(element: MdNode, prose: ReadonlySet<string>, stats: ReadStats): string[] {
  const words: string[] = [];
  const tag = element.name ?? "";
  const tabValue = tabValueAsLabel(element, prose);
  for (const attribute of element.attributes ?? []) {
    let gave = false;
    const out: Out = {
      keep(value, at, name) {
        const text = oneLine(value);
        if (text === "") return;
        gave = true;
        if (words.includes(text)) return;
        words.push(text);
        stats.kept.push({ tag: at, attribute: name });
      },
    };
    const name = attribute.name ?? "";
    if (attribute.type === "mdxJsxAttribute" && typeof attribute.value === "string") {
      if (prose.has(name) || name === tabValue) out.keep(attribute.value, tag, name);
    } else if (attribute.type === "mdxJsxAttribute" && attribute.value !== null && attribute.value !== undefined) {
      const program = estreeOf(attribute.value) as { body?: { expression?: unknown }[] } | undefined;
      const expression = program?.body?.[0]?.expression;
      const direct = stringOf(expression);
      if (prose.has(name) && direct !== undefined) out.keep(direct, tag, name);
      else walkExpression(expression, { tag, attribute: name }, prose, out);
    }
    if (!gave) drop(stats, "JSX attribute");
  }
  if (tag === "TabItem" && words.length > 0) sawSyntax(stats, "tab label");
  return words;
}
