import './typo.css';
import type { CSSProperties, ReactNode } from 'react';

/**
 * Text, paragraphs and headings drawn like antd's Typography without its code: antd's Typography brings its
 * editing and copying machinery (an Input with its TextArea, 17 KB of JavaScript gzip) to every page that shows a
 * secondary line (issue 18: the first loads of the shell, the plant list and the overview). The elements carry
 * `sw-typo`, not antd's `ant-typography`: antd's static stylesheet (app/antd-styles.ts) holds Typography's rules, which
 * read CSS variables only a rendered Typography sets, and would reset these elements' margins and font size.
 */
interface TypoProps {
  type?: 'secondary';
  className?: string;
  style?: CSSProperties;
  'data-testid'?: string;
  children?: ReactNode;
}

const classes = (base: string, { type, className }: TypoProps, extra?: string) =>
  [base, type === 'secondary' ? 'sw-typo-secondary' : '', extra ?? '', className ?? ''].filter(Boolean).join(' ');

/** antd's `Typography.Text`: `strong` is semi-bold, `ellipsis` cuts a long line with "…" (its full text as a title). */
export function Text({ strong, ellipsis, ...props }: TypoProps & { strong?: boolean; ellipsis?: boolean }) {
  const text = ellipsis && typeof props.children === 'string' ? props.children : undefined;
  return (
    <span
      className={classes('sw-typo', props, ellipsis ? 'sw-typo-ellipsis' : '')}
      style={props.style}
      data-testid={props['data-testid']}
      title={text}
    >
      {strong ? <strong>{props.children}</strong> : props.children}
    </span>
  );
}

/** antd's `Typography.Paragraph`. */
export function Paragraph(props: TypoProps) {
  return (
    <div className={classes('sw-typo sw-typo-paragraph', props)} style={props.style} data-testid={props['data-testid']}>
      {props.children}
    </div>
  );
}

/** antd's `Typography.Title` (levels 1 and 5: the page's h1, a section's small heading). */
export function Title({ level, ...props }: TypoProps & { level: 1 | 5 }) {
  const Heading = level === 1 ? 'h1' : 'h5';
  return (
    <Heading className={classes(`sw-typo sw-typo-h${level}`, props)} style={props.style} data-testid={props['data-testid']}>
      {props.children}
    </Heading>
  );
}
