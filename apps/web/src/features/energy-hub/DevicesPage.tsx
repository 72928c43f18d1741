import type { Enrollment } from '@sunward/contracts/energy-hub';
import { useQuery } from '@tanstack/react-query';
import { Card, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { PageTitle } from '../../components/PageTitle';
import { refusalCode } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { fetchEnrollments, hubKeys, NOT_ENABLED_CODES } from './api';
import { ENROLLMENT_COLOURS } from './EnrollmentPage';
import { energyHubTexts } from './energy-hub-texts';
import { HubNotEnabled } from './HubNotEnabled';

registerTexts(energyHubTexts);

type DeviceRow = Enrollment['devices'][number] & { key: string; plantName: string; state: Enrollment['state']; taking: boolean };

/** The enrolled batteries (issue 23): by SN with what the programme knows of them, their enrollment's state and whether they take part. */
export function DevicesPage({ route }: PageProps) {
  const { t } = useTranslation();
  const enrollments = useQuery({ queryKey: hubKeys.enrollments, queryFn: fetchEnrollments, retry: false });
  const code = refusalCode(enrollments.error);
  if (code !== undefined && NOT_ENABLED_CODES.includes(code)) return <HubNotEnabled route={route} />;
  const rows: DeviceRow[] = (enrollments.data?.infos ?? []).flatMap((e) =>
    e.devices.map((d) => ({
      ...d,
      key: `${e.id}-${d.sn}`,
      plantName: e.plantName,
      state: e.state,
      taking: e.settings.devices.includes(d.sn),
    })),
  );
  return (
    <Card className="sw-page-card" data-testid="energy-hub-devices-page">
      <PageTitle route={route} spaced />
      <Table<DeviceRow>
        rowKey="key"
        loading={enrollments.isLoading}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('energyHub.noEnrollment') }}
        columns={[
          { title: t('energyHub.sn'), dataIndex: 'sn' },
          { title: t('energyHub.plant'), dataIndex: 'plantName' },
          { title: t('energyHub.manufacturer'), dataIndex: 'manufacturer' },
          { title: t('energyHub.model'), dataIndex: 'model' },
          { title: t('energyHub.installDate'), dataIndex: 'installDate' },
          { title: t('energyHub.storageCapacity'), dataIndex: 'storageCapacityKwh' },
          { title: t('energyHub.chargeCapacity'), dataIndex: 'chargeCapacityKw' },
          {
            title: t('energyHub.state'),
            render: (_, d) => <Tag color={ENROLLMENT_COLOURS[d.state]}>{t(`energyHub.state.${d.state}`)}</Tag>,
          },
          {
            title: t('energyHub.participating'),
            render: (_, d) => (
              <Tag color={d.taking ? 'success' : 'default'}>{t(d.taking ? 'energyHub.taking' : 'energyHub.notTaking')}</Tag>
            ),
          },
        ]}
      />
    </Card>
  );
}
