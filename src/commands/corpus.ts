// The corpus commands: thin shells over src/corpus/ (list or sum up sections, check the questions file, how lexical it is).
import type { Argv, CommandModule } from "yargs";
import { ANSWER_OVERLAP_DEFAULTS } from "../corpus/index.ts";
import type { QuestionSetStats } from "../search/index.ts";
import { checkedOptions, contentOption, jsonOption, questionsOption, type BuiltArgs } from "./options.ts";
import { io, say, warn } from "./io.ts";

const sectionsBuilder = (y: Argv) =>
  checkedOptions(y, {
    ...contentOption,
    summary: {
      type: "boolean",
      default: false,
      describe:
        "Instead, per post: its slug, its file, its sections at each level, its longest section; and what was left out, and why",
    },
  });

const sections: CommandModule<object, BuiltArgs<typeof sectionsBuilder>> = {
  command: "sections",
  describe: "Print every section of the blog as one JSON object a line: {post, heading, level, text}",
  builder: sectionsBuilder,
  handler: async (argv) => {
    const { formatCorpusSummary, summarizeCorpus } = await import("../corpus/index.ts");
    const { READ_SECTION_MAX_WORDS } = await import("../designs/index.ts");
    const { openRunInputs } = await import("../runs/index.ts");
    if (argv.summary) {
      // The summary lists what was left out itself, so the loader's note would only say it twice.
      const { corpus } = await openRunInputs({ settings: argv }, { content: argv.content, note: () => {} });
      io().out(formatCorpusSummary(summarizeCorpus(corpus, READ_SECTION_MAX_WORDS)));
      return;
    }
    const { corpus } = await openRunInputs({ settings: argv }, { content: argv.content, note: warn });
    io().out(`${corpus.sections.map((s) => JSON.stringify(s)).join("\n")}\n`);
  },
};

const questionsCheckBuilder = (y: Argv) =>
  checkedOptions(y, {
    ...questionsOption,
    ...contentOption,
    overlap: {
      type: "boolean",
      default: false,
      describe:
        "Also list, per question (per half of a two-post one), the sections of other posts whose content terms " +
        "overlap its section's by at least --overlap-threshold and that hold as many of the question's words: " +
        "possible second right answers, to review (the exit status does not change)",
    },
    "overlap-threshold": {
      type: "number",
      default: ANSWER_OVERLAP_DEFAULTS.threshold,
      range: { whole: false, min: 0, max: 1 },
      describe: "Least overlap (0 to 1: the geometric mean of the two sections' shared term weight) to list",
    },
  });

const questionsCheck: CommandModule<object, BuiltArgs<typeof questionsCheckBuilder>> = {
  command: "check",
  describe:
    "Check the questions file against the blog: valid JSON lines with id, question, and post and heading (or, for a " +
    "question needing two posts, posts: [a, b] and headings: [ha, hb], and optionally details: [da, db]); ids " +
    "unique; every post and heading in the indexed corpus; each key fact (facts) stated in a gold section (either, " +
    "for two posts), and none weak: no accepted phrasing a single word found in a quarter of the posts, made of the " +
    "question's own words, stated by both gold sections of a two-post question, or, in a yes/no question, still " +
    'stated by its own negation ("not equivalent" states "equivalent"), unless the line clears it with ' +
    "a reason (cleared: [{fact, rule, reason}]). Prints how many questions each post has, and warns (on stderr, exit 0) when it is not the " +
    "study's 3 per post. Exits 1 naming file:line for each problem. With --overlap, then lists for each question " +
    "the sections of other posts that " +
    "may answer it as well as its own",
  builder: questionsCheckBuilder,
  handler: async (argv) => {
    const { checkQuestionSet, problemsError, readQuestionsFile } = await import("../corpus/index.ts");
    const { bm25Terms } = await import("../search/index.ts");
    const { openRunInputs } = await import("../runs/index.ts");
    const { corpus } = await openRunInputs({ settings: argv }, { content: argv.content, note: warn });
    const check = checkQuestionSet(await readQuestionsFile(argv.questions), corpus, {
      file: argv.questions,
      content: argv.content,
      terms: bm25Terms,
      ...(argv.overlap ? { overlapThreshold: argv["overlap-threshold"] } : {}),
    });
    if (!check.ok) throw problemsError(`${argv.questions}: bad questions`, check.problems);
    for (const line of check.report) say(line);
    if (check.warning !== undefined) warn(check.warning);
    if (check.overlaps !== undefined) say(check.overlaps);
  },
};

const questionsStatsBuilder = (y: Argv) => checkedOptions(y, { ...questionsOption, ...contentOption, ...jsonOption });

const questionsStats: CommandModule<object, BuiltArgs<typeof questionsStatsBuilder>> = {
  command: "stats",
  describe:
    "How lexical the questions are, in BM25's terms (stop words out, stemmed): per question and on average, the share of " +
    "its content words found in its section, in its post's title, and in any other post; and whether it holds all of its post's slug words",
  builder: questionsStatsBuilder,
  handler: async (argv) => {
    const { questionStats } = await import("../search/index.ts");
    const { openRunInputs } = await import("../runs/index.ts");
    const { corpus, questions } = await openRunInputs(
      { settings: argv },
      { content: argv.content, questions: argv.questions, note: warn },
    );
    const stats = questionStats(corpus, questions);
    say(argv.json ? JSON.stringify(stats) : statsTable(argv.questions, stats));
  },
};

function statsTable(file: string, stats: QuestionSetStats): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const header = ["id", "words", "in section", "in title", "in other posts", "slug words"];
  const rows = stats.questions.map((q) => [
    q.id,
    String(q.terms),
    pct(q.in_section),
    pct(q.in_title),
    pct(q.in_other_posts),
    `${q.slug_terms_found}/${q.slug_terms}${q.names_slug ? " (names it)" : ""}`,
  ]);
  const t = stats.total;
  rows.push([
    "mean",
    "",
    pct(t.in_section),
    pct(t.in_title),
    pct(t.in_other_posts),
    `${t.names_slug} name their slug, ${t.slug_terms_any} use a slug word`,
  ]);
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [`${file}: ${t.questions} questions`, "", line(header), line(header.map(() => "---")), ...rows.map(line)].join(
    "\n",
  );
}

const questions: CommandModule<object, object> = {
  command: "questions",
  describe: "Work with the questions file (see: questions check, questions stats)",
  builder: (y) =>
    y.command(questionsCheck).command(questionsStats).demandCommand(1, "Name a questions subcommand: check or stats"),
  handler: () => {},
};

/** Registers this file's commands on the command line. */
export const corpusCommands = (y: Argv): Argv => y.command(sections).command(questions);
