import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { NoticeStatus, type NoticeView } from '@sunward/contracts/notices';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Paragraph } from '../../components/Typo';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { fetchNoticeView, noticeKeys } from './api';
import { impactKey, noticeTitleKey } from './notice-format';
import { noticeTexts } from './notice-texts';

registerTexts(noticeTexts);

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

const when = (iso: string) => new Date(iso).toLocaleString(LANGUAGE_TAGS[currentLanguage()], { dateStyle: 'medium', timeStyle: 'short' });

/** Spec 01 §4: the current maintenance notice in a 700 px dialog on load when it has status 0; confirming closes it. */
export function NoticeDialog() {
  const { t } = useTranslation();
  const [confirmed, setConfirmed] = useState(confirmedIds);
  const view = useQuery({ queryKey: noticeKeys.view, queryFn: fetchNoticeView, staleTime: 300_000, retry: false });
  const notice: NoticeView | null | undefined = view.data;
  const open = !!notice && notice.status === NoticeStatus.PUBLISHING && !confirmed.includes(notice.id);

  const confirm = () => {
    if (!notice) return;
    // Keep the last few only: old notices never come back.
    const next = [...confirmed.filter((id) => id !== notice.id), notice.id].slice(-20);
    localStorage.setItem(CONFIRMED_KEY, JSON.stringify(next));
    setConfirmed(next);
  };

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
