import { describe, expect, it } from 'vitest';
import { type FirmwareRelease, FirmwareReleaseQuerySchema, groupReleasesByProduct } from './firmware-releases.js';

const release = (id: number, product: string, releasedAt: string): FirmwareRelease => ({
  id,
  name: `fw-${id}`,
  type: 'battery',
  product,
  manufacturer: 'Voltaic',
  swVersion: `1.0.${id}`,
  hwVersion: null,
  changeLog: null,
  releasedAt,
});

describe('groupReleasesByProduct', () => {
  it('orders products by their newest release and releases newest first', () => {
    const groups = groupReleasesByProduct([
      release(5, 'B', '2026-03-05T00:00:00.000Z'),
      release(4, 'A', '2026-03-04T00:00:00.000Z'),
      release(3, 'B', '2026-03-03T00:00:00.000Z'),
      release(1, 'A', '2026-03-01T00:00:00.000Z'),
    ]);
    expect(groups.map((g) => [g.product, g.releases.map((r) => r.id)])).toEqual([
      ['B', [5, 3]],
      ['A', [4, 1]],
    ]);
  });

  it('breaks a tie of dates by the newer record and keeps an empty page empty', () => {
    const same = '2026-03-01T00:00:00.000Z';
    expect(groupReleasesByProduct([release(1, 'A', same), release(2, 'A', same)])[0]?.releases.map((r) => r.id)).toEqual([2, 1]);
    expect(groupReleasesByProduct([])).toEqual([]);
  });
});

describe('FirmwareReleaseQuerySchema', () => {
  it('pages 20 by default and at most 50', () => {
    expect(FirmwareReleaseQuerySchema.parse({})).toEqual({ page: 1, size: 20 });
    expect(FirmwareReleaseQuerySchema.safeParse({ size: '51' }).success).toBe(false);
  });
});
