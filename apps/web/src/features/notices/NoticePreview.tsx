import { fillNoticeDescription, formatNoticeTime, type NoticeFields, noticeTypeWord } from '@sunward/contracts/notices';
import { Card, Col, Modal, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The texts as users will read them, filled the way the server fills them for the view call. */
function filled(fields: NoticeFields, lan: 'zh' | 'en') {
  const suggests = fields.suggests.map((s) => (lan === 'zh' ? s.zhSuggest : s.enSuggest));
  const duration = lan === 'zh' ? fields.zhDuration : fields.enDuration;
  return {
    content: fillNoticeDescription(
      lan === 'zh' ? fields.zhDesc : fields.enDesc,
      { time: formatNoticeTime(fields.effectiveTime, zone()), type: noticeTypeWord(fields.type, lan), duration, suggests },
      lan,
    ),
    suggests,
    duration,
  };
}

/** Preview of a notice in Chinese and English (the other eight languages read the English one). */
export function NoticePreview({ fields, onClose }: { fields: NoticeFields; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal open width={900} title={t('notices.previewTitle')} onCancel={onClose} footer={null} data-testid="notice-preview">
      <Typography.Paragraph type="secondary">{t('notices.previewHint')}</Typography.Paragraph>
      <Row gutter={12}>
        {(['zh', 'en'] as const).map((lan) => {
          const view = filled(fields, lan);
          return (
            <Col span={12} key={lan}>
              <Card size="small" title={t(lan === 'zh' ? 'notices.previewZh' : 'notices.previewEn')} data-testid={`notice-preview-${lan}`}>
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{view.content}</Typography.Paragraph>
                <Typography.Text type="secondary">
                  {t('notices.duration')}: {view.duration}
                </Typography.Text>
                {view.suggests.length > 0 && (
                  <ul style={{ marginTop: 8, paddingInlineStart: 18 }}>
                    {view.suggests.map((s) => (
                      <li key={s}>{s}</li>
                    ))}
                  </ul>
                )}
              </Card>
            </Col>
          );
        })}
      </Row>
    </Modal>
  );
}
