import { Button, Modal, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Paragraph } from '../../components/Typo';
import { registerTexts } from '../../lib/feature-texts';
import { versionTexts } from './version-texts';

registerTexts(versionTexts);

// The notes' sanitiser (DOMPurify) loads when there are notes to show, not with every signed-in page (issue 18).
const RichText = lazy(async () => ({ default: (await import('./RichText')).RichText }));

/** The 800 px update dialog (spec 01 §4); loaded only when a new version is to be announced (UpdateDialog). */
export function UpdateModal({
  open,
  version,
  notes,
  acknowledge,
  openNotes,
}: {
  open: boolean;
  version: string | null;
  notes: { content: string } | undefined;
  acknowledge: () => void;
  openNotes: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      width={800}
      title={t('versions.updateTitle', { version: version ?? '' })}
      onCancel={acknowledge}
      maskClosable={false}
      data-testid="update-dialog"
      footer={[
        <Button key="notes" data-testid="update-dialog-notes" onClick={openNotes}>
          {t('versions.viewNotes')}
        </Button>,
        <Button key="ok" type="primary" data-testid="update-dialog-ok" onClick={acknowledge}>
          {t('versions.acknowledge')}
        </Button>,
      ]}
    >
      <Paragraph type="secondary">{t('versions.updateIntro')}</Paragraph>
      {notes ? (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} />}>
          <RichText html={notes.content} testId="update-dialog-content" />
        </Suspense>
      ) : (
        <Skeleton active paragraph={{ rows: 3 }} />
      )}
    </Modal>
  );
}
