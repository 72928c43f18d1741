import { UploadOutlined } from '@ant-design/icons';
import { APK_VERSION, OEM_IMAGE_SLOT_NAMES, OEM_IMAGE_SLOTS, type OemImageSlot, type OemProject } from '@sunward/contracts/oem';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Modal, Space, Table, Typography } from 'antd';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkActions } from '../../components/LinkActions';
import { refusalMessage } from '../../lib/api-client';
import { deleteOemApk, oemKeys, uploadOemApk, uploadOemImage } from './api';
import { formatBytes } from './format-bytes';

/** A file picker behind a button; the picked file goes to `onFile`. */
function FilePick({
  accept,
  label,
  testId,
  busy,
  onFile,
}: {
  accept: string;
  label: string;
  testId: string;
  busy: boolean;
  onFile(file: File): void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={accept}
        hidden
        data-testid={testId}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) onFile(file);
        }}
      />
      <Button icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()}>
        {label}
      </Button>
    </>
  );
}

function ImageSlot({ project, slot }: { project: OemProject; slot: OemImageSlot }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string>();
  const id = useId();
  const rule = OEM_IMAGE_SLOTS[slot];
  const upload = useMutation({
    mutationFn: (file: File) => uploadOemImage(project.id, slot, file),
    onSuccess: () => {
      setProblem(undefined);
      void queryClient.invalidateQueries({ queryKey: oemKeys.all });
    },
    onError: (error) => setProblem(refusalMessage(error) ?? t('oem.requestFailed')),
  });
  const url = project.images[slot];
  return (
    <div className="sw-oem-slot" data-testid={`oem-slot-${slot}`}>
      <div>
        <Typography.Text strong id={id}>
          {t(`oem.slot.${slot}`)}
        </Typography.Text>
        <div className="sw-muted">
          {rule.width ? t('oem.slotSize', { width: rule.width, height: rule.height }) : t('oem.slotLoginImage')}
          {rule.pngOnly ? ` · ${t('oem.pngOnly')}` : ''}
        </div>
        {problem && (
          <div role="alert" className="sw-field-error" data-testid={`oem-slot-error-${slot}`}>
            {problem}
          </div>
        )}
      </div>
      <div className="sw-oem-preview">
        {url ? <img src={url} alt={t(`oem.slot.${slot}`)} /> : <span className="sw-muted">{t('oem.noImage')}</span>}
      </div>
      <FilePick
        accept={rule.pngOnly ? '.png,image/png' : '.png,.jpg,.jpeg,image/png,image/jpeg'}
        label={url ? t('oem.replace') : t('oem.upload')}
        testId={`oem-file-${slot}`}
        busy={upload.isPending}
        onFile={(file) => upload.mutate(file)}
      />
    </div>
  );
}

/** An OEM project's logos, login image and APKs: each checked by the server as it is chosen. */
export function OemFilesDialog({ project, onClose }: { project: OemProject; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [version, setVersion] = useState('');
  const [apkProblem, setApkProblem] = useState<string>();
  const upload = useMutation({
    mutationFn: (file: File) => uploadOemApk(project.id, version.trim(), file),
    onSuccess: () => {
      setApkProblem(undefined);
      setVersion('');
      void message.success(t('oem.apkUploaded'));
      void queryClient.invalidateQueries({ queryKey: oemKeys.all });
    },
    onError: (error) => setApkProblem(refusalMessage(error) ?? t('oem.requestFailed')),
  });
  const remove = useMutation({
    mutationFn: (apkId: number) => deleteOemApk(project.id, apkId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: oemKeys.all }),
  });
  const versionOk = APK_VERSION.test(version.trim());
  return (
    <Modal open width={760} title={t('oem.filesTitle', { domain: project.domain })} footer={null} onCancel={onClose} destroyOnHidden>
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        {OEM_IMAGE_SLOT_NAMES.map((slot) => (
          <ImageSlot key={slot} project={project} slot={slot} />
        ))}
        <Typography.Title level={5} style={{ marginBottom: 0 }}>
          {t('oem.apkTitle')}
        </Typography.Title>
        <div className="sw-muted">{t('oem.apkHint')}</div>
        <Space wrap>
          <Input
            aria-label={t('oem.apkVersion')}
            placeholder={t('oem.apkVersion')}
            value={version}
            onChange={(e) => setVersion(e.target.value)}
            style={{ width: 160 }}
            status={version && !versionOk ? 'error' : undefined}
            data-testid="oem-apk-version"
          />
          {versionOk ? (
            <FilePick
              accept=".apk"
              label={t('oem.apkUpload')}
              testId="oem-apk-file"
              busy={upload.isPending}
              onFile={(file) => upload.mutate(file)}
            />
          ) : (
            <Button icon={<UploadOutlined />} disabled>
              {t('oem.apkUpload')}
            </Button>
          )}
        </Space>
        {apkProblem && (
          <div role="alert" className="sw-field-error" data-testid="oem-apk-error">
            {apkProblem}
          </div>
        )}
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={project.apks}
          data-testid="oem-apk-table"
          locale={{ emptyText: t('oem.apkEmpty') }}
          columns={[
            { key: 'version', title: t('oem.apkVersion'), render: (_, a) => a.version },
            { key: 'size', title: t('oem.apkSize'), render: (_, a) => formatBytes(a.size) },
            {
              key: 'actions',
              title: t('oem.actions'),
              render: (_, a) => (
                <LinkActions
                  actions={[
                    {
                      key: 'delete',
                      label: t('oem.delete'),
                      danger: true,
                      confirm: { title: t('oem.apkDeleteTitle', { version: a.version }), okText: t('oem.delete') },
                      onClick: () => remove.mutateAsync(a.id),
                    },
                  ]}
                />
              ),
            },
          ]}
        />
      </Space>
    </Modal>
  );
}
