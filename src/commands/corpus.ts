// The corpus commands: thin shells over src/corpus/ (list or sum up sections, check the questions file, how lexical it is).
import type { Argv, CommandModule } from "yargs";
import { ANSWER_OVERLAP_DEFAULTS, factSources, isTwoPost, type Corpus, type Question } from "../corpus/index.ts";
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
    const {
      answerOverlaps,
      checkQuestions,
      checkWeakFacts,
      formatClearedFlags,
      describeQuestionShape,
      formatAnswerOverlaps,
      parseQuestions,
      problemsError,
      questionPosts,
      questionShapeWarning,
      readQuestionsFile,
    } = await import("../corpus/index.ts");
    const { bm25Terms } = await import("../search/index.ts");
    const { openRunInputs } = await import("../runs/index.ts");
    const threshold = argv["overlap-threshold"];
    const { corpus } = await openRunInputs({ settings: argv }, { content: argv.content, note: warn });
    const { questions, problems } = parseQuestions(argv.questions, await readQuestionsFile(argv.questions));
    const weak = checkWeakFacts(argv.questions, questions, corpus, bm25Terms);
    const all = [...problems, ...checkQuestions(argv.questions, questions, corpus), ...weak.problems].sort(
      (a, b) => (a.line ?? 0) - (b.line ?? 0),
    );
    if (all.length > 0) throw problemsError(`${argv.questions}: bad questions`, all);
    const posts = new Set(questions.flatMap((q) => questionPosts(q.question))).size;
    const twoPost = questions.filter((q) => isTwoPost(q.question)).length;
    const shape =
      twoPost === 0
        ? ""
        : twoPost === questions.length
          ? " (each needing two posts)"
          : ` (${twoPost} needing two posts)`;
    say(
      `${argv.questions}: ${questions.length} questions${shape} about ${posts} posts, all found in ${argv.content} (${corpus.posts.length} posts, ${corpus.sections.length} sections)`,
    );
    const facts = factsLine(
      questions.map((q) => q.question),
      corpus,
    );
    if (facts !== undefined) say(facts);
    for (const line of formatClearedFlags(weak.cleared)) say(line);
    const asked = questions.map((q) => q.question);
    const perPost = describeQuestionShape(asked);
    if (perPost !== "") say(perPost);
    const warning = questionShapeWarning(asked);
    if (warning !== undefined) warn(warning);
    if (argv.overlap) {
      const overlaps = answerOverlaps(
        corpus.sections,
        questions.map((q) => q.question),
        bm25Terms,
        { threshold },
      );
      say(formatAnswerOverlaps(argv.questions, overlaps, threshold));
    }
  },
};

/** How many key facts the file gives and, for two-post questions, which gold section states each; undefined for none. */
function factsLine(questions: readonly Question[], corpus: Corpus): string | undefined {
  const withFacts = questions.filter((q) => q.facts !== undefined);
  if (withFacts.length === 0) return undefined;
  const sectionOf = (slug: string, heading: string) =>
    corpus.sections.find((s) => s.post === slug && s.heading === heading);
  const sources = withFacts.filter(isTwoPost).flatMap((q) => factSources(q, sectionOf));
  const count = (inGold: string) => sources.filter((s) => s.inGold.join() === inGold).length;
  const split =
    sources.length === 0
      ? ""
      : ` (of the two-post questions' ${sources.length}: ${count("0")} in the first post's section only, ${count("1")} in the second's only, ${count("0,1")} in both)`;
  const total = withFacts.reduce((n, q) => n + (q.facts?.length ?? 0), 0);
  const without = questions.length - withFacts.length;
  const rest = without === 0 ? "" : `; ${without} question${without === 1 ? " has" : "s have"} none`;
  return `${total} key facts on ${withFacts.length} questions, each stated in its gold section${split}${rest}`;
}

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
