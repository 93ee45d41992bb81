// Opens a run's models under its settings: in this process from their files, or at the --server it names. The one
// place settings become model options, for run, audit and export-prompts alike.
import { loadModel, openServerModel, type LoadedModel, type ServerFlags } from "../llm/index.ts";
import type { OnTick } from "../common/index.ts";
import { settingsFor, type RunSettings, type SettingsFor } from "./settings.ts";

export interface ModelOpening {
  readonly cacheDir: string;
  /** In process: the tokenizer and template only, no weights (enough to render prompts). */
  readonly vocabOnly?: boolean;
  /** In process, with --context-size auto: the fewest tokens the run's calls need (context-floor.ts). */
  readonly contextFloor?: number;
  /** On a server: how long one request may take and how often it is tried again. */
  readonly requests?: { readonly timeoutSeconds: number; readonly retries: number };
  /** On a server: what to check when none answers, where the URL did not come from the command line. */
  readonly unreachableHint?: string;
  /** On a server: the flags its URL, key variable and model id came from, for messages (default run's). */
  readonly flags?: ServerFlags;
  readonly onProgress?: (line: string) => void;
  readonly onTick?: OnTick;
}

/** The server's default request limits, as run's --request-timeout and --retries give them. */
const SERVER_REQUESTS = { timeoutSeconds: 300, retries: 4 } as const;

type LocalOptions = Parameters<typeof loadModel>[1];
type ServerOptions = Parameters<typeof openServerModel>[0];

/**
 * A function that opens one of the run's models by its id, under the run's settings: those tagged "local" or
 * "server" in SETTING_OPTIONS go to the opener under their own names (tsc checks that it takes each); --server and
 * --server-mode say which server.
 */
export function modelOpener(settings: RunSettings, opening: ModelOpening): (id: string) => Promise<LoadedModel> {
  const url = settings.server;
  const progress = opening.onProgress !== undefined ? { onProgress: opening.onProgress } : {};
  if (url === undefined) {
    const local: Pick<LocalOptions, keyof SettingsFor<"local">> = settingsFor(settings, "local");
    return (id) =>
      loadModel(id, {
        ...local,
        ...(opening.contextFloor !== undefined ? { contextFloor: opening.contextFloor } : {}),
        cacheDir: opening.cacheDir,
        ...(opening.vocabOnly ? { vocabOnly: true } : {}),
        ...progress,
        ...(opening.onTick !== undefined ? { onTick: opening.onTick } : {}),
      });
  }
  const server: Pick<ServerOptions, keyof SettingsFor<"server">> = settingsFor(settings, "server");
  return (model) =>
    openServerModel({
      url,
      model,
      mode: settings.serverMode,
      ...server,
      ...(opening.requests ?? SERVER_REQUESTS),
      ...(opening.unreachableHint !== undefined ? { unreachableHint: opening.unreachableHint } : {}),
      ...(opening.flags !== undefined ? { flags: opening.flags } : {}),
      cacheDir: opening.cacheDir,
      ...progress,
    });
}
