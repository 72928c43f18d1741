import { type ProtocolScriptTestResult, SCRIPT_SOURCE_MAX, SCRIPT_TIME_LIMIT_MS } from '@sunward/contracts/protocols';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Col, Form, Input, InputNumber, Row, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalMessage, validationIssues } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { addScript, deleteScript, fetchScripts, protocolKeys, testScript, updateScript } from './api';
import { scriptTexts } from './script-texts';

registerTexts(scriptTexts);

const TEMPLATE = `function transform(input) {
  // input.points: decoded values by point id (null where absent)
  // input.holding / input.input: raw 16-bit registers by address (function code 3 / 4)
  return {};
}
`;

type PointRow = ProtocolScriptTestResult['points'][number];

/**
 * The script of the protocol's current configuration version (spec 02 §3 Script; issue 19) and its test
 * console: typed registers decoded with the current version, then the source (saved or not) run on them
 * in the server's sandbox; nothing is stored by a test.
 */
export function ScriptPanel({ protocolId, configurationVersion }: { protocolId: number; configurationVersion: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const scripts = useQuery({ queryKey: protocolKeys.scripts(protocolId), queryFn: () => fetchScripts(protocolId) });
  const current = scripts.data?.find((s) => s.configurationVersion === configurationVersion);
  const [draft, setDraft] = useState<string>();
  const source = draft ?? current?.source ?? TEMPLATE;
  const [fc, setFc] = useState<3 | 4>(4);
  const [address, setAddress] = useState<number>(0);
  const [hex, setHex] = useState('');
  const [result, setResult] = useState<ProtocolScriptTestResult>();
  const [sourceError, setSourceError] = useState<string>();
  const [refusal, setRefusal] = useState<string>();
  const [busy, setBusy] = useState<'run' | 'save' | 'delete'>();

  const run = async () => {
    setBusy('run');
    setRefusal(undefined);
    try {
      setResult(await testScript(protocolId, { source, blocks: [{ fc, addr: address, hex: hex.trim() }] }));
    } catch (error) {
      setResult(undefined);
      setRefusal(refusalMessage(error) ?? t('scripts.failedRequest'));
    } finally {
      setBusy(undefined);
    }
  };

  const save = async () => {
    setBusy('save');
    setRefusal(undefined);
    setSourceError(undefined);
    try {
      if (current) await updateScript(protocolId, current.id, source);
      else await addScript(protocolId, { configurationVersion, language: 'javascript', source });
      setDraft(undefined);
      await queryClient.invalidateQueries({ queryKey: protocolKeys.scripts(protocolId) });
      void message.success(t('scripts.saved'));
    } catch (error) {
      const onSource = validationIssues(error).find((i) => i.field === 'source');
      if (onSource) setSourceError(onSource.message);
      else setRefusal(refusalMessage(error) ?? t('scripts.failedRequest'));
    } finally {
      setBusy(undefined);
    }
  };

  const remove = async () => {
    if (!current) return;
    setBusy('delete');
    try {
      await deleteScript(protocolId, current.id);
      setDraft(undefined);
      await queryClient.invalidateQueries({ queryKey: protocolKeys.scripts(protocolId) });
      void message.success(t('scripts.deleted'));
    } catch (error) {
      setRefusal(refusalMessage(error) ?? t('scripts.failedRequest'));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section data-testid="script-panel" aria-labelledby="script-title" style={{ marginTop: 24 }}>
      <Typography.Title level={2} style={{ fontSize: 18 }} id="script-title">
        {t('scripts.title', { version: configurationVersion })} {current?.active && <Tag color="green">{t('scripts.active')}</Tag>}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('scripts.hint', { ms: SCRIPT_TIME_LIMIT_MS })}</Typography.Paragraph>
      {scripts.isSuccess && !current && <Alert type="info" showIcon message={t('scripts.none')} style={{ marginBottom: 12 }} />}
      <Form layout="vertical" component="div">
        <Form.Item
          label={t('scripts.source')}
          htmlFor="script-source"
          validateStatus={sourceError ? 'error' : undefined}
          help={sourceError}
        >
          <Input.TextArea
            id="script-source"
            value={source}
            maxLength={SCRIPT_SOURCE_MAX}
            rows={10}
            spellCheck={false}
            style={{ fontFamily: 'monospace' }}
            onChange={(e) => {
              setSourceError(undefined);
              setDraft(e.target.value);
            }}
          />
        </Form.Item>
        <Space>
          <Button type="primary" onClick={() => void save()} loading={busy === 'save'} data-testid="script-save">
            {t('scripts.save')}
          </Button>
          {current && (
            <Button danger onClick={() => void remove()} loading={busy === 'delete'}>
              {t('scripts.delete')}
            </Button>
          )}
        </Space>
        <Typography.Title level={3} style={{ fontSize: 16, marginTop: 20 }}>
          {t('scripts.consoleTitle')}
        </Typography.Title>
        <Row gutter={16}>
          <Col xs={24} md={6}>
            <Form.Item label={t('scripts.fc')} htmlFor="script-fc">
              <Select
                id="script-fc"
                value={fc}
                onChange={setFc}
                options={[
                  { value: 3, label: t('scripts.fc3') },
                  { value: 4, label: t('scripts.fc4') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item label={t('scripts.address')} htmlFor="script-address">
              <InputNumber
                id="script-address"
                min={0}
                max={65535}
                precision={0}
                value={address}
                onChange={(v) => setAddress(v ?? 0)}
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label={t('scripts.registers')} htmlFor="script-registers">
              <Input
                id="script-registers"
                value={hex}
                placeholder="0004 0000 09C4"
                spellCheck={false}
                style={{ fontFamily: 'monospace' }}
                onChange={(e) => setHex(e.target.value)}
              />
            </Form.Item>
          </Col>
        </Row>
        <Button onClick={() => void run()} loading={busy === 'run'} disabled={hex.trim() === ''} data-testid="script-run">
          {t('scripts.run')}
        </Button>
      </Form>
      {refusal && <Alert type="error" showIcon style={{ marginTop: 12 }} message={refusal} data-testid="script-refusal" />}
      {result && (
        <div data-testid="script-result" style={{ marginTop: 12 }}>
          {result.error ? (
            <Alert type="error" showIcon message={t('scripts.failed', { error: result.error })} data-testid="script-error" />
          ) : (
            <Typography.Text type="secondary">{t('scripts.ran', { ms: result.elapsedMs })}</Typography.Text>
          )}
          <Table<PointRow>
            rowKey="id"
            size="small"
            pagination={false}
            style={{ marginTop: 8 }}
            dataSource={result.points}
            locale={{ emptyText: t('scripts.noPoints') }}
            columns={[
              { key: 'id', title: t('scripts.colPoint'), dataIndex: 'id' },
              {
                key: 'decoded',
                title: t('scripts.colDecoded'),
                render: (_, r) => (r.decoded === null ? '—' : `${r.decoded}${r.unit ? ` ${r.unit}` : ''}`),
              },
              {
                key: 'output',
                title: t('scripts.colOutput'),
                render: (_, r) => {
                  const text = r.output === null ? '—' : `${r.output}${r.unit ? ` ${r.unit}` : ''}`;
                  return r.output !== r.decoded ? <Typography.Text strong>{text}</Typography.Text> : text;
                },
              },
            ]}
          />
        </div>
      )}
    </section>
  );
}
