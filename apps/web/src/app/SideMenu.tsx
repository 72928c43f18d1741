import { ExportOutlined } from '@ant-design/icons';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { oemBrand } from '../lib/brand';
import { useEnabledApps } from './enabled-apps';
import { MENU_ICONS } from './menu-icons';
import { buildMenu, type MenuEntry, menuSelection } from './route-access';
import { useSession } from './session';

type Item = Required<MenuProps>['items'][number];

/** Menu built from the permission list (type 0 entries) and the route table; collapses to icons. */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { has, user } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const apps = useEnabledApps();
  const entries = useMemo(() => buildMenu(has, undefined, apps), [has, apps]);
  const { selected, open } = menuSelection(pathname);
  const [openKeys, setOpenKeys] = useState<string[]>(open);
  const groupOfPage = open[0];
  // Opening a page inside a collapsed group (a link, the address bar) unfolds that group.
  useEffect(() => {
    if (groupOfPage) setOpenKeys((keys) => (keys.includes(groupOfPage) ? keys : [...keys, groupOfPage]));
  }, [groupOfPage]);

  const toItem = (entry: MenuEntry): Item => ({
    key: entry.key,
    icon: MENU_ICONS[entry.key],
    label: entry.newTab ? (
      <span title={t('shell.opensInNewTab')}>
        {t(entry.title)} <ExportOutlined className="sw-newtab-icon" />
      </span>
    ) : (
      t(entry.title)
    ),
    children: entry.children?.map(toItem),
  });

  const company = user?.company;
  return (
    <nav aria-label="main" className="sw-menu-wrap">
      <div className={collapsed ? 'sw-logo sw-logo-small' : 'sw-logo'}>
        {company?.logoUrl && !collapsed ? (
          <img src={company.logoUrl} alt={company.name} height={58} />
        ) : company?.iconUrl && collapsed ? (
          <img src={company.iconUrl} alt={company.name} height={32} />
        ) : oemBrand?.images.systemLogo && !collapsed ? (
          <img src={oemBrand.images.systemLogo} alt={oemBrand.name} height={60} data-testid="brand-logo" />
        ) : (
          <>
            <img src={oemBrand?.images.systemIcon ?? '/favicon.svg'} alt="" width={32} height={32} />
            {!collapsed && <span className="sw-logo-text">{t('app.name')}</span>}
          </>
        )}
      </div>
      <Menu
        mode="inline"
        items={entries.map(toItem)}
        selectedKeys={selected ? [selected] : []}
        openKeys={collapsed ? undefined : openKeys}
        onOpenChange={setOpenKeys}
        onClick={({ key }) => {
          const entry = entries.flatMap((e) => [e, ...(e.children ?? [])]).find((e) => e.key === key);
          if (entry?.newTab) window.open(key, '_blank', 'noopener');
          else void navigate(key);
        }}
      />
    </nav>
  );
}
