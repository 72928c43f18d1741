import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import type { NoticeView } from '@sunward/contracts/notices';
import { Alert, Button, Descriptions, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { Paragraph } from '../../components/Typo';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { impactKey, noticeTitleKey } from './notice-format';
import { noticeTexts } from './notice-texts';

registerTexts(noticeTexts);

const when = (iso: string) => new Date(iso).toLocaleString(LANGUAGE_TAGS[currentLanguage()], { dateStyle: 'medium', timeStyle: 'short' });

/** The maintenance notice's 700 px dialog (spec 01 §4); loaded only when a notice is to be shown (NoticeDialog). */
export function NoticeModal({ notice, open, confirm }: { notice: NoticeView | null | undefined; open: boolean; confirm: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      width={700}
      title={notice ? t(noticeTitleKey(notice.type)) : ''}
      closable={false}
      maskClosable={false}
      keyboard={false}
      data-testid="notice-dialog"
      footer={
        <Button type="primary" data-testid="notice-dialog-confirm" onClick={confirm}>
          {t('notices.confirm')}
        </Button>
      }
    >
      {notice && (
        <>
          <Paragraph data-testid="notice-dialog-content" style={{ whiteSpace: 'pre-wrap', fontSize: 15 }}>
            {notice.content}
          </Paragraph>
          {notice.impact > 0 && (
            <Alert
              type={notice.impact === 2 ? 'error' : 'warning'}
              showIcon
              title={t(impactKey(notice.impact))}
              style={{ marginBottom: 12 }}
            />
          )}
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={t('notices.fieldEffective')}>{when(notice.effectiveTime)}</Descriptions.Item>
            <Descriptions.Item label={t('notices.duration')}>{notice.duration}</Descriptions.Item>
            {notice.suggests.length > 0 && (
              <Descriptions.Item label={t('notices.fieldSuggests')}>
                <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                  {notice.suggests.map((s) => (
                    <li key={s}>{s}</li>
                  ))}
                </ul>
              </Descriptions.Item>
            )}
          </Descriptions>
        </>
      )}
    </Modal>
  );
}
