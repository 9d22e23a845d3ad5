/**
 * A small Markdown subset for text IdeA shows but does not trust (a conversation's
 * `handoff.md`, written from agents' words): headings, bullet and numbered lists, fenced code,
 * paragraphs, and inline `code`, **strong**, *emphasis*. The result is data — a component
 * renders it as text nodes, so nothing in the source can become HTML. A YAML front matter
 * block at the top (`---` … `---`) is split off.
 */

export type Inline = { kind: 'text' | 'strong' | 'em' | 'code'; text: string };

export type Block =
  | { kind: 'heading'; level: number; inlines: Inline[] }
  | { kind: 'paragraph'; inlines: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'code'; text: string };

/** `{frontMatter, body}`: the raw lines between the `---` fences (or null), and the rest. */
export function splitFrontMatter(source: string): { frontMatter: string | null; body: string } {
  const text = source.replace(/\r\n?/g, '\n');
  if (!text.startsWith('---\n')) return { frontMatter: null, body: text };
  const close = text.indexOf('\n---', 3);
  if (close < 0) return { frontMatter: null, body: text };
  const after = text.indexOf('\n', close + 4);
  const lineEnd = after < 0 ? text.length : after;
  if (text.slice(close + 4, lineEnd).trim() !== '') return { frontMatter: null, body: text };
  return { frontMatter: text.slice(4, close), body: text.slice(Math.min(text.length, lineEnd + 1)) };
}

const HEADING = /^(#{1,6})\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;
const FENCE = /^\s*(```|~~~)/;

/** The blocks of `source` (front matter left out). */
export function parseMarkdownLite(source: string): Block[] {
  const lines = splitFrontMatter(source).body.split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;

  const flushParagraph = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', inlines: parseInline(paragraph.join('\n')) });
    paragraph = [];
  };
  const flushList = () => {
    if (list) blocks.push({ kind: 'list', ordered: list.ordered, items: list.items.map(parseInline) });
    list = null;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      flushParagraph();
      flushList();
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i].trimStart().startsWith(fence[1]); i++) code.push(lines[i]);
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      flushParagraph();
      flushList();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flushParagraph();
      flushList();
      blocks.push({ kind: 'heading', level: heading[1].length, inlines: parseInline(heading[2].trim()) });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      flushParagraph();
      const ordered = numbered !== null;
      if (list && list.ordered !== ordered) flushList();
      list ??= { ordered, items: [] };
      list.items.push(item[1]);
      continue;
    }
    if (list && /^\s+/.test(line)) {
      // An indented line continues the list item above it.
      list.items[list.items.length - 1] += `\n${line.trim()}`;
      continue;
    }
    flushList();
    paragraph.push(line);
  }
  flushParagraph();
  flushList();
  return blocks;
}

/**
 * Inline spans: `code` first (nothing inside it is read), then **strong** and *em*. Underscores
 * are left alone: agents write `__init__.py` and snake_case far more often than emphasis.
 */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const push = (kind: Inline['kind'], value: string) => {
    if (value === '') return;
    const last = out[out.length - 1];
    if (kind === 'text' && last?.kind === 'text') last.text += value;
    else out.push({ kind, text: value });
  };
  let i = 0;
  let plain = '';
  const flush = () => {
    push('text', plain);
    plain = '';
  };
  while (i < text.length) {
    const rest = text.slice(i);
    const span = matchSpan(rest, '`', 'code') ?? matchSpan(rest, '**', 'strong') ?? matchSpan(rest, '*', 'em');
    if (span && (span.kind !== 'em' || !/\w/.test(text[i - 1] ?? ''))) {
      flush();
      push(span.kind, span.text);
      i += span.length;
      continue;
    }
    plain += text[i];
    i++;
  }
  flush();
  return out;
}

function matchSpan(rest: string, marker: string, kind: Inline['kind']): { kind: Inline['kind']; text: string; length: number } | null {
  if (!rest.startsWith(marker)) return null;
  const end = rest.indexOf(marker, marker.length);
  if (end <= marker.length) return null;
  const inner = rest.slice(marker.length, end);
  // `* x *` is not emphasis, and emphasis does not run across lines.
  if (kind !== 'code' && (/^\s|\s$/.test(inner) || inner.includes('\n'))) return null;
  return { kind, text: inner, length: end + marker.length };
}
