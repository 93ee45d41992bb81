// Escaping for the report page: text into HTML and SVG, data into a JSON script block that cannot end early.

/** Text for an HTML or SVG text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/**
 * JSON for `<script type="application/json">`, read back with JSON.parse(element.textContent).
 * Every `<` becomes \u003c, so no `</script>` or `<!--` from a model reply can end or bend the block;
 * JSON.parse turns it back into `<`. U+2028/U+2029 are escaped too, so the text is also valid JavaScript.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
