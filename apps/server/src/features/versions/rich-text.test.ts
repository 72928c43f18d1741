import { describe, expect, it } from 'vitest';
import { hasVisibleContent, sanitizeRichText } from './rich-text.js';

describe('sanitizeRichText', () => {
  it('keeps formatting, lists, headings and http links', () => {
    const html =
      '<h3>2.1.0</h3><p><strong>New</strong> <em>charts</em></p><ul><li>one</li></ul><a href="https://sunward.example/notes">notes</a>';
    expect(sanitizeRichText(html)).toBe(
      '<h3>2.1.0</h3><p><strong>New</strong> <em>charts</em></p><ul><li>one</li></ul><a href="https://sunward.example/notes" rel="noopener noreferrer" target="_blank">notes</a>',
    );
  });

  it('removes script elements with their text, event handlers, styles and javascript: links', () => {
    const html =
      '<p onclick="steal()" style="color:red">Hi<script>alert(1)</script></p><img src=x onerror="alert(2)"><a href="javascript:alert(3)">x</a><iframe src="https://evil"></iframe>';
    const clean = sanitizeRichText(html);
    expect(clean).toBe('<p>Hi</p><a rel="noopener noreferrer" target="_blank">x</a>');
    expect(clean).not.toMatch(/script|onerror|onclick|javascript:|style|iframe|img/i);
  });

  it('tells markup that shows nothing from real content', () => {
    expect(hasVisibleContent(sanitizeRichText('<script>alert(1)</script>'))).toBe(false);
    expect(hasVisibleContent(sanitizeRichText('<p> </p>'))).toBe(false);
    expect(hasVisibleContent(sanitizeRichText('<p>Fixes</p>'))).toBe(true);
  });
});
