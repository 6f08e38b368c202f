export { isCanonicalWebhookField, WEBHOOK_FIELD_MAX } from './canonical.js';
export { deliverWebhook } from './deliver.js';
export type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookJobOptions,
  WebhookMessage,
  WebhookReceipt,
} from './deliver-job.js';
export {
  defineWebhookJob,
  enableWebhookEndpoint,
  isWebhookEndpointDisabled,
  webhookMarks,
} from './deliver-job.js';
export { generateWebhookSecret, WEBHOOK_SECRET_PREFIX, webhookSecretKey } from './secret.js';
export type { WebhookHeaders, WebhookSigningInput } from './sign.js';
export { signWebhook } from './sign.js';
export type { ReceivedHeaders, VerifyWebhookInput, WebhookRefusal } from './verify.js';
export { verifyWebhook } from './verify.js';
