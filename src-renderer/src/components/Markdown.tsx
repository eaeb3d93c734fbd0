// Markdown of a message, rendered to React elements (never to an HTML string): GFM tables, task lists,
// strikethrough and autolinks, fenced code highlighted with a Copy button. Raw HTML from the text shows as text,
// links open outside the app (only http(s) and mailto) once the person confirmed where they go (link-guard.ts,
// LinkConfirm.tsx), images show as links so nothing is fetched. Text is split at
// blank lines into blocks that each re-render only when they change, so a streamed delta re-parses the last one.
import { memo, useMemo } from 'react';
import ReactMarkdown, { type Components, defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { lastUsed } from './lru-cache';
import { type HastNode, MarkdownCode } from './MarkdownCode';

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/** mdast parents whose children are blocks: an HTML node there becomes a paragraph of text, elsewhere plain text. */
const FLOW_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

function htmlAsText(parent: MdNode): void {
  const children = parent.children;
  if (!children) return;
  children.forEach((child, i) => {
    if (child.type !== 'html') {
      htmlAsText(child);
      return;
    }
    const text: MdNode = { type: 'text', value: child.value ?? '' };
    children[i] = FLOW_PARENTS.has(parent.type) ? { type: 'paragraph', children: [text] } : text;
  });
}

/** Raw HTML in the text is the model's words, not markup: it turns into text before anything renders it. */
function remarkHtmlAsText() {
  return (tree: MdNode) => htmlAsText(tree);
}

const REMARK_PLUGINS = [remarkGfm, remarkHtmlAsText];

const SAFE_URL = /^(?:https?:|mailto:)/i;

/** Only absolute http(s) and mailto URLs survive; anything else (javascript:, file:, relative) renders as text. */
export function safeUrl(url: string): string {
  const cleaned = defaultUrlTransform(url);
  return SAFE_URL.test(cleaned) ? cleaned : '';
}

function textOf(node: HastNode): string {
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(textOf).join('');
}

function languageOf(node: HastNode | undefined): string | undefined {
  const classes = node?.properties?.className;
  if (!Array.isArray(classes)) return undefined;
  const found = classes.find((c): c is string => typeof c === 'string' && c.startsWith('language-'));
  return found?.slice('language-'.length).toLowerCase() || undefined;
}

const COMPONENTS: Components = {
  a: ({ href, title, children }) =>
    href ? (
      <a href={href} title={title} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    ) : (
      <span className="md-link-text">{children}</span>
    ),
  img: ({ src, alt }) =>
    typeof src === 'string' && src ? (
      <a href={src} target="_blank" rel="noreferrer noopener" className="md-image-link">
        {alt || src}
      </a>
    ) : (
      <span>{alt}</span>
    ),
  pre: ({ node }) => {
    const code: HastNode | undefined = node?.children.find((c) => c.type === 'element' && c.tagName === 'code');
    const text = code ? textOf(code) : node ? textOf(node) : '';
    return <MarkdownCode code={text.replace(/\n$/, '')} language={languageOf(code)} />;
  },
  table: ({ children }) => (
    <div className="md-table">
      <table>{children}</table>
    </div>
  ),
};

/**
 * A block's React elements (react-markdown renders synchronously, so it can be called for them), remembered: a block
 * shown again — a recorded step taking its streamed turn's place, a task opened again — is not parsed again.
 */
const renderBlock = lastUsed(
  (text: string) =>
    ReactMarkdown({ children: text, remarkPlugins: REMARK_PLUGINS, components: COMPONENTS, urlTransform: safeUrl }),
  2000,
);

const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return renderBlock(text);
});

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
/** A link reference definition may be used above it: text with one is never split. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:/m;

/**
 * Splits text at blank lines that are outside code fences and followed by an unindented line, so each block parses
 * on its own as it would inside the whole. A block before the last never changes as more text arrives.
 */
export function splitBlocks(text: string): string[] {
  if (REFERENCE_DEFINITION.test(text)) return [text];
  const lines = text.split('\n');
  const blocks: string[] = [];
  let start = 0;
  let fence: string | null = null;
  lines.forEach((line, i) => {
    if (fence !== null) {
      const closing = CLOSING_FENCE.exec(line)?.[1];
      if (closing && closing[0] === fence[0] && closing.length >= fence.length) fence = null;
      return;
    }
    const opening = FENCE.exec(line)?.[1];
    if (opening) {
      fence = opening;
      return;
    }
    const next = lines[i + 1];
    if (line.trim() === '' && i > start && next && !/^\s/.test(next)) {
      blocks.push(lines.slice(start, i).join('\n'));
      start = i + 1;
    }
  });
  blocks.push(lines.slice(start).join('\n'));
  return blocks;
}

/** Parsed block by block: a streamed delta re-renders only the last block, and a block shown again is remembered. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => splitBlocks(text), [text]);
  return (
    <div className="md" data-testid="markdown">
      {blocks.map((block, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a block is its position; blocks before the last never change.
        <MarkdownBlock key={i} text={block} />
      ))}
    </div>
  );
});
