/**
 * Small statistics for noisy machines: medians and percentiles over samples, and a spread that
 * says how far to trust them (interquartile range relative to the median).
 */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

export const median = (values: number[]) => percentile(values, 50);

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  /** (p75 − p25) / p50: 0.1 means the middle half of the samples lie within ±5 % of the median. */
  spread: number;
}

export function summarize(values: number[]): Summary {
  const p50 = median(values);
  return { n: values.length, p50, p95: percentile(values, 95), spread: (percentile(values, 75) - percentile(values, 25)) / p50 };
}

/** Ratio of two medians, plus the spread of the per-round ratios (rounds are interleaved A B A B). */
export function ratioOf(perRoundA: number[], perRoundB: number[]): { ratio: number; min: number; max: number } {
  const ratios = perRoundA.map((a, i) => a / perRoundB[i]!).filter(Number.isFinite);
  return { ratio: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}
