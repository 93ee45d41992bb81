// blogqa's only entry point: parses the command line and hands each command to src/commands/.
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { corpusCommands } from "./commands/corpus.ts";
import { searchCommands } from "./commands/search.ts";
import { embedderCommands } from "./commands/embedder.ts";
import { llmCommands } from "./commands/llm.ts";
import { studyCommands } from "./commands/study.ts";
import { smokeCommands } from "./commands/smoke.ts";
import { reportCommands } from "./commands/report.ts";
import { UserError } from "./errors.ts";

const cli = yargs(hideBin(process.argv))
  .scriptName("blogqa")
  .usage("$0 <command> [options]\n\nReproduce the workflow-vs-agent study on a blog. Run as: npm run -s blogqa -- <command>")
  .command([...corpusCommands, ...searchCommands, ...embedderCommands, ...llmCommands, ...studyCommands, ...smokeCommands, ...reportCommands])
  .demandCommand(1, "Name a command; see --help.")
  .strict()
  .strictCommands()
  .wrap(Math.min(110, process.stdout.columns || 110))
  .help()
  .fail((message, error, y) => {
    if (error) throw error;
    console.error(`${y.help()}\n\n${message}`);
    process.exit(2);
  });

try {
  await cli.parseAsync();
} catch (error) {
  // Errors a user can act on print one clear line; anything else is a bug and keeps its stack.
  if (error instanceof UserError) {
    console.error(`blogqa: ${error.message}`);
    process.exit(error.exitCode);
  }
  throw error;
}
