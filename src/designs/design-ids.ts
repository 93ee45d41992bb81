// The designs a run can use: their ids, labels and what each engineered design extends.

/** The study's four designs, run as it ran them. */
export type StudyDesignId = "workflow" | "agent" | "agent-search-first" | "agent-forced";
/** Beyond the study: each extends one study design with one piece of engineering (see src/designs/engineered/). */
export type EngineeredDesignId =
  | "agent-validated"
  | "agent-cite-checked"
  | "workflow-cite-checked"
  | "agent-constrained";
export type DesignId = StudyDesignId | EngineeredDesignId;

export const STUDY_DESIGNS: readonly StudyDesignId[] = ["workflow", "agent", "agent-search-first", "agent-forced"];
export const ENGINEERED_DESIGNS: readonly EngineeredDesignId[] = [
  "agent-validated",
  "agent-cite-checked",
  "workflow-cite-checked",
  "agent-constrained",
];
/** Every design a log may hold, the study's first: tables list them in this order. */
export const DESIGN_IDS: readonly DesignId[] = [...STUDY_DESIGNS, ...ENGINEERED_DESIGNS];
export const DESIGN_LABELS: Readonly<Record<DesignId, string>> = {
  workflow: "one retrieval, one answer",
  agent: "agent loop",
  "agent-search-first": "agent, 'always search first'",
  "agent-forced": "agent, first call forced",
  "agent-validated": "agent, validated calls",
  "agent-cite-checked": "agent, citation checked",
  "workflow-cite-checked": "one retrieval, citation checked",
  "agent-constrained": "agent, constrained first call",
};
/** The study design each engineered design adds to: the paired tests compare them. */
export const EXTENDS: Readonly<Record<EngineeredDesignId, StudyDesignId>> = {
  "agent-validated": "agent-forced",
  "agent-cite-checked": "agent-forced",
  "workflow-cite-checked": "workflow",
  "agent-constrained": "agent-forced",
};

export function isEngineered(design: DesignId): design is EngineeredDesignId {
  return Object.hasOwn(EXTENDS, design);
}

/** Whether a design runs the tool loop: every one but the workflow and the designs that extend it. */
export function isAgentDesign(design: DesignId): boolean {
  return (isEngineered(design) ? EXTENDS[design] : design) !== "workflow";
}
