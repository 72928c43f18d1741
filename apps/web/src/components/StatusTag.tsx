import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { statusStyle } from '../lib/format';

/** A plant's or device's status as a coloured tag that also says it in words (colour is never the only signal). */
export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const style = statusStyle(status);
  return (
    <Tag color={style.tag} variant="filled" data-status={style.key}>
      {t(style.label)}
    </Tag>
  );
}
