import type { EventLevel } from '@sunward/contracts/events';
import type { Language } from '@sunward/contracts/languages';
import { interpolate, type MessageParams } from '@sunward/contracts/messages';

/*
 * Texts of equipment alarm messages and e-mails, rendered in the recipient's language (users.language)
 * when they are stored or sent. The event's own description comes from the device's register map (Chinese
 * or English, see events/event-text.ts); everything around it is here, in all ten languages.
 */
const en = {
  'level.fault': 'Fault',
  'level.protect': 'Protection',
  'level.warning': 'Warning',
  openedTitle: '{{level}}: {{event}} on {{device}}',
  clearedTitle: 'Cleared: {{event}} on {{device}}',
  openedContent: '{{device}} (SN {{sn}}) at plant {{plant}} reported {{event}} (code {{code}}) at {{time}}.',
  clearedContent: '{{event}} (code {{code}}) on {{device}} (SN {{sn}}) at plant {{plant}} cleared at {{time}}.',
  solution: 'Suggested action: {{solution}}',
  suppressed: 'This device changed state {{count}} more times in the last {{minutes}} minutes; repeated messages were held back.',
  unknownEvent: 'event {{code}}',
  digestSubject: '{{count}} alarms from your plants',
  digestIntro: 'These alarms arrived since the last e-mail:',
  footer: 'You receive these e-mails because alarm e-mails are turned on in your Sunward personal settings.',
  codeSubject: 'Your Sunward verification code',
  codeBody:
    'Your code to confirm this address for alarm e-mails is {{code}}. It is valid for {{minutes}} minutes. If you did not ask for it, ignore this e-mail.',
};

export type AlarmTextKey = keyof typeof en;

export const ALARM_TEXTS: Record<Language, Record<AlarmTextKey, string>> = {
  en,
  cn: {
    'level.fault': '故障',
    'level.protect': '保护',
    'level.warning': '告警',
    openedTitle: '{{level}}：{{device}} {{event}}',
    clearedTitle: '已恢复：{{device}} {{event}}',
    openedContent: '电站 {{plant}} 的 {{device}}（SN {{sn}}）于 {{time}} 上报 {{event}}（代码 {{code}}）。',
    clearedContent: '电站 {{plant}} 的 {{device}}（SN {{sn}}）的 {{event}}（代码 {{code}}）已于 {{time}} 恢复。',
    solution: '处理建议：{{solution}}',
    suppressed: '该设备在过去 {{minutes}} 分钟内又变化了 {{count}} 次，重复消息已合并。',
    unknownEvent: '事件 {{code}}',
    digestSubject: '您的电站有 {{count}} 条告警',
    digestIntro: '自上一封邮件以来收到以下告警：',
    footer: '您收到此邮件是因为您在 Sunward 个人设置中开启了告警邮件。',
    codeSubject: '您的 Sunward 验证码',
    codeBody: '用于确认告警邮件地址的验证码是 {{code}}，{{minutes}} 分钟内有效。如果不是您本人操作，请忽略此邮件。',
  },
  vi: {
    'level.fault': 'Lỗi',
    'level.protect': 'Bảo vệ',
    'level.warning': 'Cảnh báo',
    openedTitle: '{{level}}: {{event}} trên {{device}}',
    clearedTitle: 'Đã hết: {{event}} trên {{device}}',
    openedContent: '{{device}} (SN {{sn}}) tại nhà máy {{plant}} đã báo {{event}} (mã {{code}}) lúc {{time}}.',
    clearedContent: '{{event}} (mã {{code}}) trên {{device}} (SN {{sn}}) tại nhà máy {{plant}} đã hết lúc {{time}}.',
    solution: 'Cách xử lý đề xuất: {{solution}}',
    suppressed: 'Thiết bị này đã đổi trạng thái thêm {{count}} lần trong {{minutes}} phút qua; các thông báo lặp lại đã được gộp.',
    unknownEvent: 'sự kiện {{code}}',
    digestSubject: '{{count}} cảnh báo từ các nhà máy của bạn',
    digestIntro: 'Các cảnh báo sau đã đến kể từ e-mail trước:',
    footer: 'Bạn nhận được e-mail này vì đã bật e-mail cảnh báo trong cài đặt cá nhân Sunward.',
    codeSubject: 'Mã xác minh Sunward của bạn',
    codeBody:
      'Mã xác nhận địa chỉ này cho e-mail cảnh báo là {{code}}. Mã có hiệu lực trong {{minutes}} phút. Nếu bạn không yêu cầu, hãy bỏ qua e-mail này.',
  },
  es: {
    'level.fault': 'Fallo',
    'level.protect': 'Protección',
    'level.warning': 'Advertencia',
    openedTitle: '{{level}}: {{event}} en {{device}}',
    clearedTitle: 'Resuelto: {{event}} en {{device}}',
    openedContent: '{{device}} (SN {{sn}}) de la planta {{plant}} notificó {{event}} (código {{code}}) a las {{time}}.',
    clearedContent: '{{event}} (código {{code}}) en {{device}} (SN {{sn}}) de la planta {{plant}} se resolvió a las {{time}}.',
    solution: 'Acción recomendada: {{solution}}',
    suppressed:
      'Este equipo cambió de estado {{count}} veces más en los últimos {{minutes}} minutos; se retuvieron los mensajes repetidos.',
    unknownEvent: 'evento {{code}}',
    digestSubject: '{{count}} alarmas de sus plantas',
    digestIntro: 'Estas alarmas llegaron desde el último correo:',
    footer: 'Recibe estos correos porque activó los correos de alarma en su configuración personal de Sunward.',
    codeSubject: 'Su código de verificación de Sunward',
    codeBody:
      'Su código para confirmar esta dirección para los correos de alarma es {{code}}. Es válido durante {{minutes}} minutos. Si no lo ha pedido, ignore este correo.',
  },
  de: {
    'level.fault': 'Störung',
    'level.protect': 'Schutzabschaltung',
    'level.warning': 'Warnung',
    openedTitle: '{{level}}: {{event}} an {{device}}',
    clearedTitle: 'Behoben: {{event}} an {{device}}',
    openedContent: '{{device}} (SN {{sn}}) in der Anlage {{plant}} meldete um {{time}} {{event}} (Code {{code}}).',
    clearedContent: '{{event}} (Code {{code}}) an {{device}} (SN {{sn}}) in der Anlage {{plant}} ist seit {{time}} behoben.',
    solution: 'Empfohlene Maßnahme: {{solution}}',
    suppressed:
      'Dieses Gerät hat in den letzten {{minutes}} Minuten {{count}} weitere Male den Zustand gewechselt; wiederholte Nachrichten wurden zurückgehalten.',
    unknownEvent: 'Ereignis {{code}}',
    digestSubject: '{{count}} Alarme aus Ihren Anlagen',
    digestIntro: 'Seit der letzten E-Mail sind diese Alarme eingegangen:',
    footer: 'Sie erhalten diese E-Mails, weil Alarm-E-Mails in Ihren persönlichen Sunward-Einstellungen eingeschaltet sind.',
    codeSubject: 'Ihr Sunward-Bestätigungscode',
    codeBody:
      'Ihr Code zur Bestätigung dieser Adresse für Alarm-E-Mails lautet {{code}}. Er ist {{minutes}} Minuten gültig. Falls Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail.',
  },
  cz: {
    'level.fault': 'Porucha',
    'level.protect': 'Ochrana',
    'level.warning': 'Varování',
    openedTitle: '{{level}}: {{event}} na zařízení {{device}}',
    clearedTitle: 'Odstraněno: {{event}} na zařízení {{device}}',
    openedContent: '{{device}} (SN {{sn}}) v elektrárně {{plant}} hlásilo v {{time}} {{event}} (kód {{code}}).',
    clearedContent: '{{event}} (kód {{code}}) na zařízení {{device}} (SN {{sn}}) v elektrárně {{plant}} pominulo v {{time}}.',
    solution: 'Doporučený postup: {{solution}}',
    suppressed: 'Toto zařízení za posledních {{minutes}} minut změnilo stav ještě {{count}}krát; opakované zprávy byly zadrženy.',
    unknownEvent: 'událost {{code}}',
    digestSubject: '{{count}} alarmů z vašich elektráren',
    digestIntro: 'Od posledního e-mailu přišly tyto alarmy:',
    footer: 'Tyto e-maily dostáváte, protože máte v osobním nastavení Sunward zapnuté e-maily s alarmy.',
    codeSubject: 'Váš ověřovací kód Sunward',
    codeBody:
      'Váš kód pro potvrzení této adresy pro e-maily s alarmy je {{code}}. Platí {{minutes}} minut. Pokud jste o něj nežádali, tento e-mail ignorujte.',
  },
  po: {
    'level.fault': 'Awaria',
    'level.protect': 'Zabezpieczenie',
    'level.warning': 'Ostrzeżenie',
    openedTitle: '{{level}}: {{event}} w urządzeniu {{device}}',
    clearedTitle: 'Ustąpiło: {{event}} w urządzeniu {{device}}',
    openedContent: '{{device}} (SN {{sn}}) w elektrowni {{plant}} zgłosiło {{event}} (kod {{code}}) o {{time}}.',
    clearedContent: '{{event}} (kod {{code}}) w urządzeniu {{device}} (SN {{sn}}) w elektrowni {{plant}} ustąpiło o {{time}}.',
    solution: 'Zalecane działanie: {{solution}}',
    suppressed:
      'To urządzenie zmieniło stan jeszcze {{count}} razy w ciągu ostatnich {{minutes}} minut; powtarzające się wiadomości zostały wstrzymane.',
    unknownEvent: 'zdarzenie {{code}}',
    digestSubject: '{{count}} alarmów z Twoich elektrowni',
    digestIntro: 'Od ostatniego e-maila nadeszły te alarmy:',
    footer: 'Otrzymujesz te e-maile, ponieważ w ustawieniach osobistych Sunward włączono e-maile z alarmami.',
    codeSubject: 'Twój kod weryfikacyjny Sunward',
    codeBody:
      'Twój kod potwierdzający ten adres dla e-maili z alarmami to {{code}}. Jest ważny przez {{minutes}} minut. Jeśli o niego nie prosiłeś, zignoruj tę wiadomość.',
  },
  tr: {
    'level.fault': 'Arıza',
    'level.protect': 'Koruma',
    'level.warning': 'Uyarı',
    openedTitle: '{{level}}: {{device}} üzerinde {{event}}',
    clearedTitle: 'Giderildi: {{device}} üzerinde {{event}}',
    openedContent: '{{plant}} santralindeki {{device}} (SN {{sn}}) {{time}} saatinde {{event}} (kod {{code}}) bildirdi.',
    clearedContent: '{{plant}} santralindeki {{device}} (SN {{sn}}) üzerindeki {{event}} (kod {{code}}) {{time}} saatinde giderildi.',
    solution: 'Önerilen işlem: {{solution}}',
    suppressed: 'Bu cihaz son {{minutes}} dakikada {{count}} kez daha durum değiştirdi; tekrarlanan mesajlar bekletildi.',
    unknownEvent: 'olay {{code}}',
    digestSubject: 'Santrallerinizden {{count}} alarm',
    digestIntro: 'Son e-postadan bu yana şu alarmlar geldi:',
    footer: 'Bu e-postaları, Sunward kişisel ayarlarınızda alarm e-postaları açık olduğu için alıyorsunuz.',
    codeSubject: 'Sunward doğrulama kodunuz',
    codeBody:
      'Bu adresi alarm e-postaları için onaylama kodunuz {{code}}. Kod {{minutes}} dakika geçerlidir. Bu kodu siz istemediyseniz bu e-postayı dikkate almayın.',
  },
  el: {
    'level.fault': 'Σφάλμα',
    'level.protect': 'Προστασία',
    'level.warning': 'Προειδοποίηση',
    openedTitle: '{{level}}: {{event}} στη συσκευή {{device}}',
    clearedTitle: 'Αποκαταστάθηκε: {{event}} στη συσκευή {{device}}',
    openedContent: 'Η συσκευή {{device}} (SN {{sn}}) του σταθμού {{plant}} ανέφερε {{event}} (κωδικός {{code}}) στις {{time}}.',
    clearedContent:
      'Το {{event}} (κωδικός {{code}}) στη συσκευή {{device}} (SN {{sn}}) του σταθμού {{plant}} αποκαταστάθηκε στις {{time}}.',
    solution: 'Προτεινόμενη ενέργεια: {{solution}}',
    suppressed:
      'Αυτή η συσκευή άλλαξε κατάσταση ακόμη {{count}} φορές τα τελευταία {{minutes}} λεπτά· τα επαναλαμβανόμενα μηνύματα συγκρατήθηκαν.',
    unknownEvent: 'συμβάν {{code}}',
    digestSubject: '{{count}} συναγερμοί από τους σταθμούς σας',
    digestIntro: 'Αυτοί οι συναγερμοί έφτασαν από το τελευταίο e-mail:',
    footer: 'Λαμβάνετε αυτά τα e-mail επειδή τα e-mail συναγερμών είναι ενεργά στις προσωπικές σας ρυθμίσεις Sunward.',
    codeSubject: 'Ο κωδικός επαλήθευσης Sunward',
    codeBody:
      'Ο κωδικός επιβεβαίωσης αυτής της διεύθυνσης για e-mail συναγερμών είναι {{code}}. Ισχύει για {{minutes}} λεπτά. Αν δεν τον ζητήσατε, αγνοήστε αυτό το e-mail.',
  },
  pt: {
    'level.fault': 'Falha',
    'level.protect': 'Proteção',
    'level.warning': 'Aviso',
    openedTitle: '{{level}}: {{event}} em {{device}}',
    clearedTitle: 'Resolvido: {{event}} em {{device}}',
    openedContent: '{{device}} (SN {{sn}}) da central {{plant}} comunicou {{event}} (código {{code}}) às {{time}}.',
    clearedContent: '{{event}} (código {{code}}) em {{device}} (SN {{sn}}) da central {{plant}} foi resolvido às {{time}}.',
    solution: 'Ação sugerida: {{solution}}',
    suppressed:
      'Este equipamento mudou de estado mais {{count}} vezes nos últimos {{minutes}} minutos; as mensagens repetidas foram retidas.',
    unknownEvent: 'evento {{code}}',
    digestSubject: '{{count}} alarmes das suas centrais',
    digestIntro: 'Estes alarmes chegaram desde o último e-mail:',
    footer: 'Recebe estes e-mails porque os e-mails de alarme estão ativados nas suas definições pessoais do Sunward.',
    codeSubject: 'O seu código de verificação Sunward',
    codeBody:
      'O seu código para confirmar este endereço para e-mails de alarme é {{code}}. É válido durante {{minutes}} minutos. Se não o pediu, ignore este e-mail.',
  },
};

export function alarmText(language: Language, key: AlarmTextKey, params?: MessageParams): string {
  return interpolate(ALARM_TEXTS[language][key] ?? en[key], params);
}

export function levelName(language: Language, level: EventLevel): string {
  return alarmText(language, `level.${level}`);
}

// sv-SE formats as YYYY-MM-DD HH:mm:ss, the spec's date-time format, in any time zone.
const formatters = new Map<string, { format: Intl.DateTimeFormat; zone: string }>();

/** An instant as YYYY-MM-DD HH:mm:ss in the plant's time zone, followed by the zone's name (UTC for an unknown zone). */
export function plantTime(at: Date, timeZone: string): string {
  let found = formatters.get(timeZone);
  if (!found) {
    const make = (zone: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'medium' });
    try {
      found = { format: make(timeZone), zone: timeZone };
    } catch {
      found = { format: make('UTC'), zone: 'UTC' };
    }
    formatters.set(timeZone, found);
  }
  return `${found.format.format(at)} (${found.zone})`;
}
