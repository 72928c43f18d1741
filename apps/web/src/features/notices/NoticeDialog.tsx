import { NoticeStatus, type NoticeView } from '@sunward/contracts/notices';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { lazyNamed } from '../../app/lazy-page';
import { fetchNoticeView, noticeKeys } from './api';

// The dialog itself (antd's Modal, Descriptions and Alert, the notice texts) loads only when a notice is to be shown:
// every signed-in page asks for the notice, few have one to show (issue 18: first-load weight).
const NoticeModal = lazyNamed(() => import('./NoticeModal'), 'NoticeModal');

/** Ids of the notices this browser has confirmed, so a confirmed notice does not open again on every page. */
const CONFIRMED_KEY = 'noticeConfirmed';

function confirmedIds(): number[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(CONFIRMED_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((v): v is number => typeof v === 'number') : [];
  } catch {
    return [];
  }
}

/** Spec 01 §4: the current maintenance notice in a 700 px dialog on load when it has status 0; confirming closes it. */
export function NoticeDialog() {
  const [confirmed, setConfirmed] = useState(confirmedIds);
  const view = useQuery({ queryKey: noticeKeys.view, queryFn: fetchNoticeView, staleTime: 300_000, retry: false });
  const notice: NoticeView | null | undefined = view.data;
  const open = !!notice && notice.status === NoticeStatus.PUBLISHING && !confirmed.includes(notice.id);
  // Once shown, the dialog stays mounted so that it closes with antd's animation.
  const [shown, setShown] = useState(false);
  if (open && !shown) setShown(true);

  const confirm = () => {
    if (!notice) return;
    // Keep the last few only: old notices never come back.
    const next = [...confirmed.filter((id) => id !== notice.id), notice.id].slice(-20);
    localStorage.setItem(CONFIRMED_KEY, JSON.stringify(next));
    setConfirmed(next);
  };

  if (!open && !shown) return null;
  return (
    <Suspense fallback={null}>
      <NoticeModal notice={notice} open={open} confirm={confirm} />
    </Suspense>
  );
}
