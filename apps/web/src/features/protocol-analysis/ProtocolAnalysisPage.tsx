import type { FrameAnalysisAnswer } from '@sunward/contracts/protocol-analysis';
import { FRAME_FORMATS } from '@sunward/contracts/protocol-analysis';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Input, InputNumber, Radio, Select, Table, Tag, Typography } from 'antd';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { placeRefusal } from '../../components/form-refusal';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { analyseFrame, searchProtocols } from './api';
import { analysisTexts } from './texts';

registerTexts(analysisTexts);

type Format = (typeof FRAME_FORMATS)[number];
type Field = 'protocol' | 'frame' | 'startAddress';

const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');

/**
 * Protocol analysis (spec 01 §2 management; issue 19 item 4): paste a Modbus RTU or TCP frame, or a gateway
 * report, choose a protocol, and see every register named by its point, each point decoded, and the
 * addresses the protocol does not describe flagged.
 */
export function ProtocolAnalysisPage({ route }: PageProps) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [protocol, setProtocol] = useState<string>();
  const [format, setFormat] = useState<Format>('rtu');
  const [frame, setFrame] = useState('');
  const [startAddress, setStartAddress] = useState<number | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});
  const protocols = useQuery({
    queryKey: ['protocol-analysis', 'protocols', useDeferredValue(keyword)],
    queryFn: () => searchProtocols(keyword),
  });
  const run = useMutation({
    mutationFn: () =>
      analyseFrame({
        protocol: protocol ?? '',
        format,
        frame,
        ...(format !== 'report' && startAddress !== null ? { startAddress } : {}),
      }),
    onMutate: () => setErrors({}),
    onError: (error) => {
      const placed = placeRefusal(error, t('analysis.failed'));
      if (placed.kind === 'fields') setErrors(Object.fromEntries(placed.fields.map((f) => [f.name, f.errors[0]])));
      else setErrors({ form: placed.text });
    },
  });
  const status = (field: Field) => (errors[field] ? 'error' : undefined);
  const result = run.isSuccess ? run.data : undefined;

  return (
    <div>
      <PageTitle route={route} spaced />
      <Typography.Paragraph type="secondary">{t('analysis.intro')}</Typography.Paragraph>
      <Card>
        <Form
          layout="vertical"
          onFinish={() => {
            if (!protocol) setErrors({ protocol: t('analysis.chooseProtocol') });
            else if (!frame.trim()) setErrors({ frame: t('analysis.enterFrame') });
            else run.mutate();
          }}
        >
          <Form.Item label={t('analysis.protocol')} htmlFor="analysis-protocol" validateStatus={status('protocol')} help={errors.protocol}>
            <Select
              id="analysis-protocol"
              showSearch
              filterOption={false}
              onSearch={setKeyword}
              value={protocol}
              onChange={setProtocol}
              loading={protocols.isFetching}
              placeholder={t('analysis.protocolPlaceholder')}
              options={(protocols.data?.infos ?? []).map((p) => ({ value: p.identifier, label: `${p.name} (${p.identifier})` }))}
              style={{ maxWidth: 520 }}
              data-testid="analysis-protocol"
            />
          </Form.Item>
          <Form.Item label={t('analysis.format')}>
            <Radio.Group
              value={format}
              onChange={(e) => setFormat(e.target.value)}
              optionType="button"
              options={FRAME_FORMATS.map((f) => ({ value: f, label: t(`analysis.format.${f}`) }))}
            />
          </Form.Item>
          <Form.Item
            label={t('analysis.frame')}
            htmlFor="analysis-frame"
            validateStatus={status('frame')}
            help={errors.frame ?? t(`analysis.frameHint.${format}`)}
          >
            <Input.TextArea
              id="analysis-frame"
              value={frame}
              onChange={(e) => setFrame(e.target.value)}
              autoSize={{ minRows: 3, maxRows: 12 }}
              style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' }}
              placeholder={
                format === 'report'
                  ? '{"v":1,"seq":1,"devices":[{"sn":"…","proto":"…","blocks":[{"fc":3,"addr":40069,"hex":"…"}]}]}'
                  : '01 03 02 09 C4 BF 25'
              }
            />
          </Form.Item>
          {format !== 'report' && (
            <Form.Item
              label={t('analysis.startAddress')}
              htmlFor="analysis-start"
              validateStatus={status('startAddress')}
              help={errors.startAddress ?? t('analysis.startAddressHint')}
            >
              <InputNumber id="analysis-start" value={startAddress} onChange={setStartAddress} min={0} max={65535} style={{ width: 200 }} />
            </Form.Item>
          )}
          {errors.form && <Alert type="error" showIcon message={errors.form} style={{ marginBottom: 16 }} />}
          <Button type="primary" htmlType="submit" loading={run.isPending} data-testid="analysis-run">
            {t('analysis.run')}
          </Button>
        </Form>
      </Card>
      {result && <AnalysisResult analysis={result} />}
    </div>
  );
}

function AnalysisResult({ analysis }: { analysis: FrameAnalysisAnswer }) {
  const { t } = useTranslation();
  const zh = currentLanguage() === 'cn';
  const unknownCount = analysis.registers.filter((r) => r.pointId === null).length;
  return (
    <Card
      style={{ marginTop: 16 }}
      data-testid="analysis-result"
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('analysis.result')}</h2>}
    >
      <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 4 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('analysis.kind')}>{t(`analysis.kind.${analysis.kind}`)}</Descriptions.Item>
        {analysis.slave !== null && <Descriptions.Item label={t('analysis.slave')}>{analysis.slave}</Descriptions.Item>}
        {analysis.functionCode !== null && (
          <Descriptions.Item label={t('analysis.functionCode')}>{String(analysis.functionCode).padStart(2, '0')}</Descriptions.Item>
        )}
        {analysis.crc !== null && (
          <Descriptions.Item label="CRC">
            <Tag color="success" data-testid="analysis-crc">
              {t('analysis.crcOk', { crc: analysis.crc })}
            </Tag>
          </Descriptions.Item>
        )}
        {analysis.exceptionCode !== null && (
          <Descriptions.Item label={t('analysis.exception')}>
            <Tag color="error">{t('analysis.exceptionCode', { code: analysis.exceptionCode })}</Tag>
          </Descriptions.Item>
        )}
      </Descriptions>
      {unknownCount > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="analysis-unknown"
          message={t('analysis.unknown', { count: unknownCount })}
          description={analysis.unknown.map((u) => (u.from === u.to ? String(u.from) : `${u.from}–${u.to}`)).join(', ')}
        />
      )}
      {analysis.problems.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('analysis.problems')}
          description={analysis.problems.join('; ')}
        />
      )}
      {analysis.points.length > 0 && (
        <>
          <Typography.Title level={3} style={{ fontSize: 15 }}>
            {t('analysis.points')}
          </Typography.Title>
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={analysis.points}
            data-testid="analysis-points"
            style={{ marginBottom: 16 }}
            columns={[
              { title: t('analysis.col.point'), dataIndex: 'id', render: (id: string, p) => `${zh ? p.label.zh : p.label.en} (${id})` },
              {
                title: t('analysis.col.address'),
                dataIndex: 'address',
                render: (a: number, p) => (p.count > 1 ? `${a}–${a + p.count - 1}` : a),
              },
              { title: t('analysis.col.type'), dataIndex: 'type' },
              { title: t('analysis.col.raw'), dataIndex: 'hex', render: (h: string) => <code>{h}</code> },
              {
                title: t('analysis.col.value'),
                dataIndex: 'value',
                render: (v: number | string | null, p) => (v === null ? '—' : `${v}${p.unit ? ` ${p.unit}` : ''}`),
              },
            ]}
          />
        </>
      )}
      <Typography.Title level={3} style={{ fontSize: 15 }}>
        {t('analysis.registers')}
      </Typography.Title>
      <Table
        size="small"
        rowKey={(r) => `${r.address}`}
        pagination={analysis.registers.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
        dataSource={analysis.registers}
        data-testid="analysis-registers"
        columns={[
          { title: t('analysis.col.address'), dataIndex: 'address', render: (a: number) => `${a} (0x${hex(a)})` },
          { title: t('analysis.col.raw'), dataIndex: 'hex', render: (h: string) => (h ? <code>{h}</code> : '—') },
          {
            title: t('analysis.col.point'),
            dataIndex: 'pointId',
            render: (id: string | null) => (id === null ? <Tag color="warning">{t('analysis.notInMap')}</Tag> : id),
          },
        ]}
      />
    </Card>
  );
}
