import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { registerTexts } from '../lib/feature-texts';
import { statusStyle } from '../lib/format';
import { listTexts } from '../lib/texts/plants/list';

// The status words live with the plant list's texts: a page that shows a tag without the plant list's
// screens (the setting pages) still says the status in words.
registerTexts(listTexts);

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
