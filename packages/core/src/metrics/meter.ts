import { configInvalid } from '../errors/refusals.js';
import { loadOtel } from '../runtime/otel/load-otel.js';

export const METER = '@berth/core';

type Attributes = Record<string, string>;

/** An observable instrument, as `Meter.createObservableGauge` answers it. */
export type ObservableInstrument = object;

/** What a batch callback records through. */
export interface BatchObserver {
  observe(instrument: ObservableInstrument, value: number, attributes?: Attributes): void;
}

/**
 * The part of an OpenTelemetry `Meter` Berth records on: any `Meter` of `@opentelemetry/api`
 * fits, and an app without the package never sees its types.
 */
export interface MetricsMeter {
  createCounter(
    name: string,
    options?: InstrumentOptions,
  ): { add(value: number, attributes?: Attributes): void };
  createUpDownCounter(
    name: string,
    options?: InstrumentOptions,
  ): { add(value: number, attributes?: Attributes): void };
  createHistogram(
    name: string,
    options?: InstrumentOptions,
  ): { record(value: number, attributes?: Attributes): void };
  createObservableGauge(name: string, options?: InstrumentOptions): ObservableInstrument;
  addBatchObservableCallback(
    callback: (observer: BatchObserver) => Promise<void> | void,
    instruments: ObservableInstrument[],
  ): void;
  removeBatchObservableCallback(
    callback: (observer: BatchObserver) => Promise<void> | void,
    instruments: ObservableInstrument[],
  ): void;
}

export interface InstrumentOptions {
  readonly description?: string;
  readonly unit?: string;
}

/** The meter to record on: the one given, else `@berth/core`'s from the global meter provider. */
export async function meterOf(
  given: MetricsMeter | undefined,
  example: string,
): Promise<MetricsMeter> {
  if (given !== undefined) return given;
  const api = await loadOtel();
  if (api === undefined) {
    throw configInvalid({
      option: 'meter',
      reason: 'is absent and @opentelemetry/api is not installed to make one',
      allowed: 'is an OpenTelemetry Meter, or left out with @opentelemetry/api installed',
      example,
    });
  }
  return api.metrics.getMeter(METER) as unknown as MetricsMeter;
}
