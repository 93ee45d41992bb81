// The report page's only script: the transcript browser. Plain browser JavaScript kept as a string, so the page needs
// no build step and no network. Every piece of logged text reaches the page through textContent, never innerHTML.

// biome-ignore lint/complexity/noUselessStringRaw: raw, so that a backslash written in the page script reaches the browser as written
export const PAGE_SCRIPT = String.raw`(() => {
  "use strict";
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const byId = (id) => document.getElementById(id);
  /** An element with a class and text; text goes in as textContent, so nothing in it is ever parsed as HTML. */
  const el = (tag, className, text) => {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };
  const option = (value, label) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    return o;
  };
  const yes = (b) => (b ? "yes" : "no");
  const pickModel = byId("pick-model");
  const pickDesign = byId("pick-design");
  const pickQuestion = byId("pick-question");
  const view = byId("transcript");

  for (const m of data.models) pickModel.append(option(m.id, m.label));
  for (const v of data.designs) pickDesign.append(option(v.id, v.label));

  const runsOf = () => data.runs.filter((r) => r.model === pickModel.value && r.design === pickDesign.value);

  function fillQuestions() {
    const keep = pickQuestion.value;
    pickQuestion.replaceChildren();
    for (const r of runsOf()) {
      const marks = (r.found ? "F" : "-") + (r.cites_right ? "R" : "-");
      const text = r.question.length > 70 ? r.question.slice(0, 67) + "..." : r.question;
      pickQuestion.append(option(r.question_id, r.question_id + " [" + marks + "] " + text));
    }
    if ([...pickQuestion.options].some((o) => o.value === keep)) pickQuestion.value = keep;
  }

  function facts(pairs) {
    const dl = el("dl", "facts");
    for (const [name, value] of pairs) {
      dl.append(el("dt", null, name), el("dd", null, value));
    }
    return dl;
  }

  function block(title, text, className) {
    const box = el("div", "block " + (className || ""));
    box.append(el("div", "label", title), el("pre", "text", text));
    return box;
  }

  function toolCallView(t, i) {
    const box = el("div", "tool-call" + (t.malformed ? " malformed" : ""));
    box.append(el("div", "label", "tool call " + (i + 1) + ": " + (t.name === undefined || t.name === null ? "(no name)" : t.name) + (t.malformed ? " (malformed)" : "") + (t.validation ? ", refused by validation: " + t.validation : "")));
    box.append(block("as written", t.raw, "raw"));
    if (t.arguments !== undefined) box.append(block("arguments", JSON.stringify(t.arguments, null, 1), "args"));
    box.append(block("result (the tool message)", t.result, "result"));
    box.append(el("div", "shown", "posts shown: " + (t.shownPosts.length ? t.shownPosts.join(", ") : "none")));
    return box;
  }

  /** answer: the run's answer, so that a reply that is exactly it is not printed a second time. */
  function callView(c, i, answer) {
    const r = c.record;
    const box = el("section", "call");
    const stats = [r.tokensRead + " tokens read", (r.tokensEvaluated === undefined || r.tokensEvaluated === null ? "?" : r.tokensEvaluated) + " evaluated", r.tokensGenerated + " generated", "stop: " + r.stopReason, r.seconds.toFixed(2) + " s", c.withTools ? "tools offered" : "no tools"];
    box.append(el("h4", null, "Call " + (i + 1) + ": " + stats.join(", ")));
    if (r.error) box.append(el("div", "error", "error: " + r.error));
    const prompt = el("details", "prompt");
    prompt.append(el("summary", null, "prompt: " + c.messages.length + " messages"));
    for (const m of c.messages) prompt.append(block(m.role, m.content, "message role-" + m.role));
    box.append(prompt);
    if (c.prefix) box.append(block("forced start of the reply", c.prefix, "prefix"));
    if (c.constraint) box.append(el("div", "label", "decoded under a tool-call grammar (strings of at most " + c.constraint.maxStringChars + " bytes, fewer where the call must close within the reply's token limit)"));
    if (c.reply === answer) box.append(el("div", "label same-as-answer", "reply: the answer above"));
    else box.append(block("reply", c.reply, "reply"));
    c.toolCalls.forEach((t, j) => box.append(toolCallView(t, j)));
    return box;
  }

  function show() {
    view.replaceChildren();
    const run = runsOf().find((r) => r.question_id === pickQuestion.value);
    if (!run) {
      view.append(el("p", "empty", "No run for this model and design."));
      return;
    }
    view.append(el("h3", "question", run.question_id + ": " + run.question));
    view.append(
      facts([
        ...(run.set === "two-post"
          ? [
              ["right posts", run.gold_posts.map((p, i) => p + " (section: " + run.gold_headings[i] + ")").join("; ")],
              ["found all", yes(run.found)],
              ["cites exactly both", yes(run.cites_right)],
            ]
          : [
              ["right post", run.gold_posts[0] + " (section: " + run.gold_headings[0] + ")"],
              ["found", yes(run.found)],
              ["cites right (strict)", yes(run.cites_right)],
              ["cites right (lenient)", yes(run.cites_right_lenient)],
            ]),
        ["source line", run.source.why],
        ["posts the tools showed", run.seen_posts.length ? run.seen_posts.join(", ") : "none"],
        ["outcome", run.outcome + (run.error ? ": " + run.error : "")],
        ["cost", run.model_calls + " model calls, " + run.tool_calls + " tool calls (" + run.malformed + " malformed), " + run.tokens_read + " tokens read, " + run.seconds.toFixed(1) + " s"],
      ]),
    );
    view.append(block("answer", run.answer, "answer"));
    const t = run.transcript;
    // A cite-checked run whose first answer failed the check: the last call is the repair.
    if (t.repair) view.append(block("first answer, before the repair (its Source line " + t.repair.problem + ")", t.repair.firstAnswer, "answer"));
    if (t.retrieval) {
      const box = el("section", "retrieval");
      box.append(el("h4", null, "The workflow's search: " + t.retrieval.hits.length + " hits"));
      box.append(block("query", t.retrieval.query, "query"));
      t.retrieval.hits.forEach((h, i) => box.append(block("hit " + (i + 1) + ": " + h.post + " / " + h.heading, h.snippet, "hit")));
      view.append(box);
    }
    t.calls.forEach((c, i) => view.append(callView(c, i, i === t.calls.length - 1 ? run.answer : undefined)));
  }

  pickModel.addEventListener("change", () => { fillQuestions(); show(); });
  pickDesign.addEventListener("change", () => { fillQuestions(); show(); });
  pickQuestion.addEventListener("change", show);
  fillQuestions();
  show();
})();
`;
