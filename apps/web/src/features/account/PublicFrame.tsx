import './account.css';
import type { ReactNode } from 'react';
import { PublicFrame as Frame } from '../../components/PublicFrame';

/** The frame of the public account pages (components/PublicFrame with the account card's width). */
export function PublicFrame({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return <Frame cardClassName={wide ? 'sw-account-card sw-account-wide' : 'sw-account-card'}>{children}</Frame>;
}
