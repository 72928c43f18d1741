import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

/** The shell's page when the permission list could not be loaded (loaded only then: antd's Alert is not first-load weight). */
export function PermissionLoadFailed() {
  const { t } = useTranslation();
  return (
    <div className="sw-center-page">
      <Alert type="error" showIcon title={t('shell.permissionLoadFailed')} />
    </div>
  );
}
