import { UserOutlined } from '@ant-design/icons';
import { translate } from '@sunward/contracts/messages';
import { isBuiltInRole } from '@sunward/contracts/roles';
import { Avatar, Card, Descriptions, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { LanguagePicker } from '../../app/TopBar';
import { currentLanguage } from '../../lib/i18n';

/** /edit: the signed-in user's account as the server knows it. */
export function PersonalSettingsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user) return null;
  const role = isBuiltInRole(user.role) ? translate(currentLanguage(), `role.${user.role}`) : user.role;
  return (
    <Card className="sw-page-card">
      <Typography.Title level={3} data-testid="page-title">
        {t('account.title')}
      </Typography.Title>
      <Space align="start" size="large" wrap>
        <Avatar size={72} src={user.avatar ?? undefined} icon={<UserOutlined />} />
        <Descriptions title={t('account.summary')} column={1} bordered size="small" style={{ minWidth: 360 }}>
          <Descriptions.Item label={t('account.nickname')}>{user.nickname}</Descriptions.Item>
          <Descriptions.Item label={t('account.account')}>{user.account}</Descriptions.Item>
          <Descriptions.Item label={t('account.role')}>{role}</Descriptions.Item>
          <Descriptions.Item label={t('account.company')}>{user.company?.name ?? t('account.noCompany')}</Descriptions.Item>
          <Descriptions.Item label={t('account.language')}>
            <LanguagePicker />
          </Descriptions.Item>
        </Descriptions>
      </Space>
      <Typography.Paragraph type="secondary" className="sw-gap-top">
        {t('account.moreSoon')}
      </Typography.Paragraph>
    </Card>
  );
}
