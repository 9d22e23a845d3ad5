import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdownLite, splitFrontMatter } from './markdown-lite';

/** The original IdeA's handoff.md format (seed 003, a sample conversation). */
const HANDOFF = `---
upTo: 190cd7b8-23ad-42cb-8873-a17ddddff71d
objective: Compute 17 × 23 and answer with idea_reply.
---
**Objectif :** Compute 17 × 23 and answer with idea_reply.

- **Prompt:** Compute 17 × 23 and answer with idea_reply.
- **Response:** 391
- **Prompt:** Now (347 × 28) + 1569, with \`the detail\`.
`;

describe('front matter', () => {
  it('splits a leading YAML block off', () => {
    const { frontMatter, body } = splitFrontMatter(HANDOFF);
    expect(frontMatter).toContain('upTo: 190cd7b8');
    expect(body.startsWith('**Objectif :**')).toBe(true);
  });

  it('leaves text without one (or with an unclosed one) whole', () => {
    expect(splitFrontMatter('# Title\n')).toEqual({ frontMatter: null, body: '# Title\n' });
    expect(splitFrontMatter('---\nnot closed\n')).toEqual({ frontMatter: null, body: '---\nnot closed\n' });
  });
});

describe('blocks', () => {
  it('reads the original handoff: its objective paragraph and the turns as a list', () => {
    expect(parseMarkdownLite(HANDOFF)).toEqual([
      { kind: 'paragraph', inlines: [{ kind: 'strong', text: 'Objectif :' }, { kind: 'text', text: ' Compute 17 × 23 and answer with idea_reply.' }] },
      {
        kind: 'list',
        ordered: false,
        items: [
          [{ kind: 'strong', text: 'Prompt:' }, { kind: 'text', text: ' Compute 17 × 23 and answer with idea_reply.' }],
          [{ kind: 'strong', text: 'Response:' }, { kind: 'text', text: ' 391' }],
          [
            { kind: 'strong', text: 'Prompt:' },
            { kind: 'text', text: ' Now (347 × 28) + 1569, with ' },
            { kind: 'code', text: 'the detail' },
            { kind: 'text', text: '.' },
          ],
        ],
      },
    ]);
  });

  it('reads headings, numbered lists, fenced code and keeps a paragraph’s line breaks', () => {
    expect(parseMarkdownLite('## Files\n1. a.ts\n2. b.ts\n\n```\n<b>x</b>\n```\nline one\nline two')).toEqual([
      { kind: 'heading', level: 2, inlines: [{ kind: 'text', text: 'Files' }] },
      { kind: 'list', ordered: true, items: [[{ kind: 'text', text: 'a.ts' }], [{ kind: 'text', text: 'b.ts' }]] },
      { kind: 'code', text: '<b>x</b>' },
      { kind: 'paragraph', inlines: [{ kind: 'text', text: 'line one\nline two' }] },
    ]);
  });

  it('keeps HTML as text: nothing is interpreted', () => {
    expect(parseMarkdownLite('<img src=x onerror=alert(1)> **<script>**')).toEqual([
      { kind: 'paragraph', inlines: [{ kind: 'text', text: '<img src=x onerror=alert(1)> ' }, { kind: 'strong', text: '<script>' }] },
    ]);
  });
});

describe('inline spans', () => {
  it('reads code, strong and emphasis; unclosed markers stay text', () => {
    expect(parseInline('a *b* **c** `d *e*`')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'em', text: 'b' },
      { kind: 'text', text: ' ' },
      { kind: 'strong', text: 'c' },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'd *e*' },
    ]);
    expect(parseInline('2 * 3 * 4, **open, `tick')).toEqual([{ kind: 'text', text: '2 * 3 * 4, **open, `tick' }]);
    expect(parseInline('__init__.py and snake_case_name')).toEqual([{ kind: 'text', text: '__init__.py and snake_case_name' }]);
    expect(parseInline('x*y*z')).toEqual([{ kind: 'text', text: 'x*y*z' }]);
  });
});
