import { describe, expect, it } from 'vitest';
import { addToHistory, matchingHistory, parseHistory, searchHistoryKey } from './search-history';

describe('plant search history', () => {
  it('puts the newest search first and moves a repeated one up (any letter case)', () => {
    expect(addToHistory(['beta', 'Alpha'], 'alpha')).toEqual(['alpha', 'beta']);
    expect(addToHistory(['beta'], '  gamma  ')).toEqual(['gamma', 'beta']);
  });

  it('ignores blank searches', () => {
    expect(addToHistory(['a'], '   ')).toEqual(['a']);
  });

  it('keeps the last ten', () => {
    let history: string[] = [];
    for (let i = 1; i <= 12; i++) history = addToHistory(history, `plant ${i}`);
    expect(history).toHaveLength(10);
    expect(history[0]).toBe('plant 12');
    expect(history.at(-1)).toBe('plant 3');
  });

  it('reads only a list of strings from storage', () => {
    expect(parseHistory(null)).toEqual([]);
    expect(parseHistory('not json')).toEqual([]);
    expect(parseHistory('{"a":1}')).toEqual([]);
    expect(parseHistory('["a", 3, "", "b"]')).toEqual(['a', 'b']);
  });

  it('offers the entries matching what is typed', () => {
    expect(matchingHistory(['Solar One', 'Wind', 'solar two'], 'SOL')).toEqual(['Solar One', 'solar two']);
    expect(matchingHistory(['a', 'b'], '')).toEqual(['a', 'b']);
  });

  it('keeps a history per account', () => {
    expect(searchHistoryKey(7)).not.toBe(searchHistoryKey(8));
  });
});
