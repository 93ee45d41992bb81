// The corpus commands: thin shells over src/corpus/.
import type { CommandModule } from "yargs";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const corpusCommands: CommandModule<any, any>[] = [];
