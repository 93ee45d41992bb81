// The report's tables as escaped HTML: the study's table, the strict rescore, the paired comparisons, the manifest.
import type { Comparison, StrictRow, StudyRow } from "../scoring/index.ts";
import { VARIANT_LABELS, type RunManifest } from "../study/index.ts";
import { COMPARISONS_NOTE, comparisonTables, hasUnpaired, NO_COMPARISONS, UNPAIRED_NOTE } from "./comparisons-text.ts";
import { escapeHtml } from "./html-escape.ts";
import { modelLabel, type TableContext } from "./tables.ts";

type Cell = string | number;

/** A table; the first `textColumns` columns are left-aligned text. Every cell is escaped. */
export function htmlTable(caption: string, header: readonly Cell[], rows: readonly (readonly Cell[])[], textColumns = 1): string {
  const cell = (tag: string, v: Cell, i: number) => `<${tag}${i < textColumns ? ' class="text"' : ""}>${escapeHtml(String(v))}</${tag}>`;
  return (
    `<table><caption>${escapeHtml(caption)}</caption><thead><tr>${header.map((h, i) => cell("th", h, i)).join("")}</tr></thead>` +
    `<tbody>${rows.map((r) => `<tr>${r.map((v, i) => cell("td", v, i)).join("")}</tr>`).join("")}</tbody></table>`
  );
}

const int = (x: number) => Math.round(x).toLocaleString("en-US");

/** The study's first table (lenient cites right), one per model, headed as the study headed it. */
export function studyTablesHtml(rows: readonly StudyRow[], context: TableContext): string {
  const models = [...new Set(rows.map((r) => r.model))];
  return models
    .map((model) =>
      htmlTable(
        `${int(context.sections)} sections; ${context.questions} questions; ${modelLabel(model)}, greedy`,
        ["design", "found", "cites any", "cites right", "model calls", "tool calls", "last context", "tokens read", "no tool", "malformed", "errors"],
        rows
          .filter((r) => r.model === model)
          .map((r) => [
            VARIANT_LABELS[r.variant],
            r.found,
            r.cites_any,
            r.cites_right,
            r.model_calls.toFixed(1),
            r.tool_calls.toFixed(1),
            int(r.last_context),
            int(r.tokens_read),
            r.no_tool,
            r.malformed,
            r.errors,
          ]),
      ),
    )
    .join("");
}

export function strictTableHtml(rows: readonly StrictRow[]): string {
  return htmlTable(
    "Strict rescore (source line: none / one real post / several / placeholder or invented), with grounded citations",
    ["model", "design", "found", "cites right", "none", "one real", "several", "invented", "cites right, grounded", "citations grounded"],
    rows.map((r) => [
      modelLabel(r.model),
      VARIANT_LABELS[r.variant],
      r.found,
      r.cites_right,
      r.source_none,
      r.source_one_real,
      r.source_several,
      r.source_invented,
      r.cites_right_grounded,
      r.citations_grounded,
    ]),
    2,
  );
}

export function comparisonsHtml(comparisons: readonly Comparison[]): string {
  if (comparisons.length === 0) return `<p class="note">${escapeHtml(NO_COMPARISONS)}</p>`;
  const tables = comparisonTables(comparisons).map((t) => htmlTable(t.title, t.header, t.rows, 2)).join("");
  const unpaired = hasUnpaired(comparisons) ? `<p class="note">${escapeHtml(UNPAIRED_NOTE)}</p>` : "";
  return `<p class="note">${escapeHtml(COMPARISONS_NOTE)}</p>${tables}${unpaired}`;
}

/** What produced the numbers, from manifest.json; a note when the folder has none. */
export function manifestHtml(manifest: RunManifest | null): string {
  if (!manifest) return `<p class="note">This folder has no manifest.json: the model files and settings that produced it are not recorded.</p>`;
  const s = manifest.settings;
  const facts: [string, string][] = [
    ["started, finished", `${manifest.started_at}, ${manifest.finished_at ?? "(not finished)"}`],
    ["blogqa", `${manifest.blogqa.version} ${manifest.blogqa.git_commit ?? "(no git commit)"}${manifest.blogqa.git_dirty ? " with uncommitted changes" : ""}`],
    ...manifest.models.map((m): [string, string] => [
      `model ${modelLabel(m.id)}`,
      `${m.files.map((f) => `${f.path} (${int(f.bytes)} bytes, sha256 ${f.sha256})`).join("; ")}; ${m.architecture}; chat template sha256 ${m.chat_template_sha256}; ${m.backend}${m.device_names.length ? ` on ${m.device_names.join(", ")}` : ""}, ${m.gpu_layers} GPU layers; node-llama-cpp ${m.node_llama_cpp}, llama.cpp ${m.llama_cpp}`,
    ]),
    ["search", `${s.retriever}${manifest.embedding ? `, ${manifest.embedding.model} (${manifest.embedding.dtype}, ${manifest.embedding.library})` : ""}`],
    ["corpus", `${manifest.corpus.dir}: ${manifest.corpus.posts.length} posts, ${manifest.corpus.sections} sections, sha256 ${manifest.corpus.sha256}`],
    ["questions", `${manifest.questions.file}: ${manifest.questions.count} asked, sha256 ${manifest.questions.sha256}`],
    ["settings", `parallel ${s.parallel}, cache reuse ${s.reuse_cache ? "on" : "off"}, at most ${s.max_new_tokens} new tokens and ${s.max_turns} turns, prompts sha256 ${s.prompts_sha256}`],
    ["host", `${manifest.host.cpu} (${manifest.host.cores} cores), ${manifest.host.platform}/${manifest.host.arch}, Node ${manifest.host.node}`],
  ];
  return `<dl class="facts manifest">${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>`;
}
