import {
  ApiOutlined,
  AppstoreOutlined,
  BankOutlined,
  CloudUploadOutlined,
  DatabaseOutlined,
  DesktopOutlined,
  DownloadOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  NotificationOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** Icons of the top-level menu entries, kept apart from the route table so sign-in does not load them. */
export const MENU_ICONS: Record<string, ReactNode> = {
  '/plants': <ThunderboltOutlined />,
  '/device': <AppstoreOutlined />,
  '/firmware': <CloudUploadOutlined />,
  '/workdata': <DatabaseOutlined />,
  '/enterprise': <BankOutlined />,
  '/customer': <TeamOutlined />,
  '/report': <FileTextOutlined />,
  '/fullscreen/links': <DesktopOutlined />,
  '/log': <FileSearchOutlined />,
  '/system': <NotificationOutlined />,
  '/download-center': <DownloadOutlined />,
  '/toolbox': <ToolOutlined />,
  '/api/docs': <ApiOutlined />,
};
