// The longest prompt each of the study's designs can send, as arithmetic on token counts measured elsewhere.
//
// The study ran without a context limit; llama.cpp needs one, and a prompt past it is an error run. These bounds say
// how big a context the study's designs can need, so that the default is sized to the blog rather than guessed.

/** One call a reply may hold: what it costs in the reply, and what its result adds to the next prompt. */
export interface CallCandidate {
  /** What the report names it by, e.g. `read_section(agent-memory, "Scoring")`. */
  readonly label: string;
  /** Tokens of the call's text in the reply, tags included. */
  readonly callTokens: number;
  /** Tokens its result adds to the next prompt, the template's wrapping of one tool message included. */
  readonly resultTokens: number;
}

/** The measured parts of an agent design's conversation. */
export interface AgentParts {
  /** Tokens of the first prompt: system prompt, tool block, the longest question, generation prompt (and prefix). */
  readonly firstPrompt: number;
  /** Tokens a turn adds besides its reply and results: the reply's end, the user turn around the results, the next generation prompt. */
  readonly turnFrame: number;
  /** Tokens of the forced prefix, which the first reply holds without generating them (0 for the other designs). */
  readonly prefixTokens: number;
  readonly candidates: readonly CallCandidate[];
}

export interface BoundLimits {
  /** Model calls a run makes at most (the study's 6). */
  readonly maxTurns: number;
  /** New tokens per call at most (the study's 200). */
  readonly maxNewTokens: number;
}

/** The reply whose calls bring back the most tokens, within a budget of call tokens. */
export interface PackedReply {
  readonly resultTokens: number;
  readonly callTokens: number;
  /** The calls it holds, each label once with how many times it is called, the most called first. */
  readonly calls: readonly { readonly label: string; readonly count: number }[];
}

export interface DesignBound {
  /** Tokens of the last prompt the design can send, at most. */
  readonly lastPrompt: number;
  /** The context that prompt needs: the prompt, then the room for a full reply. */
  readonly contextNeeded: number;
  /** The worst reply of each turn but the last, in order (none for the workflow). */
  readonly replies: readonly PackedReply[];
}

/**
 * The most result tokens a reply of `budget` call tokens can bring back: an unbounded knapsack (a reply may repeat a
 * call, and every call in it runs), solved exactly. Example: calls of 3 tokens bringing 30 and of 5 bringing 45, a
 * budget of 8: 3+5 brings 75 (two of 3 would bring 60, one of 5 and none else 45).
 */
export function bestReply(candidates: readonly CallCandidate[], budget: number): PackedReply {
  for (const c of candidates) {
    if (!Number.isInteger(c.callTokens) || c.callTokens < 1)
      throw new Error(`a call costs at least one token: ${c.label} costs ${c.callTokens}`);
  }
  const size = Math.max(0, Math.floor(budget));
  // best[b]: the most result tokens within b call tokens; last[b]: the call that got it, -1 for "leave a token unused".
  const best = new Array<number>(size + 1).fill(0);
  const last = new Array<number>(size + 1).fill(-1);
  for (let b = 1; b <= size; b++) {
    best[b] = best[b - 1]!;
    candidates.forEach((c, i) => {
      if (c.callTokens <= b && best[b - c.callTokens]! + c.resultTokens > best[b]!) {
        best[b] = best[b - c.callTokens]! + c.resultTokens;
        last[b] = i;
      }
    });
  }
  const counts = new Map<number, number>();
  let callTokens = 0;
  for (let b = size; b > 0; ) {
    const i = last[b]!;
    if (i === -1) {
      b--;
      continue;
    }
    counts.set(i, (counts.get(i) ?? 0) + 1);
    callTokens += candidates[i]!.callTokens;
    b -= candidates[i]!.callTokens;
  }
  const calls = [...counts]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([i, count]) => ({ label: candidates[i]!.label, count }));
  return { resultTokens: best[size]!, callTokens, calls };
}

/**
 * An agent design's bound. The last prompt is the first one plus, for each of the first maxTurns - 1 turns, a full
 * reply, its frame and the results of the worst calls the reply can hold (the first reply of the forced design holds
 * the prefix too, which is in the first prompt already). The last call needs room for maxNewTokens after its prompt:
 * the runtime stops a reply when the sequence reaches contextSize - 1 tokens, and the last generated token is never
 * fed back, so prompt + maxNewTokens <= contextSize lets a full reply through.
 */
export function agentBound(parts: AgentParts, limits: BoundLimits): DesignBound {
  const replies: PackedReply[] = [];
  let prompt = parts.firstPrompt;
  for (let turn = 1; turn < limits.maxTurns; turn++) {
    const free = turn === 1 ? parts.prefixTokens : 0;
    const reply = bestReply(parts.candidates, limits.maxNewTokens + free);
    replies.push(reply);
    prompt += limits.maxNewTokens + parts.turnFrame + reply.resultTokens;
  }
  return { lastPrompt: prompt, contextNeeded: prompt + limits.maxNewTokens, replies };
}

/** The workflow sends one prompt (its system prompt, the three hits and the question): it is the last one too. */
export function workflowBound(prompt: number, limits: Pick<BoundLimits, "maxNewTokens">): DesignBound {
  return { lastPrompt: prompt, contextNeeded: prompt + limits.maxNewTokens, replies: [] };
}
