export type { Client, ClientOptions, EnqueueItem, EnqueueOptions } from './client-types.js';
export { createClient } from './create-client.js';
