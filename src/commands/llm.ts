// The llm commands: thin shells over src/llm/ (and make-tiny-model over src/test-models/).
import path from "node:path";
import type { Argv, CommandModule } from "yargs";
import {
  TINY_MODEL_SHAPES,
  type TinyModelDtype,
  type TinyModelShape,
  type TinyModelWeights,
} from "../test-models/index.ts";
import { QUANTS, DEFAULT_MODEL_NAMES, type Quant } from "../llm/index.ts";
import { TOOL_FORMATS, type ToolFormat } from "../toolcalls/index.ts";
import { checkOptions, defaultCacheDir, SEED_RANGE } from "./options.ts";
import { UserError } from "../common/index.ts";
import { io, say, warn } from "./io.ts";

/** The families smoke runs; each writes the file smoke reads, so a model made here is the one it uses. */
const TINY_FAMILIES = ["qwen2.5", "llama3", "qwen3"] as const;
type TinyFamily = (typeof TINY_FAMILIES)[number];

/** Registers this file's commands on the command line. */
export const llmCommands = (y: Argv): Argv => y.command(makeTinyModelCommand()).command(templateCommand());

/**
 * make-tiny-model: writes (or reuses) a random-weight GGUF with a real family's tokenizer and chat template: qwen2.5
 * (every shape and weight kind), or llama3 and qwen3 (the tiny shape in f16, as smoke uses them).
 */
function makeTinyModelCommand(): CommandModule<
  object,
  {
    family: TinyFamily;
    out?: string;
    shape: TinyModelShape;
    seed: number;
    dtype: TinyModelDtype;
    weights: TinyModelWeights;
    force: boolean;
    "cache-dir": string;
  }
> {
  return {
    command: "make-tiny-model",
    describe:
      "Write a GGUF with random weights (fixed seed) and a real family's vocabulary, merges and chat template " +
      "(--family: Qwen2.5's by default, Llama 3.1's or Qwen3's, each the file smoke --family runs); " +
      "byte-identical for the same arguments. Reuses an up-to-date file (checked by its <out>.stamp.json) unless --force. " +
      "Prints the model's path on stdout",
    builder: (y) =>
      y
        .option("family", {
          choices: TINY_FAMILIES,
          default: "qwen2.5" as TinyFamily,
          describe:
            "qwen2.5 (the study's family; every --shape, --dtype and --weights), llama3 (Llama 3.1's) or qwen3 " +
            "(Qwen3's, with its thinking switch): these two in the tiny shape, f16, random weights only",
        })
        .option("out", {
          type: "string",
          describe: "Model file to write",
          defaultDescription:
            "<cache-dir>/tiny/<shape>-seed<seed>[-f32].gguf (tiny-llama-, tiny-qwen3-seed<seed>.gguf; trained-agent.gguf)",
        })
        .option("shape", {
          choices: TINY_MODEL_SHAPES,
          default: "tiny" as TinyModelShape,
          describe:
            "tiny (64 wide, 2 layers, ~45 MB: tests) or a real Qwen2.5 shape (benchmarks; 1.3 to 6.8 GB in f16)",
        })
        .option("seed", {
          type: "number",
          default: 1,
          describe: "Seed of the random weights (an integer from 0 to 2^32-1)",
        })
        .option("dtype", {
          choices: ["f16", "f32"] as const,
          default: "f16" as TinyModelDtype,
          describe: "Weight type of the matrices (norms and biases are always f32)",
        })
        .option("weights", {
          choices: ["random", "zero-blocks", "trained"] as const,
          default: "random" as TinyModelWeights,
          describe:
            "random; zero-blocks: every transformer block zero, logits a lookup table a test can read (always f32); " +
            "or trained: the committed agent model smoke runs (its own shape and types: no --shape, --seed, --dtype)",
        })
        .option("force", { type: "boolean", default: false, describe: "Write even if an up-to-date file exists" })
        .option("cache-dir", {
          type: "string",
          default: defaultCacheDir(),
          defaultDescription: "$BLOGQA_CACHE or ./.cache",
          describe: "Cache folder (also holds the chat template extracted from node-llama-cpp's llama.cpp sources)",
        })
        .check((argv) => {
          checkOptions(argv, { seed: { range: SEED_RANGE } });
          return true;
        }),
    handler: async (argv) => {
      const { ensureTinyLlamaModel, ensureTinyModel, ensureTinyQwen3Model, TRAINED_MODEL_FILE } = await import(
        "../test-models/index.ts"
      );
      if (argv.family !== "qwen2.5") {
        const unsupported = [
          ...(argv.shape !== "tiny" ? ["--shape"] : []),
          ...(argv.dtype !== "f16" ? ["--dtype"] : []),
          ...(argv.weights !== "random" ? ["--weights"] : []),
          ...(argv.force ? ["--force"] : []),
        ];
        if (unsupported.length > 0)
          throw new UserError(
            `make-tiny-model --family ${argv.family} takes no ${unsupported.join(", ")} (qwen2.5 does)`,
            2,
          );
        const tinyDir = path.join(argv["cache-dir"], "tiny");
        const name = argv.family === "llama3" ? "tiny-llama" : "tiny-qwen3";
        const out = argv.out ?? path.join(tinyDir, `${name}-seed${argv.seed}.gguf`);
        const ensure = argv.family === "llama3" ? ensureTinyLlamaModel : ensureTinyQwen3Model;
        const result = ensure({ out, seed: argv.seed, cacheDir: tinyDir });
        warn(`make-tiny-model: ${result.reused ? "reusing up-to-date" : "wrote"} ${result.path}`);
        say(result.path);
        return;
      }
      const zero = argv.weights === "zero-blocks";
      const trained = argv.weights === "trained";
      if (trained && (argv.shape !== "tiny" || argv.seed !== 1 || argv.dtype !== "f16"))
        throw new UserError(
          "make-tiny-model --weights trained takes no --shape, --seed or --dtype: the trained model has its own",
          2,
        );
      const suffix = zero ? "-zero-blocks" : argv.dtype === "f16" ? "" : `-${argv.dtype}`;
      const out =
        argv.out ??
        path.join(
          argv["cache-dir"],
          "tiny",
          trained ? TRAINED_MODEL_FILE : `${argv.shape}-seed${argv.seed}${suffix}.gguf`,
        );
      let reported = -1;
      const result = await ensureTinyModel({
        out,
        shape: argv.shape,
        seed: argv.seed,
        dtype: argv.dtype,
        weights: argv.weights,
        force: argv.force,
        cacheDir: argv["cache-dir"],
        onProgress: (written, total) => {
          // only files big enough to take a while report progress, every 10%
          const tenth = Math.floor((written / total) * 10);
          if (total < 200e6 || tenth === reported) return;
          reported = tenth;
          warn(`make-tiny-model: ${tenth * 10}% of ${(total / 1e6).toFixed(0)} MB`);
        },
      });
      warn(
        result.reused
          ? `make-tiny-model: reusing up-to-date ${result.path} (${(result.bytes / 1e6).toFixed(1)} MB)`
          : `make-tiny-model: wrote ${(result.bytes / 1e6).toFixed(1)} MB in ${result.seconds.toFixed(1)} s`,
      );
      say(result.path);
    },
  };
}

/** template: the study's example exchange rendered through a model's own chat template (stdout), schema cost (stderr). */
function templateCommand(): CommandModule<
  object,
  { model: string; quant: Quant; "chat-template"?: string; "cache-dir": string }
> {
  return {
    command: "template",
    describe:
      "Print the study's example exchange (search_posts schema, system, user, a tool call, its result, the generation prompt) " +
      "rendered through the model's own chat template; stderr says how many tokens the tool schemas add to every call, and the agent's tool block per tool",
    builder: (y) =>
      y
        .option("model", {
          type: "string",
          demandOption: true,
          describe: `A .gguf path, an hf: URI, or ${DEFAULT_MODEL_NAMES.join(" / ")}`,
        })
        .option("quant", {
          choices: QUANTS,
          default: "f16" as Quant,
          describe: "Weights of a default model (only its tokenizer is loaded)",
        })
        .option("chat-template", {
          type: "string",
          describe: "Jinja chat template file, for a model whose GGUF has none",
        })
        .option("tool-format", {
          choices: ["auto", ...TOOL_FORMATS],
          default: "auto",
          describe: "The tool-call format to write the example's call in (auto: the one the template asks for)",
        })
        .option("cache-dir", {
          type: "string",
          default: defaultCacheDir(),
          defaultDescription: "$BLOGQA_CACHE or ./.cache",
          describe: "Downloaded models live in <cache-dir>/models",
        }),
    handler: async (argv) => {
      const { loadModel, modelIdFor } = await import("../llm/index.ts");
      const { AGENT_TOOLS, dialectExample, prompts, toolBlockSize } = await import("../designs/index.ts");
      const { modelDialect } = await import("../toolcalls/index.ts");
      // Vocabulary only: rendering and counting need the tokenizer and template, not the weights.
      const model = await loadModel(modelIdFor(argv.model, argv.quant), {
        cacheDir: argv["cache-dir"],
        gpu: false,
        vocabOnly: true,
        chatTemplate: argv["chat-template"],
        onProgress: warn,
      });
      try {
        const { dialect, reason } = modelDialect(model, argv["tool-format"] as ToolFormat | "auto");
        warn(`template: tool-call format ${dialect.format} (${reason})`);
        const example = dialectExample(dialect);
        const prompt = model.renderPrompt(example);
        io().out(prompt);
        if (!dialect.templateTools) {
          warn(
            `template: with ${dialect.format} the tools are written into a message, not passed to the template: ` +
              `this prompt is ${model.countTokens(prompt)} tokens`,
          );
          return;
        }
        const withTools = model.countTokens(prompt);
        const withoutTools = model.countTokens(model.renderPrompt({ messages: example.messages }));
        const names = (example.tools ?? []).map((t) => t.function.name).join(", ");
        warn(
          `template: the tool schemas (${names}) add ${withTools - withoutTools} tokens to every call; this prompt is ${withTools} tokens`,
        );
        // The agent's own block, both tools, as every agent call re-reads it.
        const agent = toolBlockSize(model, AGENT_TOOLS, [
          { role: "system", content: prompts.AGENT_SYSTEM_PROMPT },
          { role: "user", content: "?" },
        ]);
        const shares = agent.perTool.map((t) => `${t.name} ${t.tokens}`).join(", ");
        warn(
          `template: the agent's tool block is ${agent.total} tokens on every call: the template's frame ${agent.frame}, ${shares}`,
        );
      } finally {
        await model.dispose();
      }
    },
  };
}
