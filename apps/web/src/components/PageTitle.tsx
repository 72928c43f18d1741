import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../app/page-props';
import { Title } from './Typo';

/**
 * The page's one h1: the route's title as the menu names it (spec 01 §2 route titles), or `children`
 * where the page names itself (a plant's name). Sized as a section heading, so the look stays the same.
 */
export function PageTitle({
  route,
  children,
  className,
  spaced = false,
}: {
  route?: PageProps['route'];
  children?: ReactNode;
  className?: string;
  /** Keeps the heading's margin below (a title standing on its own above the content). */
  spaced?: boolean;
}) {
  const { t } = useTranslation();
  // A class of the page's own sets the margins.
  const style: CSSProperties = { fontSize: 24, lineHeight: 1.35, ...(spaced || className ? {} : { margin: 0 }) };
  return (
    <Title level={1} className={className} data-testid="page-title" style={style}>
      {children ?? (route ? t(route.title) : null)}
    </Title>
  );
}
