/**
 * The assistant's Markdown, rendered safely (section P): `marked`'s lexer turns the text into
 * tokens and each token becomes DOM built here — there is no HTML string anywhere, so the
 * panel's `trusted-types 'none'` holds. Raw HTML in the text is shown as text. Links are live
 * only for http(s) (opened in a new tab, `noopener noreferrer`); any other scheme (`javascript:`,
 * `data:`) stays plain text. Images are never loaded: their alt text is shown instead. Code
 * blocks get a Copy button.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { el } from './dom.js';
import { t } from './i18n.js';

function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function inline(tokens: readonly Token[] | undefined, fallback = ''): Node[] {
  if (!tokens) return [document.createTextNode(fallback)];
  return tokens.map(inlineToken);
}

function inlineToken(token: Token): Node {
  switch (token.type) {
    case 'strong':
      return el('strong', {}, ...inline((token as Tokens.Strong).tokens));
    case 'em':
      return el('em', {}, ...inline((token as Tokens.Em).tokens));
    case 'del':
      return el('del', {}, ...inline((token as Tokens.Del).tokens));
    case 'codespan':
      return el('code', {}, (token as Tokens.Codespan).text);
    case 'br':
      return el('br');
    case 'link': {
      const link = token as Tokens.Link;
      const href = safeHref(link.href);
      const children = inline(link.tokens, link.text);
      if (!href) return el('span', { class: 'inert-link' }, ...children);
      const a = el('a', { href, target: '_blank', rel: 'noopener noreferrer' }, ...children);
      if (link.title) a.title = link.title;
      return a;
    }
    case 'image':
      return el('span', { class: 'image-alt' }, t('chatImage', (token as Tokens.Image).text || (token as Tokens.Image).href));
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? el('span', {}, ...inline(text.tokens)) : document.createTextNode(text.text);
    }
    case 'escape':
      return document.createTextNode((token as Tokens.Escape).text);
    default:
      // Raw HTML and anything unknown: its source, as text.
      return document.createTextNode(token.raw);
  }
}

function codeBlock(token: Tokens.Code): HTMLElement {
  const copy = el('button', { type: 'button', class: 'copy', 'data-role': 'quiet' }, t('chatCopy'));
  copy.addEventListener('click', () => {
    void navigator.clipboard
      .writeText(token.text)
      .then(() => (copy.textContent = t('chatCopied')))
      .catch(() => undefined);
  });
  return el('div', { class: 'code' }, copy, el('pre', {}, el('code', token.lang ? { 'data-lang': token.lang } : {}, token.text)));
}

function block(token: Token): Node | null {
  switch (token.type) {
    case 'space':
      return null;
    case 'paragraph':
      return el('p', {}, ...inline((token as Tokens.Paragraph).tokens));
    case 'heading': {
      const h = token as Tokens.Heading;
      const tag = (['h3', 'h4', 'h5', 'h6'] as const)[Math.min(3, Math.max(0, h.depth - 1))]!;
      return el(tag, {}, ...inline(h.tokens));
    }
    case 'code':
      return codeBlock(token as Tokens.Code);
    case 'blockquote':
      return el('blockquote', {}, ...blocks((token as Tokens.Blockquote).tokens));
    case 'list': {
      const list = token as Tokens.List;
      const items = list.items.map((item) => el('li', {}, ...blocks(item.tokens)));
      return list.ordered
        ? el('ol', typeof list.start === 'number' && list.start !== 1 ? { start: String(list.start) } : {}, ...items)
        : el('ul', {}, ...items);
    }
    case 'table': {
      const table = token as Tokens.Table;
      return el(
        'div',
        { class: 'table' },
        el(
          'table',
          {},
          el('thead', {}, el('tr', {}, ...table.header.map((c) => el('th', {}, ...inline(c.tokens))))),
          el('tbody', {}, ...table.rows.map((row) => el('tr', {}, ...row.map((c) => el('td', {}, ...inline(c.tokens)))))),
        ),
      );
    }
    case 'hr':
      return el('hr');
    case 'text': {
      const text = token as Tokens.Text;
      return el('p', {}, ...inline(text.tokens, text.text));
    }
    default:
      return el('p', {}, token.raw);
  }
}

function blocks(tokens: readonly Token[]): Node[] {
  return tokens.map(block).filter((n): n is Node => n !== null);
}

/** The Markdown `source` as DOM nodes. */
export function renderMarkdown(source: string): Node[] {
  return blocks(Lexer.lex(source, { gfm: true }));
}

/**
 * A growing Markdown text (an answer being streamed) rendered into `container` at the cost of its
 * last block: blocks followed by another one can no longer change, so they are built once and
 * kept, and only the text from the last block on is lexed and built again. Re-rendering the
 * whole answer on every token grew with its length and, at 100 tokens/s, took whole frames.
 * A loose list continued after a blank line may show as two lists until the answer is complete,
 * when the chat renders it whole with {@link renderMarkdown}.
 */
export class MarkdownStream {
  /** The source of the kept blocks: always a prefix of the text. */
  #stable = '';
  #tail: Node[] = [];

  constructor(private readonly container: HTMLElement) {}

  set text(source: string) {
    if (!source.startsWith(this.#stable)) {
      this.#stable = '';
      this.#tail = [];
      this.container.replaceChildren();
    }
    const tokens = Lexer.lex(source.slice(this.#stable.length), { gfm: true });
    let last = tokens.length - 1;
    while (last > 0 && tokens[last]!.type === 'space') last--;
    const done = tokens.slice(0, Math.max(0, last));
    for (const node of this.#tail) node.parentNode?.removeChild(node);
    this.container.append(...blocks(done));
    this.#stable += done.map((token) => token.raw).join('');
    this.#tail = blocks(tokens.slice(Math.max(0, last)));
    this.container.append(...this.#tail);
  }
}
