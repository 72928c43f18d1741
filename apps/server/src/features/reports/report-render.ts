import { createRequire } from 'node:module';
import { LANGUAGE_TAGS, type Language } from '@sunward/contracts/languages';
import {
  deviceReportTiles,
  REPORT_PARAMETER_TEXT as PARAMETER_KEY,
  type ReportTextKey,
  reportEnergy,
  reportFigureText,
  reportText,
} from '@sunward/contracts/report-texts';
import type { DeviceReport, Report } from '@sunward/contracts/reports';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import type { Brand, ReportRenderer } from './reports.service.js';

const require = createRequire(import.meta.url);

/**
 * Fonts from npm (nothing is downloaded at run time): Noto Sans covers Latin (Czech, Polish, Turkish,
 * Vietnamese) and Greek; Noto Sans SC covers Chinese. A text with Han characters is set in the latter.
 */
const FONTS = {
  regular: require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
  cjk: require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'),
  cjkBold: require.resolve('@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'),
};
const HAN = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;

function duration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min ${s % 60} s`;
}

function dateTime(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[language], { dateStyle: 'short', timeStyle: 'short', timeZone: 'UTC' }).format(
    new Date(iso),
  );
}

/** The brand colour as given, or the product's own red when it is not a #rrggbb colour. */
const colourOf = (c: string) => (/^#[0-9a-f]{6}$/i.test(c) ? c : '#E6002D');

interface PdfHead {
  title: string;
  period: Report['period'];
  date: string;
  from: string;
  to: string;
  generatedAt: string;
}

/**
 * An A4 report document in the company's look: the header (colour band, logo, name, title, period), section
 * headings, the empty-period box, figure tiles, a bar chart, tables and the footer on every page. The plant
 * and the device report draw their sections with it.
 */
function pdfKit(head: PdfHead, language: Language, brand: Brand) {
  const doc = new PDFDocument({ size: 'A4', margin: 40, bufferPages: true, info: { Title: head.title, Producer: 'Sunward' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);
  doc.registerFont('cjk', FONTS.cjk);
  doc.registerFont('cjkBold', FONTS.cjkBold);
  const cjkFirst = language === 'cn';
  const font = (text: string, bold = false) =>
    doc.font(cjkFirst || HAN.test(text) ? (bold ? 'cjkBold' : 'cjk') : bold ? 'bold' : 'regular');
  const t = (key: ReportTextKey, params?: Record<string, string | number>) => reportText(language, key, params);
  const colour = colourOf(brand.color);
  const left = 40;
  const width = doc.page.width - 80;
  const bottom = doc.page.height - 60;

  // Header: the company's colour band, logo and name.
  doc.rect(0, 0, doc.page.width, 8).fill(colour);
  let x = left;
  if (brand.logo && /png|jpeg/.test(brand.logo.mime)) {
    try {
      doc.image(brand.logo.bytes, left, 24, { fit: [120, 40] });
      x = left + 130;
    } catch {
      x = left;
    }
  }
  if (brand.name) {
    font(brand.name, true)
      .fontSize(11)
      .fillColor('#333333')
      .text(brand.name, x, 30, { width: width - (x - left) });
  }
  doc.y = 76;
  font(head.title, true).fontSize(18).fillColor('#111111').text(head.title, left, doc.y, { width });
  const periodLine = `${t(`period.${head.period}` as ReportTextKey)}: ${head.date}  (${head.from} – ${head.to})`;
  font(periodLine).fontSize(10).fillColor('#444444').text(periodLine, { width });
  const generated = t('generated', { time: dateTime(head.generatedAt, language) });
  font(generated).fontSize(8).fillColor('#666666').text(`${generated} UTC`, { width });
  doc.moveDown(0.8);

  const heading = (key: ReportTextKey) => {
    if (doc.y > bottom - 60) doc.addPage();
    doc.moveDown(0.4);
    const y = doc.y;
    doc.rect(left, y + 2, 4, 14).fill(colour);
    font(t(key), true)
      .fontSize(12)
      .fillColor('#111111')
      .text(t(key), left + 10, y, { width: width - 10 });
    doc.moveDown(0.3);
  };

  const emptyBox = () => {
    const y = doc.y + 10;
    doc.roundedRect(left, y, width, 60, 6).lineWidth(1).strokeColor('#bbbbbb').stroke();
    font(t('empty'), true)
      .fontSize(12)
      .fillColor('#333333')
      .text(t('empty'), left + 16, y + 22, { width: width - 32, align: 'center' });
    doc.y = y + 80;
  };

  /** One tile per figure: its name and its value, three a row. */
  const tiles = (items: readonly { label: string; value: string }[]) => {
    const cols = 3;
    const tileW = (width - (cols - 1) * 10) / cols;
    const tileH = 50;
    const top = doc.y;
    items.forEach(({ label, value }, i) => {
      const tx = left + (i % cols) * (tileW + 10);
      const ty = top + Math.floor(i / cols) * (tileH + 10);
      doc.roundedRect(tx, ty, tileW, tileH, 4).fill('#f4f5f7');
      doc.rect(tx, ty, 3, tileH).fill(colour);
      font(label)
        .fontSize(8)
        .fillColor('#555555')
        .text(label, tx + 10, ty + 8, { width: tileW - 16 });
      font(value, true)
        .fontSize(13)
        .fillColor('#111111')
        .text(value, tx + 10, ty + 24, { width: tileW - 16 });
    });
    doc.y = top + Math.ceil(items.length / cols) * (tileH + 10);
    doc.x = left;
  };

  /** Bars per day or month (keys YYYY-MM-DD or YYYY-MM), one colour per series, drawn as vectors. */
  const chart = (keys: readonly string[], series: readonly { label: string; colour: string; values: number[] }[]) => {
    if (keys.length === 0) return;
    heading('section.chart');
    const chartH = 160;
    if (doc.y + chartH + 30 > bottom) doc.addPage();
    const cy = doc.y + 6;
    const axisX = left + 44;
    const chartW = width - 50;
    const max = Math.max(1, ...series.flatMap((s) => s.values));
    const step = niceStep(max / 1000 / 4);
    const top = Math.ceil(max / 1000 / step) * step;
    doc.lineWidth(0.5).strokeColor('#dddddd');
    for (let v = 0; v <= top + 1e-9; v += step) {
      const y = cy + chartH - (v / top) * chartH;
      doc
        .moveTo(axisX, y)
        .lineTo(axisX + chartW, y)
        .stroke();
      font('0')
        .fontSize(7)
        .fillColor('#666666')
        .text(new Intl.NumberFormat(LANGUAGE_TAGS[language]).format(v), left, y - 4, { width: 40, align: 'right' });
    }
    font('kWh')
      .fontSize(7)
      .fillColor('#666666')
      .text('kWh', left, cy - 14, { width: 40, align: 'right' });
    const slot = chartW / keys.length;
    const barW = Math.max(1, (slot * 0.8) / series.length);
    keys.forEach((key, i) => {
      series.forEach((s, j) => {
        const h = ((s.values[i] ?? 0) / 1000 / top) * chartH;
        if (h > 0) doc.rect(axisX + i * slot + slot * 0.1 + j * barW, cy + chartH - h, barW, h).fill(s.colour);
      });
      const label = key.length === 7 ? key.slice(5) : head.period === 'month' ? key.slice(8) : key.slice(5);
      if (keys.length <= 12 || i % 2 === 0)
        font(label)
          .fontSize(6)
          .fillColor('#666666')
          .text(label, axisX + i * slot, cy + chartH + 3, { width: slot, align: 'center' });
    });
    // The legend wraps onto another line where a device's many counters do not fit one.
    let lx = axisX;
    let ly = cy + chartH + 15;
    for (const s of series) {
      const w = 20 + font(s.label).fontSize(8).widthOfString(s.label);
      if (lx > axisX && lx + w > left + width) {
        lx = axisX;
        ly += 12;
      }
      doc.rect(lx, ly + 1, 8, 8).fill(s.colour);
      font(s.label)
        .fontSize(8)
        .fillColor('#333333')
        .text(s.label, lx + 12, ly, { lineBreak: false });
      lx += w;
    }
    doc.y = ly + 19;
    doc.x = left;
  };

  const table = (headers: string[], rows: string[][], widths: number[]) => {
    const total = widths.reduce((a, b) => a + b, 0);
    const ws = widths.map((w) => (w / total) * width);
    const drawHead = () => {
      const y = doc.y;
      doc.rect(left, y, width, 16).fill(colour);
      let cx = left;
      headers.forEach((h, i) => {
        font(h, true)
          .fontSize(7.5)
          .fillColor('#ffffff')
          .text(h, cx + 3, y + 4, { width: (ws[i] ?? 0) - 6, lineBreak: false, ellipsis: true });
        cx += ws[i] ?? 0;
      });
      doc.y = y + 16;
    };
    drawHead();
    rows.forEach((row, r) => {
      if (doc.y + 14 > bottom) {
        doc.addPage();
        drawHead();
      }
      const y = doc.y;
      if (r % 2 === 1) doc.rect(left, y, width, 14).fill('#f4f5f7');
      let cx = left;
      row.forEach((cell, i) => {
        font(cell)
          .fontSize(7.5)
          .fillColor('#222222')
          .text(cell, cx + 3, y + 3, { width: (ws[i] ?? 0) - 6, lineBreak: false, ellipsis: true });
        cx += ws[i] ?? 0;
      });
      doc.y = y + 14;
    });
    doc.x = left;
    doc.moveDown(0.5);
  };

  /** The footer on every page (page numbers, the brand line), then the file. */
  const finish = () => {
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      // The footer sits in the bottom margin: without this, pdfkit would start a new page for it.
      doc.page.margins.bottom = 0;
      const page = t('page', { n: i + 1, total: range.count });
      doc.rect(0, doc.page.height - 8, doc.page.width, 8).fill(colour);
      font(page)
        .fontSize(7)
        .fillColor('#666666')
        .text(page, left, doc.page.height - 30, { width, align: 'right', lineBreak: false });
      if (brand.name)
        font(brand.name)
          .fontSize(7)
          .fillColor('#666666')
          .text(brand.name, left, doc.page.height - 30, { width: width / 2, lineBreak: false });
    }
    doc.end();
    return done;
  };

  return { doc, font, t, colour, left, width, heading, emptyBox, tiles, chart, table, finish };
}

async function pdf(report: Report, language: Language, brand: Brand): Promise<Buffer> {
  const { doc, font, t, colour, left, width, heading, emptyBox, tiles, chart, table, finish } = pdfKit(report, language, brand);
  if (report.empty) emptyBox();

  // Summary: one tile per chosen parameter.
  heading('section.summary');
  tiles(
    report.parameters.map((p) => ({
      label: t(PARAMETER_KEY[p]),
      value: reportFigureText(report.totals, p, LANGUAGE_TAGS[language], report.currency),
    })),
  );

  // Chart: generation (and consumption where measured) per day or month.
  const series = [
    { label: t('param.generation'), colour, values: report.bars.map((b) => b.generationWh ?? 0) },
    ...(report.bars.some((b) => b.consumptionWh !== null)
      ? [{ label: t('param.consumption'), colour: '#8c8c8c', values: report.bars.map((b) => b.consumptionWh ?? 0) }]
      : []),
  ];
  chart(
    report.bars.map((b) => b.key),
    series,
  );

  if (report.plants.length > 1) {
    heading('section.plants');
    table(
      [t('col.plant'), t('col.capacity'), ...report.parameters.map((p) => t(PARAMETER_KEY[p]))],
      report.plants.map((p) => [
        p.name,
        `${new Intl.NumberFormat(LANGUAGE_TAGS[language], { maximumFractionDigits: 2 }).format(p.figures.capacityKwp)} kWp`,
        ...report.parameters.map((k) => reportFigureText(p.figures, k, LANGUAGE_TAGS[language], p.currency)),
      ]),
      [3, 1.3, ...report.parameters.map(() => 1.6)],
    );
  }

  if (report.devices.length > 0) {
    heading('section.devices');
    table(
      [
        ...(report.plants.length > 1 ? [t('col.plant')] : []),
        t('col.sn'),
        t('col.device'),
        t('col.type'),
        t('col.rated'),
        t('col.energy'),
        t('param.specificYield'),
        t('col.events'),
        t('col.faultTime'),
      ],
      report.devices.map((d) => [
        ...(report.plants.length > 1 ? [d.plantName] : []),
        d.sn,
        d.alias ?? d.model ?? '',
        d.family,
        d.ratedPowerW === null
          ? '—'
          : `${new Intl.NumberFormat(LANGUAGE_TAGS[language], { maximumFractionDigits: 1 }).format(d.ratedPowerW / 1000)} kW`,
        reportEnergy(d.energyWh, LANGUAGE_TAGS[language]),
        d.specificYield === null
          ? '—'
          : new Intl.NumberFormat(LANGUAGE_TAGS[language], { maximumFractionDigits: 2 }).format(d.specificYield),
        String(d.events),
        d.faultSeconds > 0 ? duration(d.faultSeconds) : '—',
      ]),
      [...(report.plants.length > 1 ? [2] : []), 2, 2, 1.4, 1.2, 1.4, 1.2, 0.8, 1.2],
    );
  }

  heading('section.events');
  if (report.events.length === 0) {
    font('—').fontSize(9).fillColor('#555555').text('—', left, doc.y, { width });
  } else {
    table(
      [
        t('col.plant'),
        t('col.sn'),
        t('col.code'),
        t('col.level'),
        t('col.description'),
        t('col.opened'),
        t('col.cleared'),
        t('col.duration'),
      ],
      report.events.map((e) => [
        e.plantName,
        e.sn,
        String(e.code),
        e.level,
        e.description,
        dateTime(e.openedAt, language),
        e.clearedAt ? dateTime(e.clearedAt, language) : t('open'),
        duration(e.durationSeconds),
      ]),
      [1.6, 1.6, 0.6, 0.8, 2.6, 1.4, 1.4, 1.1],
    );
    if (report.eventsTotal > report.events.length) {
      const more = t('moreEvents', { shown: report.events.length, total: report.eventsTotal });
      font(more).fontSize(8).fillColor('#555555').text(more, left, doc.y, { width });
    }
  }

  return finish();
}

function niceStep(raw: number): number {
  if (raw <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

async function xlsx(report: Report, language: Language): Promise<Buffer> {
  const t = (key: ReportTextKey, params?: Record<string, string | number>) => reportText(language, key, params);
  const book = new ExcelJS.Workbook();
  book.creator = 'Sunward';
  const kwh = (wh: number | null) => (wh === null ? null : Math.round(wh) / 1000);
  const summary = book.addWorksheet(t('section.summary'));
  summary.addRow([report.title]).font = { bold: true, size: 14 };
  summary.addRow([t(`period.${report.period}` as ReportTextKey), report.date, report.from, report.to]);
  summary.addRow([t('generated', { time: report.generatedAt })]);
  if (report.empty) summary.addRow([t('empty')]).font = { italic: true };
  summary.addRow([]);
  const f = report.totals;
  const storage = f.chargeWh !== null;
  const figureRows: [ReportTextKey, number | null, string][] = [
    ['param.generation', kwh(f.generationWh), 'kWh'],
    ['param.consumption', kwh(f.consumptionWh), 'kWh'],
    ['param.feedIn', kwh(f.feedInWh), 'kWh'],
    ['param.purchase', kwh(f.purchaseWh), 'kWh'],
    ['param.selfConsumption', kwh(f.selfConsumptionWh), 'kWh'],
    ['selfConsumptionRate', f.selfConsumptionRate, '%'],
    ['param.specificYield', f.specificYield, 'kWh/kWp'],
    ['param.performanceRatio', f.performanceRatio, '%'],
    ['param.income', f.income, report.currency ?? ''],
    ['param.availability', f.availability, '%'],
    ['col.capacity', f.capacityKwp, 'kWp'],
    // Storage rows only where a plant of the report has batteries.
    ...(f.chargeWh === null
      ? []
      : ([
          ['param.charge', kwh(f.chargeWh), 'kWh'],
          ['param.discharge', kwh(f.dischargeWh), 'kWh'],
        ] as [ReportTextKey, number | null, string][])),
  ];
  for (const [key, value, unit] of figureRows) {
    const row = summary.addRow([t(key), value, unit]);
    if (unit === '%') row.getCell(2).numFmt = '0.0%';
  }
  summary.getColumn(1).width = 32;
  summary.getColumn(2).width = 16;

  const bars = book.addWorksheet(t('section.chart'));
  bars.addRow([
    t('col.date'),
    `${t('param.generation')} (kWh)`,
    `${t('param.consumption')} (kWh)`,
    `${t('param.feedIn')} (kWh)`,
    `${t('param.purchase')} (kWh)`,
    ...(storage ? [`${t('param.charge')} (kWh)`, `${t('param.discharge')} (kWh)`] : []),
  ]).font = { bold: true };
  for (const b of report.bars)
    bars.addRow([
      b.key,
      kwh(b.generationWh),
      kwh(b.consumptionWh),
      kwh(b.feedInWh),
      kwh(b.purchaseWh),
      ...(storage ? [kwh(b.chargeWh), kwh(b.dischargeWh)] : []),
    ]);
  bars.columns.forEach((c) => {
    c.width = 20;
  });

  const plants = book.addWorksheet(t('section.plants'));
  plants.addRow([
    t('col.plant'),
    `${t('col.capacity')} (kWp)`,
    `${t('param.generation')} (kWh)`,
    `${t('param.consumption')} (kWh)`,
    `${t('param.feedIn')} (kWh)`,
    `${t('param.purchase')} (kWh)`,
    t('selfConsumptionRate'),
    t('param.specificYield'),
    t('param.performanceRatio'),
    t('param.income'),
    t('param.availability'),
    ...(storage ? [`${t('param.charge')} (kWh)`, `${t('param.discharge')} (kWh)`] : []),
  ]).font = { bold: true };
  for (const p of report.plants) {
    const g = p.figures;
    plants.addRow([
      p.name,
      g.capacityKwp,
      kwh(g.generationWh),
      kwh(g.consumptionWh),
      kwh(g.feedInWh),
      kwh(g.purchaseWh),
      g.selfConsumptionRate,
      g.specificYield,
      g.performanceRatio,
      g.income,
      g.availability,
      ...(storage ? [kwh(g.chargeWh), kwh(g.dischargeWh)] : []),
    ]);
  }
  plants.columns.forEach((c) => {
    c.width = 18;
  });

  const devices = book.addWorksheet(t('section.devices'));
  devices.addRow([
    t('col.plant'),
    t('col.sn'),
    t('col.device'),
    t('col.type'),
    t('col.model'),
    `${t('col.rated')} (kW)`,
    `${t('col.energy')} (kWh)`,
    t('param.specificYield'),
    t('col.events'),
    `${t('col.faultTime')} (s)`,
  ]).font = { bold: true };
  for (const d of report.devices)
    devices.addRow([
      d.plantName,
      d.sn,
      d.alias,
      d.family,
      d.model,
      d.ratedPowerW === null ? null : d.ratedPowerW / 1000,
      kwh(d.energyWh),
      d.specificYield,
      d.events,
      Math.round(d.faultSeconds),
    ]);
  devices.columns.forEach((c) => {
    c.width = 18;
  });

  const events = book.addWorksheet(t('section.events'));
  events.addRow([
    t('col.plant'),
    t('col.sn'),
    t('col.code'),
    t('col.level'),
    t('col.description'),
    t('col.opened'),
    t('col.cleared'),
    `${t('col.duration')} (s)`,
  ]).font = { bold: true };
  for (const e of report.events)
    events.addRow([
      e.plantName,
      e.sn,
      e.code,
      e.level,
      e.description,
      new Date(e.openedAt),
      e.clearedAt ? new Date(e.clearedAt) : t('open'),
      Math.round(e.durationSeconds),
    ]);
  if (report.eventsTotal > report.events.length)
    events.addRow([t('moreEvents', { shown: report.events.length, total: report.eventsTotal })]);
  events.columns.forEach((c) => {
    c.width = 20;
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

const SERIES_COLOURS = ['#f59e0b', '#22c55e', '#3b82f6', '#8b5cf6', '#8c8c8c', '#ef4444', '#14b8a6', '#ec4899'];

async function devicePdf(report: DeviceReport, language: Language, brand: Brand): Promise<Buffer> {
  const { t, heading, emptyBox, tiles, chart, table, finish, doc, font, left, width } = pdfKit(report, language, brand);
  const d = report.device;
  const line = `${t('col.plant')}: ${d.plantName} · ${t('col.sn')}: ${d.sn} · ${t('col.type')}: ${d.family}${d.model ? ` · ${t('col.model')}: ${d.model}` : ''}`;
  font(line).fontSize(9).fillColor('#444444').text(line, left, doc.y, { width });
  if (report.empty) emptyBox();
  heading('section.summary');
  tiles(deviceReportTiles(report, language));
  if (report.period !== 'day')
    chart(
      report.bars.labels,
      report.bars.series.map((s, i) => ({
        label: report.counters.find((c) => c.key === s.key)?.label ?? s.key,
        colour: SERIES_COLOURS[i % SERIES_COLOURS.length] ?? '#8c8c8c',
        values: s.values.map((v) => v ?? 0),
      })),
    );
  heading('section.events');
  if (report.events.length === 0) font('—').fontSize(9).fillColor('#555555').text('—', left, doc.y, { width });
  else
    table(
      [t('col.code'), t('col.level'), t('col.description'), t('col.opened'), t('col.cleared'), t('col.duration')],
      report.events.map((e) => [
        String(e.code),
        e.level,
        e.description,
        dateTime(e.openedAt, language),
        e.clearedAt ? dateTime(e.clearedAt, language) : t('open'),
        duration(e.durationSeconds),
      ]),
      [0.7, 0.9, 3.2, 1.5, 1.5, 1.2],
    );
  return finish();
}

async function deviceXlsx(report: DeviceReport, language: Language): Promise<Buffer> {
  const t = (key: ReportTextKey) => reportText(language, key);
  const kwh = (wh: number | null) => (wh === null ? null : Math.round(wh) / 1000);
  const book = new ExcelJS.Workbook();
  book.creator = 'Sunward';
  const summary = book.addWorksheet(t('section.summary'));
  summary.addRow([report.title]).font = { bold: true, size: 14 };
  summary.addRow([t(`period.${report.period}` as ReportTextKey), report.date, report.from, report.to]);
  summary.addRow([t('col.plant'), report.device.plantName]);
  summary.addRow([t('col.sn'), report.device.sn]);
  summary.addRow([t('col.type'), report.device.family, report.device.model]);
  if (report.empty) summary.addRow([t('empty')]).font = { italic: true };
  summary.addRow([]);
  for (const c of report.counters) summary.addRow([c.label, kwh(c.energyWh), 'kWh']);
  summary.addRow([t('fig.peakPower'), report.peakPowerW === null ? null : report.peakPowerW / 1000, 'kW']);
  summary.addRow([t('fig.runningHours'), report.runningHours, 'h']);
  summary.addRow([t('param.availability'), report.availability, '%']).getCell(2).numFmt = '0.0%';
  summary.addRow([`${t('col.faultTime')} (s)`, Math.round(report.faultSeconds)]);
  summary.getColumn(1).width = 32;
  summary.getColumn(2).width = 18;

  const energy = book.addWorksheet(t('section.energy'));
  energy.addRow([
    t('col.date'),
    ...report.bars.series.map((s) => `${report.counters.find((c) => c.key === s.key)?.label ?? s.key} (kWh)`),
  ]).font = {
    bold: true,
  };
  report.bars.labels.forEach((label, i) => {
    energy.addRow([label, ...report.bars.series.map((s) => kwh(s.values[i] ?? null))]);
  });
  energy.columns.forEach((c) => {
    c.width = 22;
  });

  const events = book.addWorksheet(t('section.events'));
  events.addRow([t('col.code'), t('col.level'), t('col.description'), t('col.opened'), t('col.cleared'), `${t('col.duration')} (s)`]).font =
    {
      bold: true,
    };
  for (const e of report.events)
    events.addRow([
      e.code,
      e.level,
      e.description,
      new Date(e.openedAt),
      e.clearedAt ? new Date(e.clearedAt) : t('open'),
      Math.round(e.durationSeconds),
    ]);
  events.columns.forEach((c) => {
    c.width = 20;
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

export const reportRenderer: ReportRenderer = { pdf, xlsx, devicePdf, deviceXlsx };
