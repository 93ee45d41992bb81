// The embedding-model commands (make-tiny-embedder): thin shells over src/test-models/.
import type { Argv, CommandModule } from "yargs";
import { MAX_HIDDEN, TINY_EMBEDDER_SHAPES, type TinyEmbedderShapeName } from "../test-models/index.ts";
import { checkedOptions, SEED_RANGE } from "./options.ts";
import { say } from "./io.ts";

interface MakeTinyEmbedderArgs {
  readonly out: string;
  readonly seed: number;
  readonly hidden: number | undefined;
  readonly shape: TinyEmbedderShapeName;
}

const makeTinyEmbedder: CommandModule<object, MakeTinyEmbedderArgs> = {
  command: "make-tiny-embedder",
  describe:
    "Write a BERT-style embedding model folder (onnx/model.onnx, config.json, WordPiece tokenizer.json) with seeded random " +
    "weights, for offline tests (--embedding-model DIR) and benchmarks; prints the folder's path",
  builder: (y) =>
    checkedOptions(y, {
      out: {
        type: "string",
        demandOption: true,
        describe: "Folder to write (created if missing; its model files are replaced)",
      },
      seed: {
        type: "number",
        default: 42,
        range: SEED_RANGE,
        describe: "Seed of the random weights: the same arguments write the same bytes",
      },
      hidden: {
        type: "number",
        range: { whole: true, min: 1, max: MAX_HIDDEN },
        describe: `Hidden size, a multiple of the shape's attention heads up to ${MAX_HIDDEN} (default: 32 for tiny, 384 for minilm)`,
      },
      shape: {
        choices: TINY_EMBEDDER_SHAPES,
        default: "tiny" as TinyEmbedderShapeName,
        describe:
          "tiny: 1 layer, about 0.3 MB; minilm: all-MiniLM-L6-v2's sizes (6 layers, 12 heads, 30,522 rows, about 90 MB), to time indexing",
      },
    }),
  handler: async (argv) => {
    const { writeTinyEmbedder } = await import("../test-models/index.ts");
    const folder = writeTinyEmbedder(argv.out, { seed: argv.seed, shape: argv.shape, hidden: argv.hidden });
    say(folder);
  },
};

/** Registers this file's commands on the command line. */
export const embedderCommands = (y: Argv): Argv => y.command(makeTinyEmbedder);
