import type { Brand } from '@sunward/contracts/oem';

/**
 * The brand this page is drawn with (issue 24). On an OEM's domain the server writes the OEM's brand into
 * index.html as a JSON data block (#sunward-brand), so the first paint already carries its name, logos and
 * colour; elsewhere there is none and the product's own brand applies.
 */
function readBrand(): Brand | undefined {
  if (typeof document === 'undefined') return undefined;
  const block = document.getElementById('sunward-brand');
  if (!block?.textContent) return undefined;
  try {
    const brand = JSON.parse(block.textContent) as Brand;
    return brand.oem ? brand : undefined;
  } catch {
    return undefined;
  }
}

export const oemBrand: Brand | undefined = readBrand();

/** The console's theme colour: the OEM's on its domain, else the company's, else the default. */
export function brandColour(companyColour: string | null | undefined, fallback: string): string {
  return oemBrand?.themeColor ?? companyColour ?? fallback;
}

/** Texts that follow the brand: the product's name is the OEM's app name on its domain. */
export function brandTexts(): Record<string, string> {
  return oemBrand ? { 'app.name': oemBrand.name } : {};
}
