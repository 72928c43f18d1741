import { ClockCircleOutlined, DeleteOutlined } from '@ant-design/icons';
import { AutoComplete, Button, Input } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchingHistory } from '../search-history';

interface Props {
  keyword: string;
  history: readonly string[];
  onSearch(keyword: string): void;
  onClearHistory(): void;
}

/** Plant-name search; the last searches show as options while the box has focus. */
export function PlantSearchBox({ keyword, history, onSearch, onClearHistory }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState(keyword);
  const [open, setOpen] = useState(false);
  // A reset, a status link or back/forward changes the keyword from outside.
  useEffect(() => setText(keyword), [keyword]);

  const matches = matchingHistory(history, text);
  const options = matches.length
    ? [
        {
          label: <span className="sw-muted">{t('plants.recentSearches')}</span>,
          options: matches.map((h) => ({
            value: h,
            label: (
              <span className="sw-history-option">
                <ClockCircleOutlined aria-hidden /> {h}
              </span>
            ),
          })),
        },
      ]
    : [];

  const search = (value: string) => {
    setOpen(false);
    onSearch(value.trim());
  };

  return (
    <AutoComplete
      className="sw-plant-search"
      value={text}
      options={options}
      open={open && options.length > 0}
      onOpenChange={setOpen}
      onFocus={() => setOpen(true)}
      onChange={(value: string) => setText(value)}
      onSelect={(value: string) => {
        setText(value);
        search(value);
      }}
      popupRender={(menu) => (
        <>
          {menu}
          <div className="sw-history-footer">
            <Button
              type="link"
              size="small"
              icon={<DeleteOutlined />}
              // Keeps the focus in the box, so the list does not close before the click lands.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => {
                onClearHistory();
                setOpen(false);
              }}
              data-testid="clear-search-history"
            >
              {t('plants.clearHistory')}
            </Button>
          </div>
        </>
      )}
    >
      <Input.Search
        allowClear
        placeholder={t('plants.searchPlaceholder')}
        aria-label={t('plants.searchPlaceholder')}
        enterButton
        maxLength={64}
        onSearch={(value, _event, info) => {
          // Clearing the box shows every plant again; it is not a search to remember.
          search(info?.source === 'clear' ? '' : value);
        }}
        data-testid="plant-search"
      />
    </AutoComplete>
  );
}
