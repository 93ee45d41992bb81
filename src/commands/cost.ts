// The cost command: the study's transcript-cost table, from its assumptions.
import type { Argv, CommandModule } from "yargs";
import { UserError } from "../common/index.ts";
import { refuseRepeats, usageError } from "./options.ts";

const cost: CommandModule<object, { prefix: number; "per-turn": number; price: number; json: boolean }> = {
  command: "cost",
  describe: "The study's transcript-cost table: tokens and dollars for 5, 10, 20 and 50 agent turns",
  builder: (y) =>
    y
      .option("prefix", { type: "number", default: 5000, describe: "Tokens in the fixed prefix (P)" })
      .option("per-turn", { type: "number", default: 1500, describe: "New tokens per turn (g)" })
      .option("price", { type: "number", default: 3, describe: "Dollars per million input tokens" })
      .option("json", { type: "boolean", default: false, describe: "Print JSON rows" })
      .check((argv) => {
        refuseRepeats(argv, { prefix: {}, "per-turn": {}, price: {}, json: {} });
        for (const flag of ["prefix", "per-turn", "price"] as const) {
          const value = argv[flag];
          if (!(Number.isFinite(value) && value >= 0)) throw usageError(`--${flag} must be a number, 0 or more`);
        }
        return true;
      }),
  handler: async (argv) => {
    const { costTableText, transcriptCostTable } = await import("../designs/index.ts");
    const assumptions = { prefix: argv.prefix, perTurn: argv["per-turn"], pricePerMillion: argv.price };
    const rows = transcriptCostTable(assumptions);
    const counts = [argv.prefix, argv["per-turn"], ...rows.flatMap((r) => [r.finalContext, r.tokensRead])];
    // Token counts are Python ints in the study's script: whole, and exact here only up to 2^53.
    if (!counts.every((n) => Number.isSafeInteger(n) && n >= 0))
      throw new UserError(
        "--prefix and --per-turn take whole numbers of tokens, few enough that 50 turns of them stay under 2^53",
      );
    console.log(argv.json ? JSON.stringify(rows) : costTableText(assumptions, rows));
  },
};

/** Registers this file's commands on the command line. */
export const costCommands = (y: Argv): Argv => y.command(cost);
