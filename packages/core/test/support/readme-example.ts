import {
  readmeBlock,
  runSnippet,
  snippetTypeErrors,
  splitImports,
  stripTypes,
} from '@berth/test-servers';

const README = new URL('../../README.md', import.meta.url);

/**
 * Runs the core README's block `block` (its imports cut, its types stripped) with `scope` in
 * scope: answers how many import lines it had and every console.log it made, in order.
 */
export async function runReadmeExample(
  block: string,
  scope: Readonly<Record<string, unknown>>,
): Promise<{ imports: number; printed: unknown[][] }> {
  const { imports, body } = splitImports(readmeBlock(README, block));
  const printed: unknown[][] = [];
  await runSnippet(stripTypes(body), {
    ...scope,
    console: { log: (...args: unknown[]) => printed.push(args) },
  });
  return { imports: imports.length, printed };
}

/** The type errors of the core README's block `block`, checked as `test/<snippet>`. */
export function readmeExampleTypeErrors(block: string, snippet: string) {
  return snippetTypeErrors(readmeBlock(README, block), {
    tsconfig: new URL('../../tsconfig.json', import.meta.url),
    at: new URL(`../${snippet}`, import.meta.url),
  });
}
