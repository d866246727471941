import type { Config } from '../config';
import type { Tracing } from './tracingProvider';

export type { Tracing };

/**
 * OpenTelemetry tracing, switched on by OTEL_ENABLED: the Temporal client (API), the workflows
 * and the activities (worker) are traced through Temporal's own OpenTelemetry plugin, and spans
 * go to an OTLP/HTTP collector at OTEL_EXPORTER_OTLP_ENDPOINT. One provider per process. The
 * OpenTelemetry packages (0.2 s a process) load only when tracing is on (./tracingProvider.ts).
 */
export async function startTracing(config: Config): Promise<Tracing | undefined> {
  if (!config.OTEL_ENABLED) return undefined;
  return (await import('./tracingProvider')).startTracingProvider(config);
}
