import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchingHistory } from '../search-history';

interface Props {
  keyword: string;
  history: readonly string[];
  onSearch(keyword: string): void;
  onClearHistory(): void;
}

// antd's outlined search and clock-circle icons, as @ant-design/icons-svg draws them.
const SEARCH_ICON =
  'M909.6 854.5L649.9 594.8C690.2 542.7 712 479 712 412c0-80.2-31.3-155.4-87.9-212.1-56.6-56.7-132-87.9-212.1-87.9s-155.5 31.3-212.1 87.9C143.2 256.5 112 331.8 112 412c0 80.1 31.3 155.5 87.9 212.1C256.5 680.8 331.8 712 412 712c67 0 130.6-21.8 182.7-62l259.7 259.6a8.2 8.2 0 0011.6 0l43.6-43.5a8.2 8.2 0 000-11.6zM570.4 570.4C528 612.7 471.8 636 412 636s-116-23.3-158.4-65.6C211.3 528 188 471.8 188 412s23.3-116.1 65.6-158.4C296 211.3 352.2 188 412 188s116.1 23.2 158.4 65.6S636 352.2 636 412s-23.3 116.1-65.6 158.4z';
const CLOCK_ICON =
  'M512 64C264.6 64 64 264.6 64 512s200.6 448 448 448 448-200.6 448-448S759.4 64 512 64zm0 820c-205.4 0-372-166.6-372-372s166.6-372 372-372 372 166.6 372 372-166.6 372-372 372zM686.7 638.6L544.1 535.5V288c0-4.4-3.6-8-8-8H488c-4.4 0-8 3.6-8 8v275.4c0 2.6 1.2 5 3.3 6.5l165.4 120.6c3.6 2.6 8.6 1.8 11.2-1.7l28.6-39c2.6-3.7 1.8-8.7-1.8-11.2z';

const Icon = ({ d }: { d: string }) => (
  <svg viewBox="64 64 896 896" width="1em" height="1em" fill="currentColor" aria-hidden="true" focusable="false">
    <path d={d} />
  </svg>
);

/**
 * Plant-name search; the last searches show as options while the box has focus. An ARIA combobox with a listbox
 * (arrow keys move through the remembered searches, Enter searches or takes the chosen one, Escape closes, then
 * clears), drawn like antd's search box: the plant list is a first load, and antd's AutoComplete and Input bring
 * its select and input code (~35 KB of JavaScript gzip, issue 18).
 */
export function PlantSearchBox({ keyword, history, onSearch, onClearHistory }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(keyword);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // A reset, a status link or back/forward changes the keyword from outside.
  useEffect(() => setText(keyword), [keyword]);

  const matches = matchingHistory(history, text);
  const shown = open && matches.length > 0;
  const optionId = (index: number) => `${id}-option-${index}`;

  const search = (value: string) => {
    setOpen(false);
    setActive(-1);
    onSearch(value.trim());
  };
  const choose = (value: string) => {
    setText(value);
    search(value);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!matches.length) return;
      setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (step > 0 ? (current + 1) % matches.length : current <= 0 ? matches.length - 1 : current - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const picked = shown && active >= 0 ? matches[active] : undefined;
      if (picked !== undefined) choose(picked);
      else search(text);
    } else if (event.key === 'Escape') {
      if (shown) setOpen(false);
      else if (text) setText('');
      setActive(-1);
    }
  };

  return (
    <div className="sw-plant-search sw-search">
      <span className="sw-search-box">
        <input
          role="combobox"
          aria-label={t('plants.searchPlaceholder')}
          aria-expanded={shown}
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
          placeholder={t('plants.searchPlaceholder')}
          maxLength={64}
          value={text}
          data-testid="plant-search"
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={() => {
            setOpen(false);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
        />
        {text && (
          <button
            type="button"
            className="sw-search-clear"
            aria-label={t('plants.clearSearch')}
            onMouseDown={(event) => event.preventDefault()}
            // Clearing the box shows every plant again; it is not a search to remember.
            onClick={() => {
              setText('');
              search('');
            }}
          >
            ×
          </button>
        )}
        {shown && (
          <div className="sw-search-popup">
            <div className="sw-search-group" id={`${id}-group`}>
              {t('plants.recentSearches')}
            </div>
            <div role="listbox" id={`${id}-list`} aria-labelledby={`${id}-group`}>
              {matches.map((value, index) => (
                // The combobox keeps the focus and names the active option (aria-activedescendant); arrows and Enter drive it.
                // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard works through the combobox input, as the ARIA pattern says
                <div
                  key={value}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === active}
                  tabIndex={-1}
                  className={`sw-search-option${index === active ? ' sw-search-active' : ''}`}
                  onMouseEnter={() => setActive(index)}
                  // Keeps the focus in the box, so the list does not close before the click lands.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(value)}
                >
                  <Icon d={CLOCK_ICON} /> {value}
                </div>
              ))}
            </div>
            <div className="sw-history-footer">
              <button
                type="button"
                className="sw-search-link"
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => {
                  onClearHistory();
                  setOpen(false);
                }}
                data-testid="clear-search-history"
              >
                {t('plants.clearHistory')}
              </button>
            </div>
          </div>
        )}
      </span>
      <button type="button" className="sw-search-button" aria-label={t('plants.apply')} onClick={() => search(text)}>
        <Icon d={SEARCH_ICON} />
      </button>
    </div>
  );
}
