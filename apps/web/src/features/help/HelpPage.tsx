import { LANGUAGE_TAGS, parseLanguage } from '@sunward/contracts/languages';
import { useQuery } from '@tanstack/react-query';
import { Alert, Spin } from 'antd';
import { Fragment, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { currentLanguage } from '../../lib/i18n';
import { loadHelpPage } from './help-content';
import { HELP_CHROME } from './help-texts';
import { HELP_TOPICS, type HelpTopic, isHelpTopic } from './help-topics';
import { type Block, type Inline, parseMarkdown } from './markdown';
import './help.css';

function InlineText({ parts, lan }: { parts: Inline[]; lan: string }) {
  return (
    <>
      {parts.map((part, i) => {
        const key = `${i}-${part.kind}`;
        if (part.kind === 'strong') return <strong key={key}>{part.text}</strong>;
        if (part.kind === 'code') return <code key={key}>{part.text}</code>;
        if (part.kind === 'text') return <Fragment key={key}>{part.text}</Fragment>;
        // Another help page: "topic:<name>"; anything else is a path of this site.
        const topic = part.target.startsWith('topic:') ? part.target.slice(6) : undefined;
        const to = topic ? `/help/${topic}?lan=${lan}` : part.target;
        return (
          <Link key={key} to={to}>
            {part.text}
          </Link>
        );
      })}
    </>
  );
}

function BlockView({ block, lan }: { block: Block; lan: string }): ReactNode {
  if (block.kind === 'heading') {
    const Tag = block.level === 1 ? 'h1' : block.level === 2 ? 'h2' : 'h3';
    return (
      <Tag>
        <InlineText parts={block.content} lan={lan} />
      </Tag>
    );
  }
  if (block.kind === 'paragraph')
    return (
      <p>
        <InlineText parts={block.content} lan={lan} />
      </p>
    );
  const List = block.ordered ? 'ol' : 'ul';
  return (
    <List>
      {block.items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the items of a shipped page never reorder
        <li key={i}>
          <InlineText parts={item} lan={lan} />
        </li>
      ))}
    </List>
  );
}

/**
 * /help/:topic?lan=xx (spec 01 §2 help button; issue 24): the documentation shipped with the console, in the
 * language of `lan` (else the console's), English with a note where a page has no translation.
 */
export function HelpPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const lan = parseLanguage(search.get('lan')) ?? currentLanguage();
  const topic: HelpTopic = isHelpTopic(params.topic) ? params.topic : 'start';
  const chrome = HELP_CHROME[lan];
  const page = useQuery({ queryKey: ['help', topic, lan], queryFn: () => loadHelpPage(topic, lan), staleTime: Number.POSITIVE_INFINITY });
  const blocks = page.data ? parseMarkdown(page.data.source) : [];
  return (
    <div className="sw-help" lang={LANGUAGE_TAGS[lan]}>
      <header className="sw-help-header">
        <span className="sw-help-brand">{chrome.help}</span>
        <Link to="/">{chrome.back}</Link>
      </header>
      <div className="sw-help-body">
        <nav aria-label={chrome.contents} className="sw-help-nav">
          <h2>{chrome.contents}</h2>
          <ul>
            {HELP_TOPICS.map((t) => (
              <li key={t}>
                <Link to={`/help/${t}?lan=${lan}`} aria-current={t === topic ? 'page' : undefined}>
                  {chrome.topics[t]}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main className="sw-help-page" data-testid="help-page" data-topic={topic}>
          {page.data?.fallback && <Alert type="info" showIcon message={chrome.fallback} data-testid="help-fallback" />}
          {page.isPending ? (
            <Spin />
          ) : (
            <article lang={page.data ? LANGUAGE_TAGS[page.data.language] : undefined}>
              {blocks.map((block, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the blocks of a shipped page never reorder
                <BlockView key={i} block={block} lan={lan} />
              ))}
            </article>
          )}
        </main>
      </div>
    </div>
  );
}
