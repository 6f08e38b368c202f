import type { LifecycleEvent, LifecycleEventType, LifecyclePage } from '@berth/core';
import { expectTypeOf, it } from 'vitest';
import type {
  LifecycleEventType as EventTypeView,
  LifecycleEventView,
  LifecycleResponse,
} from '../src/lifecycle-types.js';

// The page's types are kept free of core (they reach the browser bundle); these keep them equal.
it('the lifecycle route types are core’s lifecycle types, field for field', () => {
  expectTypeOf<EventTypeView>().toEqualTypeOf<LifecycleEventType>();
  expectTypeOf<LifecycleEventView>().toEqualTypeOf<LifecycleEvent>();
  expectTypeOf<LifecycleResponse['events'][number]>().toEqualTypeOf<
    LifecyclePage['events'][number]
  >();
});
