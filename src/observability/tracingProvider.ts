import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';
import type { Config } from '../config';

/** A process's tracing: the plugin the Temporal client and worker take, and its shutdown. */
export interface Tracing {
  plugin: OpenTelemetryPlugin;
  shutdown(): Promise<void>;
}

/** The provider behind `startTracing` (./tracing.ts), in a module of its own so it loads only when tracing is on. */
let current: { tracing: Tracing; users: number } | undefined;

export function startTracingProvider(config: Config): Tracing {
  if (current) {
    current.users++;
    return current.tracing;
  }
  const resource = new Resource({ 'service.name': config.OTEL_SERVICE_NAME });
  const spanProcessor: SpanProcessor = new BatchSpanProcessor(
    new OTLPTraceExporter({ url: `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '')}/v1/traces` }),
    { scheduledDelayMillis: 500 },
  );
  const provider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  trace.setGlobalTracerProvider(provider);
  const tracing: Tracing = {
    plugin: new OpenTelemetryPlugin({ resource, spanProcessor }),
    async shutdown() {
      if (!current || --current.users > 0) return;
      current = undefined;
      await provider.shutdown();
      trace.disable();
    },
  };
  current = { tracing, users: 1 };
  return tracing;
}
