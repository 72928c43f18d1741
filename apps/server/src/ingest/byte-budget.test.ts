import { describe, expect, it } from 'vitest';
import { createByteBudget } from './byte-budget.js';

/** Acquires and records the order in which grants happen. */
function grants(budget: ReturnType<typeof createByteBudget>) {
  const order: string[] = [];
  return {
    order,
    take(name: string, bytes: number) {
      const wait = budget.acquire(bytes);
      if (!wait) order.push(name);
      else void wait.then(() => order.push(name));
      return wait;
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the ingest byte budget', () => {
  it('grants at once while the bytes fit, then makes the rest wait until bytes come back', async () => {
    const budget = createByteBudget(100);
    const g = grants(budget);
    expect(g.take('a', 60)).toBeUndefined();
    expect(g.take('b', 40)).toBeUndefined();
    expect(g.take('c', 1)).toBeInstanceOf(Promise);
    expect(budget.state()).toMatchObject({ bytes: 100, waiting: 1, waitingBytes: 1 });
    budget.release(60);
    await tick();
    expect(g.order).toEqual(['a', 'b', 'c']);
    expect(budget.state()).toMatchObject({ bytes: 41, waiting: 0, waitingBytes: 0, peakBytes: 100 });
  });

  it('serves waiters first come, first served: a small one does not pass a large one', async () => {
    const budget = createByteBudget(100);
    const g = grants(budget);
    g.take('a', 90);
    g.take('big', 50);
    // 10 bytes are free, but "big" waits ahead of it.
    expect(g.take('small', 10)).toBeInstanceOf(Promise);
    budget.release(90);
    await tick();
    expect(g.order).toEqual(['a', 'big', 'small']);
    expect(budget.state().bytes).toBe(60);
  });

  it('lets a report larger than the whole budget in alone, so it cannot wait for ever', async () => {
    const budget = createByteBudget(100);
    const g = grants(budget);
    expect(g.take('huge', 500)).toBeUndefined();
    expect(g.take('next', 1)).toBeInstanceOf(Promise);
    budget.release(500);
    await tick();
    expect(g.order).toEqual(['huge', 'next']);
    const other = createByteBudget(100);
    const h = grants(other);
    h.take('a', 10);
    h.take('huge', 500);
    other.release(10);
    await tick();
    expect(h.order).toEqual(['a', 'huge']);
    expect(other.state().bytes).toBe(500);
  });

  it('never has more granted than the budget under a random load (except one oversized report alone)', async () => {
    const limit = 10_000;
    const budget = createByteBudget(limit);
    let held = 0;
    let worst = 0;
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const work: Promise<void>[] = [];
    for (let i = 0; i < 2000; i++) {
      const bytes = 1 + Math.floor(random() * 3000);
      work.push(
        (async () => {
          const wait = budget.acquire(bytes);
          if (wait) await wait;
          held += bytes;
          worst = Math.max(worst, held);
          await new Promise((resolve) => setTimeout(resolve, random() * 3));
          held -= bytes;
          budget.release(bytes);
        })(),
      );
    }
    await Promise.all(work);
    expect(worst).toBeLessThanOrEqual(limit);
    expect(budget.state()).toMatchObject({ bytes: 0, waiting: 0, waitingBytes: 0 });
    expect(budget.state().peakBytes).toBe(worst);
  });

  it('refuses a budget that is not positive', () => {
    expect(() => createByteBudget(0)).toThrow(RangeError);
  });
});
