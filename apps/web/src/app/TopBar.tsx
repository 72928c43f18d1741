import {
  AppstoreOutlined,
  BellOutlined,
  DownOutlined,
  GlobalOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  QuestionCircleOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { LANGUAGE_NAMES, LANGUAGES } from '@sunward/contracts/languages';
import { LIMITS } from '@sunward/contracts/limits';
import { Avatar, Badge, Button, Dropdown, Layout, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { HELP_CHROME } from '../features/help/help-texts';
import { helpUrl } from '../features/help/help-topics';
import { useUnreadCount } from '../features/notifications/useUnreadCount';
import { changeLanguage, currentLanguage } from '../lib/i18n';
import { useSession } from './session';

export function LanguagePicker() {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: LANGUAGES.map((code) => ({ key: code, label: LANGUAGE_NAMES[code] })),
        onClick: ({ key }) => {
          if (key !== language) changeLanguage(key as (typeof LANGUAGES)[number]);
        },
      }}
    >
      {/* The accessible name starts with the visible one (WCAG 2.5.3 label in name): "English, Language". */}
      <Button
        type="text"
        icon={<GlobalOutlined />}
        aria-label={`${LANGUAGE_NAMES[language]}, ${t('shell.language')}`}
        data-testid="language-picker"
      >
        {LANGUAGE_NAMES[language]}
      </Button>
    </Dropdown>
  );
}

function NotificationBell() {
  const { t } = useTranslation();
  // Pushed live when a message arrives or is read; the spec's 3,000,000 ms poll stays as the fallback.
  const unread = useUnreadCount();
  return (
    <Tooltip title={t('shell.notifications')}>
      <Link to="/notice" aria-label={t('shell.unread', { count: unread })} data-testid="notice-bell" className="sw-bell">
        <Badge count={unread} overflowCount={LIMITS.noticeBadgeMax} size="small">
          <BellOutlined />
        </Badge>
      </Link>
    </Tooltip>
  );
}

/** Spec 01 §2: the documentation of the page on show, in the user's language, in a new tab. */
function HelpButton() {
  useTranslation();
  const { pathname } = useLocation();
  const language = currentLanguage();
  const label = HELP_CHROME[language].help;
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        icon={<QuestionCircleOutlined />}
        href={helpUrl(pathname, language)}
        target="_blank"
        rel="noopener"
        aria-label={label}
        data-testid="help-button"
      />
    </Tooltip>
  );
}

export function TopBar({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const { user, signOut } = useSession();
  const navigate = useNavigate();
  const items = [
    ...(user?.readOnly ? [] : [{ key: 'edit', icon: <UserOutlined />, label: t('shell.personalSettings') }]),
    // The application centre (issue 22) is a hidden route: reached from here.
    { key: 'acenter', icon: <AppstoreOutlined />, label: t('route.appCenter') },
    { key: 'signOut', icon: <LogoutOutlined />, label: t('shell.signOut'), danger: true },
  ];
  return (
    <Layout.Header className="sw-topbar">
      <Button
        type="text"
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={onToggle}
        aria-label={collapsed ? t('shell.expand') : t('shell.collapse')}
        data-testid="menu-toggle"
      />
      <Space size="middle" className="sw-topbar-right">
        <LanguagePicker />
        <HelpButton />
        <NotificationBell />
        <Dropdown
          trigger={['click']}
          menu={{
            items,
            onClick: ({ key }) => {
              if (key === 'edit') void navigate('/edit');
              else if (key === 'acenter') void navigate('/acenter');
              else void signOut();
            },
          }}
        >
          <Button type="text" data-testid="user-menu" className="sw-user">
            <Avatar size="small" src={user?.avatar ?? undefined} icon={<UserOutlined />} />
            <span className="sw-nickname">{user?.nickname}</span>
            <DownOutlined className="sw-caret" />
          </Button>
        </Dropdown>
      </Space>
    </Layout.Header>
  );
}
