import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { WebhookDelivery } from './deliver-job.js';

/**
 * The canonical-field rule of webhook payloads: every object key in a message's `data`, at any
 * depth, is an identifier any receiver's language maps to a field — a letter, then letters,
 * digits or `_`, at most WEBHOOK_FIELD_MAX characters, and not `constructor` or `prototype` —
 * and the message's `type` is such names joined by dots (`invoice.paid`). A key with a space,
 * a dash, a dot or a `$` is a field some receiver cannot bind, or binds to something else.
 */
export const WEBHOOK_FIELD_MAX = 64;

const FIELD = /^[A-Za-z][A-Za-z0-9_]*$/;
const RESERVED = new Set(['constructor', 'prototype']);

/** Whether `name` is a canonical webhook field name. */
export function isCanonicalWebhookField(name: unknown): boolean {
  return (
    typeof name === 'string' &&
    name.length <= WEBHOOK_FIELD_MAX &&
    FIELD.test(name) &&
    !RESERVED.has(name)
  );
}

type Issue = StandardSchemaV1.Issue;
type Path = readonly (string | number)[];

/** The non-canonical keys under `value`, each with its path, at most `room` of them. */
function fieldIssues(value: unknown, path: Path, issues: Issue[], room: number): void {
  if (issues.length >= room || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) fieldIssues(item, [...path, index], issues, room);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (!isCanonicalWebhookField(key)) {
      issues.push({
        message: `${JSON.stringify(key.slice(0, 80))} is not a canonical webhook field: a letter, then letters, digits or _, at most ${WEBHOOK_FIELD_MAX} characters`,
        path: [...path, key],
      });
      if (issues.length >= room) return;
    }
    fieldIssues(item, [...path, key], issues, room);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const text = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** The issues of a delivery as the app gives it; at most 20, so a huge payload answers fast. */
export function deliveryIssues(value: unknown): Issue[] {
  const issues: Issue[] = [];
  if (!isObject(value)) return [{ message: 'a delivery is { endpoint, message, timestamp }' }];
  const { endpoint, message, timestamp } = value;
  if (!isObject(endpoint) || !text(endpoint.id) || !text(endpoint.url)) {
    issues.push({
      message: 'endpoint must be { id, url } with non-empty strings',
      path: ['endpoint'],
    });
  }
  if (!text(timestamp) || Number.isNaN(Date.parse(timestamp))) {
    issues.push({ message: 'timestamp must be an ISO 8601 instant', path: ['timestamp'] });
  }
  if (!isObject(message)) {
    issues.push({ message: 'message must be { id, type, data }', path: ['message'] });
    return issues;
  }
  if (!text(message.id)) {
    issues.push({ message: 'id must be a non-empty string', path: ['message', 'id'] });
  }
  const type = message.type;
  if (!text(type) || !type.split('.').every(isCanonicalWebhookField)) {
    issues.push({
      message: 'type must be canonical field names joined by dots, as invoice.paid',
      path: ['message', 'type'],
    });
  }
  fieldIssues(message.data, ['message', 'data'], issues, 20);
  return issues;
}

/**
 * The webhook job's schema: checks each delivery at enqueue (JOB_INVALID, with the issues), so
 * a payload a receiver could not bind is refused before it is stored, never found at the POST.
 */
export const webhookDeliverySchema: StandardSchemaV1<WebhookDelivery, WebhookDelivery> = {
  '~standard': {
    version: 1,
    vendor: 'berth',
    validate(value) {
      const issues = deliveryIssues(value);
      return issues.length === 0 ? { value: value as WebhookDelivery } : { issues };
    },
  },
};
