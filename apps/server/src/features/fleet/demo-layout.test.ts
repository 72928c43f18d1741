import { LAYOUT_PANELS_MAX, PhysicalLayoutSchema } from '@sunward/contracts/plant-layout';
import { describe, expect, it } from 'vitest';
import { demoDevices, demoLayout } from './demo-fleet.js';
import { DEMO_SITES } from './demo-sites.js';

describe('demo roofs', () => {
  it('give each optimizer plant a saved roof: a valid layout, every optimizer on a panel, the shaded one among them', () => {
    const roofs = DEMO_SITES.map((site, i) => demoLayout(demoDevices(i, site))).filter((l) => l !== undefined);
    expect(roofs.length).toBeGreaterThan(0);
    for (const roof of roofs) {
      expect(() => PhysicalLayoutSchema.parse({ ...roof, updatedAt: null })).not.toThrow();
      expect(roof.panels.length).toBeLessThanOrEqual(LAYOUT_PANELS_MAX);
      expect(new Set(roof.panels.map((p) => `${p.x},${p.y}`)).size).toBe(roof.panels.length);
    }
    const index = DEMO_SITES.findIndex((site, i) => demoDevices(i, site).some((d) => d.shading !== undefined));
    const site = DEMO_SITES[index];
    if (!site) throw new Error('no shaded panel in the demo fleet');
    const shaded = demoDevices(index, site).find((d) => d.shading !== undefined)?.sn;
    expect(demoLayout(demoDevices(index, site))?.panels.some((p) => p.optimizerSn === shaded)).toBe(true);
  });
});
