import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildFromDisk,
  exportName,
  GENERATED_PATH,
  generatedModule,
  REFRESH_COMMAND,
  readGenerated,
} from '../scripts/lua/module.js';
import * as generated from '../src/lua/generated.js';

describe('the generated Lua module', () => {
  it(`${GENERATED_PATH} is what \`${REFRESH_COMMAND}\` writes from the .lua sources`, () => {
    const sent: Record<string, unknown> = generated;
    const stale = buildFromDisk()
      .filter((script) => sent[exportName(script.name)] !== script.lua)
      .map((script) => script.path);
    expect(
      { upToDate: readGenerated() === generatedModule(), stale },
      `${GENERATED_PATH} is stale: run ${REFRESH_COMMAND}`,
    ).toEqual({ upToDate: true, stale: [] });
  });

  it('the README shows how a script starts with the start of pause.lua, as it is', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const shown = /<!-- pause-lua -->\n```lua\n([\s\S]*?)```/.exec(readme)?.[1];
    const pause = readFileSync(new URL('../src/lua/scripts/pause.lua', import.meta.url), 'utf8');
    expect(shown).toBeDefined();
    expect(pause.startsWith(shown ?? '-')).toBe(true);
  });
});
