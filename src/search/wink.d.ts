// Types for the two wink packages, which ship none: only the parts blogqa calls.
declare module "wink-bm25-text-search" {
  /** A prep task maps a string or a token list to the next task's input: any one-argument function fits. */
  type Task = (input: never) => unknown;
  interface Bm25Engine {
    defineConfig(config: {
      fldWeights: Record<string, number>;
      bm25Params?: { k1?: number; b?: number; k?: number };
      ovFldNames?: string[];
    }): boolean;
    definePrepTasks(tasks: Task[], field?: string): number;
    addDoc(doc: Record<string, string>, id: string): number;
    consolidate(fp?: number): boolean;
    /** [id, score] pairs, best first; ids are always strings. */
    search(text: string, limit?: number): [string, number][];
    exportJSON(): string;
    importJSON(json: string): boolean;
  }
  function bm25(): Bm25Engine;
  export = bm25;
}

declare module "wink-nlp-utils" {
  const nlp: {
    string: { lowerCase(s: string): string; tokenize0(s: string): string[] };
    tokens: { removeWords(tokens: string[]): string[]; stem(tokens: string[]): string[] };
  };
  export = nlp;
}
