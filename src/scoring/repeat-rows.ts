// The rows of the repeated samples' and wordings' tables, from logged records: per design and wording the mean with its
// question-clustered interval, pass@k and pass^k; the workflow against the best agent over questions; and how much
// each design's result moves between wordings.
import { DESIGN_IDS, isAgentDesign, isEngineered, type DesignId } from "../designs/index.ts";
import type { OnePostAnswer } from "../runs/index.ts";
import {
  clusteredBootstrap,
  meanOver,
  passAtK,
  passHatK,
  signedRankExact,
  type MeanInterval,
  type SignedRankTest,
} from "./repeats.ts";
import { wilson, type Proportion } from "./statistics.ts";
import { conditionOf } from "./conditions.ts";
import { citesRightStrict, classifySource } from "./strict.ts";

/** One design under one wording: its samples' means over questions, and pass@k, pass^k of strict cites right. */
export interface RepeatRow {
  readonly model: string;
  readonly design: DesignId;
  readonly wording: string;
  readonly questions: number;
  /** The fewest samples any question has (k runs to it). */
  readonly samples: number;
  readonly cites_right: MeanInterval;
  readonly found: MeanInterval;
  /** pass@k for k = 1..samples. */
  readonly pass_at_k: readonly number[];
  /** pass^k for k = 1..samples. */
  readonly pass_hat_k: readonly number[];
}

/** One design under one (wording, sample) condition: one pass over the questions, with its Wilson interval. */
export interface ConditionRow {
  readonly model: string;
  readonly design: DesignId;
  readonly wording: string;
  readonly sample: number;
  readonly cites_right: Proportion;
}

/**
 * One design over every (wording, sample) condition it ran: the mean over questions of each question's strict
 * cites-right rate across all its conditions, with the question-clustered bootstrap interval.
 */
export interface DesignRateRow {
  readonly model: string;
  readonly design: DesignId;
  readonly questions: number;
  readonly cites_right: MeanInterval;
}

/** The workflow against the model's best study agent, question by question over every wording and sample. */
export interface PairedRateRow {
  readonly model: string;
  /** The study agent with the highest mean strict cites right for this model. */
  readonly agent: DesignId;
  readonly questions: number;
  /** The mean over questions of (workflow's rate - agent's rate), with its question-clustered interval. */
  readonly difference: MeanInterval;
  /** The exact Wilcoxon signed-rank test on those per-question differences. */
  readonly test: SignedRankTest;
  /** The (wording, sample) conditions both ran, and those where the workflow cited right more often. */
  readonly conditions: number;
  readonly workflow_ahead: number;
}

/** One design's strict cites right under each wording, the spread, and the questions that flip. */
export interface SensitivityRow {
  readonly model: string;
  readonly design: DesignId;
  readonly rates: readonly { readonly wording: string; readonly rate: number }[];
  /** Highest rate minus lowest. */
  readonly spread: number;
  /** Questions right (in most of their samples) under one wording and not under another, in question order. */
  readonly flips: readonly string[];
}

interface Run {
  readonly question: string;
  readonly condition: string;
  readonly wording: string;
  readonly sample: number;
  readonly right: boolean;
  readonly found: boolean;
}

/** Strict cites right and found of every one-post record, grouped by model and design in the study's order. */
function runsOf(records: readonly OnePostAnswer[], slugs: readonly string[]) {
  const models = [...new Set(records.map((r) => r.model))];
  return models.flatMap((model) =>
    DESIGN_IDS.map((design) => ({
      model,
      design,
      runs: records
        .filter((r) => r.model === model && r.design === design)
        .map((r): Run => {
          const { wording, sample } = conditionOf(r);
          return {
            question: r.question_id,
            wording,
            sample,
            condition: JSON.stringify([wording, sample]),
            right: citesRightStrict(classifySource(r.answer, slugs), r.gold_post),
            found: r.found,
          };
        }),
    })).filter((g) => g.runs.length > 0),
  );
}

/** Each question's success rate over `runs`, in first-seen order. */
function ratesByQuestion(runs: readonly Run[], measure: (r: Run) => boolean): Map<string, number> {
  const tally = new Map<string, { n: number; c: number }>();
  for (const r of runs) {
    const t = tally.get(r.question) ?? { n: 0, c: 0 };
    tally.set(r.question, { n: t.n + 1, c: t.c + (measure(r) ? 1 : 0) });
  }
  return new Map([...tally].map(([q, t]) => [q, t.c / t.n]));
}

function wordingsOf(runs: readonly Run[]): string[] {
  return [...new Set(runs.map((r) => r.wording))];
}

export function repeatRows(records: readonly OnePostAnswer[], slugs: readonly string[]): RepeatRow[] {
  return runsOf(records, slugs).flatMap(({ model, design, runs }) =>
    wordingsOf(runs).map((wording) => {
      const mine = runs.filter((r) => r.wording === wording);
      const tallies = [...ratesByQuestion(mine, () => true).keys()].map((q) => {
        const of = mine.filter((r) => r.question === q);
        return { n: of.length, c: of.filter((r) => r.right).length };
      });
      const samples = Math.min(...tallies.map((t) => t.n));
      const ks = Array.from({ length: samples }, (_, i) => i + 1);
      return {
        model,
        design,
        wording,
        questions: tallies.length,
        samples,
        cites_right: clusteredBootstrap([...ratesByQuestion(mine, (r) => r.right).values()]),
        found: clusteredBootstrap([...ratesByQuestion(mine, (r) => r.found).values()]),
        pass_at_k: ks.map((k) => meanOver(tallies, (t) => passAtK(t, k))),
        pass_hat_k: ks.map((k) => meanOver(tallies, (t) => passHatK(t, k))),
      };
    }),
  );
}

/** Each design's strict cites right in each (wording, sample) condition, in wording then sample order. */
export function conditionRows(records: readonly OnePostAnswer[], slugs: readonly string[]): ConditionRow[] {
  return runsOf(records, slugs).flatMap(({ model, design, runs }) => {
    const wordings = wordingsOf(runs);
    const conditions = [...new Set(runs.map((r) => r.condition))];
    return conditions
      .map((condition) => runs.filter((r) => r.condition === condition))
      .sort((a, b) => wordings.indexOf(a[0]!.wording) - wordings.indexOf(b[0]!.wording) || a[0]!.sample - b[0]!.sample)
      .map((mine) => ({
        model,
        design,
        wording: mine[0]!.wording,
        sample: mine[0]!.sample,
        cites_right: wilson(mine.filter((r) => r.right).length, mine.length),
      }));
  });
}

/** Each design's strict cites right over all its conditions, question by question, in the study's order. */
export function designRateRows(records: readonly OnePostAnswer[], slugs: readonly string[]): DesignRateRow[] {
  return runsOf(records, slugs).map(({ model, design, runs }) => {
    const rates = [...ratesByQuestion(runs, (r) => r.right).values()];
    return { model, design, questions: rates.length, cites_right: clusteredBootstrap(rates) };
  });
}

/** Per model that ran the workflow and a study agent: the paired comparison over questions. */
export function pairedRateRows(records: readonly OnePostAnswer[], slugs: readonly string[]): PairedRateRow[] {
  const groups = runsOf(records, slugs);
  return [...new Set(groups.map((g) => g.model))].flatMap((model) => {
    const workflow = groups.find((g) => g.model === model && g.design === "workflow");
    const agents = groups.filter((g) => g.model === model && isAgentDesign(g.design) && !isEngineered(g.design));
    if (workflow === undefined || agents.length === 0) return [];
    const mean = (runs: readonly Run[]) => runs.filter((r) => r.right).length / runs.length;
    // The first of the best, in the study's order, so that a tie names the same agent every time.
    const best = agents.reduce((a, b) => (mean(b.runs) > mean(a.runs) ? b : a));
    const w = ratesByQuestion(workflow.runs, (r) => r.right);
    const a = ratesByQuestion(best.runs, (r) => r.right);
    const differences = [...w.keys()].filter((q) => a.has(q)).map((q) => w.get(q)! - a.get(q)!);
    const conditions = [...new Set(workflow.runs.map((r) => r.condition))].filter((c) =>
      best.runs.some((r) => r.condition === c),
    );
    const ahead = conditions.filter((c) => {
      const questions = new Set(best.runs.filter((r) => r.condition === c).map((r) => r.question));
      const shared = (runs: readonly Run[]) => runs.filter((r) => r.condition === c && questions.has(r.question));
      const mineHere = shared(workflow.runs);
      const theirs = best.runs.filter((r) => r.condition === c && mineHere.some((m) => m.question === r.question));
      return mineHere.filter((r) => r.right).length > theirs.filter((r) => r.right).length;
    });
    return [
      {
        model,
        agent: best.design,
        questions: differences.length,
        difference: clusteredBootstrap(differences),
        test: signedRankExact(differences),
        conditions: conditions.length,
        workflow_ahead: ahead.length,
      },
    ];
  });
}

/** Per model and design that ran under more than one wording: how far its strict cites right moves between them. */
export function sensitivityRows(records: readonly OnePostAnswer[], slugs: readonly string[]): SensitivityRow[] {
  return runsOf(records, slugs).flatMap(({ model, design, runs }) => {
    const wordings = wordingsOf(runs);
    if (wordings.length < 2) return [];
    const rates = wordings.map((wording) => {
      const mine = runs.filter((r) => r.wording === wording);
      return { wording, rate: mine.filter((r) => r.right).length / mine.length };
    });
    const byWording = wordings.map((wording) =>
      ratesByQuestion(
        runs.filter((r) => r.wording === wording),
        (r) => r.right,
      ),
    );
    const questions = [...new Set(runs.map((r) => r.question))];
    const flips = questions.filter((q) => {
      const verdicts = byWording.filter((m) => m.has(q)).map((m) => m.get(q)! > 0.5);
      return verdicts.includes(true) && verdicts.includes(false);
    });
    const values = rates.map((r) => r.rate);
    return [{ model, design, rates, spread: Math.max(...values) - Math.min(...values), flips }];
  });
}
