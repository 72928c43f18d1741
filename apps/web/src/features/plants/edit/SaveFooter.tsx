import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

interface Props {
  dirty: boolean;
  saving: boolean;
  onDiscard(): void;
  onSave(): void;
  saveTestId: string;
}

/** Discard and Save under an edit tab's form. */
export function SaveFooter({ dirty, saving, onDiscard, onSave, saveTestId }: Props) {
  const { t } = useTranslation();
  return (
    <div className="sw-pf-footer">
      <Button icon={<UndoOutlined />} disabled={!dirty} onClick={onDiscard}>
        {t('plantform.discard')}
      </Button>
      <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={onSave} data-testid={saveTestId}>
        {t('plantform.save')}
      </Button>
    </div>
  );
}
