// The schema of a manifest's model entries: ModelInfo as the llm stage wrote it, checked by tsc against that type.
import { z } from "zod";
import { type Immutable, typesAgree } from "../common/index.ts";
import type { Decoding, ModelInfo, ServerInfo, SpecialTokens } from "../llm/index.ts";
import { SERVER_MODES } from "../llm/index.ts";
import { arrayOf, num, numOrNull, object, str, strOrNull } from "./manifest-fields.ts";

const specialTokensSchema = z
  .discriminatedUnion(
    "source",
    [
      object({
        source: z.literal("tokenizer_config.json"),
        path: str,
        sha256: str,
        hub: object({ repo: str, revision: str }, "an object or null").nullable(),
        special: arrayOf(num),
        note: str,
      }),
      object({ source: z.literal("gguf"), note: str }),
      object({ source: z.literal("server"), note: str }),
    ],
    { error: 'an object whose "source" is "tokenizer_config.json", "gguf" or "server"' },
  )
  .describe(
    "Which tokens a reply leaves out: the ids the original tokenizer_config.json marks special, llama.cpp's control " +
      "tokens, or the server's own rule. Absent in manifests written before it was recorded.",
  );
typesAgree<Immutable<z.output<typeof specialTokensSchema>>, SpecialTokens>(true);

const decodingSchema = object({
  repetitionPenalty: numOrNull.describe("The penalty applied by Transformers' rule, or null for none."),
  stopTokens: arrayOf(num, "an array or null")
    .nullable()
    .describe("The token ids that end a reply, or null for llama.cpp's end-of-generation set."),
  generationConfig: object(
    {
      path: str,
      sha256: str,
      hub: object({ repo: str, revision: str }, "an object or null")
        .nullable()
        .describe("Set when the file was fetched from the hub."),
    },
    "an object or null",
  )
    .nullable()
    .describe("The generation_config.json read, or null when none was."),
  note: str,
  setting: z
    .union([z.enum(["auto", "none"]), z.number()], { error: '"auto", "none" or a number' })
    .describe("--repetition-penalty as given."),
  specialTokens: specialTokensSchema.optional(),
}).describe(
  "How the model decodes: the repetition penalty and end tokens, and the generation_config.json they came from.",
);
/** A manifest's decoding: an older one lacks the special-token rule. */
type RecordedDecoding = Omit<Decoding, "specialTokens"> & { readonly specialTokens?: SpecialTokens };
typesAgree<Immutable<z.output<typeof decodingSchema>>, RecordedDecoding>(true);

const serverSchema = object({
  url: str,
  mode: z.enum(SERVER_MODES, { error: `one of ${SERVER_MODES.join(", ")}` }),
  flavor: z.enum(["llama-server", "openai"], { error: "one of llama-server, openai" }),
  apiKeyEnv: strOrNull.describe("The environment variable the API key was read from (the key is never logged)."),
  timeoutSeconds: num,
  retries: num,
  requestParameters: z.record(z.string(), z.unknown(), { error: "an object" }),
  props: z.record(z.string(), z.unknown(), { error: "an object or null" }).nullable(),
  models: z.unknown().describe("The server's /v1/models answer."),
  maxReplyBytes: num
    .optional()
    .describe("The most bytes read of one reply (absent in manifests written before replies were capped)."),
}).describe("Where the model ran when it ran on a server, and what the server said about itself.");
/** A manifest's server record: an older one lacks the reply cap. */
type RecordedServer = Omit<ServerInfo, "maxReplyBytes"> & { readonly maxReplyBytes?: number };
typesAgree<Immutable<z.output<typeof serverSchema>>, RecordedServer>(true);

export const modelInfoSchema = object({
  id: str.describe("What the user passed: a path or an hf: URI."),
  path: str.describe("Local path of the (first) model file."),
  files: arrayOf(object({ path: str, bytes: num })),
  architecture: str,
  chatTemplateSha256: str,
  backend: str.describe('"cuda", "vulkan", "metal", "cpu", or "server".'),
  gpuLayers: num,
  deviceNames: arrayOf(str),
  nodeLlamaCppVersion: str,
  llamaCppRelease: str,
  binary: object({
    buildType: z.enum(["prebuilt", "localBuild"], { error: "prebuilt or localBuild" }),
    cmakeOptions: z.record(z.string(), z.string(), { error: "an object of strings" }),
    systemInfo: str
      .optional()
      .describe(
        "llama.cpp's line on what the binary was compiled with: CPU features, OpenMP (absent in older manifests).",
      ),
  })
    .optional()
    .describe("Which llama.cpp binary ran in process (absent for a server, and in older manifests)."),
  decoding: decodingSchema,
  name: str.optional().describe("The GGUF's general.name, when it has one."),
  contextSize: num,
  contextFit: object({
    setting: z.union([z.literal("auto"), num], { error: "auto or a number" }),
    floor: num,
    cap: num,
    freeBytes: num,
    reason: str,
  })
    .optional()
    .describe(
      "How contextSize was chosen: auto fits it to the free memory (freeBytes, VRAM or RAM) between floor (what the " +
        "run's calls need) and cap (the model's trained length); a number is --context-size as given. Absent on a " +
        "server and in older manifests.",
    ),
  threads: num.describe("CPU threads the model computed with."),
  server: serverSchema.optional(),
});
typesAgree<
  Immutable<z.output<typeof modelInfoSchema>>,
  Omit<ModelInfo, "decoding" | "server"> & { readonly decoding: RecordedDecoding; readonly server?: RecordedServer }
>(true);
