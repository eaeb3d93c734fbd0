// A fenced code block of a message: highlighted by lowlight (highlight.js grammars, a few registered) into React
// elements, never into an HTML string, with a Copy button for its plain text.
import type { LanguageFn } from 'highlight.js';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { createLowlight } from 'lowlight';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useT } from '../hooks/useT';
import type { MessageKey } from '../i18n';
import { lastUsed } from './lru-cache';

const GRAMMARS: Record<string, LanguageFn> = {
  bash,
  css,
  diff,
  go,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};

const lowlight = createLowlight(GRAMMARS);

/** Longer code is shown plain: highlighting it on every streamed delta would cost more than it shows. */
const HIGHLIGHT_MAX_CHARS = 20_000;

/** The parts of a hast node (the HTML syntax tree of remark and lowlight) that the feed reads. */
export interface HastNode {
  type: string;
  value?: string;
  tagName?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
}

function toReact(nodes: readonly HastNode[], prefix: string): ReactNode[] {
  return nodes.map((node, i) => {
    const key = `${prefix}.${i}`;
    if (node.type === 'text') return node.value ?? '';
    if (node.type !== 'element') return null;
    const className = node.properties?.className;
    return (
      <span key={key} className={Array.isArray(className) ? className.join(' ') : undefined}>
        {toReact(node.children ?? [], key)}
      </span>
    );
  });
}

/** The code as React nodes: highlighted when its language is registered, plain text otherwise. */
export function highlightCode(code: string, language: string | undefined): ReactNode {
  if (!language || code.length > HIGHLIGHT_MAX_CHARS || !lowlight.registered(language)) return code;
  try {
    const tree: HastNode = lowlight.highlight(language, code);
    return toReact(tree.children ?? [], 'h');
  } catch {
    return code;
  }
}

/**
 * Compiles the grammars ahead of need, one per idle moment: highlight.js compiles a language the first time it is
 * used, and the first code block of that language (often in an answer as it streams) would hold the main thread for
 * tens of milliseconds.
 */
export function warmGrammars(): void {
  const names = Object.keys(GRAMMARS);
  const later = (fn: () => void) =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 5000 }) : setTimeout(fn, 50);
  const next = () => {
    const name = names.shift();
    if (name === undefined) return;
    highlightCode('x', name);
    later(next);
  };
  later(next);
}

/** Highlighted code remembered by language and text: a block shown again is not highlighted again. */
const highlighted = lastUsed((key: string) => {
  const at = key.indexOf('\n');
  const language = key.slice(0, at);
  return highlightCode(key.slice(at + 1), language || undefined);
}, 500);

export function MarkdownCode({ code, language }: { code: string; language: string | undefined }) {
  const content = useMemo(() => highlighted(`${language ?? ''}\n${code}`), [code, language]);
  return (
    <div className="md-code" data-testid="md-code" data-language={language}>
      <div className="md-code-bar">
        <span className="md-code-lang">{language ?? ''}</span>
        <CopyButton text={code} />
      </div>
      <pre>
        <code className={language ? `hljs language-${language}` : 'hljs'}>{content}</code>
      </pre>
    </div>
  );
}

type CopyState = 'idle' | 'copied' | 'failed';

const COPY_KEYS = { idle: 'code.copy', copied: 'code.copied', failed: 'code.copyFailed' } as const satisfies Record<
  CopyState,
  MessageKey
>;

function CopyButton({ text }: { text: string }) {
  const [state, setState] = useState<CopyState>('idle');
  const t = useT();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const show = (next: CopyState) => {
    setState(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), 1500);
  };
  const copy = () => {
    if (!navigator.clipboard) {
      show('failed');
      return;
    }
    navigator.clipboard.writeText(text).then(
      () => show('copied'),
      () => show('failed'),
    );
  };
  return (
    <button type="button" className="md-copy" data-testid="md-copy" data-state={state} onClick={copy}>
      {t(COPY_KEYS[state])}
    </button>
  );
}
