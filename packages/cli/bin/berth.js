#!/usr/bin/env node
// The published entry: the compiled CLI in dist/ (built by `pnpm build`, shipped in the package).
import { run } from '../dist/main.js';

process.exitCode = await run(process.argv.slice(2));
