import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineJob, type IsJson, type Json, type StepApi } from '../src/index.js';

interface Receipt {
  readonly id: string;
  readonly total?: number;
  readonly lines: readonly { readonly sku: string; readonly qty: number }[];
}
type ReceiptAlias = {
  readonly id: string;
  readonly total?: number;
  readonly lines: readonly { readonly sku: string; readonly qty: number }[];
};
declare const receipt: Receipt;

// Compiled by `pnpm typecheck`, never run: each @ts-expect-error fails the build when the line
// it marks stops being an error.
function compileOnly(step: StepApi) {
  void step.run('interface', () => receipt);
  void step.run('alias', async () => receipt as ReceiptAlias);
  void step.run('nothing', () => {});
  void step.run('json', () => JSON.parse('{}') as Json);
  // @ts-expect-error a Date does not come back from JSON as a Date
  void step.run('date', () => new Date());
  // @ts-expect-error nor does a Date inside an object
  void step.run('nested-date', () => ({ when: new Date() }));
  // @ts-expect-error a Map is not JSON
  void step.run('map', () => new Map<string, string>());
  // @ts-expect-error a function property is not JSON
  void step.run('fn', () => ({ call: () => 1 }));
  // @ts-expect-error a bigint is not JSON
  void step.run('bigint', () => 1n);
  // @ts-expect-error unknown might be anything
  void step.run('unknown', () => JSON.parse('{}') as unknown);

  defineJob<Receipt>({ name: 'interface-payload', run: () => {} });
  // @ts-expect-error a Date payload cannot be stored
  defineJob<{ when: Date }>({ name: 'date-payload', run: () => {} });
  defineJob({ name: 'interface-result', run: () => receipt });
  // @ts-expect-error a Date result cannot be stored
  defineJob({ name: 'date-result', run: () => ({ at: new Date() }) });
}

describe('the JSON constraint', () => {
  it('accepts interfaces and type aliases alike, and refuses what JSON cannot carry back', () => {
    expectTypeOf<IsJson<Receipt>>().toEqualTypeOf<true>();
    expectTypeOf<IsJson<ReceiptAlias>>().toEqualTypeOf<true>();
    expectTypeOf<IsJson<Json>>().toEqualTypeOf<true>();
    expectTypeOf<IsJson<{ a?: string | undefined }>>().toEqualTypeOf<true>();
    expectTypeOf<IsJson<Date>>().toEqualTypeOf<false>();
    expectTypeOf<IsJson<{ d: Date }>>().toEqualTypeOf<false>();
    expectTypeOf<IsJson<Set<number>>>().toEqualTypeOf<false>();
    expectTypeOf<IsJson<{ n: bigint }>>().toEqualTypeOf<false>();
    expectTypeOf<IsJson<symbol>>().toEqualTypeOf<false>();
    expectTypeOf<IsJson<unknown>>().toEqualTypeOf<false>();
    expect(compileOnly).toBeTypeOf('function');
  });
});
