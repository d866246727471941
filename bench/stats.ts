/** Percentiles over a sample (nearest-rank), in the sample's unit. Empty sample: null. */
export function percentile(sample: number[], p: number): number | null {
  if (sample.length === 0) return null;
  const sorted = [...sample].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return round(sorted[rank]!);
}

export const round = (v: number): number => Math.round(v * 100) / 100;

export function summary(sample: number[]): { p50: number | null; p90: number | null; p99: number | null; max: number | null } {
  return { p50: percentile(sample, 50), p90: percentile(sample, 90), p99: percentile(sample, 99), max: percentile(sample, 100) };
}
