// The report's tables as escaped HTML: a grid, a table's plain section, the paired comparisons, the manifest.
import type { Comparison } from "../scoring/index.ts";
import type { RunManifest } from "../runs/index.ts";
import { comparisonsNote, comparisonTables, hasUnpaired, NO_COMPARISONS, UNPAIRED_NOTE } from "./comparisons-text.ts";
import { escapeHtml } from "./html-escape.ts";
import type { ModelLabel } from "./model-labels.ts";
import { formatInteger, leftOutNotes, type Cell, type LeftOutRun, type TableGrid } from "./tables.ts";

/**
 * A table; the first `textColumns` columns are left-aligned text. Cells never break inside (a number such as 3.0e-8
 * or an interval stays on one line) except in the `wrapColumns`, lists of question ids. Every cell is escaped; the
 * table scrolls sideways in its own box on a narrow screen.
 */
export function htmlTable(
  caption: string,
  header: readonly Cell[],
  rows: readonly (readonly Cell[])[],
  textColumns = 1,
  wrapColumns: readonly number[] = [],
): string {
  const classes = (i: number) => [...(i < textColumns ? ["text"] : []), ...(wrapColumns.includes(i) ? ["wrap"] : [])];
  const cell = (tag: string, v: Cell, i: number) => {
    const c = classes(i);
    return `<${tag}${c.length > 0 ? ` class="${c.join(" ")}"` : ""}>${escapeHtml(String(v))}</${tag}>`;
  };
  return (
    `<div class="table-box"><table><caption>${escapeHtml(caption)}</caption><thead><tr>${header.map((h, i) => cell("th", h, i)).join("")}</tr></thead>` +
    `<tbody>${rows.map((r) => `<tr>${r.map((v, i) => cell("td", v, i)).join("")}</tr>`).join("")}</tbody></table></div>`
  );
}

/** A grid as a table with its notes under it, one paragraph each. */
export function gridHtml(g: TableGrid, textColumns: number): string {
  return htmlTable(g.caption, g.header, g.rows, textColumns) + notesHtml(g.notes);
}

/** A table's plain section of the page: its heading, then its grids with their notes. */
export function tableSectionHtml(title: string, grids: readonly TableGrid[]): string {
  return `<h2>${escapeHtml(title)}</h2>\n${grids.map((g) => gridHtml(g, 2)).join("\n")}`;
}

/** A table's notes, one paragraph each. */
function notesHtml(notes: readonly string[] | undefined): string {
  return (notes ?? []).map((note) => `<p class="note">${escapeHtml(note)}</p>`).join("");
}

export function comparisonsHtml(
  comparisons: readonly Comparison[],
  label: ModelLabel,
  failed: readonly LeftOutRun[] = [],
): string {
  const leftOut = notesHtml(leftOutNotes(failed));
  if (comparisons.length === 0) return `<p class="note">${escapeHtml(NO_COMPARISONS)}</p>${leftOut}`;
  // The last two columns list the questions that flip, the only cells that may wrap.
  const tables = comparisonTables(comparisons, label)
    .map((t) => htmlTable(t.title, t.header, t.rows, 2, [t.header.length - 2, t.header.length - 1]))
    .join("");
  const unpaired = hasUnpaired(comparisons) ? `<p class="note">${escapeHtml(UNPAIRED_NOTE)}</p>` : "";
  return `<p class="note">${escapeHtml(comparisonsNote(comparisons))}</p>${tables}${unpaired}${leftOut}`;
}

/**
 * A model's files, template and runtime. On a server in chat mode the server renders the prompt, so no template
 * of blogqa's (its sha256 would be the empty string's) and no local runtime applies: the line says so instead.
 */
function modelProvenance(m: RunManifest["models"][number]): string {
  const files = m.files.map((f) => `${f.path} (${formatInteger(f.bytes)} bytes, sha256 ${f.sha256})`).join("; ");
  if (m.server !== undefined) {
    const rendered =
      m.server.mode === "chat"
        ? "prompts rendered by the server (chat mode)"
        : `chat template sha256 ${m.chatTemplateSha256}, rendered by blogqa (completions mode)`;
    return [files, m.architecture, rendered, `served by ${m.server.flavor} at ${m.server.url}`]
      .filter((part) => part !== "")
      .join("; ");
  }
  return `${files}; ${m.architecture}; chat template sha256 ${m.chatTemplateSha256}; ${m.backend}${m.deviceNames.length ? ` on ${m.deviceNames.join(", ")}` : ""}, ${m.gpuLayers} GPU layers, ${m.threads} CPU thread(s); node-llama-cpp ${m.nodeLlamaCppVersion}, llama.cpp ${m.llamaCppRelease}`;
}

/** What produced the numbers, from manifest.json; a note when the folder has none. */
export function manifestHtml(manifest: RunManifest | null, label: ModelLabel): string {
  if (!manifest)
    return `<p class="note">This folder has no manifest.json: the model files and settings that produced it are not recorded.</p>`;
  const s = manifest.settings;
  const facts: [string, string][] = [
    ["started, finished", `${manifest.started_at}, ${manifest.finished_at ?? "(not finished)"}`],
    [
      "blogqa",
      `${manifest.blogqa.version} ${manifest.blogqa.git_commit ?? "(no git commit)"}${manifest.blogqa.git_dirty ? " with uncommitted changes" : ""}`,
    ],
    ...manifest.models.map((m): [string, string] => [`model ${label(m.id)}`, modelProvenance(m)]),
    [
      "search",
      `${s.retriever}${manifest.embedding ? `, ${manifest.embedding.model} (${manifest.embedding.dtype}, ${manifest.embedding.library})` : ""}`,
    ],
    [
      "corpus",
      `${manifest.corpus.dir}: ${manifest.corpus.posts.length} posts, ${manifest.corpus.sections} sections, sha256 ${manifest.corpus.sha256}`,
    ],
    ["questions", `${manifest.questions.file}: ${manifest.questions.count} asked, sha256 ${manifest.questions.sha256}`],
    [
      "settings",
      `parallel ${s.parallel}, cache reuse ${s.reuse_cache ? "on" : "off"}, at most ${s.max_new_tokens} new tokens and ${s.max_turns} turns, prompts sha256 ${s.prompts_sha256}`,
    ],
    [
      "host",
      `${manifest.host.cpu} (${manifest.host.cores} cores), ${manifest.host.platform}/${manifest.host.arch}, Node ${manifest.host.node}`,
    ],
  ];
  return `<dl class="facts manifest">${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>`;
}
