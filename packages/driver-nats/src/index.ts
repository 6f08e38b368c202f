export { AnswerLostError } from './lost-answers.js';
export { createNatsDriver } from './nats-driver.js';
export type { NatsDriverOptions } from './nats-options.js';
export { DEFAULT_NATS_SERVERS } from './nats-options.js';
