/**
 * Largest-Triangle-Three-Buckets (Steinarsson 2013): keeps the shape of a series in `threshold`
 * points, so a year of 5-minute values (105,120 points) draws as ~1 point per pixel. Shared by the
 * server (downsampling before sending) and the console (re-sampling on resize). Points are [x, y];
 * y may be null (a gap), and gaps are kept as gaps.
 */
export type SeriesPoint = readonly [number, number | null];

export function lttb(points: readonly SeriesPoint[], threshold: number): SeriesPoint[] {
  const n = points.length;
  if (threshold >= n || threshold < 3) return points.slice();
  const sampled: SeriesPoint[] = [];
  const bucketSize = (n - 2) / (threshold - 2);
  let a = 0;
  const first = points[0];
  if (first) sampled.push(first);
  for (let i = 0; i < threshold - 2; i++) {
    // Average of the next bucket: the third corner of the triangle.
    const nextStart = Math.floor((i + 1) * bucketSize) + 1;
    const nextEnd = Math.min(Math.floor((i + 2) * bucketSize) + 1, n);
    let avgX = 0;
    let avgY = 0;
    let count = 0;
    for (let j = nextStart; j < nextEnd; j++) {
      const p = points[j];
      if (p && p[1] !== null) {
        avgX += p[0];
        avgY += p[1];
        count++;
      }
    }
    if (count > 0) {
      avgX /= count;
      avgY /= count;
    }
    const start = Math.floor(i * bucketSize) + 1;
    const end = Math.floor((i + 1) * bucketSize) + 1;
    const pa = points[a];
    let best = -1;
    let bestArea = -1;
    let gap = -1;
    for (let j = start; j < end; j++) {
      const p = points[j];
      if (!p) continue;
      if (p[1] === null) {
        gap = j;
        continue;
      }
      const ay = pa?.[1] ?? p[1];
      const ax = pa?.[0] ?? p[0];
      const area = Math.abs((ax - avgX) * (p[1] - ay) - (ax - p[0]) * (avgY - ay));
      if (area > bestArea) {
        bestArea = area;
        best = j;
      }
    }
    // A bucket with no value at all stays a gap, so a chart does not draw a line across missing data.
    const chosen = best >= 0 ? best : gap;
    const point = points[chosen];
    if (point) {
      sampled.push(point);
      a = chosen;
    }
  }
  const last = points[n - 1];
  if (last) sampled.push(last);
  return sampled;
}
