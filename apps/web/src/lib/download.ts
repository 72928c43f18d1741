/** The file name a Content-Disposition header gives (RFC 6266, filename* preferred), or undefined. */
export function fileNameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed escape falls through to the plain filename.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  const name = (plain?.[2] ?? plain?.[1])?.trim();
  return name ? name : undefined;
}

/** A name to save under when the server sends none: plant name, dates, no characters file systems refuse. */
export function generationFileName(plantName: string, from: string, to: string): string {
  const safe = plantName.replace(/[\\/:*?"<>|\s]+/g, '_').replace(/^_+|_+$/g, '') || 'plant';
  return `${safe}_generation_${from}_${to}.xlsx`;
}

/** Excel files the prediction import takes. */
export function isSpreadsheetName(name: string): boolean {
  return /\.(xlsx?)$/i.test(name);
}
