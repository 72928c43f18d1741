import { createRoot } from 'react-dom/client';
import './styles.css';
import { App } from './app/App';
import { loadAntdStyles } from './app/antd-styles';
import { initI18n } from './lib/i18n';
import { loadStoredUserSchema, StorageKey } from './lib/storage';
import { keepTablesKeyboardFriendly } from './theme/table-keyboard';

// No root: public/browser-check.js found this browser unable to run the console and shows its notice instead.
const root = document.getElementById('root');
if (root) {
  // The signed-in user's look (personal settings) from the first paint; the shell keeps it in step with the server.
  if (localStorage.getItem(StorageKey.user) && localStorage.getItem(StorageKey.styleType) === 'dark')
    document.documentElement.dataset.theme = 'dark';

  // A signed-in start reads the stored user (checked with its contract's schema) on the first paint, and fetches
  // antd's stylesheet meanwhile (its pages wait for it; the sign-in page does not use it).
  const signedIn = localStorage.getItem(StorageKey.user) !== null;
  if (signedIn) void loadAntdStyles();
  await Promise.all([initI18n(), signedIn ? loadStoredUserSchema() : undefined]);
  createRoot(root).render(<App />);
  keepTablesKeyboardFriendly();
}
