export type {
  AnyEventDefinition,
  EventDefinition,
  EventInput,
  EventOptions,
  EventPayload,
} from './define-event.js';
export { defineEvent } from './define-event.js';
