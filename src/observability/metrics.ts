import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of this process, served at GET /metrics: API latency, payment outcomes,
 * webhook delivery outcomes, Node's own figures, and (appended at scrape time) the Temporal
 * worker's own metrics when a worker runs in this process.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequestDuration = new Histogram({
  name: 'isp_http_request_duration_seconds',
  help: 'API request latency by route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const paymentStatusEvents = new Counter({
  name: 'isp_payment_status_events_total',
  help: 'Payment status events projected, by resulting status (CAPTURED, REFUSED, EXPIRED, ...)',
  labelNames: ['status'] as const,
  registers: [registry],
});

export const webhookDeliveryAttempts = new Counter({
  name: 'isp_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome (delivered, failed_attempt, refused_url)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Where this process's Temporal runtime serves its own Prometheus metrics, if it does. */
let temporalMetricsUrl: string | undefined;
export function setTemporalMetricsUrl(url: string | undefined): void {
  temporalMetricsUrl = url;
}

export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  let body = await registry.metrics();
  if (temporalMetricsUrl) {
    try {
      const res = await fetch(temporalMetricsUrl, { signal: AbortSignal.timeout(1000) });
      if (res.ok) body += `\n# Temporal worker (SDK core) metrics\n${await res.text()}`;
    } catch {
      // the scrape still answers with our own metrics
    }
  }
  return { contentType: registry.contentType, body };
}
