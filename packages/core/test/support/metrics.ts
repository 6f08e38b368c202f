import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { MetricsMeter } from '../../src/index.js';

/** A reader the test collects from by hand. */
class TestReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

export function meterWithReader(): {
  meter: MetricsMeter;
  collect: () => Promise<ResourceMetrics>;
} {
  const reader = new TestReader();
  const provider = new MeterProvider({ readers: [reader] });
  return {
    meter: provider.getMeter('test') as unknown as MetricsMeter,
    collect: async () => (await reader.collect()).resourceMetrics,
  };
}

/** Each data point of metric `name` as `{ attributes, value }`. */
export function points(metrics: ResourceMetrics, name: string) {
  const metric = metrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((m) => m.descriptor.name === name);
  return (metric?.dataPoints ?? []).map((point) => ({
    attributes: point.attributes,
    value: point.value,
  }));
}
