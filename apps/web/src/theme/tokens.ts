import { type ThemeConfig, theme } from 'antd';
import { mix, readableOn } from './contrast';

/**
 * The console's looks in one place (issue 18, WCAG 2.2 AA): every colour text is written in is derived here
 * and checked against the surface it sits on, so a company's theme colour (default #E6002D) and antd's
 * defaults never fall below 4.5:1. The browser tests' axe walk holds every route to it in both looks.
 */
export type Look = 'light' | 'dark';

/** The surfaces text sits on: cards and menus, and the page behind them. */
export const SURFACES: Record<Look, { card: string; page: string; raised: string }> = {
  // raised: the most contrasting background text sits on (table headers and hovered rows, antd's fills).
  light: { card: '#ffffff', page: '#f4f6f9', raised: '#f0f0f0' },
  dark: { card: '#141414', page: '#000000', raised: '#262626' },
};

/** The brand colour as text on the look's cards (links, selected entries): the console's CSS reads it as --sw-link. */
export function linkColour(brand: string, look: Look): string {
  return readableOn(readableOn(brand, '#ffffff'), SURFACES[look].raised);
}

/**
 * Preset tag colours whose text (shade 7) falls below 4.5:1 on their own tint (shade 1) in the light look,
 * replaced by shade 8 or 9 of the same hue.
 */
const PRESET_TEXT: Record<string, string> = {
  green: '#237804',
  orange: '#ad4e00',
  gold: '#874d00',
  yellow: '#614700',
  cyan: '#006d75',
  lime: '#3f6600',
  volcano: '#ad2102',
};
// antd writes each shade twice (green7 and the older green-7), and its CSS variables come from the latter too.
const LIGHT_PRESET_TEXT = Object.fromEntries(
  Object.entries(PRESET_TEXT).flatMap(([hue, colour]) => [
    [`${hue}7`, colour],
    [`${hue}-7`, colour],
  ]),
);

/**
 * Preset tag colours whose text (the dark palette's shade 7) falls below 4.5:1 on their own dark tint (shade 1),
 * replaced by shade 8 of the dark palette (purple 3.4 → 5.7:1, geekblue 4.2 → 6.9:1).
 */
const DARK_PRESET_TEXT = Object.fromEntries(
  Object.entries({ purple: '#ab7ae0', geekblue: '#7f9ef3' }).flatMap(([hue, colour]) => [
    [`${hue}7`, colour],
    [`${hue}-7`, colour],
  ]),
);

/**
 * Status colours with readable text on white and on their own pale tint (status tags, counts, alerts):
 * antd's (green #52c41a 2.2:1, gold #faad14 1.9:1, red #ff4d4f 3.3:1, blue #1677ff 4.0:1) fall short. The tints
 * are set with them: antd derives them from the status colour, and a darker one gives a darker tint.
 */
const LIGHT_STATUS = {
  colorSuccess: '#237804',
  colorSuccessBg: '#f6ffed',
  colorSuccessBorder: '#b7eb8f',
  colorWarning: '#ad4e00',
  colorWarningBg: '#fff7e6',
  colorWarningBorder: '#ffd591',
  colorError: '#cf1322',
  colorErrorBg: '#fff2f0',
  colorErrorBorder: '#ffccc7',
  colorInfo: '#0958d9',
  colorInfoBg: '#e6f4ff',
  colorInfoBorder: '#91caff',
};

/**
 * antd's zero-runtime mode (issue 18): components take their rules from antd's static stylesheet
 * (`app/antd-styles.ts`) instead of generating and inserting them while rendering; antd still sets the theme's
 * CSS variables at run time (the tokens below, per look), which those rules read. The stylesheet's selectors
 * carry no hash class, so neither do the components.
 */
const STATIC_STYLES = { zeroRuntime: true, hashed: false } as const;

export function consoleTheme(brand: string, look: Look): ThemeConfig {
  const { card } = SURFACES[look];
  // Buttons write white on the primary colour, links write the primary colour on cards: both need 4.5:1.
  const primary = readableOn(brand, '#ffffff');
  const text = linkColour(brand, look);
  const selectedBg = look === 'light' ? mix(brand, '#ffffff', 0.9) : mix(brand, card, 0.75);
  const selected = readableOn(text, selectedBg);
  // The group holding the selected page writes its title in the same colour, on the card.
  const links = { colorLink: text, colorLinkHover: text, colorLinkActive: text };
  // The selected tab writes in the brand colour: the readable one (white on it is for buttons, not for text).
  const tabs = { itemSelectedColor: text, itemHoverColor: text, itemActiveColor: text, inkBarColor: text };
  const menu = { itemSelectedBg: selectedBg, itemSelectedColor: selected, subMenuItemSelectedColor: text, activeBarBorderWidth: 0 };
  if (look === 'light') {
    return {
      ...STATIC_STYLES,
      inherit: false,
      token: {
        colorPrimary: primary,
        // antd's hover shade is lighter than the brand (#f22749: 4.1:1 as a default button's text on white, and
        // under a primary button's white text); a darker one keeps both readable.
        colorPrimaryHover: mix(primary, '#000000', 0.15),
        colorPrimaryActive: mix(primary, '#000000', 0.25),
        colorLink: primary,
        borderRadius: 6,
        colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
        colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
        colorTextPlaceholder: 'rgba(0, 0, 0, 0.6)',
        colorTextDescription: 'rgba(0, 0, 0, 0.65)',
        ...LIGHT_STATUS,
        ...LIGHT_PRESET_TEXT,
      },
      components: {
        Layout: { headerBg: card, headerPadding: '0 16px 0 8px', footerBg: 'transparent', footerPadding: '16px 24px', siderBg: card },
        Menu: menu,
        Tabs: tabs,
        // A switch's "off" text is white on 25 % black (1.8:1): 55 % reads at 4.7:1.
        Switch: { colorTextQuaternary: 'rgba(0, 0, 0, 0.55)', colorTextTertiary: 'rgba(0, 0, 0, 0.65)' },
      },
    };
  }
  return {
    ...STATIC_STYLES,
    inherit: false,
    algorithm: theme.darkAlgorithm,
    token: {
      colorPrimary: primary,
      colorLink: text,
      // antd's dark red (#dc4446) reads 4.2:1 on its dark cards.
      colorError: '#ff7875',
      borderRadius: 6,
      colorTextSecondary: 'rgba(255, 255, 255, 0.7)',
      colorTextTertiary: 'rgba(255, 255, 255, 0.65)',
      colorTextPlaceholder: 'rgba(255, 255, 255, 0.6)',
      colorTextDescription: 'rgba(255, 255, 255, 0.7)',
      ...DARK_PRESET_TEXT,
    },
    components: {
      Layout: {
        headerBg: card,
        headerPadding: '0 16px 0 8px',
        footerBg: 'transparent',
        footerPadding: '16px 24px',
        siderBg: card,
        bodyBg: SURFACES.dark.page,
      },
      Menu: { ...menu, darkItemSelectedBg: selectedBg, darkItemSelectedColor: menu.itemSelectedColor },
      Tabs: tabs,
      // The dark algorithm turns the colorLink seed into a darker shade (#ce4f68, 4.3:1): set it where links are drawn.
      Button: links,
      Typography: links,
    },
  };
}
