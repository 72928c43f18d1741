import type { AppRoute } from './route-table';

/**
 * What the router gives every feature page. Its own module (not app/pages.ts, which loads the pages) so the
 * pages can name it without an import circle.
 */
export interface PageProps {
  route: AppRoute;
}
