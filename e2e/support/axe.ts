import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { nextFrames } from './browser.js';

// Evaluated through the DevTools protocol: the console's Content-Security-Policy refuses inline script tags.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** WCAG 2.2 A and AA (axe-core's tags for 2.0, 2.1 and 2.2). */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

async function runAxe(page: Page, include: string, tags: readonly string[]): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // A colour in the middle of a transition (a button becoming enabled, a tab fading in) is not what a user
  // reads: running CSS transitions and animations are brought to their end state first (infinite ones stay).
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      try {
        animation.finish();
      } catch {
        // An infinite animation (a spinner) cannot finish; its colours are checked as they are.
      }
    }
  });
  // A finished closing animation (a select's dropdown, a popconfirm) hides its box on the frames after its end event.
  await nextFrames(page);
  const violations = await page.evaluate(
    async ([selector, tags]) => {
      const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: unknown[] }> } }).axe;
      const result = await axe.run({ include: [selector] }, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return result.violations;
    },
    [include, tags] as const,
  );
  return violations as AxeViolation[];
}

function describeViolation(v: AxeViolation): string {
  // The first node's reason (for contrast: the colours and the ratio found) tells where to look.
  const why = v.nodes[0]?.failureSummary?.split('\n').slice(1).join(' ').trim();
  return `${v.id} (${v.impact}): ${v.help} [${v.nodes.map((n) => n.target.join(' ')).join(', ')}]${why ? ` (${why})` : ''}`;
}

/**
 * axe-core's WCAG 2.1 A and AA rules on the part of the page a test is about (a CSS selector), as
 * "rule: help (targets)" lines: a test expects none.
 */
export async function accessibilityProblems(page: Page, include: string): Promise<string[]> {
  return (await runAxe(page, include, WCAG_AA.slice(0, 4))).map(describeViolation);
}

/** The critical and serious WCAG 2.2 AA violations on the whole page (the axe walk's bar), one line each. */
export async function seriousAccessibilityProblems(page: Page): Promise<string[]> {
  return (await runAxe(page, 'html', WCAG_AA)).filter((v) => v.impact === 'critical' || v.impact === 'serious').map(describeViolation);
}
