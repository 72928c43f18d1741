import { SendOutlined } from '@ant-design/icons';
import type { CommandResult } from '@sunward/contracts/commands';
import {
  bytesToHex,
  checkRequest,
  type ModbusFunctionCode,
  type ModbusProblem,
  requestPdu,
  rtuFrame,
  tcpFrame,
} from '@sunward/protocol/modbus-frame';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Form, Input, InputNumber, Radio, Row, Select, Space, Tag, Typography } from 'antd';
import { type ReactNode, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { usePasswordPrompt } from '../../components/ConfirmPassword';
import { PageTitle } from '../../components/PageTitle';
import { ApiCallError } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { searchInverters, sendDebug } from './api';
import { toolboxTexts } from './texts';
import { type ConvertFrom, checksums, convert, digitsPerValue, parseWriteValues } from './tools';
import './toolbox.css';

registerTexts(toolboxTexts);

const FUNCTION_CODES: ModbusFunctionCode[] = [1, 2, 3, 4, 5, 6, 15, 16];
/** What the inverters' remote debug carries: register reads and writes (the gateway protocol's read/write). */
const SENDABLE: readonly ModbusFunctionCode[] = [3, 4, 6, 16];

/** A result value in a monospace font with a copy button. */
function Value({ children, testId }: { children: string; testId?: string }) {
  return (
    <Typography.Text code copyable className="sw-toolbox-value" data-testid={testId}>
      {children}
    </Typography.Text>
  );
}

/**
 * The toolbox (spec 02 §1): CRC-16/MODBUS and CRC-32, base and ASCII conversion, and a Modbus message
 * builder whose register reads and writes can be sent to an inverter through its remote debug.
 */
export function ToolboxPage({ route }: PageProps) {
  const { t } = useTranslation();
  return (
    <div className="sw-toolbox">
      <PageTitle route={route} spaced />
      <Typography.Paragraph type="secondary">{t('toolbox.intro')}</Typography.Paragraph>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <ChecksumTool />
        </Col>
        <Col xs={24} xl={12}>
          <ConversionTool />
        </Col>
        <Col xs={24}>
          <ModbusBuilder />
        </Col>
      </Row>
    </div>
  );
}

function ChecksumTool() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [as, setAs] = useState<'hex' | 'ascii'>('hex');
  const result = checksums(useDeferredValue(text), as);
  const problem = !result.ok && result.problem !== 'empty' ? t(`toolbox.error.${result.problem}`) : undefined;
  return (
    <Card title={<h2 className="sw-toolbox-heading">{t('toolbox.checksums')}</h2>} data-testid="toolbox-crc">
      <Form layout="vertical">
        <Form.Item label={t('toolbox.inputAs')}>
          <Radio.Group
            value={as}
            onChange={(e) => setAs(e.target.value)}
            options={[
              { value: 'hex', label: t('toolbox.asHex') },
              { value: 'ascii', label: t('toolbox.asAscii') },
            ]}
            optionType="button"
          />
        </Form.Item>
        <Form.Item label={t('toolbox.input')} htmlFor="toolbox-crc-input" validateStatus={problem ? 'error' : undefined} help={problem}>
          <Input.TextArea
            id="toolbox-crc-input"
            value={text}
            onChange={(e) => setText(e.target.value)}
            autoSize={{ minRows: 2, maxRows: 6 }}
            placeholder={as === 'hex' ? '01 03 00 00 00 0A' : '123456789'}
            className="sw-toolbox-mono"
          />
        </Form.Item>
      </Form>
      {result.ok && (
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label={t('toolbox.byteCount')}>{result.value.byteCount}</Descriptions.Item>
          <Descriptions.Item label={t('toolbox.crc16')}>
            <Value testId="toolbox-crc16">{result.value.crc16}</Value>
          </Descriptions.Item>
          <Descriptions.Item label={t('toolbox.crc16Frame')}>
            <Value testId="toolbox-crc16-frame">{result.value.crc16Frame}</Value>
          </Descriptions.Item>
          <Descriptions.Item label={t('toolbox.crc32')}>
            <Value testId="toolbox-crc32">{result.value.crc32}</Value>
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}

function ConversionTool() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [from, setFrom] = useState<ConvertFrom>(10);
  const result = convert(useDeferredValue(text), from);
  const problem = !result.ok && result.problem !== 'empty' ? t(`toolbox.error.${result.problem}`) : undefined;
  const froms: { value: ConvertFrom; label: string }[] = [
    { value: 2, label: t('toolbox.base.binary') },
    { value: 8, label: t('toolbox.base.octal') },
    { value: 10, label: t('toolbox.base.decimal') },
    { value: 16, label: t('toolbox.base.hex') },
    { value: 'ascii', label: t('toolbox.base.ascii') },
  ];
  return (
    <Card title={<h2 className="sw-toolbox-heading">{t('toolbox.conversion')}</h2>} data-testid="toolbox-convert">
      <Form layout="vertical">
        <Form.Item label={t('toolbox.from')}>
          <Radio.Group value={from} onChange={(e) => setFrom(e.target.value)} options={froms} optionType="button" />
        </Form.Item>
        <Form.Item label={t('toolbox.input')} htmlFor="toolbox-convert-input" validateStatus={problem ? 'error' : undefined} help={problem}>
          <Input id="toolbox-convert-input" value={text} onChange={(e) => setText(e.target.value)} className="sw-toolbox-mono" />
        </Form.Item>
      </Form>
      {result.ok && (
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label={t('toolbox.base.binary')}>
            <Value testId="toolbox-binary">{result.value.binary}</Value>
          </Descriptions.Item>
          <Descriptions.Item label={t('toolbox.base.octal')}>
            <Value>{result.value.octal}</Value>
          </Descriptions.Item>
          <Descriptions.Item label={t('toolbox.base.decimal')}>
            <Value testId="toolbox-decimal">{result.value.decimal}</Value>
          </Descriptions.Item>
          <Descriptions.Item label={t('toolbox.base.hex')}>
            <Value testId="toolbox-hex">{result.value.hex}</Value>
          </Descriptions.Item>
          <Descriptions.Item label={t('toolbox.bytes')}>
            <Value>{result.value.bytes}</Value>
          </Descriptions.Item>
          <Descriptions.Item label={t('toolbox.base.ascii')}>
            {result.value.ascii === null ? (
              <Typography.Text type="secondary">{t('toolbox.notPrintable')}</Typography.Text>
            ) : (
              <Value testId="toolbox-ascii">{result.value.ascii}</Value>
            )}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}

function problemText(problem: ModbusProblem, t: (key: string, options?: Record<string, unknown>) => string): string {
  if (problem.field === 'slave') return t('toolbox.error.slave');
  if (problem.field === 'address') return t('toolbox.error.address');
  if (problem.field === 'count') return t('toolbox.error.count', { max: problem.max });
  if (problem.reason === 'count') return t('toolbox.error.valueCount', { max: problem.max });
  return t('toolbox.error.valueRange', { index: problem.index + 1 });
}

function ModbusBuilder() {
  const { t } = useTranslation();
  const { has } = useSession();
  const [slave, setSlave] = useState<number | null>(1);
  const [fc, setFc] = useState<ModbusFunctionCode>(3);
  const [address, setAddress] = useState<number | null>(40000);
  const [count, setCount] = useState<number | null>(1);
  const [valuesText, setValuesText] = useState('');
  const write = fc >= 5;
  const parsed = write ? parseWriteValues(valuesText, fc) : undefined;
  const valuesProblem =
    parsed && !parsed.ok && valuesText.trim() !== ''
      ? t(parsed.digits === 1 ? 'toolbox.error.coil' : 'toolbox.error.digits', { index: parsed.index + 1, num: parsed.digits })
      : undefined;
  const request = {
    slave: slave ?? -1,
    functionCode: fc,
    address: address ?? -1,
    ...(write ? { values: parsed?.ok ? parsed.values : [] } : { count: count ?? 0 }),
  };
  const problems = write && !parsed?.ok ? [] : checkRequest(request);
  const complete = problems.length === 0 && (!write || parsed?.ok === true);
  const pdu = complete ? requestPdu(request) : undefined;
  const fieldProblem = (field: ModbusProblem['field']) => {
    const found = problems.find((p) => p.field === field);
    return found ? problemText(found, t) : undefined;
  };
  const valuesHelp = valuesProblem ?? fieldProblem('values');
  const canDebug = has('inverter.debug');

  return (
    <Card title={<h2 className="sw-toolbox-heading">{t('toolbox.builder')}</h2>} data-testid="toolbox-modbus">
      <Form layout="vertical">
        <Row gutter={16}>
          <Col xs={24} sm={12} lg={5}>
            <Form.Item
              label={t('toolbox.slave')}
              htmlFor="toolbox-slave"
              validateStatus={fieldProblem('slave') ? 'error' : undefined}
              help={fieldProblem('slave')}
            >
              <InputNumber id="toolbox-slave" value={slave} onChange={setSlave} min={0} max={247} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} lg={7}>
            <Form.Item label={t('toolbox.functionCode')} htmlFor="toolbox-fc">
              <Select
                id="toolbox-fc"
                value={fc}
                onChange={setFc}
                options={FUNCTION_CODES.map((code) => ({
                  value: code,
                  label: `${String(code).padStart(2, '0')} ${t(`toolbox.fc.${code}`)}`,
                }))}
                data-testid="toolbox-fc"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} lg={5}>
            <Form.Item
              label={t('toolbox.address')}
              htmlFor="toolbox-address"
              validateStatus={fieldProblem('address') ? 'error' : undefined}
              help={fieldProblem('address')}
            >
              <InputNumber id="toolbox-address" value={address} onChange={setAddress} min={0} max={65535} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12} lg={7}>
            {write ? (
              <Form.Item
                label={t('toolbox.values')}
                htmlFor="toolbox-values"
                validateStatus={valuesHelp ? 'error' : undefined}
                help={valuesHelp ?? t(digitsPerValue(fc) === 1 ? 'toolbox.valuesCoils' : 'toolbox.valuesRegisters', { num: 4 })}
              >
                <Input
                  id="toolbox-values"
                  value={valuesText}
                  onChange={(e) => setValuesText(e.target.value)}
                  placeholder={digitsPerValue(fc) === 1 ? '1 0 1' : '000A 0102'}
                  className="sw-toolbox-mono"
                />
              </Form.Item>
            ) : (
              <Form.Item
                label={t('toolbox.count')}
                htmlFor="toolbox-count"
                validateStatus={fieldProblem('count') ? 'error' : undefined}
                help={fieldProblem('count')}
              >
                <InputNumber id="toolbox-count" value={count} onChange={setCount} min={1} style={{ width: '100%' }} />
              </Form.Item>
            )}
          </Col>
        </Row>
      </Form>
      {pdu && slave !== null && (
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label={t('toolbox.rtu')}>
            <Value testId="toolbox-rtu">{bytesToHex(rtuFrame(slave, pdu))}</Value>
          </Descriptions.Item>
          <Descriptions.Item label={t('toolbox.tcp')}>
            <Value testId="toolbox-tcp">{bytesToHex(tcpFrame(slave, pdu))}</Value>
          </Descriptions.Item>
        </Descriptions>
      )}
      {canDebug && (
        <SendToDevice
          request={
            complete && SENDABLE.includes(fc) && address !== null
              ? write
                ? { fc, addr: address, hex: (parsed?.ok ? parsed.values : []).map((v) => v.toString(16).padStart(4, '0')).join('') }
                : { fc, addr: address, count: count ?? 1 }
              : undefined
          }
          sendable={SENDABLE.includes(fc)}
          write={write}
        />
      )}
    </Card>
  );
}

function SendToDevice({
  request,
  sendable,
  write,
}: {
  request: { fc: ModbusFunctionCode; addr: number; hex?: string; count?: number } | undefined;
  sendable: boolean;
  write: boolean;
}) {
  const { t } = useTranslation();
  const askPassword = usePasswordPrompt();
  const [keyword, setKeyword] = useState('');
  const [sn, setSn] = useState<string>();
  const search = useDeferredValue(keyword);
  const inverters = useQuery({ queryKey: ['toolbox', 'inverters', search], queryFn: () => searchInverters(search) });
  const [outcome, setOutcome] = useState<{ result?: CommandResult; error?: string }>();
  const send = useMutation({
    mutationFn: async () => {
      if (!sn || !request) return undefined;
      const password = write ? await askPassword(t('toolbox.confirmTitle'), t('toolbox.confirmPassword', { sn })) : undefined;
      if (write && password === undefined) return undefined;
      return sendDebug(sn, { ...request, idempotencyKey: crypto.randomUUID(), ...(password === undefined ? {} : { password }) });
    },
    onSuccess: (result) => result && setOutcome({ result }),
    onError: (error) => setOutcome({ error: error instanceof ApiCallError ? error.message : t('toolbox.sendFailed') }),
  });
  const options = (inverters.data?.infos ?? [])
    .filter((d) => d.access !== 'view')
    .map((d) => ({ value: d.sn, label: d.alias ? `${d.sn} (${d.alias})` : d.sn }));
  let rows: ReactNode = null;
  if (outcome?.result) {
    const { result } = outcome;
    rows = (
      <Descriptions size="small" column={1} bordered data-testid="toolbox-send-result">
        <Descriptions.Item label={t('toolbox.commandStatus')}>
          <Tag color={result.status === 'ok' ? 'success' : result.status === 'pending' ? 'processing' : 'error'}>
            {t(`toolbox.status.${result.status}`)}
          </Tag>
          {result.message}
        </Descriptions.Item>
        {result.hex && (
          <Descriptions.Item label={t('toolbox.registers')}>
            <Value testId="toolbox-send-registers">{result.hex.match(/.{4}/g)?.join(' ') ?? result.hex}</Value>
          </Descriptions.Item>
        )}
        {result.values && Object.keys(result.values).length > 0 && (
          <Descriptions.Item label={t('toolbox.decoded')}>
            {Object.entries(result.values)
              .map(([point, value]) => `${point} = ${value}`)
              .join(', ')}
          </Descriptions.Item>
        )}
      </Descriptions>
    );
  }
  return (
    <section className="sw-toolbox-send" aria-labelledby="toolbox-send-heading">
      <Typography.Title level={3} id="toolbox-send-heading" className="sw-toolbox-subheading">
        {t('toolbox.sendTitle')}
      </Typography.Title>
      <Space wrap align="start">
        <Select
          showSearch
          allowClear
          aria-label={t('toolbox.device')}
          placeholder={t('toolbox.devicePlaceholder')}
          value={sn}
          onChange={setSn}
          onSearch={setKeyword}
          filterOption={false}
          options={options}
          loading={inverters.isFetching}
          notFoundContent={inverters.isFetching ? undefined : t('toolbox.noDevice')}
          style={{ width: 320 }}
          data-testid="toolbox-device"
        />
        <Button
          type="primary"
          icon={<SendOutlined />}
          disabled={!sn || !request}
          loading={send.isPending}
          onClick={() => send.mutate()}
          data-testid="toolbox-send"
        >
          {t('toolbox.send')}
        </Button>
      </Space>
      <Typography.Paragraph type="secondary" className="sw-toolbox-hint">
        {sendable ? t('toolbox.sendHint') : t('toolbox.sendOnlyRegisters')}
      </Typography.Paragraph>
      {outcome?.error && <Alert type="error" showIcon message={outcome.error} data-testid="toolbox-send-error" />}
      {rows}
    </section>
  );
}
