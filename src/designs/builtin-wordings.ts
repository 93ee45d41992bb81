// `--wordings builtin`: the study's wording and four rewrites of it that ask for the same things in other words.
// Each keeps every instruction (role, the blog, tools or results, the Source line and its slug, search first) and
// changes only how it is said, so that a design's result moving between them measures the wording, not the task.
import { DEFAULT_WORDING, type Wording } from "./wording.ts";

export const BUILTIN_WORDINGS: readonly Wording[] = [
  DEFAULT_WORDING,
  {
    id: "plain",
    system: "You answer questions about a technical blog. Use its tools.",
    workflow_system: "You answer questions about a technical blog. Use the search results below.",
    search_first: "Call search_posts before you answer.",
    source_instruction:
      "Finish with a line 'Source: <post>', where <post> is the slug of the blog post your answer came from.",
    workflow_layout: "Search results:\n{results}\n\nQuestion: {question}",
    tool_descriptions: { search_posts: "Search the blog's posts.", read_section: "Read one section of one blog post." },
  },
  {
    id: "terse",
    system: "Answer questions about a technical blog with its tools.",
    workflow_system: "Answer questions about a technical blog from the search results given.",
    search_first: "Search with search_posts first.",
    source_instruction: "Last line: 'Source: <post>', with <post> the slug of the blog post used.",
    workflow_layout: "Results:\n{results}\n\nQuestion: {question}",
    tool_descriptions: { search_posts: "Search blog posts.", read_section: "Read a section of a blog post." },
  },
  {
    id: "assistant",
    system: "You are an assistant for a technical blog. Use the blog's tools to answer the user's question.",
    workflow_system:
      "You are an assistant for a technical blog. Answer the user's question from the search results provided.",
    search_first: "Before answering, always call search_posts.",
    source_instruction:
      "Your answer must end with the line 'Source: <post>', giving the slug of the blog post you relied on.",
    workflow_layout: "Here are the search results:\n{results}\n\nThe user's question: {question}",
    tool_descriptions: {
      search_posts: "Search the blog for posts matching a query.",
      read_section: "Read one section of a blog post, named by the post's slug and the section's heading.",
    },
  },
  {
    id: "question-first",
    system: DEFAULT_WORDING.system,
    workflow_system: DEFAULT_WORDING.workflow_system,
    search_first: "Always search with search_posts before you answer.",
    source_instruction:
      "Cite the blog post you used: end your answer with a line 'Source: <post>', where <post> is its slug.",
    workflow_layout: "Question: {question}\n\nSearch results:\n{results}",
    tool_descriptions: DEFAULT_WORDING.tool_descriptions,
  },
];
