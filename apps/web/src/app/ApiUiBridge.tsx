import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { setApiUi } from '../lib/api-client';

/** Gives the HTTP client antd's toast and a single "server not responding" confirm that reloads. */
export function ApiUiBridge() {
  const { message, modal } = App.useApp();
  const { t } = useTranslation();
  // Outside the effect: when it runs again (the translation or antd's hooks change), an open confirm stays the one.
  const confirmOpen = useRef(false);
  useEffect(() => {
    setApiUi({
      toast: (text) => {
        void message.error(text);
      },
      serverNotResponding: () => {
        if (confirmOpen.current) return;
        confirmOpen.current = true;
        modal.confirm({
          title: t('error.serverDownTitle'),
          content: t('error.serverDownText'),
          okText: t('error.reload'),
          cancelText: t('error.cancel'),
          onOk: () => window.location.reload(),
          afterClose: () => {
            confirmOpen.current = false;
          },
        });
      },
    });
  }, [message, modal, t]);
  return null;
}
