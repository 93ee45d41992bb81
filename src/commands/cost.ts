// The cost command: the study's transcript-cost table, from its assumptions.
import type { Argv, CommandModule } from "yargs";
import { UserError } from "../common/index.ts";
import { checkOptions, type CheckedOption } from "./options.ts";
import { say } from "./io.ts";

/** Token counts are Python ints in the study's script: whole, and exact here only up to 2^53. */
const TOKENS_RANGE = { whole: true, min: 0, max: Number.MAX_SAFE_INTEGER };

const costOptions = {
  prefix: { type: "number", default: 5000, range: TOKENS_RANGE, describe: "Tokens in the fixed prefix (P)" },
  "per-turn": { type: "number", default: 1500, range: TOKENS_RANGE, describe: "New tokens per turn (g)" },
  price: {
    type: "number",
    default: 3,
    range: { whole: false, min: 0, max: 1e6 },
    describe: "Dollars per million input tokens",
  },
  json: { type: "boolean", default: false, describe: "Print JSON rows" },
} as const satisfies Record<string, CheckedOption>;

const cost: CommandModule<object, { prefix: number; "per-turn": number; price: number; json: boolean }> = {
  command: "cost",
  describe: "The study's transcript-cost table: tokens and dollars for 5, 10, 20 and 50 agent turns",
  builder: (y) =>
    y.options(costOptions).check((argv) => {
      checkOptions(argv, costOptions);
      return true;
    }),
  handler: async (argv) => {
    const { costTableText, transcriptCostTable } = await import("../designs/index.ts");
    const assumptions = { prefix: argv.prefix, perTurn: argv["per-turn"], pricePerMillion: argv.price };
    const rows = transcriptCostTable(assumptions);
    const counts = [argv.prefix, argv["per-turn"], ...rows.flatMap((r) => [r.finalContext, r.tokensRead])];
    if (!counts.every((n) => Number.isSafeInteger(n) && n >= 0))
      throw new UserError(
        "--prefix and --per-turn take whole numbers of tokens, few enough that 50 turns of them stay under 2^53",
        2,
      );
    say(argv.json ? JSON.stringify(rows) : costTableText(assumptions, rows));
  },
};

/** Registers this file's commands on the command line. */
export const costCommands = (y: Argv): Argv => y.command(cost);
