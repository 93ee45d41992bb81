// The study commands: thin shells over src/study/.
import type { CommandModule } from "yargs";
import { transcriptCostTable } from "../study/transcript-cost.ts";

const cost: CommandModule<object, { prefix: number; "per-turn": number; price: number; json: boolean }> = {
  command: "cost",
  describe: "The study's transcript-cost table: tokens and dollars for 5, 10, 20 and 50 agent turns",
  builder: (y) =>
    y
      .option("prefix", { type: "number", default: 5000, describe: "Tokens in the fixed prefix (P)" })
      .option("per-turn", { type: "number", default: 1500, describe: "New tokens per turn (g)" })
      .option("price", { type: "number", default: 3, describe: "Dollars per million input tokens" })
      .option("json", { type: "boolean", default: false, describe: "Print JSON rows" }),
  handler: (argv) => {
    const rows = transcriptCostTable({ prefix: argv.prefix, perTurn: argv["per-turn"], pricePerMillion: argv.price });
    if (argv.json) return void console.log(JSON.stringify(rows));
    const n = (x: number) => x.toLocaleString("en-US");
    console.log("| turns | final context | tokens read in all | uncached | cached |\n|---|---|---|---|---|");
    for (const r of rows) {
      console.log(`| ${r.turns} | ${n(r.finalContext)} | ${n(r.tokensRead)} | $${r.costUncached.toFixed(2)} | $${r.costCached.toFixed(2)} |`);
    }
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const studyCommands: CommandModule<any, any>[] = [cost];
