// The embedding-model commands (make-tiny-embedder): thin shells over src/search/.
import type { CommandModule } from "yargs";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const embedderCommands: CommandModule<any, any>[] = [];
