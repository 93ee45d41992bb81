// One context sequence as a ChatRuntime: greedy decoding with exact token accounting and optional KV-cache reuse.
import type { LlamaContextSequence, LlamaGrammar, LlamaModel, SequenceEvaluateOptions, Token } from "node-llama-cpp";
import type { Decoding } from "./generation-config.ts";
import type { CallEnding, CallRecord, ChatRuntime, GenerateRequest, Generation, Sampling } from "./types.ts";
import { commonPrefixLength } from "../common/index.ts";
import { importNodeLlamaCpp } from "./native.ts";
import { specialIdSet } from "./special-tokens.ts";
import { toolCallGrammar } from "./tool-call-grammar.ts";

export const DEFAULT_MAX_TOKENS = 200;

export interface SequenceRuntimeOptions {
  readonly reuseCache: boolean;
  /** Renders a request to the prompt text, prefix included (the model's chat template). */
  readonly render: (request: GenerateRequest) => string;
  /** Repetition penalty, end tokens and the special tokens replies leave out (see generation-config.ts). */
  readonly decoding: Pick<Decoding, "repetitionPenalty" | "stopTokens" | "specialTokens">;
}

export class SequenceRuntime implements ChatRuntime {
  private busy = false;
  /** Grammars by their GBNF text: a constrained design asks for the same one on every question. */
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();
  /** The ids replies leave out by the tokenizer config's rule, or null for llama.cpp's. */
  private readonly special: ReadonlySet<number> | null;

  constructor(
    private readonly model: LlamaModel,
    private readonly sequence: LlamaContextSequence,
    private readonly options: SequenceRuntimeOptions,
  ) {
    this.special = specialIdSet(options.decoding.specialTokens);
  }

  async generate(request: GenerateRequest): Promise<Generation> {
    // One sequence holds one KV cache: two calls at once would interleave their tokens in it.
    if (this.busy) throw new Error("ChatRuntime.generate called again before the previous call finished");
    this.busy = true;
    const started = performance.now();
    let prompt = "";
    try {
      prompt = this.options.render(request);
      return await this.run(prompt, request, started);
    } catch (error) {
      const record: CallRecord = {
        tokensRead: 0,
        tokensEvaluated: undefined,
        tokensGenerated: 0,
        stopReason: "error",
        seconds: (performance.now() - started) / 1000,
        error: (error as Error).message,
      };
      return { prompt, text: "", record };
    } finally {
      this.busy = false;
    }
  }

  private async run(prompt: string, request: GenerateRequest, started: number): Promise<Generation> {
    const seconds = () => (performance.now() - started) / 1000;
    // Special tokens honoured: "<|im_start|>" is one id, as in the Hugging Face tokenizer. No BOS is added.
    const promptTokens = this.model.tokenize(prompt, true);
    const maxTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS;
    // node-llama-cpp never lets a sequence hold more than contextSize - 1 tokens.
    const capacity = this.sequence.contextSize - 1;
    if (promptTokens.length > capacity || promptTokens.length === 0) {
      const error =
        promptTokens.length === 0
          ? "the rendered prompt is empty"
          : `prompt of ${promptTokens.length} tokens does not fit the context of ${this.sequence.contextSize} tokens`;
      const stopReason = promptTokens.length === 0 ? "error" : "context-overflow";
      const record: CallRecord = {
        tokensRead: promptTokens.length,
        tokensEvaluated: 0,
        tokensGenerated: 0,
        stopReason,
        seconds: seconds(),
        error,
      };
      return { prompt, text: "", record };
    }

    const grammar = await this.grammarFor(request);
    const withTools = request.tools !== undefined && request.tools.length > 0;
    const toolBlockTokens = withTools ? promptTokens.length - this.countWithoutTools(request) : undefined;
    // The meter is read before aligning: if llama.cpp cannot erase a range, the kept tokens are evaluated again.
    const meter = this.sequence.tokenMeter.getState();
    const input = await this.alignCache(promptTokens);
    const generated: Token[] = [];
    let ending: CallEnding = { stopReason: "max-tokens" };
    // When evaluation started, the first new token came (the prompt is evaluated by then) and the last one came.
    const times = { start: performance.now(), first: Number.NaN, last: Number.NaN };
    // the generation config's eos_token_id when there is one (as Transformers), else llama.cpp's end-of-generation set
    const { stopTokens } = this.options.decoding;
    // Under a grammar, any end token ends the reply: once the grammar is complete, it admits nothing else.
    const ends =
      stopTokens === null || grammar
        ? (t: Token) => this.model.isEogToken(t) || stopTokens?.includes(t) === true
        : (t: Token) => stopTokens.includes(t);
    if (maxTokens > 0) {
      const plain = evaluateOptions(
        this.options.decoding.repetitionPenalty,
        promptTokens,
        generated,
        this.sequence.contextSize,
        request.sampling,
      );
      // Through the one door: a grammar exists only once a model has loaded node-llama-cpp.
      const state =
        grammar && new (await importNodeLlamaCpp()).LlamaGrammarEvaluationState({ model: this.model, grammar });
      const options = state ? { ...plain, grammarEvaluationState: state } : plain;
      for await (const token of this.sequence.evaluate(input, options)) {
        times.last = performance.now();
        if (generated.length === 0) times.first = times.last;
        generated.push(token);
        if (ends(token)) {
          ending = { stopReason: "eos" };
          break;
        }
        if (generated.length >= maxTokens) break;
        if (this.sequence.nextTokenIndex >= capacity) {
          const error = `the context of ${this.sequence.contextSize} tokens filled up after ${generated.length} new tokens`;
          ending = { stopReason: "context-overflow", error };
          break;
        }
      }
    }
    // The grammar is sized to close within maxTokens; a constrained reply cut short is no call and no answer.
    if (grammar && ending.stopReason === "max-tokens")
      ending = { stopReason: "error", error: `the constrained call did not close within ${maxTokens} new tokens` };
    // The meter counts every token decoded on this sequence: the prompt's new tokens, then each generated token
    // but the last (it is sampled, never fed back). What remains is the prompt evaluation, re-evaluations included.
    const used = this.sequence.tokenMeter.diff(meter);
    const tokensEvaluated = used.usedInputTokens + used.usedOutputTokens - Math.max(0, generated.length - 1);
    const text = (request.prefix ?? "") + decodeReply(this.model, generated, request.keepTokens, this.special);
    const record: CallRecord = {
      tokensRead: promptTokens.length,
      tokensEvaluated,
      tokensGenerated: generated.length,
      seconds: seconds(),
      ...(toolBlockTokens === undefined ? {} : { toolBlockTokens }),
      ...ending,
    };
    if (generated.length === 0) return { prompt, text, record };
    const timing = {
      promptSeconds: (times.first - times.start) / 1000,
      decodeSeconds: (times.last - times.first) / 1000,
    };
    return { prompt, text, record, timing };
  }

  /** The grammar a request's constraint decodes under, or undefined without one. */
  private grammarFor(request: GenerateRequest): Promise<LlamaGrammar> | undefined {
    const constraint = request.constraint;
    if (constraint === undefined) return undefined;
    const gbnf = toolCallGrammar(
      request.tools ?? [],
      constraint.maxStringChars,
      request.maxTokens ?? DEFAULT_MAX_TOKENS,
    );
    let grammar = this.grammars.get(gbnf);
    if (grammar === undefined) {
      grammar = this.model.llama.createGrammar({ grammar: gbnf });
      this.grammars.set(gbnf, grammar);
    }
    return grammar;
  }

  /** Tokens of the same prompt rendered without its tools: the difference is the tool block. */
  private countWithoutTools(request: GenerateRequest): number {
    return this.model.tokenize(this.options.render({ ...request, tools: undefined }), true).length;
  }

  /**
   * Makes the sequence's KV cache a prefix of the prompt and returns the tokens still to evaluate.
   * With reuse, everything after the longest common prefix is erased; without, the cache is cleared.
   */
  private async alignCache(promptTokens: Token[]): Promise<Token[]> {
    if (!this.options.reuseCache) {
      await this.sequence.clearHistory();
      return promptTokens;
    }
    // At least one prompt token must be evaluated to get logits for the first new token.
    const keep = Math.min(commonPrefixLength(this.sequence.contextTokens, promptTokens), promptTokens.length - 1);
    if (keep < this.sequence.nextTokenIndex) {
      await this.sequence.eraseContextTokenRanges([{ start: keep, end: this.sequence.nextTokenIndex }]);
    }
    return promptTokens.slice(this.sequence.nextTokenIndex);
  }
}

/** What decoding a reply's text needs of the model: its tokenizer. */
export type Detokenizer = Pick<LlamaModel, "detokenize" | "isEogToken" | "tokenize">;

/**
 * The reply's text, decoded in one piece, so characters split across tokens come out whole. With `special` (the ids
 * the original tokenizer marks special, see special-tokens.ts) it is the study's decode(…, skip_special_tokens=True):
 * those ids are left out and every other token keeps its text, including tokens llama.cpp made control tokens or
 * end-of-generation tokens though Qwen2.5's tokenizer does not mark them special (<|fim_prefix|>, <|file_sep|>,
 * "</s>"). Without it (null: no tokenizer config read), llama.cpp's rule: detokenize(…, false) drops control tokens
 * (<|im_end|>, <|endoftext|>) and keeps user-defined ones (<tool_call>), which for an ordinary Qwen2.5 reply is the
 * same text. `keep` names tokens whose text stays whichever rule applies (a tool-call format's markers, such as
 * Mistral's [TOOL_CALLS]).
 */
export function decodeReply(
  model: Detokenizer,
  tokens: readonly Token[],
  keep: readonly string[] = [],
  special: ReadonlySet<number> | null = null,
): string {
  const kept = singleTokens(model, keep);
  if (special !== null) {
    const reply = tokens.filter((t) => !special.has(t) || kept.has(t));
    return model.detokenize(reply, true);
  }
  const reply = tokens.filter((t) => !model.isEogToken(t));
  if (kept.size === 0) return model.detokenize(reply, false);
  // llama.cpp's rule keeps no control token's text, so the pieces between kept ones are decoded apart.
  let text = "";
  let run: Token[] = [];
  for (const token of reply) {
    if (!kept.has(token)) {
      run.push(token);
      continue;
    }
    text += model.detokenize(run, false) + model.detokenize([token], true);
    run = [];
  }
  return text + model.detokenize(run, false);
}

/** The ids of the texts that are one token each; a text that is not one token names none. */
function singleTokens(model: Detokenizer, texts: readonly string[]): ReadonlySet<Token> {
  const ids = texts.map((text) => model.tokenize(text, true));
  return new Set(ids.flatMap((one) => (one.length === 1 ? [one[0]!] : [])));
}

/**
 * Greedy decoding, with Transformers' repetition penalty when `penalty` is set: before each pick, every distinct
 * token id in the whole input so far (`prompt`, forced prefix included, then `generated`, which grows as tokens
 * come) has its logit divided by the penalty when positive and multiplied by it otherwise. llama.cpp's penalties
 * sampler applies exactly that rule once per distinct id of the tokens it is given, so it gets all of them, in a
 * window as long as the context; frequency and presence penalties stay 0. temperature 0 selects the greedy
 * sampler. Without a penalty no repeatPenalty is passed: node-llama-cpp's evaluate adds none of its own (only
 * LlamaCompletion/LlamaChat do), so the output is byte for byte what it was before penalties existed.
 * yieldEogToken: the caller decides which tokens end a reply. With `sampling`, llama.cpp's seeded sampler chain
 * instead of the greedy pick: penalties, top-k, top-p, then temperature (min-p 0: off). top-k and top-p are always
 * passed, since node-llama-cpp's own defaults (40 and 0.95) would otherwise apply; a top-k of 0 keeps every token.
 */
export function evaluateOptions(
  penalty: number | null,
  prompt: readonly Token[],
  generated: readonly Token[],
  contextSize: number,
  sampling?: Sampling,
): SequenceEvaluateOptions {
  const decode: SequenceEvaluateOptions =
    sampling === undefined
      ? { temperature: 0 }
      : {
          temperature: sampling.temperature,
          topK: sampling.topK,
          topP: sampling.topP,
          minP: 0,
          seed: sampling.seed,
        };
  const base: SequenceEvaluateOptions = {
    ...decode,
    yieldEogToken: true,
    contextShift: { strategy: refuseShift },
  };
  if (penalty === null) return base;
  return {
    ...base,
    repeatPenalty: {
      // called again before every pick, so it always holds the tokens generated so far
      punishTokens: () => [...prompt, ...generated],
      penalty,
      maxPunishTokens: contextSize,
      frequencyPenalty: 0,
      presencePenalty: 0,
    },
  };
}

/** Context shifting would silently drop the start of the prompt; the capacity checks above keep it from happening. */
function refuseShift(): never {
  throw new Error("context shift refused: the sequence is full");
}
