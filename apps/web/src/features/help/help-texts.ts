import type { Language } from '@sunward/contracts/languages';
import type { HelpTopic } from './help-topics';

interface HelpChrome {
  /** The help button and the page's heading. */
  help: string;
  contents: string;
  /** Shown above an English page when the asked language has no translation of it. */
  fallback: string;
  back: string;
  topics: Record<HelpTopic, string>;
}

/**
 * The help pages' own words in each language. They are plain data, not i18next texts: a help page is shown in
 * the language its `lan` parameter asks for, which may differ from the console's.
 */
export const HELP_CHROME: Record<Language, HelpChrome> = {
  en: {
    help: 'Help',
    contents: 'Contents',
    fallback: 'This page is not translated into English yet; it is shown in English.',
    back: 'Back to the console',
    topics: {
      start: 'Getting started',
      plants: 'Plant list',
      'plant-overview': 'Plant overview',
      devices: 'Devices',
      events: 'Events and alarms',
      reports: 'Reports',
      firmware: 'Firmware',
      layout: 'Plant layout',
      'large-screen': 'Large-screen display',
    },
  },
  cn: {
    help: '帮助',
    contents: '目录',
    fallback: '本页尚未翻译成中文，以下显示英文版本。',
    back: '返回控制台',
    topics: {
      start: '入门',
      plants: '电站列表',
      'plant-overview': '电站概览',
      devices: '设备',
      events: '事件与告警',
      reports: '报表',
      firmware: '固件',
      layout: '电站布局',
      'large-screen': '大屏展示',
    },
  },
  vi: {
    help: 'Trợ giúp',
    contents: 'Mục lục',
    fallback: 'Trang này chưa được dịch sang tiếng Việt; nội dung được hiển thị bằng tiếng Anh.',
    back: 'Quay lại bảng điều khiển',
    topics: {
      start: 'Bắt đầu',
      plants: 'Danh sách nhà máy',
      'plant-overview': 'Tổng quan nhà máy',
      devices: 'Thiết bị',
      events: 'Sự kiện và cảnh báo',
      reports: 'Báo cáo',
      firmware: 'Firmware',
      layout: 'Bố trí nhà máy',
      'large-screen': 'Màn hình lớn',
    },
  },
  es: {
    help: 'Ayuda',
    contents: 'Contenido',
    fallback: 'Esta página aún no está traducida al español; se muestra en inglés.',
    back: 'Volver a la consola',
    topics: {
      start: 'Primeros pasos',
      plants: 'Lista de plantas',
      'plant-overview': 'Resumen de la planta',
      devices: 'Dispositivos',
      events: 'Eventos y alarmas',
      reports: 'Informes',
      firmware: 'Firmware',
      layout: 'Disposición de la planta',
      'large-screen': 'Pantalla grande',
    },
  },
  de: {
    help: 'Hilfe',
    contents: 'Inhalt',
    fallback: 'Diese Seite ist noch nicht ins Deutsche übersetzt; sie wird auf Englisch angezeigt.',
    back: 'Zurück zur Konsole',
    topics: {
      start: 'Erste Schritte',
      plants: 'Anlagenliste',
      'plant-overview': 'Anlagenübersicht',
      devices: 'Geräte',
      events: 'Ereignisse und Alarme',
      reports: 'Berichte',
      firmware: 'Firmware',
      layout: 'Anlagenlayout',
      'large-screen': 'Großbildanzeige',
    },
  },
  cz: {
    help: 'Nápověda',
    contents: 'Obsah',
    fallback: 'Tato stránka zatím není přeložena do češtiny; zobrazuje se v angličtině.',
    back: 'Zpět do konzole',
    topics: {
      start: 'Začínáme',
      plants: 'Seznam elektráren',
      'plant-overview': 'Přehled elektrárny',
      devices: 'Zařízení',
      events: 'Události a alarmy',
      reports: 'Reporty',
      firmware: 'Firmware',
      layout: 'Rozvržení elektrárny',
      'large-screen': 'Velkoplošné zobrazení',
    },
  },
  po: {
    help: 'Pomoc',
    contents: 'Spis treści',
    fallback: 'Ta strona nie została jeszcze przetłumaczona na polski; jest wyświetlana po angielsku.',
    back: 'Powrót do konsoli',
    topics: {
      start: 'Pierwsze kroki',
      plants: 'Lista elektrowni',
      'plant-overview': 'Przegląd elektrowni',
      devices: 'Urządzenia',
      events: 'Zdarzenia i alarmy',
      reports: 'Raporty',
      firmware: 'Oprogramowanie układowe',
      layout: 'Układ elektrowni',
      'large-screen': 'Duży ekran',
    },
  },
  tr: {
    help: 'Yardım',
    contents: 'İçindekiler',
    fallback: 'Bu sayfa henüz Türkçeye çevrilmedi; İngilizce gösteriliyor.',
    back: 'Konsola dön',
    topics: {
      start: 'Başlarken',
      plants: 'Santral listesi',
      'plant-overview': 'Santral genel bakışı',
      devices: 'Cihazlar',
      events: 'Olaylar ve alarmlar',
      reports: 'Raporlar',
      firmware: 'Donanım yazılımı',
      layout: 'Santral yerleşimi',
      'large-screen': 'Büyük ekran',
    },
  },
  el: {
    help: 'Βοήθεια',
    contents: 'Περιεχόμενα',
    fallback: 'Αυτή η σελίδα δεν έχει μεταφραστεί ακόμη στα ελληνικά· εμφανίζεται στα αγγλικά.',
    back: 'Επιστροφή στην κονσόλα',
    topics: {
      start: 'Πρώτα βήματα',
      plants: 'Λίστα σταθμών',
      'plant-overview': 'Επισκόπηση σταθμού',
      devices: 'Συσκευές',
      events: 'Συμβάντα και συναγερμοί',
      reports: 'Αναφορές',
      firmware: 'Υλικολογισμικό',
      layout: 'Διάταξη σταθμού',
      'large-screen': 'Οθόνη μεγάλου μεγέθους',
    },
  },
  pt: {
    help: 'Ajuda',
    contents: 'Índice',
    fallback: 'Esta página ainda não está traduzida para português; é apresentada em inglês.',
    back: 'Voltar à consola',
    topics: {
      start: 'Primeiros passos',
      plants: 'Lista de centrais',
      'plant-overview': 'Resumo da central',
      devices: 'Dispositivos',
      events: 'Eventos e alarmes',
      reports: 'Relatórios',
      firmware: 'Firmware',
      layout: 'Disposição da central',
      'large-screen': 'Ecrã grande',
    },
  },
};
