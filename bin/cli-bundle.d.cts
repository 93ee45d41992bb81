// Types of bin/cli-bundle.cjs for the TypeScript that imports it (the build script and the tests).
export declare const BUNDLE_DIR: string;
export declare const BUNDLE_ENTRY: string;
export declare function currentBundle(root: string): string | undefined;
