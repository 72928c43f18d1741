import { App } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { setApiUi } from '../lib/api-client';

/** Gives the HTTP client antd's toast and a single "server not responding" confirm that reloads. */
export function ApiUiBridge() {
  const { message, modal } = App.useApp();
  const { t } = useTranslation();
  useEffect(() => {
    let confirmOpen = false;
    setApiUi({
      toast: (text) => {
        void message.error(text);
      },
      serverNotResponding: () => {
        if (confirmOpen) return;
        confirmOpen = true;
        modal.confirm({
          title: t('error.serverDownTitle'),
          content: t('error.serverDownText'),
          okText: t('error.reload'),
          cancelText: t('error.cancel'),
          onOk: () => window.location.reload(),
          afterClose: () => {
            confirmOpen = false;
          },
        });
      },
    });
  }, [message, modal, t]);
  return null;
}
