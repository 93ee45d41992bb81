// Which scored runs ended on a reply cut at the token limit: an answer that may stop mid-sentence or before its Source.
import type { AnswerRecord } from "../runs/index.ts";
import type { DesignId } from "../designs/index.ts";

export interface CutRun {
  readonly model: string;
  readonly design: DesignId;
  readonly question_id: string;
}

/** Runs whose last model call stopped at the token limit (stopReason "max-tokens"), in log order. */
export function cutAtTokenLimit(records: readonly AnswerRecord[]): CutRun[] {
  return records
    .filter((r) => r.outcome !== "error" && r.transcript.calls.at(-1)?.record.stopReason === "max-tokens")
    .map((r) => ({ model: r.model, design: r.design, question_id: r.question_id }));
}

/** The cut runs by design (and model, when the log has several), in log order: "agent" -> ["q03", "q07"]. */
export function tokenLimitGroups(
  cut: readonly CutRun[],
  label: (model: string) => string = (m) => m,
): [string, string[]][] {
  const several = new Set(cut.map((r) => r.model)).size > 1;
  const groups = new Map<string, string[]>();
  for (const r of cut) {
    const key = several ? `${label(r.model)} ${r.design}` : r.design;
    groups.set(key, [...(groups.get(key) ?? []), r.question_id]);
  }
  return [...groups];
}

/**
 * "token limit: 33 runs' last reply stopped at the --max-new-tokens limit, so it may be cut short: agent 30,
 * workflow 3", a count per design (models named when the log has several); undefined when none did. A smoke run can
 * cut hundreds: the question ids are in tokenLimitGroups, for the page's details.
 */
export function tokenLimitNote(
  cut: readonly CutRun[],
  label: (model: string) => string = (m) => m,
): string | undefined {
  if (cut.length === 0) return undefined;
  const runs = cut.length === 1 ? "1 run's last reply" : `${cut.length} runs' last reply`;
  const list = tokenLimitGroups(cut, label)
    .map(([key, ids]) => `${key} ${ids.length}`)
    .join(", ");
  return `token limit: ${runs} stopped at the --max-new-tokens limit, so it may be cut short: ${list}`;
}
