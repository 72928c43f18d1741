import { DeleteOutlined, LoadingOutlined, PictureOutlined, UploadOutlined } from '@ant-design/icons';
import { PLANT_LIMITS } from '@sunward/contracts/plants';
import { Button, Image, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError } from '../../../lib/api-client';
import { currentLanguage } from '../../../lib/i18n';
import { uploadPlantPicture, validationIssues } from './api';
import { PICTURE_MAX_MB, pictureProblem } from './picture-check';

const ACCEPT = PLANT_LIMITS.pictureExtensions.map((e) => `.${e}`).join(',');

interface Props {
  value?: string | null;
  onChange?: (url: string | null) => void;
  disabled?: boolean;
}

/** The plant picture (a form control): checked here, uploaded at once, previewed from the server's copy. */
export function PictureUpload({ value, onChange, disabled }: Props) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [localPreview, setLocalPreview] = useState<string | null>(null);

  useEffect(
    () => () => {
      if (localPreview) URL.revokeObjectURL(localPreview);
    },
    [localPreview],
  );

  const upload = async (file: File) => {
    setProblem(null);
    setUploading(true);
    setLocalPreview(URL.createObjectURL(file));
    try {
      onChange?.(await uploadPlantPicture(file));
      // Show the server's copy from now on: it is what the plant will use.
      setLocalPreview(null);
    } catch (error) {
      setLocalPreview(null);
      const issue = validationIssues(error)[0];
      setProblem(issue?.message ?? (error instanceof ApiCallError && error.message ? error.message : t('plantform.pictureFailed')));
    } finally {
      setUploading(false);
    }
  };

  const shown = localPreview ?? value ?? null;
  return (
    <div className="sw-pf-picture" data-testid="picture-upload">
      <div className="sw-pf-picture-box">
        {shown ? (
          <Image src={shown} alt={t('plantform.picture')} width={128} height={96} className="sw-pf-picture-img" />
        ) : (
          <PictureOutlined className="sw-pf-picture-empty" />
        )}
        {uploading && (
          <div className="sw-pf-picture-busy">
            <LoadingOutlined />
          </div>
        )}
      </div>
      <div className="sw-pf-picture-side">
        <div className="sw-pf-picture-actions">
          <Upload
            accept={ACCEPT}
            showUploadList={false}
            disabled={disabled || uploading}
            beforeUpload={(file) => {
              const found = pictureProblem(file, currentLanguage());
              if (found) setProblem(found);
              else void upload(file);
              // The upload is done above (or refused): antd must not send anything itself.
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} disabled={disabled || uploading}>
              {shown ? t('plantform.pictureReplace') : t('plantform.pictureUpload')}
            </Button>
          </Upload>
          {shown && !uploading && (
            <Button
              type="text"
              icon={<DeleteOutlined />}
              disabled={disabled}
              onClick={() => {
                setLocalPreview(null);
                onChange?.(null);
              }}
              aria-label={t('plantform.pictureRemove')}
              title={t('plantform.pictureRemove')}
            />
          )}
        </div>
        <Typography.Text type={problem ? 'danger' : 'secondary'} className="sw-pf-hint" data-testid="picture-message">
          {problem ?? t('plantform.pictureHint', { max: PICTURE_MAX_MB })}
        </Typography.Text>
      </div>
    </div>
  );
}
