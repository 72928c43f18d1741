import { CheckCircleTwoTone, SafetyCertificateOutlined } from '@ant-design/icons';
import type { AccountInfo, TwoFactorSetup } from '@sunward/contracts/account';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Input, QRCode, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmPasswordModal } from '../../components/ConfirmPassword';
import { accountKeys, disableTwoFactor, enableTwoFactor, newRecoveryCodes, refusalText, startTwoFactor } from './api';

/** The recovery codes, shown once after enrolment or renewal. */
function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <div data-testid="recovery-codes">
      <Typography.Title level={5}>{t('me.tfaRecoveryTitle')}</Typography.Title>
      <Typography.Paragraph>{t('me.tfaRecoveryHint')}</Typography.Paragraph>
      <div className="sw-recovery-codes">
        {codes.map((code) => (
          <span key={code}>{code}</span>
        ))}
      </div>
      <Space className="sw-gap-top">
        <Typography.Text copyable={{ text: codes.join('\n') }} />
        <Button type="primary" onClick={onDone} data-testid="recovery-codes-done">
          {t('me.tfaDone')}
        </Button>
      </Space>
    </div>
  );
}

/**
 * Two-factor sign-in with an authenticator app: enrol with the QR code (or key) and a first code, keep
 * the recovery codes shown once; renew them or turn it off with the password. A company may require it.
 */
export function TwoFactorTab({ info }: { info: AccountInfo }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<TwoFactorSetup>();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const [codes, setCodes] = useState<string[]>();
  const [prompt, setPrompt] = useState<'disable' | 'renew'>();
  const [busy, setBusy] = useState(false);
  const { enabled, recoveryCodesLeft, requiredByCompany } = info.twoFactor;

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: accountKeys.info }),
      queryClient.invalidateQueries({ queryKey: ['current-user'] }),
    ]);

  const start = async () => {
    setBusy(true);
    try {
      setSetup(await startTwoFactor());
    } catch (error) {
      void message.error(refusalText(error) ?? '');
    } finally {
      setBusy(false);
    }
  };

  const confirm = async () => {
    setBusy(true);
    setCodeError(undefined);
    try {
      const enabledNow = await enableTwoFactor(code.trim());
      setCodes(enabledNow.recoveryCodes);
      setSetup(undefined);
      setCode('');
      await refresh();
    } catch (error) {
      setCodeError(refusalText(error));
    } finally {
      setBusy(false);
    }
  };

  if (codes) return <RecoveryCodesPanel codes={codes} onDone={() => setCodes(undefined)} />;

  return (
    <div className="sw-settings-form" data-testid="two-factor">
      {requiredByCompany && !enabled && <Alert type="warning" showIcon title={t('me.tfaRequired')} className="sw-gap-bottom" />}
      <Typography.Paragraph>{t('me.tfaIntro')}</Typography.Paragraph>
      {enabled ? (
        <>
          <Typography.Paragraph strong>
            <CheckCircleTwoTone twoToneColor="#52c41a" /> {t('me.tfaOn')}
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary">{t('me.tfaRecoveryLeft', { count: recoveryCodesLeft })}</Typography.Paragraph>
          <Space>
            <Button onClick={() => setPrompt('renew')}>{t('me.tfaNewCodes')}</Button>
            {!requiredByCompany && (
              <Button danger onClick={() => setPrompt('disable')} data-testid="tfa-disable">
                {t('me.tfaDisable')}
              </Button>
            )}
          </Space>
        </>
      ) : setup ? (
        <div className="sw-tfa-setup">
          <QRCode value={setup.uri} size={184} bordered data-testid="tfa-qr" />
          <div style={{ flex: 1, minWidth: 260 }}>
            <Typography.Paragraph>{t('me.tfaScan')}</Typography.Paragraph>
            <Typography.Paragraph>
              {t('me.tfaKey')}:{' '}
              <Typography.Text code copyable data-testid="tfa-secret">
                {setup.secret}
              </Typography.Text>
            </Typography.Paragraph>
            <label htmlFor="tfa-code">{t('me.tfaFirstCode')}</label>
            <Space.Compact block>
              <Input
                id="tfa-code"
                value={code}
                maxLength={6}
                inputMode="numeric"
                autoComplete="one-time-code"
                status={codeError ? 'error' : undefined}
                onChange={(e) => setCode(e.target.value)}
                onPressEnter={() => void confirm()}
              />
              <Button type="primary" loading={busy} onClick={() => void confirm()} data-testid="tfa-confirm">
                {t('me.tfaConfirm')}
              </Button>
            </Space.Compact>
            {codeError && (
              <div className="sw-field-error" role="alert">
                {codeError}
              </div>
            )}
          </div>
        </div>
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('me.tfaOff')}</Typography.Paragraph>
          <Button type="primary" icon={<SafetyCertificateOutlined />} loading={busy} onClick={() => void start()} data-testid="tfa-start">
            {t('me.tfaStart')}
          </Button>
        </>
      )}
      <ConfirmPasswordModal
        describeError={refusalText}
        title={prompt === 'disable' ? t('me.tfaDisable') : t('me.tfaNewCodes')}
        open={prompt !== undefined}
        onCancel={() => setPrompt(undefined)}
        onConfirm={async ({ password }) => {
          if (prompt === 'disable') {
            await disableTwoFactor(password);
            setPrompt(undefined);
            await refresh();
          } else {
            const renewed = await newRecoveryCodes(password);
            setPrompt(undefined);
            setCodes(renewed.recoveryCodes);
            await refresh();
          }
        }}
      />
    </div>
  );
}
