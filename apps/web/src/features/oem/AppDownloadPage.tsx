import { AndroidOutlined, AppleOutlined, DownloadOutlined } from '@ant-design/icons';
import { BrandSchema } from '@sunward/contracts/oem';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Space, Spin, Table, Typography } from 'antd';
import qrcode from 'qrcode-generator';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { PublicFrame } from '../../components/PublicFrame';
import { apiRequest } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { formatBytes } from './format-bytes';
import { oemTexts } from './oem-texts';

registerTexts(oemTexts);

/** The page's own address as a QR code, drawn here (no service): phones scan it to open this page. */
function PageQr({ text, label }: { text: string; label: string }) {
  const cells = useMemo(() => {
    const code = qrcode(0, 'M');
    code.addData(text);
    code.make();
    const count = code.getModuleCount();
    const dark: string[] = [];
    for (let r = 0; r < count; r++) for (let c = 0; c < count; c++) if (code.isDark(r, c)) dark.push(`M${c + 4} ${r + 4}h1v1h-1z`);
    return { size: count + 8, path: dark.join('') };
  }, [text]);
  return (
    <svg viewBox={`0 0 ${cells.size} ${cells.size}`} width={180} height={180} role="img" aria-label={label} data-testid="download-qr">
      <rect width={cells.size} height={cells.size} fill="#fff" />
      <path d={cells.path} fill="#000" />
    </svg>
  );
}

const ToolsSchema = z.array(z.object({ id: z.string(), file: z.string(), size: z.number() }));
const TOOL_NAMES = {
  pythonGateway: 'oem.tool.pythonGateway',
  pythonGatewayReadme: 'oem.tool.pythonGatewayReadme',
  gatewayProtocol: 'oem.tool.gatewayProtocol',
  registerMaps: 'oem.tool.registerMaps',
  openApi: 'oem.tool.openApi',
} as const;
const isToolId = (id: string): id is keyof typeof TOOL_NAMES => id in TOOL_NAMES;

/**
 * The desktop tools this build ships (apps/web/desktop-tools.ts writes them and /tools/index.json with their
 * sizes): the example gateway, the protocol and register map references, the open API guide; and the toolbox.
 */
function DesktopTools() {
  const { t } = useTranslation();
  const tools = useQuery({
    queryKey: ['desktop-tools'],
    queryFn: async () => {
      const response = await fetch('/tools/index.json');
      if (!response.ok) return [];
      return ToolsSchema.parse(await response.json()).filter((tool) => isToolId(tool.id));
    },
  });
  if (!tools.data?.length) return null;
  return (
    <section aria-labelledby="desktop-tools-title" data-testid="desktop-tools">
      <Typography.Title level={2} id="desktop-tools-title" style={{ fontSize: 18, marginTop: 24 }}>
        {t('oem.toolsTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('oem.toolsIntro')}</Typography.Paragraph>
      <Table
        rowKey="file"
        size="small"
        pagination={false}
        dataSource={tools.data}
        columns={[
          { key: 'name', title: t('oem.toolsTitle'), render: (_, tool) => (isToolId(tool.id) ? t(TOOL_NAMES[tool.id]) : tool.id) },
          {
            key: 'file',
            title: t('oem.toolFile'),
            render: (_, tool) => (
              <a href={`/tools/${tool.file}`} download data-testid={`tool-${tool.id}`}>
                {tool.file.split('/').pop()}
              </a>
            ),
          },
          {
            key: 'size',
            title: t('oem.toolSize'),
            render: (_, tool) => <span data-testid={`tool-size-${tool.id}`}>{formatBytes(tool.size)}</span>,
          },
        ]}
      />
      <Typography.Paragraph style={{ marginTop: 12 }}>
        <Link to="/toolbox" data-testid="tool-toolbox">
          {t('oem.toolboxLink')}
        </Link>
      </Typography.Paragraph>
    </section>
  );
}

/**
 * /app/download (spec 01 public route; issue 24): the mobile app of this site's brand — the OEM's on its
 * domain, else the product's — with its APK versions (resumable downloads), store links and a QR code.
 */
export function AppDownloadPage() {
  const { t } = useTranslation();
  const brand = useQuery({
    queryKey: ['brand'],
    queryFn: () => apiRequest('/anonymous/brand', { schema: BrandSchema, anonymous: true }),
  });
  const links = useQuery({
    queryKey: ['app-links'],
    queryFn: () =>
      apiRequest('/anonymous/download/url', {
        schema: z.object({ ios: z.string().nullable(), android: z.string().nullable() }),
        anonymous: true,
      }),
    enabled: brand.data?.oem === false,
  });
  const ios = brand.data?.oem ? brand.data.iosUrl : links.data?.ios;
  const android = brand.data?.oem ? brand.data.androidUrl : links.data?.android;
  const apks = brand.data?.apks ?? [];
  const latest = apks[0];
  return (
    <PublicFrame cardClassName="sw-public-card" testId="app-download">
      <Typography.Title level={1} style={{ fontSize: 24 }}>
        {t('oem.downloadTitle', { name: brand.data?.oem ? brand.data.name : t('app.name') })}
      </Typography.Title>
      {brand.isPending ? (
        <Spin />
      ) : (
        <Space align="start" size={32} wrap>
          <Space direction="vertical" size={16}>
            <Typography.Paragraph type="secondary">{t('oem.downloadIntro')}</Typography.Paragraph>
            <Space wrap>
              {latest && (
                <Button type="primary" icon={<DownloadOutlined />} href={latest.url} data-testid="download-apk">
                  {t('oem.downloadApk', { version: latest.version, size: formatBytes(latest.size) })}
                </Button>
              )}
              {android && (
                <Button icon={<AndroidOutlined />} href={android} target="_blank" rel="noreferrer" data-testid="download-play">
                  {t('oem.googlePlay')}
                </Button>
              )}
              {ios && (
                <Button icon={<AppleOutlined />} href={ios} target="_blank" rel="noreferrer" data-testid="download-ios">
                  {t('oem.appStore')}
                </Button>
              )}
            </Space>
            {!latest && !android && !ios ? (
              <Empty description={t('oem.downloadNone')} />
            ) : (
              apks.length > 0 && (
                <Table
                  rowKey="id"
                  size="small"
                  pagination={false}
                  dataSource={apks}
                  data-testid="download-versions"
                  columns={[
                    { key: 'version', title: t('oem.apkVersion'), render: (_, a) => a.version },
                    { key: 'size', title: t('oem.apkSize'), render: (_, a) => formatBytes(a.size) },
                    {
                      key: 'get',
                      title: t('oem.actions'),
                      render: (_, a) => (
                        <a href={a.url} aria-label={t('oem.downloadApk', { version: a.version, size: formatBytes(a.size) })}>
                          {t('oem.download')}
                        </a>
                      ),
                    },
                  ]}
                />
              )
            )}
          </Space>
          <Space direction="vertical" align="center">
            <PageQr text={window.location.href} label={t('oem.qrLabel')} />
            <Typography.Text type="secondary">{t('oem.qrHint')}</Typography.Text>
          </Space>
        </Space>
      )}
      <DesktopTools />
    </PublicFrame>
  );
}
