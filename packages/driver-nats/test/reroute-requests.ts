import type { NatsConnection, Payload, PublishOptions } from '@nats-io/transport-node';

/** What happens to one request: sent to another subject, or answered by the test. */
export type Reroute = { readonly to: string } | { readonly answer: Uint8Array } | undefined;

/**
 * Makes `nc` pass each request it sends (a publish naming a reply subject, however the client
 * made it) through `route` first: unchanged (undefined), sent to another subject instead (one
 * nobody answers stands for a server that took it and said nothing), or answered as the server
 * would, on the reply subject. Faults at the wire: whatever makes the requests sees them.
 */
export function rerouteRequests(nc: NatsConnection, route: (subject: string) => Reroute): void {
  const publish = nc.publish.bind(nc);
  nc.publish = (subject: string, payload?: Payload, options?: PublishOptions) => {
    const reply = options?.reply;
    const decision = reply === undefined ? undefined : route(subject);
    if (reply === undefined || decision === undefined) return publish(subject, payload, options);
    if ('to' in decision) return publish(decision.to, payload, options);
    publish(reply, decision.answer);
  };
}
