// The built-in suites of `run --suite NAME`: lists of models run into one folder, each with its size for the scale chart.
import { defaultModelUri, type Quant } from "../llm/index.ts";
import type { ToolFormat } from "../toolcalls/index.ts";
import type { ModelEntry } from "./settings.ts";
import { UserError } from "../common/index.ts";

/** A built-in suite's model, with where its hub URI was found and what its weights are. */
export interface SuiteModel extends ModelEntry {
  /** The tool-call format its chat template is expected to give (detection still decides, unless toolFormat is set). */
  readonly format: ToolFormat;
  /** The page where the URI's repository and file were found (the publisher's listing or model card). */
  readonly found: string;
  /** False where the page names the repository but the file name itself could not be seen there. */
  readonly fileVerified: boolean;
  /** The weights, and why they are not f16 where they are not. */
  readonly weights: string;
}

export interface Suite {
  readonly name: string;
  readonly describe: string;
  /** The models; `quant` applies to the study's two models only (what `experiment --quant` takes). */
  models(quant: Quant): readonly SuiteModel[];
}

/**
 * Sizes in billions as Qwen2.5's model cards give them ("Number of Parameters"); 0.49 was seen quoted on other pages,
 * the others were not found with the search tool. Only their order and rough ratio matter to the scale chart.
 */
const QWEN25_PARAMS = { "0.5b": 0.49, "1.5b": 1.54, "3b": 3.09, "7b": 7.61, "14b": 14.7 } as const;

/** The study's two models, exactly as `experiment` names them (same files for the same --quant). */
function studyModels(quant: Quant): SuiteModel[] {
  return (["1.5b", "3b"] as const).map((size) => ({
    id: `qwen2.5-${size}`,
    // The study's own models (src/llm/model-files.ts), from Qwen's GGUF repositories:
    // https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF, https://huggingface.co/Qwen/Qwen2.5-3B-Instruct-GGUF
    model: defaultModelUri(`qwen2.5-${size}`, quant),
    paramsB: QWEN25_PARAMS[size],
    format: "hermes",
    found: `https://huggingface.co/Qwen/Qwen2.5-${size.toUpperCase()}-Instruct-GGUF`,
    fileVerified: true,
    weights: quant === "f16" ? "f16, as the study's bf16 is closest to" : `${quant} (--quant)`,
  }));
}

const qwen25Scale = (quant: Quant): SuiteModel[] => {
  const [small, large] = studyModels(quant);
  return [
    {
      id: "qwen2.5-0.5b",
      // Not verified: https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF (Qwen's own repository) was not among
      // the search tool's pages; this URI was seen only in other projects' download scripts.
      model: "hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-fp16.gguf",
      paramsB: QWEN25_PARAMS["0.5b"],
      format: "hermes",
      found: "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF",
      fileVerified: false,
      weights: "f16 (about 1 GB)",
    },
    small!,
    large!,
    {
      id: "qwen2.5-7b",
      // Found on https://huggingface.co/Qwen/Qwen2.5-7B-Instruct-GGUF/tree/main: fp16 in four parts
      // (3.95 + 3.86 + 3.86 + 3.56 GB = 15.2 GB), which fits a 24 GB GPU with the study's short contexts.
      model: "hf:Qwen/Qwen2.5-7B-Instruct-GGUF/qwen2.5-7b-instruct-fp16-00001-of-00004.gguf",
      paramsB: QWEN25_PARAMS["7b"],
      format: "hermes",
      found: "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct-GGUF/tree/main",
      fileVerified: true,
      weights: "f16 (15.2 GB in four parts)",
    },
    {
      id: "qwen2.5-14b",
      // Not verified: https://huggingface.co/Qwen/Qwen2.5-14B-Instruct-GGUF (Qwen's own repository) was not among the
      // search tool's pages; q8_0 in four parts was seen in another project's notes
      // (qwen2.5-14b-instruct-q8_0-00003-of-00004.gguf). f16 would be about 29.5 GB.
      model: "hf:Qwen/Qwen2.5-14B-Instruct-GGUF/qwen2.5-14b-instruct-q8_0-00001-of-00004.gguf",
      paramsB: QWEN25_PARAMS["14b"],
      format: "hermes",
      found: "https://huggingface.co/Qwen/Qwen2.5-14B-Instruct-GGUF",
      fileVerified: false,
      weights: "q8_0 (about 15.7 GB): f16, about 29.5 GB, would not fit a 24 GB GPU",
    },
  ];
};

/** One 3-4B instruct model per tool-call format's family (the Mistral Nemo format has no model this small). */
const families = (): SuiteModel[] => [
  {
    id: "qwen3-4b",
    // Qwen's own GGUF repository, listed among Qwen3-4B's quantizations on
    // https://huggingface.co/models?other=base_model:quantized:Qwen/Qwen3-4B; the file name is not on that page.
    model: "hf:Qwen/Qwen3-4B-GGUF/Qwen3-4B-Q8_0.gguf",
    paramsB: 4.02,
    format: "hermes",
    found: "https://huggingface.co/models?other=base_model:quantized:Qwen/Qwen3-4B",
    fileVerified: false,
    weights: "q8_0 (about 4.3 GB)",
  },
  {
    id: "llama-3.2-3b",
    // Meta publishes no GGUF; Hugging Face's own quantization, found on
    // https://huggingface.co/hugging-quants/Llama-3.2-3B-Instruct-Q8_0-GGUF/tree/main (3.42 GB).
    model: "hf:hugging-quants/Llama-3.2-3B-Instruct-Q8_0-GGUF/llama-3.2-3b-instruct-q8_0.gguf",
    paramsB: 3.21,
    format: "llama3",
    found: "https://huggingface.co/hugging-quants/Llama-3.2-3B-Instruct-Q8_0-GGUF/tree/main",
    fileVerified: true,
    weights: "q8_0 (3.42 GB), Hugging Face's own quantization (its other is q4_k_m)",
  },
  {
    id: "phi-4-mini",
    // Microsoft publishes no GGUF of Phi-4-mini; bartowski's, found on
    // https://huggingface.co/bartowski/microsoft_Phi-4-mini-instruct-GGUF/tree/faffc28d86d0c0781b4ec92d30e400a6d350a53b
    model: "hf:bartowski/microsoft_Phi-4-mini-instruct-GGUF/microsoft_Phi-4-mini-instruct-Q4_K_M.gguf",
    paramsB: 3.84,
    format: "phi4",
    found:
      "https://huggingface.co/bartowski/microsoft_Phi-4-mini-instruct-GGUF/tree/faffc28d86d0c0781b4ec92d30e400a6d350a53b",
    fileVerified: true,
    weights: "q4_k_m (2.49 GB), a third party's quantization",
  },
  {
    id: "ministral-3-3b",
    // Mistral's own GGUF repository, found on https://huggingface.co/models?search=Ministral%203%203B%20GGUF; its
    // Q4_K_M is named in Mistral's llama.cpp instructions (`-hf mistralai/Ministral-3-3B-...-GGUF:Q4_K_M`), the file
    // name is not. 3.4B: the language model without its 0.4B vision encoder.
    model: "hf:mistralai/Ministral-3-3B-Instruct-2512-GGUF/Ministral-3-3B-Instruct-2512-Q4_K_M.gguf",
    paramsB: 3.4,
    format: "mistral-v11",
    found: "https://huggingface.co/models?search=Ministral%203%203B%20GGUF",
    fileVerified: false,
    weights: "q4_k_m",
  },
  {
    id: "gemma-3-4b",
    // ggml-org's (llama.cpp's maintainers) quantization, found on https://huggingface.co/ggml-org/gemma-3-4b-it-GGUF/tree/main
    // (4.13 GB). Gemma's template takes no tools: the tools are written into the prompt (emulated).
    model: "hf:ggml-org/gemma-3-4b-it-GGUF/gemma-3-4b-it-Q8_0.gguf",
    paramsB: 3.88,
    format: "emulated",
    toolFormat: "emulated",
    found: "https://huggingface.co/ggml-org/gemma-3-4b-it-GGUF/tree/main",
    fileVerified: true,
    weights: "q8_0 (4.13 GB)",
  },
];

export const SUITES: readonly Suite[] = [
  {
    name: "study",
    describe: "the study's Qwen2.5 1.5B and 3B, exactly what experiment runs (--quant applies)",
    models: studyModels,
  },
  {
    name: "qwen2.5-scale",
    describe: "Qwen2.5-Instruct 0.5B, 1.5B, 3B, 7B and 14B from Qwen's GGUF repositories (14B in q8_0)",
    models: qwen25Scale,
  },
  {
    name: "families",
    describe: "one 3-4B instruct model per tool-call format: Qwen3, Llama 3.2, Phi-4-mini, Ministral 3, Gemma 3",
    models: families,
  },
];

export const SUITE_NAMES = SUITES.map((s) => s.name);

/** The suite called `name`, or a UserError naming the ones there are. */
export function suiteModels(name: string, quant: Quant): readonly SuiteModel[] {
  const suite = SUITES.find((s) => s.name === name);
  if (suite === undefined) throw new UserError(`--suite: no suite "${name}"; the suites are ${SUITE_NAMES.join(", ")}`);
  return suite.models(quant);
}
