import { InboxOutlined } from '@ant-design/icons';
import { Upload } from 'antd';
import { isSpreadsheetName } from '../lib/download';

interface Props {
  file: File | undefined;
  /** A picked .xls/.xlsx file (sent by the dialog on OK, not uploaded on its own). */
  onPick(file: File): void;
  /** A file that is not a spreadsheet by name. */
  onWrongType(): void;
  onRemove(): void;
  dropText: string;
  testId?: string;
}

/** One .xls or .xlsx file for an import dialog (prediction, gateways), dropped or chosen. */
export function SpreadsheetPicker({ file, onPick, onWrongType, onRemove, dropText, testId }: Props) {
  return (
    <Upload.Dragger
      accept=".xls,.xlsx"
      maxCount={1}
      fileList={file ? [{ uid: 'chosen', name: file.name, status: 'done' }] : []}
      beforeUpload={(chosen) => {
        if (!isSpreadsheetName(chosen.name)) {
          onWrongType();
          return Upload.LIST_IGNORE;
        }
        onPick(chosen);
        return false;
      }}
      onRemove={onRemove}
      data-testid={testId}
    >
      <p className="ant-upload-drag-icon">
        <InboxOutlined />
      </p>
      <p className="ant-upload-text">{dropText}</p>
    </Upload.Dragger>
  );
}
