// smoke and experiment: the whole study in one command, on the generated tiny models or on the study's two models.
import path from "node:path";
import type { Argv, CommandModule } from "yargs";
import { DEFAULT_MODEL_NAMES, QUANTS, type Quant } from "../llm/index.ts";
import { runStudyCommand, studyRunOptions } from "./study.ts";
import type { BuiltArgs } from "./options.ts";
import { DESIGN_IDS, ENGINEERED_DESIGNS, STUDY_DESIGNS } from "../designs/index.ts";
import { UserError } from "../common/index.ts";
import { loggedRunCount, readManifest } from "../runs/index.ts";

const TINY_EMBEDDER = "(the tiny embedder)";
/** What smoke refuses or never uses: it runs its generated model in this process, never on a server. */
const SERVER_ONLY = ["server", "server-mode", "api-key-env", "request-timeout", "retries"] as const;
/** The blog that ships: its smoke runs go to results/smoke/, as they always did. */
const SHIPPED_CONTENT = "content/posts";
/** Folder names that say where posts sit, not which blog they are. */
const GENERIC_FOLDERS = new Set(["posts", "post", "blog", "blogs", "content", "src", "website", "docs", "_posts"]);

/**
 * smoke's folder for a blog when --out is not given: `results/smoke` for the shipped blog, `results/smoke-NAME` for
 * another, NAME being the nearest folder of `content` that names the blog (`~/sites/acme/website/blog` is `acme`).
 * So a smoke of one blog never lands in another's folder.
 */
export function smokeFolder(content: string): string {
  if (path.resolve(content) === path.resolve(SHIPPED_CONTENT)) return path.join("results", "smoke");
  const parts = path
    .resolve(content)
    .split(/[\\/]/)
    .filter((part) => part !== "");
  const named = [...parts].reverse().find((part) => !GENERIC_FOLDERS.has(part.toLowerCase())) ?? parts.at(-1);
  const name = (named ?? "blog")
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[-.]+|-+$/g, "");
  return path.join("results", `smoke-${name === "" ? "blog" : name}`);
}

/**
 * The blog whose runs `out` holds when it is not `content` (read from the folder's manifest), with how many runs
 * are logged; undefined when the folder holds none, or this blog's. A manifest that cannot be read is left to the
 * run's own checks.
 */
function otherBlogIn(out: string, content: string): { readonly dir: string; readonly runs: number } | undefined {
  const runs = loggedRunCount(out);
  if (runs === 0) return undefined;
  let manifest: ReturnType<typeof readManifest>;
  try {
    manifest = readManifest(out);
  } catch {
    return undefined;
  }
  const dir = manifest?.corpus.dir;
  return dir === undefined || path.resolve(dir) === path.resolve(content) ? undefined : { dir, runs };
}

const smokeBuilder = (y: Argv) =>
  SERVER_ONLY.reduce((built, key) => built.hide(key), studyRunOptions(y))
    .default("out", undefined, "results/smoke for content/posts, results/smoke-NAME for the blog NAME")
    .default(
      "fresh",
      undefined,
      "true: start over (--no-fresh resumes); a folder holding another blog's runs is refused unless --fresh is given",
    )
    .default("embedding-model", TINY_EMBEDDER)
    .describe(
      "designs",
      `Designs to run, comma-separated: ids, or the groups study (${STUDY_DESIGNS.join(",")}) and engineered ` +
        `(${ENGINEERED_DESIGNS.join(",")}); default: all ${DESIGN_IDS.length} (--family llama3: the study's ${STUDY_DESIGNS.length})`,
    )
    .option("family", {
      choices: ["qwen2.5", "llama3", "qwen3"] as const,
      default: "qwen2.5" as const,
      describe:
        "Which generated model: qwen2.5 (the study's family), llama3 (Llama 3.1's vocabulary and template: the " +
        "llama3 tool-call format, the study's four designs) or qwen3 (Qwen3's, with its thinking switch)",
    })
    .option("weights", {
      choices: ["trained", "random"] as const,
      describe:
        "trained: the small agent model trained in this project (qwen2.5 only), which makes real tool calls and " +
        "writes Source lines (docs/trained-model.md); random: seeded random weights that write gibberish. " +
        "Default: trained for qwen2.5, random for the other families",
    });

const smoke: CommandModule<object, BuiltArgs<typeof smokeBuilder>> = {
  command: "smoke",
  describe:
    "The whole study offline on a generated test model and the tiny embedder (hybrid search, every design, the engineered ones too, all questions) into results/smoke/ (another blog: results/smoke-NAME/): " +
    "the small agent model trained in this project, or with --weights random random weights. " +
    "Try your own blog with --content DIR --questions FILE: it checks that the blog, the questions and every design " +
    "run, never how well a real model answers",
  builder: smokeBuilder,
  handler: async (argv) => {
    const { ensureTinyEmbedder, ensureTinyLlamaModel, ensureTinyModel, ensureTinyQwen3Model, TRAINED_MODEL_FILE } =
      await import("../test-models/index.ts");
    const { progress } = await import("./study-setup.ts");
    if (argv.server !== undefined) throw notOnServer("smoke runs the generated tiny model in this process");
    const tinyDir = path.join(argv["cache-dir"], "tiny");
    const weights = argv.weights ?? (argv.family === "qwen2.5" ? "trained" : "random");
    if (weights === "trained" && argv.family !== "qwen2.5")
      throw new UserError(`smoke --family ${argv.family} has random weights only; the trained model is qwen2.5's`, 2);
    const model =
      weights === "trained"
        ? await ensureTinyModel({ out: path.join(tinyDir, TRAINED_MODEL_FILE), weights: "trained", cacheDir: tinyDir })
        : argv.family === "llama3"
          ? ensureTinyLlamaModel({ out: path.join(tinyDir, "tiny-llama-seed1.gguf"), cacheDir: tinyDir })
          : argv.family === "qwen3"
            ? ensureTinyQwen3Model({ out: path.join(tinyDir, "tiny-qwen3-seed1.gguf"), cacheDir: tinyDir })
            : await ensureTinyModel({
                out: path.join(tinyDir, "tiny-seed1.gguf"),
                shape: "tiny",
                seed: 1,
                cacheDir: tinyDir,
              });
    const embedder =
      argv.embeddingModel === TINY_EMBEDDER
        ? ensureTinyEmbedder(path.join(tinyDir, "tiny-embedder"), { seed: 42, shape: "tiny" })
        : argv.embeddingModel;
    const out = argv.out ?? smokeFolder(argv.content);
    const other = otherBlogIn(out, argv.content);
    if (other !== undefined && argv.fresh === undefined)
      throw new UserError(
        `${out} holds ${other.runs} logged runs of another blog (${other.dir}); smoke starts over by default and ` +
          `would remove them. Leave out --out (each blog gets its own results/smoke-NAME folder), choose another ` +
          "--out, or add --fresh to replace them",
      );
    progress(`smoke: ${weights} model ${model.path}, embedder ${embedder}, into ${out}`);
    // Every design, the engineered ones too: the smoke run exercises each code path on a real runtime. The
    // engineered designs validate and constrain the hermes format only, so the llama3 family runs the study's four.
    const designs = { report: true, defaultDesigns: argv.family === "llama3" ? STUDY_DESIGNS : DESIGN_IDS };
    await runStudyCommand(
      { ...argv, out, fresh: argv.fresh ?? true, embeddingModel: embedder, "embedding-model": embedder },
      [model.path],
      { ...designs, startsOverByDefault: true },
    );
  },
};

const experimentBuilder = (y: Argv) =>
  studyRunOptions(y)
    .default("out", "results")
    .option("quant", {
      choices: QUANTS,
      default: "f16" as Quant,
      describe: "Weights: f16 (closest to the study's bf16), q8_0 or q4_k_m",
    });

const experiment: CommandModule<object, BuiltArgs<typeof experimentBuilder>> = {
  command: "experiment",
  describe: `The study itself: ${DEFAULT_MODEL_NAMES.join(" and ")}, its four designs (--designs study,engineered adds the engineered ones), all questions, into results/ (resumes)`,
  builder: experimentBuilder,
  handler: async (argv) => {
    const { modelIdFor } = await import("../llm/index.ts");
    if (argv.server !== undefined) throw notOnServer("experiment loads both study models itself");
    return runStudyCommand(
      argv,
      DEFAULT_MODEL_NAMES.map((m) => modelIdFor(m, argv.quant)),
      {
        report: true,
        modelHint:
          "--quant q8_0 or --quant q4_k_m names smaller files; `blogqa smoke --content DIR --questions FILE` runs " +
          "the whole study on your blog offline, on generated tiny models",
      },
    );
  },
};

/** smoke and experiment take the run settings, --server among them, but pick their models themselves. */
function notOnServer(why: string): UserError {
  return new UserError(`--server: ${why}; on a server run \`run --server URL --model NAME\` once per served model`);
}

/** Registers this file's commands on the command line. */
export const smokeCommands = (y: Argv): Argv => y.command(smoke).command(experiment);
