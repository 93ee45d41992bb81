// The report commands: thin shells over src/report/.
import type { CommandModule } from "yargs";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const reportCommands: CommandModule<any, any>[] = [];
