// The corpus commands: thin shells over src/corpus/ (list sections, check the questions file).
import type { CommandModule } from "yargs";
import { checkQuestions, isTwoPost, loadCorpus, parseQuestions, problemsError, questionPosts, readQuestionsFile } from "../corpus/index.ts";
import { contentOption, questionsOption } from "./options.ts";

const sections: CommandModule<object, { content: string }> = {
  command: "sections",
  describe: "Print every section of the blog as one JSON object a line: {post, heading, level, text}",
  builder: (y) => y.options(contentOption),
  handler: async (argv) => {
    const corpus = await loadCorpus(argv.content);
    process.stdout.write(corpus.sections.map((s) => JSON.stringify(s)).join("\n") + "\n");
  },
};

const questionsCheck: CommandModule<object, { content: string; questions: string }> = {
  command: "check",
  describe:
    "Check the questions file against the blog: valid JSON lines with id, question, and post and heading (or, for a " +
    "question needing two posts, posts: [a, b] and headings: [ha, hb]); ids unique; every post and heading in the " +
    "indexed corpus; exactly 3 one-post questions per post. Exits 1 naming file:line for each problem",
  builder: (y) => y.options({ ...questionsOption, ...contentOption }),
  handler: async (argv) => {
    const corpus = await loadCorpus(argv.content);
    const { questions, problems } = parseQuestions(argv.questions, await readQuestionsFile(argv.questions));
    const all = [...problems, ...checkQuestions(argv.questions, questions, corpus)].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    if (all.length > 0) throw problemsError(`${argv.questions}: bad questions`, all);
    const posts = new Set(questions.flatMap((q) => questionPosts(q.question))).size;
    const twoPost = questions.filter((q) => isTwoPost(q.question)).length;
    const shape = twoPost === 0 ? "" : twoPost === questions.length ? " (each needing two posts)" : ` (${twoPost} needing two posts)`;
    console.log(
      `${argv.questions}: ${questions.length} questions${shape} about ${posts} posts, all found in ${argv.content} (${corpus.posts.length} posts, ${corpus.sections.length} sections)`,
    );
  },
};

const questions: CommandModule<object, object> = {
  command: "questions",
  describe: "Work with the questions file (see: questions check)",
  builder: (y) => y.command(questionsCheck).demandCommand(1, "Name a questions subcommand: check"),
  handler: () => {},
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const corpusCommands: CommandModule<any, any>[] = [sections, questions];
