import { useQuery } from '@tanstack/react-query';
import { Button, Modal, Skeleton } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Paragraph } from '../../components/Typo';
import { registerTexts } from '../../lib/feature-texts';
import { StorageKey } from '../../lib/storage';
import { fetchLatestVersion, fetchVersionNotes, versionKeys } from './api';
import { versionTexts } from './version-texts';

registerTexts(versionTexts);

// The notes' sanitiser (DOMPurify) loads when there are notes to show, not with every signed-in page (issue 18).
const RichText = lazy(async () => ({ default: (await import('./RichText')).RichText }));

/**
 * Spec 01 §4: the 800 px update dialog opens when the newest system version differs from the one this
 * browser remembers (local state "version"); acknowledging, or opening the release notes, remembers it.
 */
export function UpdateDialog() {
  const { t } = useTranslation();
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

  const acknowledge = () => {
    if (version === null) return;
    localStorage.setItem(StorageKey.version, version);
    setRemembered(version);
  };

  return (
    <Modal
      open={open}
      width={800}
      title={t('versions.updateTitle', { version: version ?? '' })}
      onCancel={acknowledge}
      maskClosable={false}
      data-testid="update-dialog"
      footer={[
        <Button
          key="notes"
          data-testid="update-dialog-notes"
          onClick={() => {
            acknowledge();
            void navigate(`/systemupdate?version=${encodeURIComponent(version ?? '')}`);
          }}
        >
          {t('versions.viewNotes')}
        </Button>,
        <Button key="ok" type="primary" data-testid="update-dialog-ok" onClick={acknowledge}>
          {t('versions.acknowledge')}
        </Button>,
      ]}
    >
      <Paragraph type="secondary">{t('versions.updateIntro')}</Paragraph>
      {notes.data ? (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} />}>
          <RichText html={notes.data.content} testId="update-dialog-content" />
        </Suspense>
      ) : (
        <Skeleton active paragraph={{ rows: 3 }} />
      )}
    </Modal>
  );
}
