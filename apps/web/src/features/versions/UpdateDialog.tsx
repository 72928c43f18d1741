import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { lazyNamed } from '../../app/lazy-page';
import { StorageKey } from '../../lib/storage';
import { fetchLatestVersion, fetchVersionNotes, versionKeys } from './api';

// The dialog itself (antd's Modal and Skeleton, the version texts) loads only when there is a version to announce
// (issue 18: first-load weight).
const UpdateModal = lazyNamed(() => import('./UpdateModal'), 'UpdateModal');

/**
 * Spec 01 §4: the 800 px update dialog opens when the newest system version differs from the one this
 * browser remembers (local state "version"); acknowledging, or opening the release notes, remembers it.
 */
export function UpdateDialog() {
  const navigate = useNavigate();
  const [remembered, setRemembered] = useState(() => localStorage.getItem(StorageKey.version));
  const latest = useQuery({ queryKey: versionKeys.latest, queryFn: fetchLatestVersion, staleTime: 300_000, retry: false });
  const version = latest.data?.version ?? null;
  const open = version !== null && version !== remembered;
  const notes = useQuery({
    queryKey: versionKeys.notes(version ?? undefined),
    queryFn: () => fetchVersionNotes(version ?? undefined),
    enabled: open,
    retry: false,
  });
  // Once shown, the dialog stays mounted so that it closes with antd's animation.
  const [shown, setShown] = useState(false);
  if (open && !shown) setShown(true);

  const acknowledge = () => {
    if (version === null) return;
    localStorage.setItem(StorageKey.version, version);
    setRemembered(version);
  };

  if (!open && !shown) return null;
  return (
    <Suspense fallback={null}>
      <UpdateModal
        open={open}
        version={version}
        notes={notes.data}
        acknowledge={acknowledge}
        openNotes={() => {
          acknowledge();
          void navigate(`/systemupdate?version=${encodeURIComponent(version ?? '')}`);
        }}
      />
    </Suspense>
  );
}
