// Types of bin/threadpool.cjs for the TypeScript that imports it (the bench and the tests).
export declare function threadpoolSizeFor(run: { readonly parallel: number; readonly sharedContext: boolean }): number;
export declare function threadpoolSize(args: readonly string[]): number;
export declare function useThreadpoolFor(args: readonly string[]): void;
