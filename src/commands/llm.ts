// The llm commands: thin shells over src/llm/.
import type { CommandModule } from "yargs";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const llmCommands: CommandModule<any, any>[] = [];
