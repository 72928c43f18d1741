import {
  BoldOutlined,
  ClearOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { sanitizeForDisplay } from './RichText';

interface Tool {
  key: string;
  icon: ReactNode;
  label:
    | 'versions.toolBold'
    | 'versions.toolItalic'
    | 'versions.toolUnderline'
    | 'versions.toolHeading'
    | 'versions.toolBullets'
    | 'versions.toolNumbers'
    | 'versions.toolLink'
    | 'versions.toolClear';
  run(): void;
}

/**
 * A small rich-text editor without a new package: a contentEditable area with a toolbar for the tags the
 * server keeps (bold, italic, underline, heading, lists, links). Pasted or typed HTML is sanitised the
 * same way as on display before it becomes the form's value; the server sanitises again on save.
 */
export function RichTextEditor({
  value,
  onChange,
  id,
  testId,
}: {
  value?: string;
  onChange?(html: string): void;
  id?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const area = useRef<HTMLDivElement>(null);
  const emitted = useRef<string | undefined>(undefined);

  // Only an outside change (form reset, editing another version) rewrites the area, so typing keeps its caret.
  useEffect(() => {
    const el = area.current;
    if (el && value !== emitted.current) el.innerHTML = sanitizeForDisplay(value ?? '');
  }, [value]);

  const emit = () => {
    emitted.current = sanitizeForDisplay(area.current?.innerHTML ?? '');
    onChange?.(emitted.current);
  };
  const exec = (command: string, argument?: string) => {
    area.current?.focus();
    document.execCommand(command, false, argument);
    emit();
  };

  const tools: Tool[] = [
    { key: 'bold', icon: <BoldOutlined />, label: 'versions.toolBold', run: () => exec('bold') },
    { key: 'italic', icon: <ItalicOutlined />, label: 'versions.toolItalic', run: () => exec('italic') },
    { key: 'underline', icon: <UnderlineOutlined />, label: 'versions.toolUnderline', run: () => exec('underline') },
    {
      key: 'heading',
      icon: <span style={{ fontWeight: 700 }}>H</span>,
      label: 'versions.toolHeading',
      run: () => exec('formatBlock', 'h3'),
    },
    { key: 'bullets', icon: <UnorderedListOutlined />, label: 'versions.toolBullets', run: () => exec('insertUnorderedList') },
    { key: 'numbers', icon: <OrderedListOutlined />, label: 'versions.toolNumbers', run: () => exec('insertOrderedList') },
    {
      key: 'link',
      icon: <LinkOutlined />,
      label: 'versions.toolLink',
      run: () => {
        const url = window.prompt(t('versions.linkPrompt'), 'https://');
        if (url && /^(https?:|mailto:)/i.test(url)) exec('createLink', url);
      },
    },
    {
      key: 'clear',
      icon: <ClearOutlined />,
      label: 'versions.toolClear',
      run: () => {
        exec('removeFormat');
        exec('formatBlock', 'p');
      },
    },
  ];

  return (
    <div>
      <div className="sw-rich-toolbar" role="toolbar">
        {tools.map((tool) => (
          <Tooltip key={tool.key} title={t(tool.label)}>
            <Button
              size="small"
              type="text"
              icon={tool.icon}
              aria-label={t(tool.label)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={tool.run}
            />
          </Tooltip>
        ))}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a rich-text area has no native element; role and label say what it is. */}
      <div
        id={id}
        ref={area}
        className="sw-rich-editor"
        contentEditable
        suppressContentEditableWarning
        role="textbox"
        aria-multiline="true"
        tabIndex={0}
        data-testid={testId}
        // New lines become paragraphs (the allow-list has no div).
        onFocus={() => document.execCommand('defaultParagraphSeparator', false, 'p')}
        onInput={emit}
        onBlur={emit}
      />
    </div>
  );
}
