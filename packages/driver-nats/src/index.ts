export { AnswerLostError } from './lost-answers.js';
export type { NatsDriverOptions } from './nats-driver.js';
export { createNatsDriver, DEFAULT_NATS_SERVERS } from './nats-driver.js';
