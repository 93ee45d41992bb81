#!/usr/bin/env node
// `npx blogqa <command>`: runs the TypeScript CLI through tsx, as `npm run -s blogqa --` does, with no build step.
import { register } from "tsx/esm/api";

register();
await import("../src/cli.ts");
