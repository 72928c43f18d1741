import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { PLANT_LIMITS } from '@sunward/contracts/plants';

export const PICTURE_MAX_MB = PLANT_LIMITS.pictureMaxBytesDefault / 1024 / 1024;

/** The browser's own check before sending: extension and type JPG/PNG, at most 3 MB. Null when fine. */
export function pictureProblem(file: { name: string; type: string; size: number }, language: Language): string | null {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!PLANT_LIMITS.pictureExtensions.includes(extension) || !PLANT_LIMITS.pictureTypes.includes(file.type))
    return translate(language, 'validation.pictureType');
  if (file.size > PLANT_LIMITS.pictureMaxBytesDefault) return translate(language, 'validation.pictureSize', { max: PICTURE_MAX_MB });
  return null;
}
