// The search commands: thin shells over src/search/.
import type { CommandModule } from "yargs";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const searchCommands: CommandModule<any, any>[] = [];
