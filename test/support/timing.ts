/** Small statistics for the enumeration-by-timing tests (no fixed millisecond threshold anywhere). */

export const median = (values: number[]) => quantile(values, 0.5);

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (position - low);
}

export interface PairedComparison {
  /** Median of `first - second` over the pairs (ms). */
  medianDifference: number;
  /** How far that median may be from 0 and still be noise: `sigmas` standard errors of the median. */
  tolerance: number;
  medians: [number, number];
  samples: number;
}

/**
 * Compares two interleaved series pair by pair (each pair measured back to back, so the machine's
 * load drifts out of the difference). The standard error of the median difference comes from the
 * measured spread: σ ≈ IQR / 1.349, SE(median) ≈ 1.2533 σ / √n.
 */
export function comparePaired(first: number[], second: number[], sigmas = 4): PairedComparison {
  const differences = first.map((value, index) => value - (second[index] as number));
  const sigma = (quantile(differences, 0.75) - quantile(differences, 0.25)) / 1.349;
  return {
    medianDifference: median(differences),
    tolerance: (sigmas * 1.2533 * sigma) / Math.sqrt(differences.length),
    medians: [median(first), median(second)],
    samples: differences.length,
  };
}
